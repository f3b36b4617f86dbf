/**
 * The market feed worker: a tick per coin on the bus every interval (here a few milliseconds), on
 * the in-process bus and on real NATS, as the workers service process runs it too; ticks that are
 * the simulated market's path, the same from any process; a clean stop (nothing
 * published after it, a round in flight awaited); a failing source or a bad tick that does not stop
 * the feed.
 *
 * "Nothing after stop" is checked without a fixed sleep: a second feed on the same interval keeps
 * running, and by the time it has done several more rounds the stopped one would have too.
 */
import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect, JSONCodec } from 'nats';
import { coinIds, type CoinId } from '@papertrade/domain/market/coins';
import { MARKET_TICK_SUBJECTS, marketTickSchema, type MarketTick } from '@papertrade/domain/market/contracts';
import { MarketSimulation } from '@papertrade/domain/market/simulation';
import { marketKeyFromSeed } from '@papertrade/platform/market/market-seed';
import type { Bus } from '@papertrade/platform/bus/bus';
import { MemoryBus } from '@papertrade/platform/bus/memory-bus';
import { NatsBus } from '@papertrade/platform/bus/nats-bus';
import { silentLogger, type Logger } from '@papertrade/platform/config/logger';
import type { CoinPrice, MarketData } from '@papertrade/platform/market/market-data';
import { SimulatedMarketData } from '@papertrade/platform/market/simulated-market-data';
import { NATS_URL, requireServices } from '../../test/services';
import { waitUntil } from '../../test/wait';
import { startService, type StartedService } from '../../test/app-process';
import { preparePgliteDir } from '../../test/pglite';
import { MarketFeed, marketTickSource, type TickSource } from './market-feed';

const SEED = 'market feed spec seed';
const START = Date.UTC(2025, 5, 1, 12, 0, 0);

/** A clock that moves 5 s each time it is read: every round is 5 simulated seconds after the last. */
function steppingClock(stepMs = 5000) {
  let now = START - stepMs;
  return () => new Date((now += stepMs));
}

/** Every tick received on `pattern`, per coin, in order. */
async function collect(bus: Bus) {
  const ticks = new Map<string, MarketTick[]>();
  const subjects: string[] = [];
  const unsubscribe = await bus.subscribe(MARKET_TICK_SUBJECTS, (subject, payload) => {
    subjects.push(subject);
    const tick = marketTickSchema.parse(payload);
    ticks.set(tick.coinId, [...(ticks.get(tick.coinId) ?? []), tick]);
  });
  return {
    ticks,
    subjects,
    unsubscribe,
    count: () => subjects.length,
    /** Every coin has at least `n` ticks. */
    each: (n: number) => coinIds.every((id) => (ticks.get(id)?.length ?? 0) >= n),
  };
}

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { ...silentLogger, warnings, warn: (message, context) => warnings.push(`${message} ${JSON.stringify(context ?? {})}`) };
}

