import { expect } from 'chai';
import { z } from 'zod';
import { endpoint, toKoaPath, toOpenApiPath } from './contract';
import { endpoints, placeTrade } from './endpoints';
import { buildOpenApiDocument, errorStatusesOf, jsonSchemaOf } from './openapi';
import { openApiDocumentSchema, unresolvedRefs } from './openapi-document';

describe('API contracts and the OpenAPI document', () => {
  it('every path parameter of every contract has a schema, and every schema a place in the path', () => {
    for (const e of endpoints) {
      const names = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(Object.keys(e.params ?? {}).sort(), `${e.method} ${e.path}`).to.deep.equal(names.sort());
    }
  });

  it('Koa and OpenAPI paths convert both ways', () => {
    expect(toKoaPath('/api/audit/users/{id}/timeline')).to.equal('/api/audit/users/:id/timeline');
    expect(toOpenApiPath('/test-checkout/:sessionId/pay')).to.equal('/test-checkout/{sessionId}/pay');
  });

  it('error answers follow from the contract: input 400, a token 401, a role or tier 403, a body 413, Idempotency-Key 422', () => {
    expect(errorStatusesOf(placeTrade)).to.deep.equal([400, 401, 409, 413, 422]);
    const publicGet = endpoint({ service: 'query-api', method: 'get', path: '/x', tag: 'T', summary: 's', access: 'public', success: { status: 200, description: 'd' } });
    expect(errorStatusesOf(publicGet)).to.deep.equal([]);
    expect(errorStatusesOf({ ...publicGet, access: 'premium' })).to.deep.equal([401, 403]);
    expect(errorStatusesOf({ ...publicGet, access: 'admin-or-auditor', query: z.strictObject({}) })).to.deep.equal([400, 401, 403]);
  });

  it('requests are documented as sent (before transforms), answers as received', () => {
    // The trade body: `type` on the wire (the route reads it as `side` after the transform).
    expect(jsonSchemaOf(placeTrade.body.schema, 'input')).to.have.nested.property('properties.type.enum').that.deep.equals(['BUY', 'SELL']);
    expect(jsonSchemaOf(placeTrade.body.schema, 'input')).not.to.have.nested.property('properties.side');
    expect(jsonSchemaOf(z.string().transform(Number), 'output')).to.deep.equal({});
  });

  it("GET /api/trades documents a trade's strategy and arbitrage pair (issue 19)", () => {
    const doc = buildOpenApiDocument({ version: 'test' }) as { paths: Record<string, Record<string, any>> };
    const trade = doc.paths['/api/trades']!.get.responses['200'].content['application/json'].schema.properties.trades.items;
    expect(trade.required).to.include.members(['strategyId', 'strategyType', 'pairId', 'exchange']);
    expect(trade.properties.strategyId.anyOf[0].enum).to.deep.equal(['neural-network', 'rsi-technical', 'cross-exchange-arbitrage']);
    expect(trade.properties.strategyType.anyOf[0].enum).to.deep.equal(['neural', 'technical', 'arbitrage']);
    expect(trade.properties.exchange.anyOf[0].enum).to.deep.equal(['binance', 'coinbase', 'kraken']);
    expect(trade.properties.pairId.description).to.match(/arbitrage pair/);
    expect(trade.properties.lotRule.anyOf[0].enum).to.include('PAIR');
  });

  it('the whole document is valid, with every $ref resolved; two contracts for one route are refused', () => {
    const doc = buildOpenApiDocument({ version: 'test' });
    openApiDocumentSchema.parse(doc);
    expect(unresolvedRefs(doc)).to.deep.equal([]);
    expect(unresolvedRefs({ a: { $ref: '#/components/schemas/Nope' } })).to.deep.equal(['#/components/schemas/Nope']);
    expect(() => buildOpenApiDocument({ version: 'test', endpoints: [placeTrade, placeTrade] })).to.throw('Two contracts for POST /api/trades');
  });
});
