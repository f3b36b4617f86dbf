/**
 * POST /api/strategies/{id}/toggle and POST /api/strategies/{id}/configure (issue 19): Premium only
 * (403 'Premium subscription required'). `{id}` is one of the caller's three strategies
 * (strategy-catalogue.ts strategyIds); anything else names no strategy of theirs (404), and nothing
 * in the path can reach another user's stream: the stream is always `strategy-{caller}-{id}`.
 *
 * toggle `{active}` starts or stops the strategy (the bot follows its signals from the next candle);
 * configure takes the type's configuration object, each field within its bounds (400 naming the
 * field; missing fields take the defaults). Both answer 200 `{strategyId, active, position}` (send
 * the position as X-Min-Position to read the change back); an unchanged toggle or configuration
 * appends nothing and answers position null.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { configureStrategyRequestSchema, strategyBacktestRequestSchema, strategyIdSchema, toggleStrategyRequestSchema, type StrategyBacktestResponse, type StrategyCommandResponse } from '@papertrade/domain/strategies/contracts';
import { strategyBacktestConfig } from '@papertrade/domain/strategies/strategy-backtest';
import { strategyInfo, type StrategyId } from '@papertrade/domain/strategies/strategy-catalogue';
import { configurationOf, strategyStreamId } from '@papertrade/domain/strategies/strategy';
import { strategyDecider } from '@papertrade/domain/strategies/strategy.decider';
import { NotFoundError } from '@papertrade/domain/shared/errors';
import { currentUser, requirePremium } from '@papertrade/platform/auth/guards';
import { jsonBody, parseBody } from '@papertrade/platform/http/body';
import { backtestRequester } from '../backtest/backtest-routes';
import type { CommandApiDeps } from '../deps';
import { commandMeta } from '../request-meta';

export const STRATEGY_NOT_FOUND = 'Strategy not found';

/** The strategy named in the path, or 404. */
export function strategyIdOf(ctx: Context): StrategyId {
  const parsed = strategyIdSchema.safeParse(ctx.params['id']);
  if (!parsed.success) throw new NotFoundError(STRATEGY_NOT_FOUND);
  return parsed.data;
}

export function strategyRoutes(deps: CommandApiDeps): Router {
  const router = new Router();
  const now = () => deps.handler.now();

  router.post('/api/strategies/:id/toggle', requirePremium, jsonBody, async (ctx) => {
    const strategyId = strategyIdOf(ctx);
    const body = parseBody(ctx, toggleStrategyRequestSchema);
    const user = currentUser(ctx);
    const meta = commandMeta(ctx, user.id, deps.requestHashKey, body);
    const result = await deps.handler.handle(strategyDecider, strategyStreamId(user.id, strategyId), { type: 'ToggleStrategy', data: { userId: user.id, strategyId, active: body.active }, metadata: { now: now() } }, meta);
    deps.logger.info('strategy toggled', { userId: user.id, strategyId, active: body.active, changed: result.events.length > 0 });
    const answer: StrategyCommandResponse = { strategyId, active: body.active, position: result.position ?? null };
    ctx.body = answer;
  });

  router.post('/api/strategies/:id/configure', requirePremium, jsonBody, async (ctx) => {
    const strategyId = strategyIdOf(ctx);
    const configuration = parseBody(ctx, configureStrategyRequestSchema(strategyInfo(strategyId).type));
    const user = currentUser(ctx);
    const meta = commandMeta(ctx, user.id, deps.requestHashKey, configuration);
    const stream = strategyStreamId(user.id, strategyId);
    const loaded = await deps.handler.load(strategyDecider, stream, meta);
    const result = await deps.handler.handle(strategyDecider, stream, { type: 'ConfigureStrategy', data: { userId: user.id, strategyId, configuration }, metadata: { now: now() } }, meta, loaded);
    const answer: StrategyCommandResponse = { strategyId, active: loaded.state.status === 'active', position: result.position ?? null };
    ctx.body = answer;
  });

  /**
   * POST /api/strategies/{id}/backtest {startDate, endDate, initialCapital}: the strategy itself, any of
   * the three types, over the period (domain/src/strategies/strategy-backtest.ts: its live signal code
   * folded over the candles; technical and neural fill through the paper engine under the user's risk
   * profile, arbitrage as round trips between the simulated exchange quotes; neural walks forward over
   * the models that existed at each candle), through the backtest service's slot, stream and job (one
   * run per user at a time: 409 naming the one under way), then recorded on the strategy's stream as
   * its latest backtest. 202 with the job; the result (with its `notes`: what the run assumed) is
   * GET /api/backtest/{backtestId}, and the strategy's card measures its trades when its paper sample
   * is smaller.
   */
  const requestBacktest = backtestRequester(deps);
  router.post('/api/strategies/:id/backtest', requirePremium, jsonBody, async (ctx) => {
    const strategyId = strategyIdOf(ctx);
    const body = parseBody(ctx, strategyBacktestRequestSchema);
    const user = currentUser(ctx);
    const stream = strategyStreamId(user.id, strategyId);
    const loaded = await deps.handler.load(strategyDecider, stream, {});
    const { config, configKey } = strategyBacktestConfig(strategyId, configurationOf(loaded.state, strategyId), body, Date.parse(now()));
    const job = await requestBacktest(ctx, body, 'backtest', config, configKey);
    const recorded = await deps.handler.handle(
      strategyDecider,
      stream,
      { type: 'RecordStrategyBacktest', data: { userId: user.id, strategyId, backtestId: job.id, startDate: body.startDate, endDate: body.endDate, initialCapital: body.initialCapital }, metadata: { now: now() } },
      { actor: user.id, correlationId: job.jobId },
    );
    deps.logger.info('strategy backtest requested', { userId: user.id, strategyId, backtestId: job.id });
    const answer: StrategyBacktestResponse = { strategyId, backtestId: job.id, jobId: job.jobId, status: 'QUEUED', queuePosition: job.queuePosition, position: recorded.position ?? job.position ?? null };
    ctx.status = 202;
    ctx.body = answer;
  });

  return router;
}
