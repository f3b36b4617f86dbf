/**
 * The paper-trading commands (issue 8): a manual simulated trade, the bot's start / stop / reset,
 * the bot settings, the risk parameters and the risk alerts. Each answers ids and the global
 * `position` of the last event it appended (null when the command changed nothing), so the client's
 * next read can send X-Min-Position; the state itself is read from query-api.
 *
 * Who may do what (dashboard-and-sign-in.md section 6, premium-and-account.md sections 2, 5 and 6,
 * DESIGN.md section 6: premium = tier PREMIUM and status ACTIVE, enforced here, never by the client):
 * - POST /api/trades: any signed-in user (every signed-in user has a paper portfolio).
 * - POST /api/bot/start, /api/bot/reset: premium. The check is the bot decider's (the route passes
 *   the caller's entitlement in the command), so the rule has one home and its message is the one
 *   the client looks for ('Premium subscription required ...').
 * - POST /api/bot/stop: any signed-in user: someone whose premium lapsed must still be able to stop
 *   a bot that trades their portfolio (bot.decider.ts).
 * - POST /api/settings/bot: any signed-in user; it edits the user's one risk profile (bot settings and
 *   risk parameters are two views of it, domain/src/trading/risk-profile.ts). The Settings screen's Bot Settings tab is not gated
 *   by the spec (only strategies, backtests and the risk parameters are, premium-and-account.md
 *   section 6); the settings do nothing until a premium bot runs, and a user may prepare them
 *   before upgrading.
 * - PUT /api/risk/parameters and the alert commands: premium (the Risk Management parameters are
 *   read-only with a 'Basic' badge for others, and the risk endpoints are premium only).
 * Visitors get 401 everywhere: there is nobody's portfolio to act on.
 */
import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import { alertIdSchema, noBodySchema } from '@papertrade/domain/api/shared';
import { isPremium } from '@papertrade/domain/auth/contracts';
import { findCoinBySymbol } from '@papertrade/domain/market/coins';
import { IllegalStateError, NotFoundError } from '@papertrade/domain/shared/errors';
import {
  botSettingsRequestSchema,
  botSettingsView,
  placeTradeRequestSchema,
  riskParametersSchema,
  type AcknowledgeAlertResponse,
  type BotCommandResponse,
  type BotSettingsResponse,
  type ClearAlertsResponse,
  type PlaceTradeResponse,
  type RiskParametersChangeResponse,
} from '@papertrade/domain/trading/contracts';
import { botStreamId } from '@papertrade/domain/trading/bot';
import { botDecider } from '@papertrade/domain/trading/bot.decider';
import { microsToUsd } from '@papertrade/domain/trading/money';
import { portfolioStreamId, tradeSourceLabel, type SimulatedTradePlaced } from '@papertrade/domain/trading/portfolio';
import { portfolioDecider, type PlaceSimulatedTrade } from '@papertrade/domain/trading/portfolio.decider';
import { riskStreamId } from '@papertrade/domain/trading/risk';
import { riskDecider } from '@papertrade/domain/trading/risk.decider';
import { botSettingsOf } from '@papertrade/domain/trading/risk-profile';
import { idempotentId } from '@papertrade/platform/commands/command-handler';
import { currentUser, requirePremium, requireUser, userAfterOwnWrites } from '@papertrade/platform/auth/guards';
import { MarketDataUnavailableError } from '@papertrade/platform/market/market-data';
import { jsonBody, parseBody } from '@papertrade/platform/http/body';
import type { CommandApiDeps } from '../deps';
import { commandMeta } from '../request-meta';
import { latest } from '../auth/register-account';

