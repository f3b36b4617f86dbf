/**
 * The Settings screen's own commands (issue 21; Bot Settings is POST /api/settings/bot, trading-routes.ts):
 *
 * - POST /api/settings/api (premium, like the exchange connections it stores): the spec's API settings.
 *   binanceKey + binanceSecret and coinbaseKey + coinbaseSecret (+ coinbasePassphrase: optional, the
 *   spec's payload has none; such Coinbase keys fail their test saying so) are saved as the
 *   exchange connections of POST /api/exchanges/{id}/config (testnet on: both have one);
 *   enablePaperTrading / enableRealTrading (+ confirmRealTrading to switch real trading on) as
 *   TradingModeChanged on `settings-{userId}`. Every part is checked before anything is stored.
 * - POST /api/settings/notifications (signed in): some of the notification switches,
 *   NotificationPreferencesChanged on `settings-{userId}`.
 */
import Router from '@koa/router';
import { accountSettingsStreamId } from '@papertrade/domain/settings/account-settings';
import { accountSettingsDecider, type ChangeTradingMode } from '@papertrade/domain/settings/account-settings.decider';
import {
  apiSettingsRequestSchema,
  notificationSettingsRequestSchema,
  type ApiSettingsResponse,
  type NotificationSettingsResponse,
} from '@papertrade/domain/settings/contracts';
import { DEFAULT_NOTIFICATIONS, DEFAULT_TRADING_MODE } from '@papertrade/domain/settings/account-settings';
import { currentUser, requirePremium, requireUser } from '@papertrade/platform/auth/guards';
import { jsonBody, parseBody } from '@papertrade/platform/http/body';
import type { CommandApiDeps } from '../deps';
import { commandMeta } from '../request-meta';
import { latest } from '../auth/register-account';
import { checkedCredentials, saveConnection } from '../exchanges/exchange-connections';

export function settingsRoutes(deps: CommandApiDeps): Router {
  const router = new Router();

  router.post('/api/settings/api', requirePremium, jsonBody, async (ctx) => {
    const body = parseBody(ctx, apiSettingsRequestSchema);
    const user = currentUser(ctx);
    const meta = commandMeta(ctx, user.id, deps.requestHashKey, body);
    const stream = accountSettingsStreamId(user.id);
    const changes: ChangeTradingMode['data']['changes'] = {
      ...(body.enablePaperTrading !== undefined ? { paperTrading: body.enablePaperTrading } : {}),
      ...(body.enableRealTrading !== undefined ? { realTrading: body.enableRealTrading } : {}),
    };
    const modeCommand = (): ChangeTradingMode => ({ type: 'ChangeTradingMode', data: { userId: user.id, changes, confirmRealTrading: body.confirmRealTrading === true }, metadata: { now: deps.handler.now() } });
    // Everything is checked before anything is stored: the keys' rules, then the trading mode's.
    const toSave = [
      ...(body.binanceKey && body.binanceSecret ? [{ exchangeId: 'binance' as const, ...checkedCredentials('binance', { apiKey: body.binanceKey, secretKey: body.binanceSecret }, { fieldPrefix: 'binance' }) }] : []),
      ...(body.coinbaseKey && body.coinbaseSecret
        ? [{ exchangeId: 'coinbase' as const, ...checkedCredentials('coinbase', { apiKey: body.coinbaseKey, secretKey: body.coinbaseSecret, passphrase: body.coinbasePassphrase }, { fieldPrefix: 'coinbase', passphraseOptional: true }) }]
        : []),
    ];
    const loaded = await deps.handler.load(accountSettingsDecider, stream, meta);
    if (loaded.previous.length === 0) accountSettingsDecider.decide(modeCommand(), loaded.state);
    const saved = [];
    for (const item of toSave) saved.push(await saveConnection(deps, user.id, meta, item.exchangeId, item.credentials, item.testnet));
    const result = await deps.handler.handle(accountSettingsDecider, stream, modeCommand, meta, loaded);
    const state = result.events.reduce((s, e) => accountSettingsDecider.evolve(s, e), loaded.state);
    const answer: ApiSettingsResponse = {
      userId: user.id,
      exchanges: saved.map((s) => ({ exchangeId: s.exchangeId as 'binance' | 'coinbase', keyLast4: s.keyLast4, testnet: s.testnet })),
      tradingMode: { ...DEFAULT_TRADING_MODE, ...state.tradingMode },
      position: latest(...saved.map((s) => s.position), result.position) ?? null,
    };
    ctx.body = answer;
  });

  router.post('/api/settings/notifications', requireUser, jsonBody, async (ctx) => {
    const body = parseBody(ctx, notificationSettingsRequestSchema);
    const user = currentUser(ctx);
    const meta = commandMeta(ctx, user.id, deps.requestHashKey, body);
    const stream = accountSettingsStreamId(user.id);
    const changes = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
    const loaded = await deps.handler.load(accountSettingsDecider, stream, meta);
    const result = await deps.handler.handle(
      accountSettingsDecider,
      stream,
      { type: 'ChangeNotificationPreferences', data: { userId: user.id, changes }, metadata: { now: deps.handler.now() } },
      meta,
      loaded,
    );
    const state = result.events.reduce((s, e) => accountSettingsDecider.evolve(s, e), loaded.state);
    const answer: NotificationSettingsResponse = { userId: user.id, notifications: { ...DEFAULT_NOTIFICATIONS, ...state.notifications }, position: result.position ?? null };
    ctx.body = answer;
  });

  return router;
}