function feedSuite(name: string, makeBus: () => Promise<{ publisher: Bus; subscriber: Bus; close(): Promise<void> }>) {
  describe(`market feed on the ${name} bus`, function () {
    this.timeout(30_000);
    let buses: Awaited<ReturnType<typeof makeBus>>;
    const feeds: MarketFeed[] = [];
    beforeEach(async function () {
      buses = await makeBus();
    });
    afterEach(async function () {
      for (const feed of feeds.splice(0)) await feed.stop();
      await buses?.close();
    });
    const feed = (ticks: TickSource, options: { intervalMs?: number; logger?: Logger } = {}) => {
      const f = new MarketFeed({ bus: buses.publisher, ticks, intervalMs: options.intervalMs ?? 10, logger: options.logger ?? silentLogger });
      feeds.push(f);
      return f;
    };

    it('publishes a valid tick for every coin, on market.tick.<coinId>, every interval', async function () {
      const received = await collect(buses.subscriber);
      const market = new SimulatedMarketData(SEED, steppingClock());
      const f = feed(marketTickSource(market));
      f.start();
      await waitUntil(() => received.each(3), { message: 'three ticks of every coin' });
      for (const subject of received.subjects) expect(subject).to.match(/^market\.tick\.[a-z0-9-]+$/);
      for (const [coinId, ticks] of received.ticks) {
        for (const tick of ticks) expect(tick.coinId).to.equal(coinId);
      }
      expect(received.subjects.filter((s) => s === 'market.tick.avalanche-2').length).to.be.at.least(3);
      expect(f.status()).to.include({ name: 'market-feed', running: true, intervalMs: 10, failedRounds: 0, lastError: null });
      expect(f.status().ticksPublished).to.be.at.least(30);
    });

    it("ticks move every 5 s along the path any other process computes the same way, the price candles are made of", async function () {
      const received = await collect(buses.subscriber);
      const f = feed(marketTickSource(new SimulatedMarketData(SEED, steppingClock())));
      f.start();
      await waitUntil(() => received.each(4), { message: 'four ticks of every coin' });
      await f.stop();
      const elsewhere = new MarketSimulation(marketKeyFromSeed(SEED));
      for (const id of coinIds) {
        const ticks = received.ticks.get(id)!;
        ticks.forEach((tick, i) => {
          expect(Date.parse(tick.at)).to.equal(START + i * 5000);
          expect(tick.price, `${id} at ${tick.at}`).to.equal(elsewhere.priceAt(id, Date.parse(tick.at)));
          expect(tick.changePercent24h).to.equal(elsewhere.quote(id, Date.parse(tick.at)).changePercent24h);
        });
        expect(new Set(ticks.map((t) => t.price)).size, `${id} moves within the minute`).to.equal(ticks.length);
        // The first tick opens the minute's candle; the ones after it are inside its range.
        const candle = elsewhere.candles(id, START, START + 59_999, 1)[0]!;
        expect(ticks[0]!.price).to.equal(candle.open);
        for (const tick of ticks.filter((t) => Date.parse(t.at) < START + 60_000)) expect(tick.price).to.be.within(candle.low, candle.high);
      }
    });

    it('stops cleanly: nothing is published after stop resolves, and a second stop is harmless', async function () {
      const received = await collect(buses.subscriber);
      const stopped = feed(marketTickSource(new SimulatedMarketData(SEED, steppingClock())));
      stopped.start();
      await waitUntil(() => received.each(2), { message: 'two ticks of every coin' });
      await stopped.stop();
      const published = stopped.status().ticksPublished;
      expect(stopped.status().running).to.equal(false);
      await waitUntil(() => received.count() === published, { message: 'every tick published before the stop to arrive' });

      let witnessRounds = 0;
      const witness = feed(async () => {
        witnessRounds += 1;
        return [];
      });
      witness.start();
      await waitUntil(() => witnessRounds >= 10, { message: 'ten rounds of a feed still running' });
      expect(received.count()).to.equal(published);
      expect(stopped.status().ticksPublished).to.equal(published);
      await stopped.stop();
    });

    it('waits for a round in flight, whose ticks are then not published', async function () {
      const received = await collect(buses.subscriber);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let calls = 0;
      const market = new SimulatedMarketData(SEED, () => new Date(START));
      const f = feed(async () => {
        calls += 1;
        await gate;
        return (await market.prices()).map((p) => ({ coinId: p.coinId, symbol: p.symbol, price: p.price, changePercent24h: p.changePercent24h, at: p.at }));
      });
      f.start();
      await waitUntil(() => calls === 1, { message: 'the first round to start' });
      let stopResolved = false;
      const stopping = f.stop().then(() => (stopResolved = true));
      await new Promise((resolve) => setImmediate(resolve));
      expect(stopResolved, 'stop waits for the round').to.equal(false);
      release();
      await stopping;
      expect(calls).to.equal(1);
      expect(f.status().ticksPublished).to.equal(0);
      expect(received.count()).to.equal(0);
    });

    it('keeps going after a failing round, and drops a tick that breaks the contract', async function () {
      const received = await collect(buses.subscriber);
      const logger = recordingLogger();
      const market = new SimulatedMarketData(SEED, steppingClock());
      let round = 0;
      const f = feed(
        async () => {
          round += 1;
          if (round === 1) throw new Error('the source is down');
          const ticks = (await market.prices()).map((p) => ({ coinId: p.coinId, symbol: p.symbol, price: p.price, changePercent24h: p.changePercent24h, at: p.at }));
          return ticks.map((t) => (t.coinId === 'cardano' ? { ...t, price: Number.NaN } : t));
        },
        { logger },
      );
      f.start();
      await waitUntil(() => f.status().rounds >= 3 && received.count() >= 18, { message: 'rounds after the failure' });
      expect(f.status().failedRounds).to.equal(1);
      expect(f.status().lastError).to.equal(null);
      expect(received.ticks.has('cardano')).to.equal(false);
      expect(received.ticks.get('bitcoin')!.length).to.be.at.least(2);
      expect(logger.warnings[0]).to.match(/^market feed round failed.*the source is down/);
      expect(logger.warnings.some((w) => /^market tick dropped: not a valid tick.*cardano/.test(w))).to.equal(true);
    });
  });
}