export function tradingRoutes(deps: CommandApiDeps): Router {
  const router = new Router();
  const now = () => deps.handler.now();

  /** The signed-in user and the command metadata (actor, correlation, Idempotency-Key) of a request. */
  const caller = (ctx: Context, body: unknown) => {
    const user = currentUser(ctx);
    return { user, meta: commandMeta(ctx, user.id, deps.requestHashKey, body) };
  };
  /** Premium now: as cached, else once the caller's own last write (a payment just confirmed) is read (guards.ts). */
  const premiumNow = async (ctx: Context) => isPremium(currentUser(ctx)) || isPremium(await userAfterOwnWrites(ctx));

  router.post('/api/trades', requireUser, jsonBody, async (ctx) => {
    const body = parseBody(ctx, placeTradeRequestSchema);
    const { user, meta } = caller(ctx, body);
    const coin = findCoinBySymbol(body.symbol)!;
    // With an Idempotency-Key the trade id follows from it, so even past the handler's look-up
    // window the portfolio's own memory of trade ids refuses the same trade twice.
    const tradeId = meta.idempotency ? idempotentId(meta.idempotency, 'trade') : randomUUID();
    const result = await deps.handler.handle(
      portfolioDecider,
      portfolioStreamId(user.id),
      // Read the market when deciding, not before: a retry after a concurrent write fills at the
      // market of that moment, and a replayed request (same key) does not read the market at all. The
      // fill is the tick at the decision's time (the price on the person's screen) plus the half
      // spread and impact, which the decider adds (domain/src/trading/engine/fills.ts).
      async (): Promise<PlaceSimulatedTrade> => {
        const at = now();
        const quote = (await deps.marketData.quotesAt(Date.parse(at))).find((q) => q.coinId === coin.id);
        if (!quote) throw new MarketDataUnavailableError('bad-response', `no price for ${coin.symbol} now`, 60);
        return {
          type: 'PlaceSimulatedTrade',
          data: {
            userId: user.id,
            tradeId,
            symbol: coin.symbol,
            side: body.side,
            amount: body.amount,
            price: quote.price,
            source: { kind: 'MANUAL' },
            market: { filledAt: quote.filledAt, minuteVolumeUsd: quote.minuteVolumeUsd },
            // A manual position has no automatic exit unless its person sets one here.
            ...(body.stopLossPercent !== undefined || body.takeProfitPercent !== undefined
              ? { exits: { kind: 'MANUAL' as const, stopLossPercent: body.stopLossPercent ?? null, takeProfitPercent: body.takeProfitPercent ?? null } }
              : {}),
          },
          metadata: { now: at },
        };
      },
      meta,
    );
    const placed = result.events.find((e): e is SimulatedTradePlaced => e.type === 'SimulatedTradePlaced');
    if (!placed) throw new IllegalStateError(`Trade ${tradeId} was already placed`);
    const d = placed.data;
    deps.logger.info('manual trade placed', { userId: user.id, tradeId: d.tradeId, replayed: result.replayed });
    ctx.status = 201;
    const answer: PlaceTradeResponse = {
      id: d.tradeId,
      coinId: d.coinId,
      symbol: d.symbol,
      type: d.side,
      amount: d.quantity,
      price: d.price,
      fee: microsToUsd(d.feeMicros),
      // What the trade moved in cash: a BUY paid notional + fee, a SELL received notional - fee.
      total: microsToUsd(d.side === 'BUY' ? d.notionalMicros + d.feeMicros : d.notionalMicros - d.feeMicros),
      realisedPnl: d.side === 'SELL' ? microsToUsd(d.realisedPnlMicros) : null,
      status: d.side === 'BUY' ? 'OPEN' : 'CLOSED',
      source: tradeSourceLabel(d.source),
      stopLoss: d.exits?.kind === 'MANUAL' ? d.exits.stopLoss : null,
      takeProfit: d.exits?.kind === 'MANUAL' ? d.exits.takeProfit : null,
      timestamp: d.placedAt,
      position: result.position ?? null,
    };
    ctx.body = answer;
  });

  router.post('/api/bot/start', requireUser, jsonBody, async (ctx) => {
    const body = parseBody(ctx, noBodySchema);
    const { user, meta } = caller(ctx, body);
    const result = await deps.handler.handle(
      botDecider,
      botStreamId(user.id),
      { type: 'StartBot', data: { userId: user.id, premium: await premiumNow(ctx) }, metadata: { now: now() } },
      meta,
    );
    const answer: BotCommandResponse = { userId: user.id, position: result.position ?? null };
    ctx.body = answer;
  });

  router.post('/api/bot/stop', requireUser, jsonBody, async (ctx) => {
    const body = parseBody(ctx, noBodySchema);
    const { user, meta } = caller(ctx, body);
    const result = await deps.handler.handle(botDecider, botStreamId(user.id), { type: 'StopBot', data: { userId: user.id }, metadata: { now: now() } }, meta);
    const answer: BotCommandResponse = { userId: user.id, position: result.position ?? null };
    ctx.body = answer;
  });

  /**
   * Bot reset: the bot stops (ResetBot), its settings go back to the defaults ('Trading bot has been
   * reset to default settings'), and the paper portfolio goes back to its starting cash. The spec's
   * client refreshes the portfolio and the trades after a reset (dashboard-and-sign-in.md section 4),
   * which only means something if the reset touched them: a reset is the user's fresh start, and a
   * bot restarted on the old positions would be judged on trades it did not choose. The risk
   * parameters (the Risk Management screen's own settings) are kept: the toast speaks of the bot.
   *
   * The bot's stream goes first, so a caller who may not reset (not premium) fails before anything
   * is appended. Each stream's events are idempotent under the request's key: a client that retries
   * a reset that failed halfway (same Idempotency-Key) completes it without repeating a part.
   *
   * Last, once the portfolio is reset, the risk alerts it made moot are resolved (RiskAlertsResolved,
   * risk.ts): issued here rather than by a worker following PortfolioReset, so the caller's next read
   * of its alerts (which waits for the caller's own last write) already shows them resolved. It is a
   * second command on the risk stream, so its idempotent ids come from the key with a label of its
   * own (the settings' reset took the key's plain ids).
   */
  router.post('/api/bot/reset', requireUser, jsonBody, async (ctx) => {
    const body = parseBody(ctx, noBodySchema);
    const { user, meta } = caller(ctx, body);
    const bot = await deps.handler.handle(
      botDecider,
      botStreamId(user.id),
      { type: 'ResetBot', data: { userId: user.id, premium: await premiumNow(ctx) }, metadata: { now: now() } },
      meta,
    );
    const settings = await deps.handler.handle(riskDecider, riskStreamId(user.id), { type: 'ResetBotSettings', data: { userId: user.id }, metadata: { now: now() } }, meta);
    const portfolio = await deps.handler.handle(
      portfolioDecider,
      portfolioStreamId(user.id),
      { type: 'ResetPortfolio', data: { userId: user.id }, metadata: { now: now() } },
      meta,
    );
    const alertsMeta = meta.idempotency ? { ...meta, idempotency: { ...meta.idempotency, key: `${meta.idempotency.key}#alerts-resolved` } } : meta;
    const alerts = await deps.handler.handle(
      riskDecider,
      riskStreamId(user.id),
      { type: 'ResolveRiskAlerts', data: { userId: user.id, reason: 'PORTFOLIO_RESET' }, metadata: { now: now() } },
      alertsMeta,
    );
    deps.logger.info('bot reset', { userId: user.id });
    const answer: BotCommandResponse = { userId: user.id, position: latest(bot.position, settings.position, portfolio.position, alerts.position) ?? null };
    ctx.body = answer;
  });

  /**
   * Some or all of the bot settings, into the one risk profile; answers the whole set as it now is
   * (the write side's state, not a read model), and the profile's stop-loss type (what stopLoss measures).
   */
  router.post('/api/settings/bot', requireUser, jsonBody, async (ctx) => {
    const changes = parseBody(ctx, botSettingsRequestSchema);
    const { user, meta } = caller(ctx, changes);
    const stream = riskStreamId(user.id);
    const loaded = await deps.handler.load(riskDecider, stream, meta);
    const result = await deps.handler.handle(riskDecider, stream, { type: 'ChangeBotSettings', data: { userId: user.id, changes }, metadata: { now: now() } }, meta, loaded);
    const profile = result.events.reduce((state, event) => riskDecider.evolve(state, event), loaded.state).profile;
    const answer: BotSettingsResponse = { userId: user.id, settings: botSettingsView(botSettingsOf(profile), profile.stopLossType), position: result.position ?? null };
    ctx.body = answer;
  });

  router.put('/api/risk/parameters', requirePremium, jsonBody, async (ctx) => {
    const parameters = parseBody(ctx, riskParametersSchema);
    const { user, meta } = caller(ctx, parameters);
    const result = await deps.handler.handle(riskDecider, riskStreamId(user.id), { type: 'ChangeRiskParameters', data: { userId: user.id, parameters }, metadata: { now: now() } }, meta);
    const answer: RiskParametersChangeResponse = { userId: user.id, parameters, position: result.position ?? null };
    ctx.body = answer;
  });

  router.post('/api/risk/alerts/:id/acknowledge', requirePremium, jsonBody, async (ctx) => {
    const body = parseBody(ctx, noBodySchema);
    const parsedId = alertIdSchema.safeParse(ctx.params.id);
    if (!parsedId.success) throw new NotFoundError('Risk alert not found');
    const { user, meta } = caller(ctx, body);
    const result = await deps.handler.handle(
      riskDecider,
      riskStreamId(user.id),
      { type: 'AcknowledgeRiskAlert', data: { userId: user.id, alertId: parsedId.data }, metadata: { now: now() } },
      meta,
    );
    const answer: AcknowledgeAlertResponse = { alertId: parsedId.data, position: result.position ?? null };
    ctx.body = answer;
  });

  router.delete('/api/risk/alerts/acknowledged', requirePremium, jsonBody, async (ctx) => {
    const body = parseBody(ctx, noBodySchema);
    const { user, meta } = caller(ctx, body);
    const result = await deps.handler.handle(riskDecider, riskStreamId(user.id), { type: 'ClearAcknowledgedRiskAlerts', data: { userId: user.id }, metadata: { now: now() } }, meta);
    const cleared = result.events.flatMap((e) => (e.type === 'AcknowledgedRiskAlertsCleared' ? e.data.alertIds : []));
    const answer: ClearAlertsResponse = { alertIds: cleared, position: result.position ?? null };
    ctx.body = answer;
  });

  return router;
}
