/**
 * The market data kept per step of its resolution: the same answers as the adapter at every moment
 * (a new step, a new tick of the path, is computed afresh at once), computed once per step, and the
 * simulated adapter's declared resolution true of its answers.
 */
import { expect } from 'chai';
import { coins, type CoinId, type PricePoint } from '@papertrade/domain/market/coins';
import { CachedMarketData, MARKET_ANSWERS_KEPT } from './cached-market-data';
import type { CandleSeries, CoinPrice, MarketData, OrderQuote } from './market-data';
import { TICK_MS } from '@papertrade/domain/market/simulation';
import { SimulatedMarketData } from './simulated-market-data';

const START = Date.UTC(2025, 5, 1, 9, 30, 15);
const SECOND = 1000;

/** An adapter that counts its calls. */
class CountingMarket implements MarketData {
  readonly source;
  readonly resolutionMs;
  calls = 0;
  failNext = false;
  constructor(private readonly inner: MarketData) {
    this.source = inner.source;
    this.resolutionMs = inner.resolutionMs;
  }
  supportedCoins() {
    return this.inner.supportedCoins();
  }
  async prices(): Promise<CoinPrice[]> {
    this.calls++;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('source down');
    }
    return this.inner.prices();
  }
  async price(coinId: CoinId): Promise<CoinPrice> {
    this.calls++;
    return this.inner.price(coinId);
  }
  async candles(coinId: CoinId, days: number, endMs?: number): Promise<CandleSeries> {
    this.calls++;
    return this.inner.candles(coinId, days, endMs);
  }
  async quotesAt(atMs: number): Promise<OrderQuote[]> {
    this.calls++;
    return this.inner.quotesAt(atMs);
  }
  get ticks() {
    return this.inner.ticks;
  }
  async history(coinId: CoinId, days: number): Promise<PricePoint[]> {
    this.calls++;
    return this.inner.history(coinId, days);
  }
}

describe('cached market data', function () {
  let now = START;
  const clock = () => new Date(now);
  beforeEach(function () {
    now = START;
  });

  it('answers what the adapter answers at every moment, a new step at once, each step computed once', async function () {
    const plain = new SimulatedMarketData('cached market spec seed 7', clock);
    const counted = new CountingMarket(new SimulatedMarketData('cached market spec seed 7', clock));
    const cached = CachedMarketData.over(counted, clock);
    expect(cached).to.be.instanceOf(CachedMarketData);
    const seen = new Set<number>();
    // Every 3 s over a minute and a half, and either side of a few ticks (one every TICK_MS).
    const tickStart = Math.ceil(START / TICK_MS) * TICK_MS;
    const times = [
      ...Array.from({ length: 30 }, (_, i) => START + i * 3 * SECOND),
      ...[0, 1, 7].flatMap((k) => [tickStart + k * TICK_MS - 1, tickStart + k * TICK_MS]),
    ];
    for (const t of times.sort((a, b) => a - b)) {
      now = t;
      expect(await cached.prices(), `prices at ${new Date(t).toISOString()}`).to.deep.equal(await plain.prices());
      expect(await cached.price('bitcoin')).to.deep.equal(await plain.price('bitcoin'));
      expect(await cached.candles('ethereum', 1)).to.deep.equal(await plain.candles('ethereum', 1));
      expect(await cached.history('solana', 7)).to.deep.equal(await plain.history('solana', 7));
      seen.add(Math.floor(t / TICK_MS));
    }
    // Four answers a step (prices, a price, candles, history), each computed once in it.
    expect(counted.calls).to.equal(4 * seen.size);
    expect(seen.size).to.be.greaterThan(2);
  });

  it("is the adapter's resolution: the simulated market's answers hold for the whole tick, and change with the next", async function () {
    const market = new SimulatedMarketData('cached market spec seed 11', clock);
    expect(market.resolutionMs).to.equal(TICK_MS);
    let changed = 0;
    for (const tickStart of [Math.floor(START / TICK_MS) * TICK_MS, Date.UTC(2026, 0, 1, 0, 0), Date.UTC(2026, 0, 1, 23, 59, 55)]) {
      now = tickStart;
      const first = { prices: await market.prices(), candles: await market.candles(coins[1]!.id, 1), history: await market.history(coins[2]!.id, 30) };
      for (const offset of [1, 2 * SECOND, TICK_MS - 1]) {
        now = tickStart + offset;
        expect({ prices: await market.prices(), candles: await market.candles(coins[1]!.id, 1), history: await market.history(coins[2]!.id, 30) }).to.deep.equal(first);
      }
      now = tickStart + TICK_MS;
      if (JSON.stringify(await market.prices()) !== JSON.stringify(first.prices)) changed += 1;
    }
    // A longer resolution would serve a tick's price after the next tick came.
    expect(changed).to.equal(3);
  });

  it('keeps no failure, and nothing for an adapter without a resolution', async function () {
    const counted = new CountingMarket(new SimulatedMarketData('cached market spec seed 7', clock));
    const cached = CachedMarketData.over(counted, clock);
    counted.failNext = true;
    let failed = false;
    await cached.prices().catch(() => (failed = true));
    expect(failed).to.equal(true);
    expect((await cached.prices()).length).to.equal(coins.length);

    const unresolved: MarketData = Object.assign(Object.create(counted) as MarketData, { resolutionMs: undefined });
    expect(CachedMarketData.over(unresolved, clock)).to.equal(unresolved);
  });

  it('keeps at most MARKET_ANSWERS_KEPT answers in a step, whatever ranges clients ask for', async function () {
    const counted = new CountingMarket(new SimulatedMarketData('cached market spec seed 7', clock));
    const cached = CachedMarketData.over(counted, clock);
    for (let i = 0; i < MARKET_ANSWERS_KEPT + 50; i++) await cached.candles('ethereum', 1 + i / 10_000);
    expect(counted.calls).to.equal(MARKET_ANSWERS_KEPT + 50);
    // The first ones are still kept; one past the bound is computed every time.
    await cached.candles('ethereum', 1);
    await cached.candles('ethereum', 1 + (MARKET_ANSWERS_KEPT + 10) / 10_000);
    await cached.candles('ethereum', 1 + (MARKET_ANSWERS_KEPT + 10) / 10_000);
    expect(counted.calls).to.equal(MARKET_ANSWERS_KEPT + 52);
    expect((cached as CachedMarketData)['kept'].size).to.equal(MARKET_ANSWERS_KEPT);
  });

  it('passes the trading engine\'s reads at a time through (the path, quotes at a time, a chart ending at a time), the same as the adapter\'s', async function () {
    const counted = new CountingMarket(new SimulatedMarketData('cached market spec seed 7', clock));
    const cached = CachedMarketData.over(counted, clock);
    expect(cached.ticks).to.equal(counted.ticks);
    const earlier = START - 7 * TICK_MS;
    for (let i = 0; i < 2; i++) {
      expect(await cached.quotesAt(earlier)).to.deep.equal(await counted.quotesAt(earlier));
      expect(await cached.candles('solana', 1, earlier)).to.deep.equal(await counted.candles('solana', 1, earlier));
    }
    expect(counted.calls, 'none kept: each asked the adapter').to.equal(8);
    expect(await cached.candles('solana', 1, earlier)).to.not.deep.equal(await cached.candles('solana', 1));
  });

  it('hands out frozen answers, so a caller cannot change what the next one gets', async function () {
    const cached = CachedMarketData.over(new SimulatedMarketData('cached market spec seed 7', clock), clock);
    const prices = await cached.prices();
    expect(() => {
      (prices[0] as { price: number }).price = 1;
    }).to.throw(TypeError);
  });
});
