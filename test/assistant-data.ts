/**
 * Prepared users for the assistant's specs (issue 20), on an embedded harness: each signs up through
 * the API (so the users read model has them), gets Premium from the admin API, and has a history
 * written through the command handler with the domain's deciders, as the bot, the risk monitor and
 * the trade route would write it:
 *
 * - `trader`: the signals of the last day of every coin (the signal engine's, seedSignals); a bot BUY
 *   of ETH following a real ETH signal with its decision record (FIXED_SIZE, the profile's exits);
 *   a manual BUY of BTC with its stop and target percents; a manual SOL BUY closed by its stop loss;
 *   a manual ADA round trip; a changed risk profile (a trailing stop); two alerts, one acknowledged;
 *   a BUY signal the bot refused (CORRELATION_LIMIT); the bot started.
 * - `fresh`: Premium and nothing else (10,000 cash, the default profile).
 * - `named(firstName)`: Premium with a first name of the caller's choosing (the injection specs).
 * - `free`: signed in on the free plan.
 *
 * Fill prices are the market-data port's, at the time of each command.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { coinBySymbol } from '@papertrade/query-api/market/coin-params';
import { botDecider, type BotCommand } from '@papertrade/domain/trading/bot.decider';
import { botStreamId } from '@papertrade/domain/trading/bot';
import { portfolioDecider, type PortfolioCommand } from '@papertrade/domain/trading/portfolio.decider';
import { portfolioStreamId } from '@papertrade/domain/trading/portfolio';
import { riskDecider, type RiskCommand } from '@papertrade/domain/trading/risk.decider';
import { riskStreamId } from '@papertrade/domain/trading/risk';
import { DEFAULT_RISK_PARAMETERS } from '@papertrade/domain/trading/contracts';
import { SIGNALS_PROJECTION, type SignalView } from '@papertrade/domain/signals/signal-view';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import type { Harness } from './api-harness';
import { seedSignals } from '../bench/support/polled-data';

export interface PreparedUser {
  userId: string;
  token: string;
  email: string;
  username: string;
  /** Ids of the trades written for the user (to check no other user's reach an answer). */
  tradeIds: string[];
  /** The position of the user's last event (send as X-Min-Position). */
  position: string;
}

export class AssistantData {
  private counter = 0;
  private lastPosition = '';
  private signalsSeeded = false;

  constructor(private readonly h: Harness) {}

  get position(): string {
    return this.lastPosition;
  }

  private handler() {
    return new CommandHandler(this.h.rt.infra.eventStore, () => new Date());
  }

  private async run(decide: 'portfolio' | 'risk' | 'bot', userId: string, command: PortfolioCommand | RiskCommand | BotCommand): Promise<void> {
    const meta = { actor: userId, correlationId: randomUUID() };
    const handler = this.handler();
    const result =
      decide === 'portfolio'
        ? await handler.handle(portfolioDecider, portfolioStreamId(userId), command as PortfolioCommand, meta)
        : decide === 'risk'
          ? await handler.handle(riskDecider, riskStreamId(userId), command as RiskCommand, meta)
          : await handler.handle(botDecider, botStreamId(userId), command as BotCommand, meta);
    if (result.position) this.lastPosition = result.position;
  }

  private async price(symbol: string): Promise<number> {
    return (await this.h.rt.marketData.price(coinBySymbol(symbol).id)).price;
  }

