/** GET /api/public/stats: measured figures for the landing page, from the public-stats projection. */
import Router from '@koa/router';
import type { PublicStats } from '@papertrade/domain/public-stats/contracts';
import { PUBLIC_STATS_ID, PUBLIC_STATS_PROJECTION, emptyPublicStats, type PublicStatsView } from '@papertrade/domain/public-stats/public-stats-view';
import { readsFrom } from '@papertrade/platform/http/min-position';
import type { QueryApiDeps } from '../deps';

export function publicStatsRoutes(deps: QueryApiDeps): Router {
  const router = new Router();
  router.get('/api/public/stats', readsFrom(deps.readModels, PUBLIC_STATS_PROJECTION), async (ctx) => {
    const stats = await deps.readModels.collection<PublicStatsView>(PUBLIC_STATS_PROJECTION);
    const view = (await stats.get(PUBLIC_STATS_ID)) ?? emptyPublicStats();
    const body: PublicStats = { traders: view.traders, modelAccuracy: view.modelAccuracy, simulatedTrades: view.simulatedTrades };
    ctx.body = body;
  });
  return router;
}
