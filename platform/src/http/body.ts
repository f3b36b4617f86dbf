/**
 * JSON bodies only, at most 100 kB, free of prototype keys, validated with the slice's zod schema.
 * A compressed body (Content-Encoding gzip, deflate or br) is inflated as it arrives and the limit
 * counts the inflated bytes, so a zip bomb stops at 100 kB; one that is not valid compressed data
 * is a 400.
 */
import type { Context, Middleware } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import type { z } from 'zod';
import { PayloadTooLargeError, ValidationError } from '@papertrade/domain/shared/errors';
import { describeZodError, zodErrorFields } from './problem-middleware';

export const BODY_LIMIT_BYTES = 100 * 1024;

const parser = koaBody({
  json: true,
  jsonStrict: true,
  jsonLimit: BODY_LIMIT_BYTES,
  urlencoded: false,
  text: false,
  multipart: false,
  includeUnparsed: true,
  parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
});

/**
 * Keys that reach an object's prototype when code merges or assigns a parsed body (`__proto__`, and
 * `constructor.prototype`). No request of ours has a field by these names, so they are refused
 * anywhere in a body, at any depth, before a route sees it: no route has to remember the rule.
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The first forbidden key in a parsed JSON value and where it is (`body.a.0.b`), or undefined.
 * Iterative, with the path built only for a hit: a 100 kB body can nest 50,000 levels deep.
 */
export function findForbiddenKey(value: unknown): { key: string; path: string } | undefined {
  type Node = { value: unknown; key: string; parent: Node | undefined };
  const pathOf = (node: Node | undefined): string => {
    const keys: string[] = [];
    for (let n = node; n; n = n.parent) keys.push(n.key);
    return keys.reverse().join('.');
  };
  const stack: Node[] = [{ value, key: 'body', parent: undefined }];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.value === null || typeof node.value !== 'object') continue;
    for (const key of Object.keys(node.value)) {
      if (FORBIDDEN_KEYS.has(key)) return { key, path: pathOf(node) };
      stack.push({ value: (node.value as Record<string, unknown>)[key], key, parent: node });
    }
  }
  return undefined;
}

const forbidden = (key: string, path?: string) => {
  const where = path && path.length > 120 ? `${path.slice(0, 60)}...${path.slice(-60)}` : path;
  return new ValidationError(`The request body must not contain the key "${key}"${where ? ` (found in ${where})` : ''}`, { fields: [key] });
};

/** co-body parses with @hapi/bourne, which throws this on a `__proto__` key (escaped or not) without saying where. */
const PROTO_POISONING = /forbidden prototype property/;

/** The encodings co-body inflates (through `inflation`); any other is its 415. */
const DECOMPRESSED = new Set(['gzip', 'deflate', 'br']);

/**
 * A body that is not valid data of its Content-Encoding: zlib's or brotli's stream error (Z_DATA_ERROR
 * "incorrect header check", Z_BUF_ERROR "unexpected end of file", ...) reaches us as is, with no
 * HTTP status, and was a 500 with a stack trace in the log. The parser's other errors all carry a
 * status (413 too large, 415 unknown encoding, 400 bad JSON or an aborted request).
 */
function badCompressedBody(ctx: Context, error: Error): ValidationError | undefined {
  const encoding = ctx.get('content-encoding');
  if (!DECOMPRESSED.has(encoding)) return undefined;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  if (typeof status === 'number' || typeof statusCode === 'number') return undefined;
  return new ValidationError(`The request body is not valid ${encoding} data (Content-Encoding: ${encoding})`);
}

/** Refuses oversized bodies from the Content-Length before reading them, then parses JSON. */
export const jsonBody: Middleware = async (ctx, next) => {
  const length = Number(ctx.get('content-length') || 0);
  if (length > BODY_LIMIT_BYTES) throw new PayloadTooLargeError('The request body is larger than the 100 kB limit');
  let parsed = false;
  try {
    await parser(ctx, async () => {
      parsed = true;
      const found = findForbiddenKey(ctx.request.body);
      if (found) throw forbidden(found.key, found.path);
      await next();
    });
  } catch (error) {
    // Only the parser's own error: a route below may throw anything, and it is not ours to rename.
    if (!parsed && error instanceof Error) {
      if (PROTO_POISONING.test(error.message)) throw forbidden('__proto__');
      throw badCompressedBody(ctx, error) ?? error;
    }
    throw error;
  }
};

/** Validates the parsed body; a missing or non-JSON body is a 400 that says so. */
export function parseBody<S extends z.ZodType>(ctx: Context, schema: S): z.infer<S> {
  const raw = ctx.request.rawBody;
  const declared = Number(ctx.get('content-length') || 0) > 0 || Boolean(ctx.get('transfer-encoding'));
  if (declared && ctx.request.type && !ctx.is('application/json')) {
    throw new ValidationError('The request body must be JSON (Content-Type: application/json)');
  }
  const hasBody = raw !== undefined && raw !== '';
  const result = schema.safeParse(hasBody ? ctx.request.body : undefined);
  if (!result.success) {
    if (!hasBody) throw new ValidationError('A JSON request body is required');
    throw new ValidationError(describeZodError(result.error), { fields: zodErrorFields(result.error) });
  }
  return result.data;
}

/** Validates the query string against a schema: a 400 naming each field otherwise. */
export function parseQuery<S extends z.ZodType>(ctx: Context, schema: S): z.output<S> {
  const parsed = schema.safeParse({ ...ctx.query });
  if (!parsed.success) throw new ValidationError(describeZodError(parsed.error), { fields: zodErrorFields(parsed.error) });
  return parsed.data;
}
