/**
 * The Exchange API Integration and Settings reads (issue 21), from read models only:
 * - GET /api/exchanges (premium): every exchange with the caller's connection: status, the key's last
 *   four characters, testnet, the last test's balance valued at the market's prices now and the
 *   share allocated to coins, the mirror switch. No secret is in the read model to answer.
 * - GET /api/exchanges/mirror-orders (premium): the testnet's fills beside the paper fills, newest first (at most 200).
 * - GET /api/settings (signed in): the notification switches and the trading mode (defaults until changed).
 * Each waits for the caller's own last write (platform/src/http/own-writes.ts).
 */
import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { z } from 'zod';
import { noQuerySchema as noQuery } from '@papertrade/domain/api/shared';
import {
  EXCHANGE_CONNECTIONS_PROJECTION,
  MIRROR_ORDERS_PROJECTION,
  exchangeConnectionsResponse,
  mirrorOrdersResponse,
  type ExchangeConnectionView,
  type MirrorOrderView,
} from '@papertrade/domain/exchanges/exchange-view';
import type { ExchangesResponse, MirrorOrdersResponse } from '@papertrade/domain/exchanges/contracts';
import { coins } from '@papertrade/domain/market/coins';
import { ACCOUNT_SETTINGS_PROJECTION, accountSettingsResponse, type AccountSettingsView } from '@papertrade/domain/settings/account-settings-view';
import type { AccountSettingsResponse } from '@papertrade/domain/settings/contracts';
import { currentUser, requirePremium, requireUser } from '@papertrade/platform/auth/guards';
import { parseQuery } from '@papertrade/platform/http/body';
import { readsOwnWrites } from '@papertrade/platform/http/own-writes';
import type { QueryApiDeps } from '../deps';

export const MIRROR_ORDERS_LIMIT = 200;

const validQuery =
  (schema: z.ZodType): Middleware =>
  async (ctx, next) => {
    parseQuery(ctx, schema);
    await next();
  };

export function exchangeRoutes(deps: Pick<QueryApiDeps, 'readModels' | 'ownWrites' | 'marketData'>): Router {
  const router = new Router();
  const readsFrom = readsOwnWrites(deps.ownWrites);

  router.get('/api/exchanges', requirePremium, validQuery(noQuery), readsFrom(EXCHANGE_CONNECTIONS_PROJECTION), async (ctx) => {
    const userId = currentUser(ctx).id;
    const docs = await (await deps.readModels.collection<ExchangeConnectionView>(EXCHANGE_CONNECTIONS_PROJECTION)).find({ where: { userId } });
    // Balances are valued at the market now (the market may be down: then nothing is priced).
    const quotes = docs.some((d) => d.balances && d.balances.length > 0) ? await deps.marketData.prices().catch(() => []) : [];
    const prices = new Map<string, number>(quotes.map((q) => [q.symbol, q.price]));
    const body: ExchangesResponse = { exchanges: exchangeConnectionsResponse(docs, (symbol) => (coins.some((c) => c.symbol === symbol) ? prices.get(symbol) : undefined)) };
    ctx.body = body;
  });

  router.get('/api/exchanges/mirror-orders', requirePremium, validQuery(noQuery), readsFrom(MIRROR_ORDERS_PROJECTION), async (ctx) => {
    const userId = currentUser(ctx).id;
    const collection = await deps.readModels.collection<MirrorOrderView>(MIRROR_ORDERS_PROJECTION);
    const docs = await collection.find({ where: { userId }, sort: [{ field: 'requestedAtMs', direction: 'desc' }], limit: MIRROR_ORDERS_LIMIT });
    const body: MirrorOrdersResponse = { orders: mirrorOrdersResponse(docs) };
    ctx.body = body;
  });

  router.get('/api/settings', requireUser, validQuery(noQuery), readsFrom(ACCOUNT_SETTINGS_PROJECTION), async (ctx) => {
    const doc = await (await deps.readModels.collection<AccountSettingsView>(ACCOUNT_SETTINGS_PROJECTION)).get(currentUser(ctx).id);
    const body: AccountSettingsResponse = accountSettingsResponse(doc);
    ctx.body = body;
  });

  return router;
}
