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
import { configureStrategyRequestSchema, strategyIdSchema, toggleStrategyRequestSchema, type StrategyCommandResponse } from '@papertrade/domain/strategies/contracts';
import { strategyInfo, type StrategyId } from '@papertrade/domain/strategies/strategy-catalogue';
import { strategyStreamId } from '@papertrade/domain/strategies/strategy';
import { strategyDecider } from '@papertrade/domain/strategies/strategy.decider';
import { NotFoundError } from '@papertrade/domain/shared/errors';
import { currentUser, requirePremium } from '@papertrade/platform/auth/guards';
import { jsonBody, parseBody } from '@papertrade/platform/http/body';
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

  return router;
}
