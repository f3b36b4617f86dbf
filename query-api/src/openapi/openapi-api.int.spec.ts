/**
 * GET /api/openapi.json (HTTP, embedded app on PGlite): every route registered in command-api and
 * query-api has a contract in the document with its method, and every documented endpoint exists;
 * the document has the essential OpenAPI 3.1 structure and every $ref resolves; spot checks of what
 * a client relies on (the trade body's bounds, the trades paging, CSV answers, security).
 */
import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import type Router from '@koa/router';
import { commandApiRouters } from '@papertrade/command-api/app';
import { toOpenApiPath } from '@papertrade/domain/api/contract';
import * as api from '@papertrade/domain/api/endpoints';
import { endpoints } from '@papertrade/domain/api/endpoints';
import { openApiDocumentSchema, unresolvedRefs, type OpenApiDocument, type OpenApiOperation, type OpenApiParameter } from '@papertrade/domain/api/openapi-document';
import { MAX_QUANTITY } from '@papertrade/domain/trading/money';
import { TRADES_MAX_PAGE_SIZE } from '@papertrade/domain/trading/read-contracts';
import { startHarness, type Harness } from '../../../test/api-harness';
import { commandApiDeps, queryApiDeps } from '../../../bin/compose';
import { createQueryApi, queryApiRouters } from '../app';
import { OPENAPI_CACHE_CONTROL } from './openapi-routes';

/** "GET /api/coins/{coinId}/price" for each method of each route layer (HEAD is Koa's, implied by GET). */
export function registeredRoutes(routers: readonly Router[]): string[] {
  const found = new Set<string>();
  for (const router of routers) {
    for (const layer of router.stack) {
      // Layers without methods are router.use() middleware, not routes.
      for (const method of layer.methods) if (method !== 'HEAD') found.add(`${method} ${toOpenApiPath(String(layer.path))}`);
    }
  }
  return [...found].sort();
}

function documentedRoutes(doc: OpenApiDocument): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
}

/** The answers the app gives outside its routers (middleware of each app): documented, and checked over HTTP below. */
const OUTSIDE_ROUTERS = ['GET /api/health'];

