/**
 * The trading bot worker on the embedded stores (PGlite) with the projector running: a signal
 * reaches the bot of an ACTIVE premium user (and the house demo bot) and becomes exactly one trade;
 * a stopped bot, or an active bot whose user is no longer premium, gets none; a worker that dies
 * midway (after some trades were appended, before its checkpoint moved) and restarts, or a replay
 * of the same signal, still leaves exactly one trade per bot. Fills (issue 17): every bot's order on a
 * signal fills at the first tick at or after the signal's candle close plus BOT_LATENCY_MS, the worker
 * waiting for that tick when early, or at the live tick with the delay recorded when late; at the tick's
 * mid plus the half spread and impact. The user's one risk profile reaches the bot's next decision from
 * either screen's command (Risk Management's parameters, Bot Settings), the trade carries its decision
 * and exit plan, and a BUY a rule refuses is recorded once with the rule and its figures (the market
 * rules read candles the test controls, as they stood at the fill time).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { subscriptionDecider, subscriptionStreamId } from '@papertrade/domain/auth/subscription';
import { botStreamId } from '@papertrade/domain/trading/bot';
import { botDecider } from '@papertrade/domain/trading/bot.decider';
import { tradeIdFor } from '@papertrade/domain/trading/bot-trade-decision';
import { HOUSE_DEMO_USER_ID } from '@papertrade/domain/trading/house-demo';
import type { SimulatedTradePlaced } from '@papertrade/domain/trading/portfolio';
import type { SignalGeneratedV1 } from '@papertrade/domain/signals/signal';
import { coins, halfSpreadOf } from '@papertrade/domain/market/coins';
import { tickAt, tickTime } from '@papertrade/domain/market/market-path';
import { priceImpact } from '@papertrade/domain/trading/engine/fills';
import type { OrderQuote } from '@papertrade/platform/market/market-data';
import { CommandHandler, type CommandMeta, type CommandResult } from '@papertrade/platform/commands/command-handler';
import { silentLogger } from '@papertrade/platform/config/logger';
import type { DomainEvent } from '@papertrade/domain/shared/decider';
import type { Decider } from '@papertrade/domain/shared/decider';
import { startHarness, type Harness } from '../../test/api-harness';
import { PROCESS_CHECKPOINT_COLLECTION } from './event-follower';
import { TradingBot } from './trading-bot';
import { DEFAULT_RISK_PARAMETERS, type BotSettings, type RiskParameters } from '@papertrade/domain/trading/contracts';
import { riskStreamId, type BotSignalRefused } from '@papertrade/domain/trading/risk';
import { riskDecider } from '@papertrade/domain/trading/risk.decider';
import { portfolioDecider } from '@papertrade/domain/trading/portfolio.decider';
import { portfolioStreamId } from '@papertrade/domain/trading/portfolio';
import { BOT_DECISIONS_PROJECTION, type BotDecisionsView } from '@papertrade/domain/trading/bot-decisions-view';
import type { CoinId } from '@papertrade/domain/market/coins';
import { syntheticCandles, type SyntheticMarket } from '../../test/synthetic-candles';

/** The mids the test's market answers at any tick, and its minute volume. */
const MIDS: Record<string, number> = { ETH: 3000, BTC: 60_000, BNB: 600, SOL: 150, ADA: 0.45 };
const MINUTE_VOLUME = 5_000_000;

/** A market whose mid is fixed per coin: what an order met at `atMs` (the tick at or before it), as the simulated adapter answers. */
function fixedQuotes(atMs: number): OrderQuote[] {
  return coins.map((c) => ({ coinId: c.id, symbol: c.symbol, price: MIDS[c.symbol] ?? 10, filledAt: new Date(tickTime(tickAt(atMs))).toISOString(), minuteVolumeUsd: MINUTE_VOLUME }));
}

