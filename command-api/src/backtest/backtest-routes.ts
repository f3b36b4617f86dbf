/**
 * POST /api/backtest/run and POST /api/backtest/walk-forward (issue 18): Premium only (403 'Premium
 * subscription required'). The body is checked against the catalogue, the history and the clock
 * (contracts.ts validateBacktestRequest / validateWalkForwardRequest: 400 naming the field; a missing
 * strategy is 'Strategy Required: Please select a trading strategy'). Both answer at once, 202
 * `{id, jobId, mode, status: 'QUEUED', queuePosition, position}`: a workers process runs the job
 * (progress as JOB_PROGRESS on the socket, the end as BACKTEST_UPDATE), then GET /api/backtest/{id}.
 *
 * Limits: one backtest or walk-forward per user queued or running at a time. A second request is
 * refused with a 409 naming the one under way (not queued behind it: a double click never runs
 * twice, and the user sees at once why nothing started). Across users the runs queue in the order
 * asked; `queuePosition` is the place among every user's queued runs. The longest period is
 * MAX_BACKTEST_DAYS (contracts.ts).
 *
 * The request is three appends: BacktestSlotTaken on `backtester-{userId}` (where one-at-a-time is
 * decided, under the stream's optimistic check, so two requests at once cannot both pass),
 * BacktestRequested on `backtest-{id}` (with the owner's risk profile of this moment: the rules the
 * run trades under) and JobRequested on `job-{jobId}`. If a later append fails
 * the slot is released again; if even that fails, the slot stops blocking after SLOT_EXPIRY_MS. With
 * an Idempotency-Key the ids follow from the key, so a retry names the same backtest and appends what
 * is missing.
 */
