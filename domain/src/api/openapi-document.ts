/**
 * The essential structure of an OpenAPI 3.1 document, as far as this app writes it and the web
 * app's API reference reads it: the spec checks the generated document against it, and the web
 * page parses GET /api/openapi.json with it (zod at the boundary). Loose where the specification
 * is open (schemas are JSON Schema objects, extensions `x-` are allowed).
 */
import { z } from 'zod';
import { accessLevels, httpMethods } from './contract';

const jsonSchema = z.record(z.string(), z.unknown());
const ref = z.strictObject({ $ref: z.string().regex(/^#\/components\/(parameters|responses|schemas)\/[\w.-]+$/) });
const mediaType = z.object({ schema: jsonSchema.optional() });
const content = z.record(z.string().regex(/^[\w.+-]+\/[\w.+-]+$/), mediaType);

export const openApiParameterSchema = z.object({
  name: z.string().min(1),
  in: z.enum(['path', 'query', 'header', 'cookie']),
  required: z.boolean().optional(),
  description: z.string().optional(),
  schema: jsonSchema,
});
export type OpenApiParameter = z.infer<typeof openApiParameterSchema>;

export const openApiResponseSchema = z.object({
  description: z.string(),
  headers: z.record(z.string(), z.object({ description: z.string().optional(), schema: jsonSchema })).optional(),
  content: content.optional(),
});
export type OpenApiResponse = z.infer<typeof openApiResponseSchema>;

export const openApiOperationSchema = z.object({
  operationId: z.string().regex(/^\w+$/),
  tags: z.array(z.string()).min(1),
  summary: z.string().min(1),
  description: z.string().optional(),
  security: z.array(z.record(z.string(), z.array(z.string()))),
  'x-access': z.enum(accessLevels),
  'x-service': z.enum(['command-api', 'query-api']),
  parameters: z.array(z.union([ref, openApiParameterSchema])).optional(),
  requestBody: z.object({ required: z.boolean().optional(), description: z.string().optional(), content }).optional(),
  responses: z.record(z.string().regex(/^[1-5]\d\d$/), z.union([ref, openApiResponseSchema])).refine((r) => Object.keys(r).length > 0, 'at least one response'),
});
export type OpenApiOperation = z.infer<typeof openApiOperationSchema>;

export const openApiDocumentSchema = z.object({
  openapi: z.string().regex(/^3\.1\.\d+$/),
  info: z.object({ title: z.string().min(1), version: z.string().min(1), description: z.string().optional() }),
  servers: z.array(z.object({ url: z.string() })).optional(),
  tags: z.array(z.object({ name: z.string(), description: z.string().optional() })).optional(),
  paths: z.record(z.string().regex(/^\/[^\s]*$/), z.partialRecord(z.enum(httpMethods), openApiOperationSchema)),
  components: z.object({
    securitySchemes: z.record(z.string(), z.object({ type: z.enum(['http', 'apiKey', 'oauth2', 'openIdConnect', 'mutualTLS']), scheme: z.string().optional(), bearerFormat: z.string().optional(), description: z.string().optional() })),
    parameters: z.record(z.string(), openApiParameterSchema),
    schemas: z.record(z.string(), jsonSchema),
    responses: z.record(z.string(), openApiResponseSchema),
  }),
});
export type OpenApiDocument = z.infer<typeof openApiDocumentSchema>;

/** Every `$ref` in the document that does not point at something in it (should be none). */
export function unresolvedRefs(document: unknown): string[] {
  const missing: string[] = [];
  const resolve = (pointer: string): unknown =>
    pointer
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), document);
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && (typeof value !== 'string' || !value.startsWith('#/') || resolve(value) === undefined)) missing.push(String(value));
        else visit(value);
      }
    }
  };
  visit(document);
  return missing;
}
