/**
 * The OpenAPI 3.1 document of the app, built from the endpoint contracts (endpoints.ts) with zod's
 * own JSON Schema conversion (`z.toJSONSchema`): requests as their input side (what a client sends,
 * before transforms), answers as their output side. Refinements that JSON Schema cannot say (e.g.
 * "a coinId or a symbol") are in the endpoint's description. Built once per process (query-api
 * caches it): the contracts do not change while it runs.
 */
import { z } from 'zod';
import { errorStatuses, type Access, type EndpointContract, type ErrorStatus } from './contract';
import { endpoints as allEndpoints } from './endpoints';

export type JsonSchema = Record<string, unknown>;

const PROBLEM = 'application/problem+json';

const errorDescriptions: Record<ErrorStatus, string> = {
  400: 'Bad input: a wrong type, a missing field, a value out of range, malformed JSON, an unknown parameter, or a bad X-Min-Position',
  401: 'No usable bearer token',
  403: 'Signed in, but not allowed (tier or role)',
  404: 'Not found',
  409: 'Refused in the current state',
  413: 'The request body is larger than 100 kB',
  422: 'The Idempotency-Key was used before with a different request',
  429: 'Too many attempts; see Retry-After',
  502: 'A service this one relies on (the AI chat\'s language model) failed',
  503: 'Not available right now; see Retry-After',
  504: 'A service this one relies on (the AI chat\'s language model) did not answer in time',
};

export const accessDescriptions: Record<Access, string> = {
  public: 'Anyone',
  optional: "Anyone; signed in, the caller's own data, else the house demo's",
  'signed-in': 'Signed-in users',
  premium: 'Premium subscribers (tier PREMIUM, status ACTIVE)',
  admin: 'Administrators',
  'admin-or-auditor': 'Administrators and auditors',
};

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), inlined, without the `$schema` key. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', reused: 'inline', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}

/** The statuses an endpoint may answer besides its success, from its contract. */
export function errorStatusesOf(e: EndpointContract): ErrorStatus[] {
  const found = new Set<ErrorStatus>(e.errors ?? []);
  if (e.body || e.query || e.params || e.idempotencyKey || e.minPosition || e.headers) found.add(400);
  if (e.access !== 'public') found.add(401);
  if (e.access === 'premium' || e.access === 'admin' || e.access === 'admin-or-auditor') found.add(403);
  if (e.body || e.rawBody) found.add(413);
  if (e.idempotencyKey) found.add(422);
  return errorStatuses.filter((s) => found.has(s));
}

function parametersOf(e: EndpointContract): unknown[] {
  const parameters: unknown[] = [];
  for (const [name, schema] of Object.entries(e.params ?? {})) {
    parameters.push({ name, in: 'path', required: true, schema: jsonSchemaOf(schema, 'input') });
  }
  if (e.query) {
    const object = jsonSchemaOf(e.query, 'input');
    const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((object.required ?? []) as string[]);
    for (const [name, schema] of Object.entries(properties)) {
      const { description, ...rest } = schema;
      parameters.push({ name, in: 'query', required: required.has(name), ...(typeof description === 'string' ? { description } : {}), schema: rest });
    }
  }
  for (const [name, header] of Object.entries(e.headers ?? {})) {
    parameters.push({ name, in: 'header', required: header.required, description: header.description, schema: { type: 'string' } });
  }
  if (e.idempotencyKey) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  if (e.minPosition) parameters.push({ $ref: '#/components/parameters/MinPosition' });
  return parameters;
}

function successOf(e: EndpointContract): Record<string, unknown> {
  const s = e.success;
  const content: Record<string, unknown> = {};
  if (s.schema) content['application/json'] = { schema: jsonSchemaOf(s.schema, 'output') };
  if (s.contentType) content[s.contentType] = { schema: { type: 'string' } };
  if (s.csv) content['text/csv'] = { schema: { type: 'string', description: s.csv } };
  const headers = Object.fromEntries(Object.entries(s.headers ?? {}).map(([name, description]) => [name, { description, schema: { type: 'string' } }]));
  return {
    description: s.description,
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(Object.keys(content).length ? { content } : {}),
  };
}

function operationOf(e: EndpointContract): Record<string, unknown> {
  const responses: Record<string, unknown> = { [String(e.success.status)]: successOf(e) };
  for (const status of errorStatusesOf(e)) responses[String(status)] = { $ref: `#/components/responses/Error${status}` };
  const requestBody = e.body
    ? { required: e.body.required, content: { 'application/json': { schema: jsonSchemaOf(e.body.schema, 'input') } } }
    : e.rawBody
      ? { required: true, description: e.rawBody.description, content: { [e.rawBody.contentType]: { schema: { type: 'object' } } } }
      : undefined;
  const parameters = parametersOf(e);
  return {
    operationId: `${e.method}${e.path.replace(/[^A-Za-z0-9]+(\w?)/g, (_m, c: string) => c.toUpperCase())}`,
    tags: [e.tag],
    summary: e.summary,
    ...(e.description ? { description: e.description } : {}),
    // Public routes: no security requirement; `optional` lists "none" as well as the bearer token.
    ...(e.access === 'public' ? { security: [] } : e.access === 'optional' ? { security: [{}, { bearerAuth: [] }] } : { security: [{ bearerAuth: [] }] }),
    'x-access': e.access,
    'x-service': e.service,
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

export interface OpenApiOptions {
  version: string;
  endpoints?: readonly EndpointContract[];
}

/** The document; `endpoints` defaults to every endpoint of the app. */
export function buildOpenApiDocument(options: OpenApiOptions): Record<string, unknown> {
  const list = options.endpoints ?? allEndpoints;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of list) {
    const item = (paths[e.path] ??= {});
    if (item[e.method]) throw new Error(`Two contracts for ${e.method.toUpperCase()} ${e.path}`);
    item[e.method] = operationOf(e);
  }
  const tags = [...new Set(list.map((e) => e.tag))].map((name) => ({ name }));
  const problem = jsonSchemaOf(
    z.object({ type: z.string().optional(), title: z.string(), status: z.number().int(), detail: z.string(), fields: z.array(z.string()).optional() }),
    'output',
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Papertrade API',
      version: options.version,
      description:
        'Paper trading with a live multi-coin market, signals, a bot and subscriptions. Commands (POST, PUT, DELETE) answer ids and the global `position` of the last event they appended; send it as `X-Min-Position` on the next GET to read your own write. Errors are RFC 7807 problem bodies.',
    },
    servers: [{ url: '/' }],
    tags,
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The token from POST /api/auth/login' },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Any 1-200 visible ASCII characters: a retry with the same key and body appends nothing and answers as the first time; the same key with another body is a 422',
          schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,200}$' },
        },
        MinPosition: {
          name: 'X-Min-Position',
          in: 'header',
          required: false,
          description: 'A position a command answered: the read waits (at most 2 s) until its projections have applied it. Beyond the last event written it is a 400',
          schema: { type: 'string', pattern: '^\\d{20}-\\d{20}$' },
        },
      },
      schemas: { Problem: problem },
      responses: Object.fromEntries(
        errorStatuses.map((status) => [`Error${status}`, { description: errorDescriptions[status], content: { [PROBLEM]: { schema: { $ref: '#/components/schemas/Problem' } } } }]),
      ),
    },
  };
}