  /** A signed-up user, Premium unless `free`. */
  async account(options: { free?: boolean; firstName?: string } = {}): Promise<PreparedUser> {
    const tag = `${Date.now().toString(36)}${(this.counter += 1)}`;
    const email = `assistant.${tag}@example.com`;
    const username = `assistant_${tag}`;
    const { userId, position } = await this.h.signup({ email, username, ...(options.firstName ? { firstName: options.firstName } : {}) });
    this.lastPosition = position;
    const token = await this.h.login(email, 'secret1');
    if (!options.free) {
      const admin = await this.h.admin();
      const res = await this.h.request('PUT', `/api/admin/users/${userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      this.lastPosition = res.body.position;
      // Read back with the admin's position: this process's identity cache then has the new tier, so
      // the user's next requests pass the premium guard without a header of their own.
      const me = await this.h.request('GET', '/api/auth/me', { token, headers: { 'x-min-position': this.lastPosition } });
      expect(me.body.subscriptionTier).to.equal('PREMIUM');
    }
    return { userId, token, email, username, tradeIds: [], position: this.lastPosition };
  }

  fresh(): Promise<PreparedUser> {
    return this.account();
  }

  named(firstName: string): Promise<PreparedUser> {
    return this.account({ firstName });
  }

  free(): Promise<PreparedUser> {
    return this.account({ free: true });
  }

  /** The signals of the last day of every coin (once per harness). */
  async signals(): Promise<void> {
    if (this.signalsSeeded) return;
    await seedSignals(this.h.rt.infra.eventStore, this.h.rt.marketData, Date.now());
    this.signalsSeeded = true;
  }

  /** A Premium user with a varied history (see the module comment). */
  async trader(firstName = 'Ann'): Promise<PreparedUser> {
    await this.signals();
    const user = await this.account({ firstName });
    const { userId } = user;
    const now = () => new Date().toISOString();
    const trade = async (symbol: string, side: 'BUY' | 'SELL', amount: number, extra: Partial<Extract<PortfolioCommand, { type: 'PlaceSimulatedTrade' }>['data']> = {}) => {
      const tradeId = randomUUID();
      user.tradeIds.push(tradeId);
      await this.run('portfolio', userId, {
        type: 'PlaceSimulatedTrade',
        data: { userId, tradeId, symbol, side, amount, price: await this.price(symbol), source: { kind: 'MANUAL' }, ...extra },
        metadata: { now: now() },
      });
      return tradeId;
    };

    // The bot's BUY of ETH following the newest ETH signal the engine wrote.
    await this.h.projector.caughtUp();
    const signals = await this.h.rt.infra.readModels.collection<SignalView>(SIGNALS_PROJECTION);
    const [signal] = await signals.find({ where: { symbol: 'ETH', type: 'BUY' }, sort: [{ field: 'candleTimeMs', direction: 'desc' }], limit: 1 });
    if (!signal) throw new Error('no ETH signal was seeded');
    const ethPrice = await this.price('ETH');
    const amount = Math.floor((500 / ethPrice) * 1e4) / 1e4;
    await trade('ETH', 'BUY', amount, {
      price: ethPrice,
      source: { kind: 'SIGNAL', eventId: randomUUID(), signalId: signal.signalId, signalType: 'BUY', candleTime: signal.candleTime },
      exits: { kind: 'PROFILE', atr: null, sigma: null },
      decision: { rule: 'FIXED_SIZE', text: `bought 5% of the portfolio ($500.00) at the signal's price`, figures: { percent: 5, usd: 500 } },
    });
    // A manual BTC BUY with its own exits.
    await trade('BTC', 'BUY', 0.005, { exits: { kind: 'MANUAL', stopLossPercent: 3, takeProfitPercent: 8 } });
    // A manual SOL BUY, closed by its stop.
    const solId = await trade('SOL', 'BUY', 2, { exits: { kind: 'MANUAL', stopLossPercent: 1, takeProfitPercent: null } });
    const solPrice = await this.price('SOL');
    await this.run('portfolio', userId, { type: 'ClosePosition', data: { userId, positionId: solId, symbol: 'SOL', reason: 'STOP_LOSS', price: Math.round(solPrice * 0.99 * 100) / 100 }, metadata: { now: now() } });
    // An ADA round trip.
    await trade('ADA', 'BUY', 300);
    await trade('ADA', 'SELL', 300);

    await this.run('risk', userId, { type: 'ChangeRiskParameters', data: { userId, parameters: { ...DEFAULT_RISK_PARAMETERS, stopLossType: 'trailing', stopLossValue: 3, maxPositionSize: 7.5, kellyCriterionEnabled: true } }, metadata: { now: now() } });
    for (const [i, kind] of (['DAILY_LOSS', 'POSITION_SIZE'] as const).entries()) {
      await this.run('risk', userId, {
        type: 'RaiseRiskAlert',
        data: {
          userId,
          alertId: `assistant-${userId}-${i}`,
          conditionKey: `assistant-${i}`,
          kind,
          severity: i === 0 ? 'medium' : 'high',
          symbol: i === 0 ? null : 'ETH',
          message: i === 0 ? 'Daily loss of $260.00 has reached 50% of the $500.00 limit' : 'ETH position is 8.10% of the portfolio, above the maximum of 7.5%',
          value: i === 0 ? 260 : 8.1,
          threshold: i === 0 ? 250 : 7.5,
        },
        metadata: { now: now() },
      });
    }
    await this.run('risk', userId, { type: 'AcknowledgeRiskAlert', data: { userId, alertId: `assistant-${userId}-0` }, metadata: { now: now() } });
    await this.run('risk', userId, {
      type: 'RecordBotRefusal',
      data: {
        userId,
        signalId: `refused-${userId}`,
        signalEventId: randomUUID(),
        symbol: 'LINK',
        signalType: 'BUY',
        candleTime: now(),
        decision: { rule: 'CORRELATION_LIMIT', text: 'refused: correlation 0.83 with ETH above 0.70', figures: { correlation: 0.83, limit: 0.7 } },
      },
      metadata: { now: now() },
    });
    await this.run('bot', userId, { type: 'StartBot', data: { userId, premium: true }, metadata: { now: now() } });
    user.position = this.lastPosition;
    await this.h.projector.caughtUp();
    return user;
  }
}