describe('GET /api/openapi.json: the documented API (HTTP)', function () {
  this.timeout(60_000);
  let h: Harness;
  let doc: OpenApiDocument;
  let registered: string[];

  before(async function () {
    h = await startHarness();
    registered = registeredRoutes([...commandApiRouters(commandApiDeps(h.rt)), ...queryApiRouters(queryApiDeps(h.rt))]);
    const res = await h.request('GET', '/api/openapi.json');
    expect(res.status).to.equal(200);
    doc = openApiDocumentSchema.parse(res.body);
  });
  after(async function () {
    await h?.stop();
  });

  const operation = (method: string, path: string): OpenApiOperation => {
    const op = doc.paths[path]?.[method as 'get'];
    if (!op) throw new Error(`${method.toUpperCase()} ${path} is not documented`);
    return op;
  };
  const parameter = (op: OpenApiOperation, name: string): OpenApiParameter => {
    const found = op.parameters?.find((p): p is OpenApiParameter => 'name' in p && p.name === name);
    if (!found) throw new Error(`no parameter ${name}`);
    return found;
  };

  it('answers 200 JSON, OpenAPI 3.1, public, cacheable, the same document each time', async () => {
    const res = await h.request('GET', '/api/openapi.json');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    expect(res.headers.get('cache-control')).to.equal(OPENAPI_CACHE_CONTROL);
    expect(res.body.openapi).to.match(/^3\.1\.\d+$/);
    const again = await h.request('GET', '/api/openapi.json');
    expect(again.body).to.deep.equal(res.body);
    expect((await h.request('GET', '/api/openapi.json?x=1')).status).to.equal(400);
  });

  it('query-api alone (the cluster, where the gateway sends every GET to it) serves the same document', async () => {
    const server = createQueryApi(queryApiDeps(h.rt)).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/openapi.json`);
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal(doc);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('every GET that answers CSV to Accept: text/csv documents text/csv, and no other does', async () => {
    const admin = await h.admin();
    const values: Record<string, string> = { id: admin.id, coinId: 'ethereum', stream: `user-${admin.id}` };
    const checked: string[] = [];
    for (const e of endpoints) {
      if (e.method !== 'get' || e.service !== 'query-api') continue;
      const path = e.path.replace(/\{(\w+)\}/g, (_m, name: string) => values[name] ?? name);
      const res = await h.request('GET', e.path.includes('/portfolio') || e.path.includes('/subscription') ? `${path}?asOf=${new Date().toISOString()}` : path, {
        token: admin.token,
        headers: { accept: 'text/csv' },
      });
      const csv = /^text\/csv/.test(res.headers.get('content-type') ?? '');
      expect(csv, `GET ${e.path} (${res.status}) answers CSV: ${csv}; documented: ${Boolean(e.success.csv)}`).to.equal(Boolean(e.success.csv));
      checked.push(e.path);
    }
    expect(checked).to.include('/api/audit/users/{id}/timeline');
  });

  it('answers match their documented schemas (a sample of commands and reads)', async () => {
    await h.signup({ email: 'openapi.trader@example.com', username: 'openapi_trader' });
    const token = await h.login('openapi.trader@example.com', 'secret1');
    const admin = await h.admin();
    const placed = await h.request('POST', '/api/trades', { token, body: { symbol: 'eth', type: 'BUY', amount: 0.01 } });
    expect(placed.status).to.equal(api.placeTrade.success.status);
    api.placeTrade.success.schema.parse(placed.body);
    const headers = { 'x-min-position': String(placed.body.position) };
    for (const [contract, path, as] of [
      [api.trades, '/api/trades?page=1&pageSize=5', token],
      [api.portfolio, '/api/portfolio', token],
      [api.me, '/api/auth/me', token],
      [api.adminUsers, '/api/admin/users?pageSize=5', admin.token],
      [api.adminStats, '/api/admin/stats', admin.token],
      [api.plans, '/api/plans', undefined],
    ] as const) {
      const res = await h.request('GET', path, { ...(as ? { token: as } : {}), headers });
      expect(res.status, path).to.equal(200);
      contract.success.schema.parse(res.body);
    }
  });

  it('every route registered in command-api and query-api is documented with its method, and nothing else is', () => {
    expect(registered.length).to.be.greaterThan(40);
    const documented = documentedRoutes(doc);
    const undocumented = registered.filter((r) => !documented.includes(r));
    expect(undocumented, 'routes without a contract in domain/src/api/endpoints.ts').to.deep.equal([]);
    const missing = documented.filter((r) => !registered.includes(r) && !OUTSIDE_ROUTERS.includes(r));
    expect(missing, 'documented endpoints that no router registers').to.deep.equal([]);
    expect(documented.length).to.equal(endpoints.length);
  });

  it('the endpoints answered outside the routers exist', async () => {
    for (const route of OUTSIDE_ROUTERS) {
      const [method, path] = route.split(' ') as [string, string];
      expect((await h.request(method, path)).status, route).to.equal(200);
    }
  });

  it('has the essential OpenAPI 3.1 structure; every $ref resolves; path parameters match the path', () => {
    expect(unresolvedRefs(doc)).to.deep.equal([]);
    expect(doc.components.securitySchemes.bearerAuth).to.include({ type: 'http', scheme: 'bearer' });
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(item)) {
        expect(ids.has(op.operationId), `operationId ${op.operationId} twice`).to.equal(false);
        ids.add(op.operationId);
        const inPath = (op.parameters ?? []).filter((p): p is OpenApiParameter => 'in' in p && p.in === 'path');
        expect(inPath.map((p) => p.name).sort(), `${method} ${path}`).to.deep.equal([...names].sort());
        expect(inPath.every((p) => p.required), `${method} ${path}`).to.equal(true);
      }
    }
  });

  it('POST /api/trades: the body requires type and amount, with their bounds; symbol or coinId; an optional stop loss and take profit; Idempotency-Key; signed in', () => {
    const op = operation('post', '/api/trades');
    const schema = op.requestBody?.content['application/json']?.schema as { required: string[]; properties: Record<string, Record<string, unknown>>; additionalProperties: boolean };
    expect(op.requestBody?.required).to.equal(true);
    expect(schema.required).to.have.members(['type', 'amount']);
    expect(schema.properties.type).to.deep.include({ enum: ['BUY', 'SELL'] });
    expect(schema.properties.amount).to.deep.include({ type: 'number', exclusiveMinimum: 0, maximum: MAX_QUANTITY });
    expect(schema.properties).to.have.keys(['coinId', 'symbol', 'type', 'amount', 'stopLossPercent', 'takeProfitPercent']);
    expect(schema.properties.stopLossPercent).to.deep.include({ type: 'number', minimum: 0.1, maximum: 50 });
    expect(schema.properties.takeProfitPercent).to.deep.include({ type: 'number', minimum: 0.1, maximum: 500 });
    expect(schema.additionalProperties).to.equal(false);
    expect(op.parameters).to.deep.include({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(op.security).to.deep.equal([{ bearerAuth: [] }]);
    expect(op.responses).to.have.keys(['201', '400', '401', '409', '413', '422']);
  });

  it('GET /api/trades: paging parameters, X-Min-Position, signed in or the demo', () => {
    const op = operation('get', '/api/trades');
    for (const name of ['page', 'pageSize', 'coinId', 'symbol', 'status', 'type', 'from', 'to']) expect(parameter(op, name).in, name).to.equal('query');
    expect(parameter(op, 'pageSize').required).to.equal(false);
    expect(op.description).to.include(`pageSize 1 to ${TRADES_MAX_PAGE_SIZE}`);
    expect(op.parameters).to.deep.include({ $ref: '#/components/parameters/MinPosition' });
    expect(op.security).to.deep.equal([{}, { bearerAuth: [] }]);
  });

  it('the audit timeline answers JSON or text/csv; admin routes carry the bearer security and 401/403', () => {
    const timeline = operation('get', '/api/audit/users/{id}/timeline');
    expect(timeline.responses['200']).to.have.nested.property('content.text/csv');
    expect(timeline.responses['200']).to.have.nested.property('content.application/json');
    for (const [method, path] of [
      ['get', '/api/admin/users'],
      ['get', '/api/admin/stats'],
      ['put', '/api/admin/users/{id}'],
      ['put', '/api/admin/users/{id}/auditor'],
    ] as const) {
      const op = operation(method, path);
      expect(op.security, path).to.deep.equal([{ bearerAuth: [] }]);
      expect(op.responses, path).to.include.keys(['401', '403']);
      expect(op['x-access'], path).to.match(/^admin/);
    }
    expect(operation('get', '/api/admin/users').responses['200']).to.have.nested.property('headers.X-Total-Count');
    expect(operation('get', '/api/plans').security).to.deep.equal([]);
  });
});
