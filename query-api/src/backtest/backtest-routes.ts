/**
 * The backtester's reads (issue 18), from read models (domain/src/backtest/backtest-views.ts):
 * - GET /api/backtest/strategies: the catalogue, public (free users and visitors see the list and the form).
 * - GET /api/backtest/history: the caller's runs, newest first (Premium).
 * - GET /api/backtest/{id}: one run's status (QUEUED with its place, RUNNING, COMPLETED, FAILED) and
 *   its result or walk-forward report (Premium; the owner's only: another user's id is a 404, as an
 *   unknown one, so ids cannot be probed).
 * - GET /api/backtest/{id}/trades?page=&pageSize=: its fills in time order, a page at a time.
 * - GET /api/backtest/{id}/compare-paper: its trades beside the caller's paper trades of the period,
 *   worked out by the run when it completed (the `backtest-comparisons` read model); 409 while it has
 *   not completed and for a walk-forward (no single trade list). At most MAX_STORED_DIFFERENCES
 *   differences are listed (the earliest): X-Differences-Total says how many there are.
 *
 * Own writes: these reads wait (at most 2 s) for the caller's last write, so right after POST
 * /api/backtest/run answered 202 the same client reads its backtest (QUEUED) and finds it in its
 * history without any header. RUNNING comes from the `jobs` read model (the job's claim).
 */
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { z } from 'zod';
import { noQuerySchema } from '@papertrade/domain/api/shared';
import { BACKTEST_JOB_KINDS, TRADE_PAGE_SIZE } from '@papertrade/domain/backtest/backtest';
import {
  BACKTEST_COMPARISONS_PROJECTION,
  BACKTEST_RESULTS_PROJECTION,
  BACKTEST_TRADES_PROJECTION,
  BACKTESTS_PROJECTION,
  backtestDetail,
  backtestHistoryItem,
  backtestStatusOf,
  tradePageDocumentId,
  tradePagesFor,
  type BacktestComparisonView,
  type BacktestResultView,
  type BacktestTradesView,
  type BacktestView,
} from '@papertrade/domain/backtest/backtest-views';
import { backtestStrategies, type BacktestHistoryItem, type BacktestTrade } from '@papertrade/domain/backtest/contracts';
import { backtestIdSchema, backtestTradesQuerySchema, type BacktestTradesPage, type BacktestTradesQuery } from '@papertrade/domain/backtest/service-contracts';
import { JOBS_PROJECTION, type JobView } from '@papertrade/domain/jobs/job-queue-view';
import { IllegalStateError, NotFoundError } from '@papertrade/domain/shared/errors';
import { currentUser, requirePremium } from '@papertrade/platform/auth/guards';
import { parseQuery } from '@papertrade/platform/http/body';
import { readsOwnWrites } from '@papertrade/platform/http/own-writes';
import type { ReadModels } from '@papertrade/platform/projections/read-models';
import type { QueryApiDeps } from '../deps';

/** The newest runs the history lists. */
export const HISTORY_LIMIT = 100;

const validQuery =
  (schema: z.ZodType): Middleware =>
  async (ctx, next) => {
    ctx.state.query = parseQuery(ctx, schema);
    await next();
  };

/** The caller's run, or a 404 (unknown, malformed or someone else's id: the same answer). */
export async function ownBacktest(readModels: ReadModels, userId: string, id: string): Promise<BacktestView> {
  const missing = () => new NotFoundError('No such backtest');
  if (!backtestIdSchema.safeParse(id).success) throw missing();
  const view = await (await readModels.collection<BacktestView>(BACKTESTS_PROJECTION)).get(id);
  if (!view || view.userId !== userId) throw missing();
  return view;
}

/** The status a reader sees and, while queued, the place among every user's queued runs (1 = next). */
export async function statusAndPlace(readModels: ReadModels, view: BacktestView) {
  if (view.status !== 'QUEUED') return { status: view.status, queuePosition: null };
  const jobs = await readModels.collection<JobView>(JOBS_PROJECTION);
  const job = await jobs.get(view.jobId);
  const status = backtestStatusOf(view, job?.status ?? null);
  if (status !== 'QUEUED') return { status, queuePosition: null };
  const requestedAtMs = job?.requestedAtMs ?? view.createdAtMs;
  let ahead = 0;
  for (const kind of BACKTEST_JOB_KINDS) ahead += await jobs.count({ kind, status: 'QUEUED' }, { field: 'requestedAtMs', lt: requestedAtMs });
  return { status, queuePosition: ahead + 1 };
}

