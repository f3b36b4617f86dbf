/**
 * JSON bodies only, at most 100 kB, validated with the slice's zod schema.
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

/** Refuses oversized bodies from the Content-Length before reading them, then parses JSON. */
export const jsonBody: Middleware = async (ctx, next) => {
  const length = Number(ctx.get('content-length') || 0);
  if (length > BODY_LIMIT_BYTES) throw new PayloadTooLargeError('The request body is larger than the 100 kB limit');
  await parser(ctx, next);
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