import { createHash, randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { BACKTEST_JOB_KINDS, backtestStreamId, backtesterStreamId, jobKindOf, type BacktestConfig, type BacktestMode, type WalkForwardConfig } from '@papertrade/domain/backtest/backtest';
import { backtestDecider, backtestSlotDecider } from '@papertrade/domain/backtest/backtest.decider';
import { backtestConfigKey, validateBacktestRequest, validateWalkForwardRequest } from '@papertrade/domain/backtest/contracts';
import type { BacktestJobResponse } from '@papertrade/domain/backtest/service-contracts';
import { jobStreamId } from '@papertrade/domain/jobs/job';
import { jobDecider } from '@papertrade/domain/jobs/job.decider';
import { JOBS_PROJECTION, type JobView } from '@papertrade/domain/jobs/job-queue-view';
import { riskStreamId } from '@papertrade/domain/trading/risk';
import { riskDecider } from '@papertrade/domain/trading/risk.decider';
import { idempotentId } from '@papertrade/platform/commands/command-handler';
import { currentUser, requirePremium } from '@papertrade/platform/auth/guards';
import { jsonBody, parseBody } from '@papertrade/platform/http/body';
import type { ReadModels } from '@papertrade/platform/projections/read-models';
import type { CommandApiDeps } from '../deps';
import { commandMeta } from '../request-meta';

/** Any JSON object; its fields are the contract's to check (so a missing strategy gets its own message). */
const objectBody = z.record(z.string(), z.unknown(), 'The request body must be a JSON object');

/** The settings' id: equal settings, equal id (a hash of contracts.ts backtestConfigKey). */
export function configIdOf(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** A run's place among every user's queued backtests and walk-forwards (1 = next), from the `jobs` read model. */
export async function queuePlace(readModels: ReadModels, requestedAtMs: number): Promise<number> {
  const jobs = await readModels.collection<JobView>(JOBS_PROJECTION);
  let ahead = 0;
  for (const kind of BACKTEST_JOB_KINDS) ahead += await jobs.count({ kind, status: 'QUEUED' }, { field: 'requestedAtMs', lt: requestedAtMs });
  return ahead + 1;
}

/**
 * The request of one backtest or walk-forward run for the caller (the three appends above), answering
 * the job. Exported so the AI strategies' Backtest (POST /api/strategies/{id}/backtest, issue 19) runs
 * through the same slot, stream and job.
 */
export function backtestRequester(deps: CommandApiDeps) {
  return async function request(ctx: Context, body: unknown, mode: BacktestMode, config: BacktestConfig | WalkForwardConfig, configKey: string): Promise<BacktestJobResponse> {
    const user = currentUser(ctx);
    const meta = commandMeta(ctx, user.id, deps.requestHashKey, body);
    const backtestId = meta.idempotency ? idempotentId(meta.idempotency, 'backtest') : randomUUID();
    const jobId = meta.idempotency ? idempotentId(meta.idempotency, 'job') : randomUUID();
    const plain = { actor: user.id, correlationId: meta.correlationId };
    const slot = await deps.handler.handle(
      backtestSlotDecider,
      backtesterStreamId(user.id),
      { type: 'TakeBacktestSlot', data: { userId: user.id, backtestId, jobId, mode }, metadata: { now: deps.handler.now() } },
      meta,
    );
    let last = slot.position;
    try {
      const configId = configIdOf(configKey);
      // The rules the run trades under: the owner's risk profile now (the paper bot's).
      const profile = (await deps.handler.load(riskDecider, riskStreamId(user.id))).state.profile;
      const requested = await deps.handler.handle(
        backtestDecider,
        backtestStreamId(backtestId),
        {
          type: 'RequestBacktest',
          data: mode === 'backtest' ? { backtestId, userId: user.id, jobId, configId, profile, mode, config: config as BacktestConfig } : { backtestId, userId: user.id, jobId, configId, profile, mode, config: config as WalkForwardConfig },
          metadata: { now: deps.handler.now() },
        },
        plain,
      );
      last = requested.position ?? last;
      const job = await deps.handler.handle(
        jobDecider,
        jobStreamId(jobId),
        { type: 'RequestJob', data: { jobId, kind: jobKindOf(mode), params: { backtestId, userId: user.id, mode }, requestedBy: user.id }, metadata: { now: deps.handler.now() } },
        plain,
      );
      last = job.position ?? last;
      const requestedAt = (job.events[0] as { data?: { requestedAt?: string } } | undefined)?.data?.requestedAt ?? deps.handler.now();
      deps.logger.info('backtest requested', { userId: user.id, backtestId, jobId, mode, strategyId: config.strategyId, symbol: config.symbol, replayed: slot.replayed });
      ctx.status = 202;
      return { id: backtestId, jobId, mode, status: 'QUEUED', queuePosition: await queuePlace(deps.readModels, Date.parse(requestedAt)), position: last ?? null };
    } catch (error) {
      // The run was not asked for after all: free the user's slot (best effort; it expires otherwise).
      await deps.handler
        .handle(backtestSlotDecider, backtesterStreamId(user.id), { type: 'ReleaseBacktestSlot', data: { userId: user.id, backtestId }, metadata: { now: deps.handler.now() } }, plain)
        .catch((release: unknown) => deps.logger.warn('backtest slot not released after a failed request', { userId: user.id, backtestId, error: String(release) }));
      throw error;
    }
  };
}

export function backtestRoutes(deps: CommandApiDeps): Router {
  const router = new Router();
  const request = backtestRequester(deps);

  router.post('/api/backtest/run', requirePremium, jsonBody, async (ctx) => {
    const body = parseBody(ctx, objectBody);
    const v = validateBacktestRequest(body, Date.parse(deps.handler.now()));
    const config: BacktestConfig = { strategyId: v.strategyId, symbol: v.symbol, startDate: v.startDate, endDate: v.endDate, initialCapital: v.initialCapital, parameters: v.parameters };
    ctx.body = await request(ctx, body, 'backtest', config, backtestConfigKey(v));
  });

  router.post('/api/backtest/walk-forward', requirePremium, jsonBody, async (ctx) => {
    const body = parseBody(ctx, objectBody);
    const v = validateWalkForwardRequest(body, Date.parse(deps.handler.now()));
    const config: WalkForwardConfig = {
      strategyId: v.strategyId,
      symbol: v.symbol,
      startDate: v.startDate,
      endDate: v.endDate,
      initialCapital: v.initialCapital,
      windows: v.windows,
      inSampleFraction: v.inSampleFraction,
      objective: v.objective,
      parameterSets: v.parameterSets,
    };
    const key = `walk-forward|${backtestConfigKey({ ...v, parameters: {} })}|${v.windows}|${v.inSampleFraction}|${v.objective}|${v.parameterSets}`;
    ctx.body = await request(ctx, body, 'walk-forward', config, key);
  });

  return router;
}