/** The caller's runs, newest first (the assistant's my_backtests reads the same). */
export async function backtestHistoryOf(readModels: ReadModels, userId: string, limit = HISTORY_LIMIT): Promise<BacktestHistoryItem[]> {
  const views = await (await readModels.collection<BacktestView>(BACKTESTS_PROJECTION)).find({ where: { userId }, sort: [{ field: 'createdAtMs', direction: 'desc' }], limit });
  const pending = views.filter((v) => v.status === 'QUEUED').map((v) => v.jobId);
  const jobs = pending.length ? await (await readModels.collection<JobView>(JOBS_PROJECTION)).getManyWithPosition(pending) : [];
  const jobStatus = new Map(jobs.map((j) => [j.id, j.doc.status]));
  return views.map((v) => backtestHistoryItem(v, backtestStatusOf(v, jobStatus.get(v.jobId) ?? null)));
}

export function backtestRoutes(deps: QueryApiDeps): Router {
  const router = new Router();
  const reads = readsOwnWrites(deps.ownWrites);
  const { readModels } = deps;

  router.get('/api/backtest/strategies', validQuery(noQuerySchema), async (ctx) => {
    ctx.body = backtestStrategies;
  });

  router.get('/api/backtest/history', requirePremium, validQuery(noQuerySchema), reads(BACKTESTS_PROJECTION, JOBS_PROJECTION), async (ctx) => {
    ctx.body = await backtestHistoryOf(readModels, currentUser(ctx).id);
  });

  router.get('/api/backtest/:id', requirePremium, validQuery(noQuerySchema), reads(BACKTESTS_PROJECTION, BACKTEST_RESULTS_PROJECTION, JOBS_PROJECTION), async (ctx: Context) => {
    const view = await ownBacktest(readModels, currentUser(ctx).id, String(ctx.params.id));
    const { status, queuePosition } = await statusAndPlace(readModels, view);
    const result = view.status === 'COMPLETED' ? await (await readModels.collection<BacktestResultView>(BACKTEST_RESULTS_PROJECTION)).get(view.id) : null;
    ctx.body = backtestDetail(view, status, queuePosition, result);
  });

  router.get('/api/backtest/:id/trades', requirePremium, validQuery(backtestTradesQuerySchema), reads(BACKTESTS_PROJECTION, BACKTEST_TRADES_PROJECTION), async (ctx: Context) => {
    const view = await ownBacktest(readModels, currentUser(ctx).id, String(ctx.params.id));
    const { page, pageSize } = ctx.state.query as BacktestTradesQuery;
    const total = view.tradeCount ?? 0;
    const span = tradePagesFor(page, pageSize, TRADE_PAGE_SIZE);
    let trades: BacktestTrade[] = [];
    if (span.from < total) {
      const ids = [];
      for (let p = span.first; p <= span.last; p++) ids.push(tradePageDocumentId(view.id, p));
      const docs = await (await readModels.collection<BacktestTradesView>(BACKTEST_TRADES_PROJECTION)).getManyWithPosition(ids);
      docs.sort((a, b) => a.doc.page - b.doc.page);
      trades = docs.flatMap((d) => d.doc.trades).slice(span.offset, span.offset + pageSize);
    }
    const body: BacktestTradesPage = { id: view.id, page, pageSize, total, pages: Math.ceil(total / pageSize), trades };
    ctx.body = body;
  });

  router.get('/api/backtest/:id/compare-paper', requirePremium, validQuery(noQuerySchema), reads(BACKTESTS_PROJECTION, BACKTEST_COMPARISONS_PROJECTION, JOBS_PROJECTION), async (ctx: Context) => {
    const view = await ownBacktest(readModels, currentUser(ctx).id, String(ctx.params.id));
    if (view.mode !== 'backtest') throw new IllegalStateError('A walk-forward run has no single trade list to compare with paper trading; compare one of its backtests instead');
    if (view.status !== 'COMPLETED') throw new IllegalStateError(view.status === 'FAILED' ? 'The backtest failed, so there is nothing to compare' : 'The backtest has not completed yet; compare it once it has');
    const comparison = await (await readModels.collection<BacktestComparisonView>(BACKTEST_COMPARISONS_PROJECTION)).get(view.id);
    if (!comparison) throw new NotFoundError('This backtest has no comparison with paper trading');
    ctx.set('X-Differences-Total', String(comparison.differencesTotal));
    ctx.body = comparison.report;
  });

  return router;
}