feedSuite('in-process', async () => {
  const bus = new MemoryBus();
  return { publisher: bus, subscriber: bus, close: () => bus.close() };
});

describe('market feed over NATS', function () {
  before(async function () {
    await requireServices(this, 'nats');
  });
  // Publisher and subscriber on two connections, as the workers process and the relay would be.
  feedSuite('NATS', async () => {
    const prefix = `t${randomUUID().slice(0, 8)}`;
    const publisher = await NatsBus.connect(NATS_URL, { prefix });
    const subscriber = await NatsBus.connect(NATS_URL, { prefix });
    return {
      publisher,
      subscriber,
      close: async () => {
        await publisher.close();
        await subscriber.close();
      },
    };
  });
});

describe('market tick source', function () {
  it('reads the port', async function () {
    const prices: CoinPrice[] = [
      { coinId: 'bitcoin', symbol: 'BTC', price: 60000, change24h: null, changePercent24h: null, volume24h: null, at: '2025-06-01T12:00:00.000Z' },
    ];
    const port = { source: 'coingecko', prices: async () => prices } as unknown as MarketData;
    expect(await marketTickSource(port)()).to.deep.equal([
      { coinId: 'bitcoin', symbol: 'BTC', price: 60000, changePercent24h: null, at: '2025-06-01T12:00:00.000Z' },
    ]);
  });

  it('refuses an interval that is not a positive whole number of milliseconds', function () {
    for (const intervalMs of [0, -5, 2.5, Number.NaN]) {
      expect(() => new MarketFeed({ bus: new MemoryBus(), ticks: async () => [], intervalMs, logger: silentLogger })).to.throw(RangeError);
    }
  });
});

describe('the workers service process runs the market feed (NATS)', function () {
  this.timeout(90_000);
  let service: StartedService | undefined;
  let dataDir: string;
  const prefix = `w${randomUUID().slice(0, 8)}`;

  before(async function () {
    await requireServices(this, 'nats');
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'papertrade-workers-'));
    await preparePgliteDir(path.join(dataDir, 'pglite'));
  });
  after(async function () {
    await service?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('publishes every coin on NATS every MARKET_TICK_MS and reports the feed on /api/health', async function () {
    const nc = await connect({ servers: NATS_URL });
    const codec = JSONCodec();
    const seen = new Map<CoinId, number>();
    const sub = nc.subscribe(`${prefix}.market.tick.*`, {
      callback: (_err, msg) => {
        const tick = marketTickSchema.parse(codec.decode(msg.data));
        seen.set(tick.coinId, (seen.get(tick.coinId) ?? 0) + 1);
      },
    });
    await nc.flush();
    try {
      service = await startService('bin/start-service.ts', ['workers'], {
        DATA_DIR: dataDir,
        BUS: 'nats',
        NATS_URL,
        NATS_PREFIX: prefix,
        JWT_SECRET: randomUUID() + randomUUID(),
        MARKET_SEED: randomUUID(),
        // The workers sign the testnet mirror's orders with sealed keys: they refuse to start without it.
        SECRETS_KEY: randomBytes(32).toString('hex'),
        MARKET_TICK_MS: '50',
        LOG: 'off',
      });
      await waitUntil(() => coinIds.every((id) => (seen.get(id) ?? 0) >= 2), { timeoutMs: 30_000, message: 'two ticks of every coin over NATS' });
      const health = (await (await fetch(`${service.url}/api/health`)).json()) as { status: string; workers: Array<Record<string, unknown>> };
      expect(health.status).to.equal('ok');
      expect(health.workers.map((w) => w.name)).to.deep.equal(['market-feed', 'signal-engine', 'trading-bot', 'risk-monitor', 'subscription-expiry', 'job-runner', 'testnet-mirror', 'auto-retrain']);
      expect(health.workers[0]).to.include({ name: 'market-feed', running: true, intervalMs: 50, failedRounds: 0 });
      expect(health.workers[0]!.ticksPublished).to.be.at.least(20);
      expect(health.workers[1]).to.include({ name: 'signal-engine', running: true, candleMinutes: 5 });
      expect(health.workers[2]).to.include({ name: 'trading-bot', running: true, following: true });
      expect(health.workers[3]).to.include({ name: 'risk-monitor', running: true, leading: true });
      expect(health.workers[3]!.ticks, 'the risk monitor hears the ticks').to.be.greaterThan(0);
      expect(health.workers[4]).to.include({ name: 'subscription-expiry', running: true, failures: 0 });

      await service.stop();
      expect(service.child.exitCode).to.equal(0);
    } finally {
      sub.unsubscribe();
      await nc.close();
    }
  });
});
