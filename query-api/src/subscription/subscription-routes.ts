/**
 * GET /api/subscription and GET /api/subscription/billing, from the `subscriptions` read model (and
 * the `trades` read model for the trades used, and command-api's API call counter for this month's
 * calls). X-Min-Position waits for both, so a client that just paid or cancelled reads its own write;
 * without the header the caller's own last write is waited for (platform/src/http/own-writes.ts).
 */
import Router from '@koa/router';
import { noQuerySchema as noQuery } from '@papertrade/domain/api/shared';
import { TRADES_PROJECTION } from '@papertrade/domain/trading/trading-view';
import type { BillingHistoryResponse, SubscriptionResponse } from '@papertrade/domain/subscription/contracts';
import { SUBSCRIPTIONS_PROJECTION, toSubscriptionResponse, type SubscriptionView } from '@papertrade/domain/subscription/subscription-view';
import { currentUser, requireUser } from '@papertrade/platform/auth/guards';
import { parseQuery } from '@papertrade/platform/http/body';
import { readsOwnWrites } from '@papertrade/platform/http/own-writes';
import type { QueryApiDeps } from '../deps';

export function subscriptionRoutes(deps: Pick<QueryApiDeps, 'readModels' | 'ownWrites' | 'clock' | 'apiCalls'>): Router {
  const router = new Router();
  const { readModels } = deps;
  // The caller's own subscription: without X-Min-Position it waits for the caller's last write (own-writes.ts).
  const readsFrom = readsOwnWrites(deps.ownWrites);
  const viewOf = async (userId: string) => (await readModels.collection<SubscriptionView>(SUBSCRIPTIONS_PROJECTION)).get(userId);

  router.get('/api/subscription', requireUser, async (ctx, next) => {
    parseQuery(ctx, noQuery);
    await next();
  }, readsFrom(SUBSCRIPTIONS_PROJECTION, TRADES_PROJECTION), async (ctx) => {
    const user = currentUser(ctx);
    const [view, trades, apiCalls] = await Promise.all([
      viewOf(user.id),
      readModels.collection(TRADES_PROJECTION).then((c) => c.count({ userId: user.id })),
      deps.apiCalls.used(user.id),
    ]);
    // A user whose stream holds no subscription event yet is on the free plan; the users read model agrees.
    const body: SubscriptionResponse = toSubscriptionResponse(view ?? { tier: user.subscriptionTier, subscriptionStatus: user.subscriptionStatus, endsAt: null }, { trades, apiCalls }, deps.clock());
    ctx.body = body;
  });

  router.get('/api/subscription/billing', requireUser, async (ctx, next) => {
    parseQuery(ctx, noQuery);
    await next();
  }, readsFrom(SUBSCRIPTIONS_PROJECTION), async (ctx) => {
    const view = await viewOf(currentUser(ctx).id);
    const body: BillingHistoryResponse = view?.billing ?? [];
    ctx.body = body;
  });

  return router;
}