/** The fill price of a bot BUY (or SELL) of `quantity` at the test market's mid. */
function filledAt(symbol: string, side: 'BUY' | 'SELL', quantity: number): number {
  const coin = coins.find((c) => c.symbol === symbol)!;
  const mid = MIDS[symbol] ?? 10;
  const cost = halfSpreadOf(coin.id) + priceImpact(coin.id, quantity * mid, MINUTE_VOLUME);
  return side === 'BUY' ? mid * (1 + cost) : mid * (1 - cost);
}

describe('trading bot worker (PGlite)', function () {
  this.timeout(120_000);
  let harness: Harness;
  let handler: CommandHandler;
  const bots: TradingBot[] = [];

  before(async function () {
    harness = await startHarness();
    handler = new CommandHandler(harness.rt.infra.eventStore, () => new Date());
  });
  afterEach(async function () {
    for (const bot of bots.splice(0)) await bot.stop();
  });
  after(async function () {
    await harness?.stop();
  });

  const meta = (actor: string): CommandMeta => ({ actor, correlationId: randomUUID() });

  async function premium(userId: string, tier: 'PREMIUM' | 'FREE') {
    await handler.handle(subscriptionDecider, subscriptionStreamId(userId), { type: 'ChangeSubscriptionByAdmin', data: { userId, tier, adminId: 'admin' }, metadata: { now: new Date().toISOString() } }, meta('admin'));
  }
  async function startBot(userId: string) {
    await handler.handle(botDecider, botStreamId(userId), { type: 'StartBot', data: { userId, premium: true }, metadata: { now: new Date().toISOString() } }, meta(userId));
  }
  async function stopBot(userId: string) {
    await handler.handle(botDecider, botStreamId(userId), { type: 'StopBot', data: { userId }, metadata: { now: new Date().toISOString() } }, meta(userId));
  }

  /** Appends a SignalGenerated as the signal engine would (its candle just closed). */
  async function signal(symbol: string, type: 'BUY' | 'SELL', price: number, signalId = randomUUID(), candleTime = new Date(Math.floor(Date.now() / 300_000) * 300_000 - 300_000).toISOString()) {
    const data: SignalGeneratedV1['data'] = { signalId, symbol, type, confidence: 80, price, candleTime, reasons: [] };
    await harness.rt.infra.eventStore.append(`signals-${symbol}`, [{ id: randomUUID(), type: 'SignalGenerated', data, metadata: { userId: 'signal-engine', correlationId: signalId, causationId: signalId, at: new Date().toISOString(), schemaVersion: 1 } }], 'any');
    return { signalId, candleTime };
  }

  /** Every time the bots read the market (ms asked). */
  const asked: number[] = [];
  /** The candles the bot's market rules read (the test may change them). */
  let market: SyntheticMarket = {};

  function newBot(h: CommandHandler = handler, options: { concurrency?: number; clock?: () => Date; waitUntil?: (ms: number) => Promise<void> } = {}) {
    const { eventStore, documents, leases, readModels } = harness.rt.infra;
    const bot = new TradingBot({
      eventStore,
      documents,
      leases,
      readModels,
      handler: h,
      marketData: {
        quotesAt: async (atMs: number) => {
          asked.push(atMs);
          return fixedQuotes(atMs);
        },
        candles: async (coinId: CoinId, days: number, endMs?: number) => syntheticCandles(coinId, days, endMs ?? Date.now(), market),
      },
      clock: () => new Date(),
      logger: silentLogger,
      ...options,
    });
    bots.push(bot);
    return bot;
  }

  async function tradesOf(userId: string): Promise<SimulatedTradePlaced['data'][]> {
    const events = await harness.rt.infra.eventStore.readStream(`portfolio-${userId}`);
    return events.filter((e) => e.type === 'SimulatedTradePlaced').map((e) => e.data as SimulatedTradePlaced['data']);
  }

  async function settle(bot: TradingBot) {
    await bot.follower.reached(await harness.head());
  }

  it('turns a BUY signal into exactly one trade for each ACTIVE premium bot and the house bot, none for stopped or lapsed ones', async function () {
    const active = randomUUID();
    const stopped = randomUUID();
    const lapsed = randomUUID();
    for (const u of [active, stopped, lapsed]) {
      await premium(u, 'PREMIUM');
      await startBot(u);
    }
    await stopBot(stopped);
    await premium(lapsed, 'FREE'); // the bot stays ACTIVE, but a free user's bot does not trade
    const { signalId } = await signal('ETH', 'BUY', 3000);
    await harness.projector.caughtUp();

    const bot = newBot();
    await bot.start();
    await settle(bot);

    const trades = await tradesOf(active);
    expect(trades).to.have.length(1);
    expect(trades[0]).to.include({ tradeId: tradeIdFor(signalId, active), side: 'BUY', symbol: 'ETH', price: filledAt('ETH', 'BUY', trades[0]!.quantity) });
    expect(trades[0]!.source).to.include({ kind: 'SIGNAL', signalId });
    // 5 % of 10,000 USD at the fill price, within the fee.
    expect(trades[0]!.quantity * trades[0]!.price).to.be.within(499, 500);
    expect(await tradesOf(HOUSE_DEMO_USER_ID)).to.have.length.greaterThanOrEqual(1);
    expect((await tradesOf(HOUSE_DEMO_USER_ID)).filter((t) => t.source.kind === 'SIGNAL' && t.source.signalId === signalId)).to.have.length(1);
    expect(await tradesOf(stopped)).to.deep.equal([]);
    expect(await tradesOf(lapsed)).to.deep.equal([]);
  });

  it('places each trade once when the worker dies midway and restarts, and when the signal is replayed', async function () {
    const users = [randomUUID(), randomUUID(), randomUUID()];
    for (const u of users) {
      await premium(u, 'PREMIUM');
      await startBot(u);
    }
    await harness.projector.caughtUp();
    const startHead = await harness.head();

    // A worker that dies right after appending the first two trades of a batch, before the signal is
    // done (so before its checkpoint moves): its handler appends those two and throws. After that, a
    // dead process appends nothing more: every later command fails too.
    let appended = 0;
    class DyingHandler extends CommandHandler {
      override async handle<S, C, E extends DomainEvent>(decider: Decider<S, C, E>, streamId: string, command: C | ((s: S) => C | Promise<C>), m: CommandMeta, loaded?: never): Promise<CommandResult<E>> {
        if (appended >= 2) throw new Error('worker killed');
        const result = await super.handle(decider, streamId, command, m, loaded);
        if (++appended === 2) throw new Error('worker killed');
        return result;
      }
      override async handleMany<S, C, E extends DomainEvent>(decider: Decider<S, C, E>, items: Parameters<CommandHandler['handleMany']>[1]): Promise<Array<CommandResult<E> | Error>> {
        if (appended >= 2) throw new Error('worker killed');
        const results = await super.handleMany(decider, items.slice(0, 2 - appended) as never);
        appended += results.filter((r) => !(r instanceof Error)).length;
        if (appended >= 2) throw new Error('worker killed');
        return results as Array<CommandResult<E> | Error>;
      }
    }
    const dying = newBot(new DyingHandler(harness.rt.infra.eventStore, () => new Date()), { concurrency: 1 });
    await dying.start(); // catch up with the earlier signals first
    await settle(dying);
    appended = 0;
    const { signalId } = await signal('BTC', 'BUY', 60_000);
    const { waitUntil } = await import('../../test/wait');
    await waitUntil(() => dying.status().failures > 0, { message: 'the worker to die' });
    await dying.stop();
    const checkpoint = await harness.rt.infra.documents.collection<{ position: string }>(PROCESS_CHECKPOINT_COLLECTION).get('trading-bot');
    expect(checkpoint?.position, 'the checkpoint did not move past the signal').to.equal(startHead);
    const placedBefore = (await harness.eventsSince(startHead)).filter((e) => e.type === 'SimulatedTradePlaced');
    expect(placedBefore, 'two trades were placed before it died').to.have.length(2);

    const restarted = newBot();
    await restarted.start();
    await settle(restarted);
    for (const u of users) {
      const trades = (await tradesOf(u)).filter((t) => t.source.kind === 'SIGNAL' && t.source.signalId === signalId);
      expect(trades.map((t) => t.tradeId), `user ${u}`).to.deep.equal([tradeIdFor(signalId, u)]);
    }
    await restarted.stop();

    // The same signal again (a second event with the same signal id), and a worker replaying from before the signal.
    await signal('BTC', 'BUY', 60_000, signalId);
    await harness.rt.infra.documents.collection(PROCESS_CHECKPOINT_COLLECTION).put('trading-bot', { position: startHead! });
    const replaying = newBot();
    await replaying.start();
    await settle(replaying);
    for (const u of users) expect(await tradesOf(u), `user ${u}`).to.have.length(1);
    expect(replaying.status().tradesPlaced).to.equal(0);
  });

  it('sells the whole position on a SELL signal, once', async function () {
    const u = randomUUID();
    await premium(u, 'PREMIUM');
    await startBot(u);
    await harness.projector.caughtUp();
    const bot = newBot();
    await bot.start();
    // Two closed candles of a coin no earlier test traded: the BUY's, then the SELL's.
    const candle = Math.floor(Date.now() / 300_000) * 300_000;
    await signal('BNB', 'BUY', 600, randomUUID(), new Date(candle - 600_000).toISOString());
    await settle(bot);
    const bought = await tradesOf(u);
    expect(bought.map((t) => t.side)).to.deep.equal(['BUY']);
    await signal('BNB', 'SELL', 620, randomUUID(), new Date(candle - 300_000).toISOString());
    await signal('BNB', 'SELL', 630, randomUUID(), new Date(candle - 300_000 + 1).toISOString());
    await settle(bot);
    const sells = (await tradesOf(u)).filter((t) => t.side === 'SELL');
    expect(sells).to.have.length(1);
    expect(sells[0]).to.include({ quantity: bought[0]!.quantity, price: filledAt('BNB', 'SELL', bought[0]!.quantity) });
  });

  describe('fills timed by the signal (issue 17)', function () {
    /** Two premium users with running bots. */
    async function twoBots(): Promise<string[]> {
      const users = [randomUUID(), randomUUID()];
      for (const u of users) {
        await premium(u, 'PREMIUM');
        await startBot(u);
      }
      await harness.projector.caughtUp();
      return users;
    }
    const signalTrades = async (userId: string, signalId: string) => (await tradesOf(userId)).filter((t) => t.source.kind === 'SIGNAL' && t.source.signalId === signalId);

    it('fills every bot at the first tick at or after the candle\'s close plus 2 s, waiting for that tick when the signal comes early', async function () {
      const users = await twoBots();
      const close = Math.floor(Date.now() / 300_000) * 300_000; // the candle before closed here
      let now = close + 1200; // the signal engine evaluates a second after the close
      const waited: number[] = [];
      const bot = newBot(handler, {
        clock: () => new Date(now),
        waitUntil: async (ms) => {
          waited.push(ms);
          now = Math.max(now, ms);
        },
      });
      await bot.start();
      await settle(bot);
      waited.length = 0;
      asked.length = 0;
      const late = bot.status().lateFills;
      const { signalId } = await signal('SOL', 'BUY', 9, randomUUID(), new Date(close - 300_000).toISOString());
      await settle(bot);
      const intended = new Date(close + 5000).toISOString();
      expect(waited, 'the worker waited for the tick 5 s after the close').to.deep.equal([close + 5000]);
      expect(asked, 'the market read once, at that tick').to.deep.equal([close + 5000]);
      for (const u of users) {
        const [trade, ...more] = await signalTrades(u, signalId);
        expect(more, u).to.deep.equal([]);
        expect(trade!.execution).to.deep.equal({ mid: MIDS.SOL, halfSpread: halfSpreadOf('solana'), impact: priceImpact('solana', trade!.quantity * MIDS.SOL!, MINUTE_VOLUME), filledAt: intended, intendedAt: intended, delayMs: 0 });
        expect(trade!.placedAt).to.equal(intended);
        expect(trade!.price).to.equal(filledAt('SOL', 'BUY', trade!.quantity));
      }
      expect(bot.status().lateFills - late, 'no late fill').to.equal(0);
    });

    it('fills at the live tick and records the delay when the bot handles the signal after its tick', async function () {
      const users = await twoBots();
      const close = Math.floor(Date.now() / 300_000) * 300_000;
      const now = close + 93_700; // a worker a minute and a half behind
      const waited: number[] = [];
      const bot = newBot(handler, { clock: () => new Date(now), waitUntil: async (ms) => void waited.push(ms) });
      await bot.start();
      await settle(bot);
      waited.length = 0;
      const late = bot.status().lateFills;
      const { signalId } = await signal('ADA', 'BUY', 9, randomUUID(), new Date(close - 300_000).toISOString());
      await settle(bot);
      expect(waited).to.deep.equal([]);
      for (const u of users) {
        const [trade] = await signalTrades(u, signalId);
        expect(trade!.execution).to.include({ filledAt: new Date(close + 90_000).toISOString(), intendedAt: new Date(close + 5000).toISOString(), delayMs: 85_000 });
        expect(trade!.placedAt).to.equal(new Date(close + 90_000).toISOString());
      }
      expect(bot.status().lateFills - late).to.equal(1);
      expect(bot.status().maxDelayMs).to.be.at.least(85_000);
    });
  });

  describe('the one risk profile (issue 17)', function () {
    afterEach(() => {
      market = {};
    });
    const now = () => new Date().toISOString();
    async function riskParameters(userId: string, changes: Partial<RiskParameters>) {
      await handler.handle(riskDecider, riskStreamId(userId), { type: 'ChangeRiskParameters', data: { userId, parameters: { ...DEFAULT_RISK_PARAMETERS, ...changes } }, metadata: { now: now() } }, meta(userId));
    }
    async function botSettings(userId: string, changes: Partial<BotSettings>) {
      await handler.handle(riskDecider, riskStreamId(userId), { type: 'ChangeBotSettings', data: { userId, changes }, metadata: { now: now() } }, meta(userId));
    }
    async function premiumBot() {
      const u = randomUUID();
      await premium(u, 'PREMIUM');
      await startBot(u);
      return u;
    }
    const candleAt = (minutesAgo: number) => new Date(Math.floor(Date.now() / 300_000) * 300_000 - minutesAgo * 60_000).toISOString();

    it('a maximum position size set on Risk Management (7 %) is what the bot buys next; one set through Bot Settings (6 %) too', async function () {
      const onRisk = await premiumBot();
      const onBot = await premiumBot();
      await riskParameters(onRisk, { maxPositionSize: 7 });
      await botSettings(onBot, { maxPositionSize: 6 });
      await harness.projector.caughtUp();
      const bot = newBot();
      await bot.start();
      await settle(bot);
      await signal('SOL', 'BUY', 150, randomUUID(), candleAt(20));
      await settle(bot);
      const [risky] = await tradesOf(onRisk);
      const [botty] = await tradesOf(onBot);
      // At the fill price (the mid, the half spread and the impact), the fee on top.
      expect(risky!.quantity * risky!.price * 1.001, '7 % of 10,000 with the fee').to.be.within(699.9, 700);
      expect(botty!.quantity * botty!.price * 1.001, '6 % of 10,000 with the fee').to.be.within(599.9, 600);
    });

    it('the trade carries its decision and its position\'s exit plan with the ATR14 and sigma at entry', async function () {
      const u = await premiumBot();
      await harness.projector.caughtUp();
      const bot = newBot();
      await bot.start();
      await settle(bot);
      await signal('ADA', 'BUY', 0.45, randomUUID(), candleAt(15));
      await settle(bot);
      const [trade] = await tradesOf(u);
      expect(trade!.decision).to.deep.include({ rule: 'FIXED_SIZE' });
      // The entry the rules see is the fill (the mid 0.45 plus the half spread and impact: 0.450095),
      // so the stop and target read as the position's real levels: 0.441093 and 0.472600.
      expect(trade!.price).to.be.within(0.45009, 0.4501);
      expect(trade!.decision!.text).to.match(/^bought 5\.00% of \$10,000\.00 \(\$500\.00 with the fee\): fixed size 5%; stop \$0\.4411 \(fixed 2%\), target \$0\.4726 \(ratio 2\.5\), reward\/risk 2\.18$/);
      expect(trade!.exits).to.include({ kind: 'PROFILE' });
      expect(trade!.exits!.kind === 'PROFILE' && trade!.exits!.atr).to.be.above(0);
      expect(trade!.exits!.kind === 'PROFILE' && trade!.exits!.sigma).to.be.above(0);
    });

    it('records a BUY a rule refused, once, with the rule and its figures, and lists it in bot-decisions; a replay records nothing more', async function () {
      const u = await premiumBot();
      // The user holds BTC; BNB moves exactly with BTC: correlation 1, above the default 0.7.
      await handler.handle(portfolioDecider, portfolioStreamId(u), { type: 'PlaceSimulatedTrade', data: { userId: u, tradeId: randomUUID(), symbol: 'BTC', side: 'BUY', amount: 0.001, price: 60_000, source: { kind: 'MANUAL' } }, metadata: { now: now() } }, meta(u));
      market = { follows: { binancecoin: 'bitcoin' } };
      await harness.projector.caughtUp();
      const bot = newBot();
      await bot.start();
      await settle(bot);
      const start = await harness.head();
      const { signalId } = await signal('BNB', 'BUY', 600, randomUUID(), candleAt(10));
      await settle(bot);
      expect((await tradesOf(u)).filter((t) => t.symbol === 'BNB')).to.deep.equal([]);
      const refusals = (await harness.eventsSince(start)).filter((e) => e.type === 'BotSignalRefused' && (e.data as BotSignalRefused['data']).userId === u);
      expect(refusals).to.have.length(1);
      expect(refusals[0]!.data).to.deep.include({
        userId: u,
        signalId,
        symbol: 'BNB',
        signalType: 'BUY',
        decision: { rule: 'CORRELATION_LIMIT', text: 'refused: correlation 1.00 with BTC above 0.70', figures: { correlation: 1, correlationLimit: 0.7 } },
      });
      expect(bot.status().refusalsRecorded).to.be.at.least(1);
      await harness.projector.caughtUp();
      const listed = await (await harness.rt.infra.readModels.collection<BotDecisionsView>(BOT_DECISIONS_PROJECTION)).get(u);
      expect(listed!.refusals.map((r) => [r.signalId, r.rule])).to.deep.equal([[signalId, 'CORRELATION_LIMIT']]);

      // The same signal again: decided already, nothing recorded twice.
      await signal('BNB', 'BUY', 600, signalId, candleAt(10));
      await settle(bot);
      expect((await harness.eventsSince(start)).filter((e) => e.type === 'BotSignalRefused' && (e.data as BotSignalRefused['data']).userId === u)).to.have.length(1);

      // The limit raised on Risk Management to 1: the next BNB signal is bought.
      await riskParameters(u, { correlationLimit: 1 });
      await signal('BNB', 'BUY', 600, randomUUID(), candleAt(5));
      await settle(bot);
      expect((await tradesOf(u)).filter((t) => t.symbol === 'BNB')).to.have.length(1);
    });
  });
});
