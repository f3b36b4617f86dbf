/**
 * The simulated market as the product reads it (prices, quotes and candles at times): views of the
 * one price path's ticks, never of a tick after the time asked. The path's own properties (candles
 * from ticks at every width, no look-ahead, determinism) are market-path.unit.spec.ts's.
 */
import { expect } from 'chai';
import { coins } from './coins';
import { tickAt, tickTime, TICKS_PER_MINUTE } from './market-path';
import { MarketSimulation, MINUTE_MS, SIMULATION_EPOCH_MS, TICK_MS } from './simulation';

const DAY_MS = 24 * 60 * MINUTE_MS;
const NOW = Date.UTC(2025, 5, 1, 12, 34, 56, 789);
const key = (n: number) => Uint32Array.from([n, 7, 6, 5, 4, 3, 2, 1]);
const KEY = key(20240601);

describe('simulated market', function () {
  this.timeout(60_000);

  it('gives the same prices, quotes and charts from two instances with one key, whatever each was asked before', function () {
    const a = new MarketSimulation(KEY, { fresh: true });
    const b = new MarketSimulation(KEY, { fresh: true });
    b.chart('solana', 30, NOW); // b's caches hold other things than a's
    for (const coin of coins) {
      for (const t of [NOW, NOW - 3 * DAY_MS - 17 * MINUTE_MS, SIMULATION_EPOCH_MS]) expect(b.priceAt(coin.id, t), `${coin.id} at ${t}`).to.equal(a.priceAt(coin.id, t));
    }
    expect(b.chart('ethereum', 7, NOW)).to.deep.equal(a.chart('ethereum', 7, NOW));
    expect(b.quotes(NOW)).to.deep.equal(a.quotes(NOW));
    expect(new MarketSimulation(key(1), { fresh: true }).priceAt('bitcoin', NOW)).to.not.equal(a.priceAt('bitcoin', NOW));
  });

  it('has one price at a moment: its last tick, the same from priceAt, a quote and the newest candle', function () {
    const sim = new MarketSimulation(KEY);
    const tick = tickAt(NOW);
    expect(tickTime(tick)).to.equal(Date.UTC(2025, 5, 1, 12, 34, 55));
    const price = sim.path.price('cardano', tick);
    expect(sim.priceAt('cardano', NOW)).to.equal(price);
    expect(sim.priceAt('cardano', tickTime(tick))).to.equal(price);
    expect(sim.quote('cardano', NOW).price).to.equal(price);
    for (const days of [0.04, 1, 7]) expect(sim.chart('cardano', days, NOW).candles.at(-1)!.close, `${days} days`).to.equal(price);
    // It moves every tick, not every minute.
    expect(sim.priceAt('cardano', NOW + TICK_MS)).to.not.equal(price);
  });

  describe('candles', function () {
    const sim = new MarketSimulation(KEY);

    it('of every dashboard range are built from the ticks in them, the newest from the ticks up to now and none after', function () {
      for (const days of [0.04, 0.17, 1, 7, 30]) {
        const chart = sim.chart('avalanche-2', days, NOW);
        const width = chart.interval.minutes * TICKS_PER_MINUTE;
        const first = tickAt(chart.candles[0]!.time);
        const last = tickAt(NOW);
        const ticks = new MarketSimulation(KEY, { fresh: true }).path.ticks('avalanche-2', first, new Float64Array(last - first + 1));
        for (const c of chart.candles) {
          const start = tickAt(c.time) - first;
          const end = Math.min(start + width, ticks.length);
          expect((c.time - SIMULATION_EPOCH_MS) % (chart.interval.minutes * MINUTE_MS), 'aligned').to.equal(0);
          const own = ticks.subarray(start, end);
          const label = `${days} d, ${chart.interval.label} at ${new Date(c.time).toISOString()}`;
          expect([c.open, c.high, c.low, c.close], label).to.deep.equal([own[0], Math.max(...own), Math.min(...own), own[own.length - 1]]);
          expect(c.volume, label).to.be.greaterThan(0);
        }
        expect(chart.candles.at(-1)!.time).to.be.at.most(NOW);
        expect(chart.candles.at(-1)!.time + width * TICK_MS, 'the newest candle is still open at now').to.be.greaterThan(NOW);
      }
    });

    it('hold every price read in them: a trade at the price of any moment lies inside every candle of every width that contains it', function () {
      const day = Date.UTC(2025, 4, 20);
      const widths = [1, 5, 15, 60, 240, 1440];
      const whole = new Map(widths.map((w) => [w, sim.candles('solana', day, day + DAY_MS - 1, w)]));
      for (let i = 0; i < 400; i++) {
        const at = day + Math.floor(((i * 0.6180339887498949) % 1) * DAY_MS);
        const price = sim.priceAt('solana', at);
        for (const w of widths) {
          const containing = whole.get(w)!.find((c) => c.time <= at && at < c.time + w * MINUTE_MS)!;
          expect(price, `${w}m candle at ${new Date(containing.time).toISOString()}, price of ${new Date(at).toISOString()}`).to.be.within(containing.low, containing.high);
          // And in the newest candle as it stood at that moment.
          const newest = sim.candles('solana', at, at, w)[0]!;
          expect(newest.close).to.equal(price);
          expect(price).to.be.within(newest.low, newest.high);
        }
      }
    });

    it('before now do not change as time goes on; the newest one grows tick by tick', function () {
      const early = sim.candles('bitcoin', NOW - DAY_MS, NOW, 15);
      const later = sim.candles('bitcoin', NOW - DAY_MS, NOW + 40 * MINUTE_MS, 15);
      expect(later.slice(0, early.length - 1)).to.deep.equal(early.slice(0, -1));
      const partial = early.at(-1)!;
      const whole = later[early.length - 1]!;
      expect(whole.open).to.equal(partial.open);
      expect(whole.high).to.be.at.least(partial.high);
      expect(whole.low).to.be.at.most(partial.low);
      expect(whole.volume).to.be.greaterThan(partial.volume);
    });

    it('draw every dashboard range, and a year, in 40 to 300 candles, with the history as their closes', function () {
      for (const days of [0.04, 0.17, 1, 7, 30, 365]) {
        const chart = sim.chart('bitcoin', days, NOW);
        expect(chart.candles.length, `${days} days`).to.be.within(40, 301);
        expect(chart.candles[0]!.time, `${days} days starts within one candle of the range`).to.be.above(NOW - days * DAY_MS - chart.interval.minutes * MINUTE_MS);
        expect(sim.history('bitcoin', days, NOW).map((p) => p.price)).to.deep.equal(chart.candles.map((c) => c.close));
      }
    });

    it('as typed 1-minute arrays cover the whole minutes of a range', function () {
      const from = Date.UTC(2025, 4, 31, 23, 58, 30);
      const arrays = sim.minuteCandles('polkadot', from, from + 5 * MINUTE_MS);
      expect(Array.from(arrays.time)).to.deep.equal([1, 2, 3, 4].map((i) => Date.UTC(2025, 4, 31, 23, 58) + i * MINUTE_MS));
      const candles = sim.candles('polkadot', Date.UTC(2025, 4, 31, 23, 59), Date.UTC(2025, 5, 1, 0, 2, 55), 1);
      expect(Array.from(arrays.close)).to.deep.equal(candles.map((c) => c.close));
      expect(Array.from(arrays.high)).to.deep.equal(candles.map((c) => c.high));
    });

    it('refuse a bad interval and times before the market began', function () {
      expect(() => sim.candles('bitcoin', NOW - DAY_MS, NOW, 0)).to.throw(RangeError);
      expect(() => sim.candles('bitcoin', NOW - DAY_MS, NOW, 2.5)).to.throw(RangeError);
      expect(() => sim.priceAt('bitcoin', SIMULATION_EPOCH_MS - 1)).to.throw(RangeError, 'starts at 2020-01-01');
    });
  });

  it('quotes the price now, its change since the same tick a day before and the volume of the 24 hours up to now', function () {
    const sim = new MarketSimulation(KEY);
    const quote = sim.quote('polkadot', NOW);
    const tick = tickAt(NOW);
    const before = sim.path.price('polkadot', tick - 17_280);
    expect(quote.at).to.equal(tickTime(tick));
    expect(quote.price24hAgo).to.equal(before);
    expect(quote.change24h).to.be.closeTo(quote.price - before, 1e-12);
    expect(quote.changePercent24h).to.be.closeTo(((quote.price - before) / before) * 100, 1e-9);
    const volume = sim.path.summary('polkadot', tick - 17_279, tick + 1).volume;
    expect(quote.volume24h).to.equal(volume);
    expect(sim.quotes(NOW).map((q) => q.coinId)).to.deep.equal(coins.map((c) => c.id));
  });
});
