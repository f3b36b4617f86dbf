/**
 * The audit API (admins and auditors, read-only):
 *   GET /api/audit/streams/{stream}?page&pageSize            a stream's events, redacted
 *   GET /api/audit/users/{id}/timeline?page&pageSize&format   trades, bot, risk, subscription events (JSON or CSV:
 *                                                             a page, or without page/pageSize the whole timeline; ../csv.ts)
 *   GET /api/audit/users/{id}/portfolio?asOf=ISO              the portfolio rebuilt by replay up to asOf, valued at the market then
 *   GET /api/audit/users/{id}/subscription?asOf=ISO           the subscription rebuilt by replay up to asOf
 * Admins and auditors (requireAdminOrAuditor): nothing here changes anything.
 * Reads go to the event store (audit-reads.ts), never the read models, so X-Min-Position has
 * nothing to wait for: the store is always current.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import { NotFoundError, ValidationError } from '@papertrade/domain/shared/errors';
import { USERS_PROJECTION, type UserView } from '@papertrade/domain/auth/user-view';
import { asOfQuerySchema, streamNameSchema, streamQuerySchema, timelineQuerySchema, userIdSchema, type TimelineEntry } from '@papertrade/domain/audit/contracts';
import { requireAdminOrAuditor } from '@papertrade/platform/auth/guards';
import { describeZodError } from '@papertrade/platform/http/problem-middleware';
import { CSV_MAX_ROWS } from '@papertrade/domain/shared/list-format';
import type { QueryApiDeps } from '../deps';
import { csvFilename, pageAsked, sendCsv, wantsCsv } from '../csv';
import { portfolioAsOfResponse, readAuditStream, readTimeline, subscriptionAsOfResponse, timelineHead, timelineSources, type AuditReadDeps } from './audit-reads';

function parse<S extends z.ZodType>(schema: S, value: unknown, field?: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ValidationError(field ? `${field}: ${describeZodError(parsed.error)}` : describeZodError(parsed.error), field ? { field } : {});
  return parsed.data;
}

/** asOf may not be in the future: a state "as of" a time that has not come is not an audit. */
function asOfFrom(ctx: Context, now: Date): Date {
  const { asOf } = parse(asOfQuerySchema, ctx.query);
  const at = new Date(asOf);
  if (at.getTime() > now.getTime()) throw new ValidationError(`asOf ${asOf} is in the future`, { field: 'asOf' });
  return at;
}

export const TIMELINE_CSV_FIELDS = ['position', 'time', 'category', 'streamId', 'revision', 'type', 'data', 'metadata'] as const;

const timelineRow = (e: TimelineEntry) => [e.position, e.time, e.category, e.streamId, e.revision, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata)];

export function auditRoutes(deps: QueryApiDeps): Router {
  const reads: AuditReadDeps = { events: deps.events, marketData: deps.marketData, clock: deps.clock };
  const router = new Router({ prefix: '/api/audit' });
  // What an audit shows is about one person's account: no shared cache may keep it.
  router.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  });

  /** 404 for an id that is neither a user nor has any event (the house demo has events, no account). */
  async function knownUser(userId: string): Promise<void> {
    const users = await deps.readModels.collection<UserView>(USERS_PROJECTION);
    if (await users.get(userId)) return;
    if ((await timelineSources(reads, userId)).some((s) => s.length > 0)) return;
    throw new NotFoundError(`No user with id ${userId}`);
  }

  router.get('/streams/:stream', requireAdminOrAuditor, async (ctx) => {
    const stream = parse(streamNameSchema, ctx.params.stream, 'stream');
    const paging = parse(streamQuerySchema, ctx.query);
    const answer = await readAuditStream(reads, stream, paging);
    if (!answer) throw new NotFoundError(`No stream named ${stream}`);
    ctx.body = answer;
  });

  router.get('/users/:id/timeline', requireAdminOrAuditor, async (ctx) => {
    const userId = parse(userIdSchema, ctx.params.id, 'id');
    const { format, ...paging } = parse(timelineQuerySchema, ctx.query);
    await knownUser(userId);
    if (wantsCsv(ctx, format) && !pageAsked(ctx)) {
      // The whole timeline (csv.ts), up to CSV_MAX_ROWS: no more than that is read from any stream.
      const { entries, total } = await timelineHead(reads, userId, CSV_MAX_ROWS);
      sendCsv(ctx, { filename: csvFilename(`timeline-${userId}`, deps.clock()), fields: TIMELINE_CSV_FIELDS, rows: entries.map(timelineRow), total, truncated: total > CSV_MAX_ROWS });
      return;
    }
    const timeline = await readTimeline(reads, userId, paging);
    if (wantsCsv(ctx, format)) {
      sendCsv(ctx, { filename: csvFilename(`timeline-${userId}`, deps.clock(), paging.page), fields: TIMELINE_CSV_FIELDS, rows: timeline.entries.map(timelineRow), total: timeline.total });
      return;
    }
    ctx.body = timeline;
  });

  router.get('/users/:id/portfolio', requireAdminOrAuditor, async (ctx) => {
    const userId = parse(userIdSchema, ctx.params.id, 'id');
    const asOf = asOfFrom(ctx, deps.clock());
    await knownUser(userId);
    ctx.body = await portfolioAsOfResponse(reads, userId, asOf);
  });

  router.get('/users/:id/subscription', requireAdminOrAuditor, async (ctx) => {
    const userId = parse(userIdSchema, ctx.params.id, 'id');
    const asOf = asOfFrom(ctx, deps.clock());
    await knownUser(userId);
    ctx.body = await subscriptionAsOfResponse(reads, userId, asOf);
  });
  return router;
}
