/**
 * The Exchange API Integration commands (issue 21), premium only (DESIGN.md section 1: premium users
 * connect exchange accounts; 403 'Premium subscription required' for others, 401 for visitors):
 *
 * - POST /api/exchanges/{id}/config `{apiKey, secretKey, passphrase?, testnet?}`: ExchangeCredentialsSaved
 *   (a reference to the sealed keys and the key's last four characters); answers the same, never a key.
 * - POST /api/exchanges/{id}/test: fetches the balance through ccxt; ExchangeConnectionTested; answers
 *   connected with the balance (valued at the market's prices), or error with the exchange's message.
 *   A failed test is a 200 with status error: the request was right, the exchange said no.
 * - POST /api/exchanges/{id}/mirror `{mirrorToTestnet}`: ExchangeMirrorChanged (409 without a
 *   connected testnet account).
 * An unknown exchange id is a 404. Contracts: domain/src/exchanges/contracts.ts.
 */
import Router from '@koa/router';
import { noBodySchema } from '@papertrade/domain/api/shared';
import { exchangeStreamId } from '@papertrade/domain/exchanges/exchange';
import { exchangeDecider } from '@papertrade/domain/exchanges/exchange.decider';
import {
  exchangeConfigRequestSchema,
  exchangeMirrorRequestSchema,
  type ExchangeConfigResponse,
  type ExchangeMirrorResponse,
  type ExchangeTestResponse,
} from '@papertrade/domain/exchanges/contracts';
import { currentUser, requirePremium } from '@papertrade/platform/auth/guards';
import { jsonBody, parseBody } from '@papertrade/platform/http/body';
import type { CommandApiDeps } from '../deps';
import { commandMeta } from '../request-meta';
import { checkedCredentials, exchangeIdFrom, saveConnection, testConnection } from './exchange-connections';

export function exchangeRoutes(deps: CommandApiDeps): Router {
  const router = new Router();

  router.post('/api/exchanges/:id/config', requirePremium, jsonBody, async (ctx) => {
    const exchangeId = exchangeIdFrom(ctx);
    const body = parseBody(ctx, exchangeConfigRequestSchema);
    const user = currentUser(ctx);
    const meta = commandMeta(ctx, user.id, deps.requestHashKey, body);
    const { credentials, testnet } = checkedCredentials(exchangeId, body);
    const saved = await saveConnection(deps, user.id, meta, exchangeId, credentials, testnet);
    const answer: ExchangeConfigResponse = { exchangeId, status: 'disconnected', keyLast4: saved.keyLast4, testnet: saved.testnet, position: saved.position ?? null };
    ctx.body = answer;
  });

  router.post('/api/exchanges/:id/test', requirePremium, jsonBody, async (ctx) => {
    const exchangeId = exchangeIdFrom(ctx);
    const body = parseBody(ctx, noBodySchema);
    const user = currentUser(ctx);
    const meta = commandMeta(ctx, user.id, deps.requestHashKey, body);
    const tested = await testConnection(deps, user.id, meta, exchangeId);
    const answer: ExchangeTestResponse = { exchangeId, status: tested.status, testnet: tested.testnet, balance: tested.balance, error: tested.error, position: tested.position ?? null };
    ctx.body = answer;
  });

  router.post('/api/exchanges/:id/mirror', requirePremium, jsonBody, async (ctx) => {
    const exchangeId = exchangeIdFrom(ctx);
    const body = parseBody(ctx, exchangeMirrorRequestSchema);
    const user = currentUser(ctx);
    const meta = commandMeta(ctx, user.id, deps.requestHashKey, body);
    const result = await deps.handler.handle(
      exchangeDecider,
      exchangeStreamId(user.id, exchangeId),
      { type: 'ChangeExchangeMirror', data: { userId: user.id, exchangeId, mirrorToTestnet: body.mirrorToTestnet }, metadata: { now: deps.handler.now() } },
      meta,
    );
    const answer: ExchangeMirrorResponse = { exchangeId, mirrorToTestnet: body.mirrorToTestnet, position: result.position ?? null };
    ctx.body = answer;
  });

  return router;
}
