/**
 * The contract of one HTTP endpoint: method, path, who may call it, the zod schemas of its path
 * parameters, query, body and success answer, and the error statuses it can answer. The list of
 * every endpoint is endpoints.ts; openapi.ts turns it into the OpenAPI 3.1 document that query-api
 * serves at GET /api/openapi.json. The routes validate with the very schema objects named here (from
 * the slices' contracts.ts files, or shared.ts), so the document cannot describe one rule and the
 * route enforce another; a spec checks that every route registered has a contract and the reverse.
 */
import type { z } from 'zod';

export const httpMethods = ['get', 'post', 'put', 'delete'] as const;
export type HttpMethod = (typeof httpMethods)[number];

/**
 * Who may call an endpoint:
 * - public: anyone; a bearer token is not needed (a bad one is still a 401 where the route reads it).
 * - optional: anyone; with a token the answer is the caller's own (e.g. the portfolio), without it the house demo's.
 * - signed-in: any signed-in user (401 without a usable token).
 * - premium: tier PREMIUM and status ACTIVE (403 'Premium subscription required' otherwise).
 * - admin / admin-or-auditor: the roles of the Admin Panel and the audit (403 otherwise).
 */
export const accessLevels = ['public', 'optional', 'signed-in', 'premium', 'admin', 'admin-or-auditor'] as const;
export type Access = (typeof accessLevels)[number];

/** The error statuses an endpoint may answer (RFC 7807 problem bodies). */
export const errorStatuses = [400, 401, 403, 404, 409, 413, 422, 429, 502, 503, 504] as const;
export type ErrorStatus = (typeof errorStatuses)[number];

export interface SuccessAnswer {
  status: 200 | 201 | 202 | 204 | 303;
  description: string;
  /** The JSON body (absent for 204 and 303, and for non-JSON answers). */
  schema?: z.ZodType;
  /** A content type other than JSON (the test checkout page is text/html). */
  contentType?: string;
  /**
   * Set when the route also answers text/csv (asked with ?format=csv or Accept: text/csv): what the
   * rows are. The OpenAPI spec asks every GET for CSV and fails when this and the route disagree.
   */
  csv?: string;
  /** Response headers worth knowing, by name: their meaning. */
  headers?: Readonly<Record<string, string>>;
}

export interface EndpointContract {
  /** The service that answers it; the gateway sends GET and HEAD to query-api and the rest to command-api. */
  service: 'command-api' | 'query-api';
  method: HttpMethod;
  /** OpenAPI style: `/api/coins/{coinId}/price`. */
  path: string;
  /** The group it is listed under in the reference. */
  tag: string;
  summary: string;
  description?: string;
  access: Access;
  /** Path parameters by name; each path `{name}` needs one. */
  params?: Readonly<Record<string, z.ZodType>>;
  /** The query string as a whole (an object schema; parsed from strings). */
  query?: z.ZodType;
  /** The JSON body; `required: false` when no body (or `{}`) is fine. */
  body?: { schema: z.ZodType; required: boolean };
  /** A body the route reads raw (the Stripe webhook verifies the bytes): described, not a zod schema. */
  rawBody?: { contentType: string; description: string };
  success: SuccessAnswer;
  /** Statuses beyond those the contract implies (400 for input, 401/403 for access, 413 for a body, 422 for Idempotency-Key). */
  errors?: readonly ErrorStatus[];
  /** The route takes an Idempotency-Key header: a retry with the same key and body appends nothing. */
  idempotencyKey?: boolean;
  /** The route reads projections and honours X-Min-Position (waits, at most 2 s, until they reach it). */
  minPosition?: boolean;
  /** Extra request headers, by name: their meaning (e.g. Stripe-Signature). */
  headers?: Readonly<Record<string, { description: string; required: boolean }>>;
}

/** An endpoint, with its literal types kept (so a route can import `contract.body.schema` typed). */
export function endpoint<const C extends EndpointContract>(contract: C): C {
  return contract;
}

/** `/api/coins/{coinId}` to Koa's `/api/coins/:coinId`, and back. */
export const toKoaPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');
export const toOpenApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');
