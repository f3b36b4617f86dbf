/**
 * The trading bot worker on the embedded stores (PGlite) with the projector running: a signal
 * reaches the bot of an ACTIVE premium user (and the house demo bot) and becomes exactly one trade;
 * a stopped bot, or an active bot whose user is no longer premium, gets none; a worker that dies
 * midway (after some trades were appended, before its checkpoint moved) and restarts, or a replay
 * of the same signal, still leaves exactly one trade per bot. Fills (issue 17): every bot's order on a
 * signal fills at the first tick at or after the signal's candle close plus BOT_LATENCY_MS, the worker
 * waiting for that tick when early, or at the live tick with the delay recorded when late; at the tick's
 * mid plus the half spread and impact.
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

/** The mids the test's market answers at any tick, and its minute volume. */
const MIDS: Record<string, number> = { ETH: 3000, BTC: 60_000, BNB: 600 };
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
        expect(trade!.execution).to.deep.equal({ mid: 10, halfSpread: halfSpreadOf('solana'), impact: priceImpact('solana', trade!.quantity * 10, MINUTE_VOLUME), filledAt: intended, intendedAt: intended, delayMs: 0 });
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
});
