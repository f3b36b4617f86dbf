/**
 * The OpenAPI document's operations, exactly as a client generator reads them: built from small
 * contracts that each take one branch of the builder (path, query and header parameters, the
 * Idempotency-Key and X-Min-Position references, JSON, CSV, HTML and raw bodies, answer headers, each
 * access level's security), compared whole. The shared parts (components, info) too, and the checks
 * that find a broken document (an empty responses map, a dangling `$ref`).
 */
import { expect } from 'chai';
import { z } from 'zod';
import { endpoint, type EndpointContract } from './contract';
import { buildOpenApiDocument, errorStatusesOf } from './openapi';
import { openApiOperationSchema, unresolvedRefs } from './openapi-document';

type Document = { paths: Record<string, Record<string, Record<string, unknown>>>; components: Record<string, unknown>; info: Record<string, unknown>; servers: unknown; tags: unknown; openapi: string };
const documentOf = (...endpoints: EndpointContract[]) => buildOpenApiDocument({ version: '9.9.9', endpoints }) as unknown as Document;
const base = { service: 'query-api', method: 'get', tag: 'Things', summary: 'A thing', success: { status: 200, description: 'The thing' } } as const;

describe('the OpenAPI operations, whole', () => {
  it('a command with every kind of parameter and a JSON body: each in its place, required as the contract says', () => {
    const command = endpoint({
      ...base,
      service: 'command-api',
      method: 'post',
      path: '/api/things/{thingId}/sub-items',
      description: 'Adds a sub-item.',
      access: 'premium',
      params: { thingId: z.uuid() },
      query: z.strictObject({ limit: z.coerce.number().int().min(1).max(5).describe('At most five'), cursor: z.string().optional() }),
      headers: { 'X-Trace': { description: 'A trace id', required: false } },
      idempotencyKey: true,
      minPosition: true,
      body: { schema: z.strictObject({ name: z.string().min(1) }), required: true },
      success: { status: 201, description: 'Added', schema: z.strictObject({ id: z.string() }), headers: { Location: 'Where it is' } },
      errors: [409],
    });
    const doc = documentOf(command);
    expect(doc.paths['/api/things/{thingId}/sub-items']!.post).to.deep.equal({
      operationId: 'postApiThingsThingIdSubItems',
      tags: ['Things'],
      summary: 'A thing',
      description: 'Adds a sub-item.',
      security: [{ bearerAuth: [] }],
      'x-access': 'premium',
      'x-service': 'command-api',
      parameters: [
        { name: 'thingId', in: 'path', required: true, schema: { type: 'string', format: 'uuid', pattern: (z.toJSONSchema(z.uuid()) as { pattern: string }).pattern } },
        { name: 'limit', in: 'query', required: true, description: 'At most five', schema: { type: 'integer', minimum: 1, maximum: 5 } },
        { name: 'cursor', in: 'query', required: false, schema: { type: 'string' } },
        { name: 'X-Trace', in: 'header', required: false, description: 'A trace id', schema: { type: 'string' } },
        { $ref: '#/components/parameters/IdempotencyKey' },
        { $ref: '#/components/parameters/MinPosition' },
      ],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'], additionalProperties: false } } },
      },
      responses: {
        '201': {
          description: 'Added',
          headers: { Location: { description: 'Where it is', schema: { type: 'string' } } },
          content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false } } },
        },
        '400': { $ref: '#/components/responses/Error400' },
        '401': { $ref: '#/components/responses/Error401' },
        '403': { $ref: '#/components/responses/Error403' },
        '409': { $ref: '#/components/responses/Error409' },
        '413': { $ref: '#/components/responses/Error413' },
        '422': { $ref: '#/components/responses/Error422' },
      },
    });
    openApiOperationSchema.parse(doc.paths['/api/things/{thingId}/sub-items']!.post);
    expect(unresolvedRefs(doc)).to.deep.equal([]);
  });

  it('a public read with nothing to send: no parameters, no body, no error answers, no security requirement, no description', () => {
    expect(documentOf({ ...base, path: '/api/things', access: 'public' }).paths['/api/things']!.get).to.deep.equal({
      operationId: 'getApiThings',
      tags: ['Things'],
      summary: 'A thing',
      security: [],
      'x-access': 'public',
      'x-service': 'query-api',
      responses: { '200': { description: 'The thing' } },
    });
  });

  it('security by access: optional lists "none" and the bearer token; signed-in, premium, admin and auditor need the token', () => {
    const security = (access: EndpointContract['access']) => documentOf({ ...base, path: '/x', access }).paths['/x']!.get!.security;
    expect(security('public')).to.deep.equal([]);
    expect(security('optional')).to.deep.equal([{}, { bearerAuth: [] }]);
    for (const access of ['signed-in', 'premium', 'admin', 'admin-or-auditor'] as const) expect(security(access), access).to.deep.equal([{ bearerAuth: [] }]);
    expect(errorStatusesOf({ ...base, path: '/x', access: 'admin' })).to.deep.equal([401, 403]);
    expect(errorStatusesOf({ ...base, path: '/x', access: 'signed-in' })).to.deep.equal([401]);
    expect(errorStatusesOf({ ...base, path: '/x', access: 'optional' })).to.deep.equal([401]);
  });

  it('answers that are not JSON: CSV beside JSON, an HTML page; a raw body (the webhook) described as sent', () => {
    const csv = documentOf({ ...base, path: '/c', access: 'signed-in', success: { status: 200, description: 'Rows', schema: z.strictObject({}), csv: 'One row per trade' } }).paths['/c']!.get!;
    expect((csv.responses as Record<string, unknown>)['200']).to.deep.equal({
      description: 'Rows',
      content: { 'application/json': { schema: { type: 'object', properties: {}, additionalProperties: false } }, 'text/csv': { schema: { type: 'string', description: 'One row per trade' } } },
    });
    const html = documentOf({ ...base, path: '/h', access: 'public', success: { status: 200, description: 'A page', contentType: 'text/html' } }).paths['/h']!.get!;
    expect((html.responses as Record<string, unknown>)['200']).to.deep.equal({ description: 'A page', content: { 'text/html': { schema: { type: 'string' } } } });
    const hook = documentOf({ ...base, method: 'post', path: '/w', access: 'public', rawBody: { contentType: 'application/json', description: 'The provider’s bytes' }, headers: { 'Stripe-Signature': { description: 'Signed', required: true } } }).paths['/w']!.post!;
    expect(hook.requestBody).to.deep.equal({ required: true, description: 'The provider’s bytes', content: { 'application/json': { schema: { type: 'object' } } } });
    expect(hook.parameters).to.deep.equal([{ name: 'Stripe-Signature', in: 'header', required: true, description: 'Signed', schema: { type: 'string' } }]);
    expect(hook.responses).to.have.keys('200', '400', '413');
    const optionalBody = documentOf({ ...base, method: 'put', path: '/o', access: 'signed-in', body: { schema: z.strictObject({}), required: false } }).paths['/o']!.put!;
    expect(optionalBody.requestBody).to.deep.include({ required: false });
  });

  it('operation ids: the method, then each word of the path capitalised; any run of other characters (underscores too) is one break', () => {
    const id = (path: string) => documentOf({ ...base, path, access: 'public' }).paths[path]!.get!.operationId;
    expect(id('/api/coins/{coinId}/price')).to.equal('getApiCoinsCoinIdPrice');
    expect(id('/api/price-history')).to.equal('getApiPriceHistory');
    expect(id('/api/_internal/__x')).to.equal('getApiInternalX');
  });

  it('the shared parts: the info, the server, one tag per group in first-seen order, the bearer scheme, the two header parameters and a problem answer per status', () => {
    const doc = documentOf({ ...base, path: '/a', access: 'public', tag: 'B' }, { ...base, path: '/b', access: 'public', tag: 'A' }, { ...base, path: '/c', access: 'public', tag: 'B' });
    expect(doc.openapi).to.equal('3.1.0');
    expect(doc.info).to.deep.include({ title: 'Papertrade API', version: '9.9.9' });
    expect(doc.info.description).to.match(/^Paper trading with a live multi-coin market.*`X-Min-Position`.*RFC 7807 problem bodies\.$/);
    expect(doc.servers).to.deep.equal([{ url: '/' }]);
    expect(doc.tags).to.deep.equal([{ name: 'B' }, { name: 'A' }]);
    expect(doc.components.securitySchemes).to.deep.equal({ bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The token from POST /api/auth/login' } });
    const parameters = doc.components.parameters as Record<string, { name: string; in: string; required: boolean; description: string; schema: { type: string; pattern: string } }>;
    expect(parameters.IdempotencyKey).to.deep.include({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,200}$' } });
    expect(parameters.IdempotencyKey!.description).to.match(/^Any 1-200 visible ASCII characters: .* a 422$/);
    expect(new RegExp(parameters.IdempotencyKey!.schema.pattern).test('key-1')).to.equal(true);
    expect(new RegExp(parameters.IdempotencyKey!.schema.pattern).test('a key')).to.equal(false);
    expect(parameters.MinPosition).to.deep.include({ name: 'X-Min-Position', in: 'header', required: false, schema: { type: 'string', pattern: '^\\d{20}-\\d{20}$' } });
    expect(parameters.MinPosition!.description).to.match(/^A position a command answered: .* a 400$/);
    expect(new RegExp(parameters.MinPosition!.schema.pattern).test(`${'0'.repeat(19)}1-${'0'.repeat(20)}`)).to.equal(true);
    const responses = doc.components.responses as Record<string, { description: string; content: unknown }>;
    expect(Object.keys(responses)).to.deep.equal(['Error400', 'Error401', 'Error403', 'Error404', 'Error409', 'Error413', 'Error422', 'Error429', 'Error502', 'Error503', 'Error504']);
    for (const [name, response] of Object.entries(responses)) {
      expect(response.content, name).to.deep.equal({ 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } });
      expect(response.description, name).to.have.length.above(5);
    }
    expect(responses.Error413!.description).to.equal('The request body is larger than 100 kB');
    expect((doc.components.schemas as Record<string, { required: string[] }>).Problem!.required).to.deep.equal(['title', 'status', 'detail']);
  });

  it('the document checks: an operation needs a response; a $ref must point into the document, escapes (~0 ~1) read as the pointer standard says', () => {
    const operation = { operationId: 'x', tags: ['T'], summary: 's', security: [], 'x-access': 'public', 'x-service': 'query-api', responses: {} };
    expect(openApiOperationSchema.safeParse(operation).success).to.equal(false);
    expect(openApiOperationSchema.safeParse({ ...operation, responses: { '200': { description: 'ok' } } }).success).to.equal(true);
    const doc = { components: { schemas: { 'a/b': {}, 'c~d': {} } }, list: [{ $ref: '#/components/schemas/a~1b' }, { $ref: '#/components/schemas/c~0d' }] };
    expect(unresolvedRefs(doc)).to.deep.equal([]);
    expect(unresolvedRefs({ ...doc, more: [[{ $ref: '#/components/schemas/nope' }]] })).to.deep.equal(['#/components/schemas/nope']);
    // Outside the document, even where its tail would resolve in it.
    expect(unresolvedRefs({ components: {}, a: { $ref: 'x/components' } })).to.deep.equal(['x/components']);
    expect(unresolvedRefs({ a: { $ref: 42 } })).to.deep.equal(['42']);
    expect(unresolvedRefs({ a: { $ref: '#/a/b/c' }, n: null, s: 'text' })).to.deep.equal(['#/a/b/c']);
    expect(unresolvedRefs({ components: 'text', a: { $ref: '#/components/length' } })).to.deep.equal(['#/components/length']);
  });
});
