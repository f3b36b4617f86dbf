/**
 * The trading bot worker on the embedded stores (PGlite) with the projector running: a signal
 * reaches the bot of an ACTIVE premium user (and the house demo bot) and becomes exactly one trade;
 * a stopped bot, or an active bot whose user is no longer premium, gets none; a worker that dies
 * midway (after some trades were appended, before its checkpoint moved) and restarts, or a replay
 * of the same signal, still leaves exactly one trade per bot.
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
import { CommandHandler, type CommandMeta, type CommandResult } from '@papertrade/platform/commands/command-handler';
import { silentLogger } from '@papertrade/platform/config/logger';
import type { DomainEvent } from '@papertrade/domain/shared/decider';
import type { Decider } from '@papertrade/domain/shared/decider';
import { startHarness, type Harness } from '../../test/api-harness';
import { PROCESS_CHECKPOINT_COLLECTION } from './event-follower';
import { TradingBot } from './trading-bot';

const PRICES = [{ symbol: 'ETH', price: 3000 }, { symbol: 'BTC', price: 60_000 }];

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

  function newBot(h: CommandHandler = handler, options: { concurrency?: number } = {}) {
    const { eventStore, documents, leases, readModels } = harness.rt.infra;
    const bot = new TradingBot({
      eventStore,
      documents,
      leases,
      readModels,
      handler: h,
      marketData: { prices: async () => PRICES.map((p) => ({ ...p, coinId: 'x', change24h: null, changePercent24h: null, volume24h: null, at: new Date().toISOString() })) as never },
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
    expect(trades[0]).to.include({ tradeId: tradeIdFor(signalId, active), side: 'BUY', symbol: 'ETH', price: 3000 });
    expect(trades[0]!.source).to.include({ kind: 'SIGNAL', signalId });
    // 5 % of 10,000 USD at 3000, within the fee.
    expect(trades[0]!.quantity * 3000).to.be.within(499, 500);
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
    expect(sells[0]).to.include({ quantity: bought[0]!.quantity, price: 620 });
  });
});
