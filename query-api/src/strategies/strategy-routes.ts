/**
 * GET /api/strategies, GET /api/strategies/signals and GET /api/strategies/{id}/performance (issue 19),
 * Premium only, from the read models `strategies` and `strategy-signals` (domain/src/strategies/
 * strategy-view.ts); the answers are built by domain/src/strategies/strategy-read.ts.
 *
 * A signed-in GET waits (at most 2 s) for the caller's own last write, so a toggle or configure is
 * read back at once. The paper round trips of a strategy are one indexed query per activation period
 * (the signals of that configuration with a trade, from the period's start to its end).
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { noQuerySchema } from '@papertrade/domain/api/shared';
import { NotFoundError } from '@papertrade/domain/shared/errors';
import type { StrategiesResponse, StrategySignalsResponse } from '@papertrade/domain/strategies/contracts';
import { strategyIdSchema } from '@papertrade/domain/strategies/contracts';
import { STRATEGIES, strategyInfo, type StrategyId } from '@papertrade/domain/strategies/strategy-catalogue';
import { roundTripsIn, signalResponse, strategyCard, strategyPerformance } from '@papertrade/domain/strategies/strategy-read';
import type { StrategyRoundTrip } from '@papertrade/domain/strategies/strategy-signals';
import { STRATEGIES_PROJECTION, STRATEGY_SIGNALS_PROJECTION, strategyViewId, type StrategyPeriod, type StrategySignalView, type StrategyView } from '@papertrade/domain/strategies/strategy-view';
import { currentUser, requirePremium } from '@papertrade/platform/auth/guards';
import { parseQuery } from '@papertrade/platform/http/body';
import { readsOwnWrites } from '@papertrade/platform/http/own-writes';
import type { ReadModels } from '@papertrade/platform/projections/read-models';
import { BACKTESTS_PROJECTION, BACKTEST_TRADES_PROJECTION, type BacktestTradesView, type BacktestView } from '@papertrade/domain/backtest/backtest-views';
import { backtestRoundTrips } from '@papertrade/domain/strategies/strategy-backtest';
import type { QueryApiDeps } from '../deps';

/** How many live signals the list shows. */
export const LIVE_SIGNALS_SHOWN = 50;

async function signalsIn(readModels: ReadModels, periods: readonly StrategyPeriod[], withTrade: boolean, limit?: number): Promise<StrategySignalView[]> {
  const signals = await readModels.collection<StrategySignalView>(STRATEGY_SIGNALS_PROJECTION);
  const found = await Promise.all(
    periods.map((p) =>
      signals.find({
        where: withTrade ? { strategyKey: p.configKey, hasTrade: true } : { strategyKey: p.configKey },
        range: { field: 'closedAtMs', gte: p.fromMs, ...(p.toMs === null ? {} : { lt: p.toMs }) },
        sort: [{ field: 'closedAtMs', direction: 'desc' }],
        ...(limit ? { limit } : {}),
      }),
    ),
  );
  return found.flat();
}

/** A user's strategies' documents by id (absent: never configured nor toggled). */
export async function strategyViewsOf(readModels: ReadModels, userId: string): Promise<Map<StrategyId, StrategyView>> {
  const views = await readModels.collection<StrategyView>(STRATEGIES_PROJECTION);
  const found = await views.find({ where: { userId } });
  return new Map(found.map((v) => [v.strategyId, v]));
}

export async function paperRoundTrips(readModels: ReadModels, view: StrategyView | undefined): Promise<StrategyRoundTrip[]> {
  if (!view || view.periods.length === 0) return [];
  return roundTripsIn(view.periods, await signalsIn(readModels, view.periods, true));
}

/** The round trips of the strategy's latest backtest, once it has completed (null: none, or not completed). */
export async function backtestTripsOf(readModels: ReadModels, view: StrategyView | undefined): Promise<StrategyRoundTrip[] | null> {
  const id = view?.lastBacktestId;
  if (!view || !id) return null;
  const backtest = await (await readModels.collection<BacktestView>(BACKTESTS_PROJECTION)).get(id);
  if (!backtest || backtest.userId !== view.userId || backtest.status !== 'COMPLETED') return null;
  const pages = await (await readModels.collection<BacktestTradesView>(BACKTEST_TRADES_PROJECTION)).find({ where: { backtestId: id } });
  return backtestRoundTrips(pages.sort((a, b) => a.page - b.page).flatMap((p) => p.trades));
}

export function strategyRoutes(deps: QueryApiDeps): Router {
  const router = new Router();
  const reads = readsOwnWrites(deps.ownWrites);
  const noQuery = async (ctx: Context, next: () => Promise<unknown>) => {
    parseQuery(ctx, noQuerySchema);
    await next();
  };
  const idOf = (ctx: Context): StrategyId => {
    const parsed = strategyIdSchema.safeParse(ctx.params['id']);
    if (!parsed.success) throw new NotFoundError('Strategy not found');
    return parsed.data;
  };

  router.get('/api/strategies', requirePremium, noQuery, reads(STRATEGIES_PROJECTION, STRATEGY_SIGNALS_PROJECTION, BACKTESTS_PROJECTION), async (ctx) => {
    const user = currentUser(ctx);
    const views = await strategyViewsOf(deps.readModels, user.id);
    const strategies = await Promise.all(
      STRATEGIES.map(async (info) => {
        const view = views.get(info.id);
        const [paper, backtest] = await Promise.all([paperRoundTrips(deps.readModels, view), backtestTripsOf(deps.readModels, view)]);
        return strategyCard(info, view ?? null, paper, backtest);
      }),
    );
    const body: StrategiesResponse = { strategies };
    ctx.body = body;
  });

  router.get('/api/strategies/signals', requirePremium, noQuery, reads(STRATEGIES_PROJECTION, STRATEGY_SIGNALS_PROJECTION), async (ctx) => {
    const user = currentUser(ctx);
    const views = await strategyViewsOf(deps.readModels, user.id);
    const lists = await Promise.all(
      [...views.values()]
        .filter((v) => v.active)
        .map(async (v) => {
          const current = v.periods.filter((p) => p.toMs === null);
          return (await signalsIn(deps.readModels, current, false, LIVE_SIGNALS_SHOWN)).map((s) => signalResponse(v.strategyId, s));
        }),
    );
    const signals = lists.flat().sort((a, b) => b.candleTime.localeCompare(a.candleTime) || a.id.localeCompare(b.id)).slice(0, LIVE_SIGNALS_SHOWN);
    const body: StrategySignalsResponse = { signals };
    ctx.body = body;
  });

  router.get('/api/strategies/:id/performance', requirePremium, noQuery, reads(STRATEGIES_PROJECTION, STRATEGY_SIGNALS_PROJECTION), async (ctx) => {
    const strategyId = idOf(ctx);
    strategyInfo(strategyId);
    const user = currentUser(ctx);
    const view = (await strategyViewsOf(deps.readModels, user.id)).get(strategyId);
    const [paper, backtest] = await Promise.all([paperRoundTrips(deps.readModels, view), backtestTripsOf(deps.readModels, view)]);
    ctx.body = strategyPerformance(paper, backtest);
  });

  return router;
}
