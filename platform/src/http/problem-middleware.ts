/**
 * The one error mapper at the top of every Koa chain: domain errors, validation failures and body
 * parser errors become RFC 7807 problem bodies with a `detail` a person can read. A store that cannot
 * serve now (the database refused a connection or dropped it: unavailable.ts) is a 503 with
 * Retry-After, logged as a warning. Anything else is a 500 whose detail reveals nothing (the cause
 * goes to the log).
 */
import type { Middleware } from 'koa';
import { ZodError } from 'zod';
import { DomainError } from '@papertrade/domain/shared/errors';
import type { Logger } from '../config/logger';
import { UNAVAILABLE_DETAIL, UNAVAILABLE_RETRY_AFTER_SECONDS, isStoreUnavailable } from './unavailable';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function problem(status: number, title: string, detail: string, extra: Record<string, unknown> = {}) {
  return { type: 'about:blank', title, status, detail, ...extra };
}

/** "email: must be a valid email address; password: ..." */
export function describeZodError(error: ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.join('.');
      if (issue.code === 'unrecognized_keys') return `unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`;
      if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) return `${path || 'body'}: is required`;
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/** The fields a validation error is about (unknown keys name themselves). */
export function zodErrorFields(error: ZodError): string[] {
  return [...new Set(error.issues.flatMap((i) => (i.code === 'unrecognized_keys' ? i.keys : [i.path.join('.') || 'body'])))];
}

interface HttpishError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  message?: string;
}

export function problemMiddleware(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      let body: ReturnType<typeof problem>;
      if (error instanceof DomainError) {
        body = problem(error.status, error.title, error.message, error.extra);
        if (error.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(error.retryAfterSeconds));
      } else if (error instanceof ZodError) {
        body = problem(400, 'Invalid request', describeZodError(error), { fields: zodErrorFields(error) });
      } else {
        const e = (error ?? {}) as HttpishError;
        const status = e.status ?? e.statusCode ?? 500;
        if (e.type === 'entity.too.large' || status === 413) {
          body = problem(413, 'Payload too large', 'The request body is larger than the 100 kB limit');
        } else if (e.type === 'entity.parse.failed' || (status === 400 && /JSON/i.test(e.message ?? ''))) {
          body = problem(400, 'Invalid request', 'The request body is not valid JSON');
        } else if (e.type === 'encoding.unsupported' || status === 415) {
          body = problem(415, 'Unsupported media type', 'The request body encoding is not supported');
        } else if (status >= 400 && status < 500 && e.expose) {
          body = problem(status, 'Request error', e.message ?? 'Bad request');
        } else if (isStoreUnavailable(error)) {
          logger.warn('store unavailable', { method: ctx.method, path: ctx.path, error: error instanceof Error ? error.stack : String(error) });
          ctx.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
          body = problem(503, 'Service unavailable', UNAVAILABLE_DETAIL);
        } else {
          logger.error('unhandled error', { method: ctx.method, path: ctx.path, error: error instanceof Error ? error.stack : String(error) });
          body = problem(500, 'Internal error', 'Something went wrong on our side; please try again');
        }
      }
      ctx.status = body.status;
      ctx.type = PROBLEM_CONTENT_TYPE;
      ctx.body = body;
    }
  };
}

/** `/api` and `/api/...`, but not an app route that merely starts with the letters (`/api-integration`). */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/** Unknown `/api/*` paths answer a JSON 404, never the web app's HTML. */
export const apiNotFound: Middleware = async (ctx, next) => {
  await next();
  if (ctx.status === 404 && ctx.body === undefined && isApiPath(ctx.path)) {
    ctx.status = 404;
    ctx.type = PROBLEM_CONTENT_TYPE;
    ctx.body = problem(404, 'Not found', `No endpoint ${ctx.method} ${ctx.path}`);
  }
};
