/**
 * The simulated market between minutes: the live path a feed ticks along every few seconds. It must
 * be as reproducible as the minute prices, meet them exactly at every minute boundary (so ticks and
 * candles agree), move within a minute, and move by the right amount (its one-second returns add up
 * to the minutes' variance, with no jump at the boundary).
 */
import { expect } from 'chai';
import { coins } from './coins';
import { MarketSimulation, MINUTE_MS, SECOND_MS } from './simulation';

const SEED = 20240601;
const NOW = Date.UTC(2025, 5, 1, 12, 34, 56, 789);
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

describe('simulated market: the live path between minutes', function () {
  it('is the same from two instances, whatever each was asked before', function () {
    const a = new MarketSimulation(SEED);
    const b = new MarketSimulation(SEED);
    b.livePriceAt('bitcoin', NOW - DAY_MS); // other minutes first
    const times = Array.from({ length: 40 }, (_, i) => NOW + i * 3 * SECOND_MS);
    for (const coin of coins) {
      const fromA = times.map((t) => a.livePriceAt(coin.id, t));
      const fromB = [...times].reverse().map((t) => b.livePriceAt(coin.id, t)).reverse();
      expect(fromB, coin.id).to.deep.equal(fromA);
    }
    expect(b.liveQuotes(NOW)).to.deep.equal(a.liveQuotes(NOW));
  });

  it('is a different path for another seed', function () {
    const t = NOW - (NOW % MINUTE_MS) + 30 * SECOND_MS;
    const offset = (sim: MarketSimulation) => sim.livePriceAt('ethereum', t) / sim.priceAt('ethereum', t);
    expect(offset(new MarketSimulation(SEED))).to.not.equal(offset(new MarketSimulation(SEED + 1)));
  });

  it('is exactly the minute price at second 0 of every minute, across hour and day boundaries', function () {
    const sim = new MarketSimulation(SEED);
    const start = Date.UTC(2025, 4, 31, 22, 30);
    for (const coin of coins) {
      for (let t = start; t < start + 2 * HOUR_MS; t += MINUTE_MS) {
        expect(sim.livePriceAt(coin.id, t), `${coin.id} at ${new Date(t).toISOString()}`).to.equal(sim.priceAt(coin.id, t));
        // a millisecond into the minute is still second 0
        expect(sim.livePriceAt(coin.id, t + 999)).to.equal(sim.priceAt(coin.id, t));
      }
    }
  });

  it('moves within a minute, one value per second', function () {
    const sim = new MarketSimulation(SEED);
    const minute = NOW - (NOW % MINUTE_MS);
    for (const coin of coins) {
      const everyFiveSeconds = Array.from({ length: 12 }, (_, i) => sim.livePriceAt(coin.id, minute + i * 5 * SECOND_MS));
      expect(new Set(everyFiveSeconds).size, coin.id).to.equal(12);
      expect(sim.livePriceAt(coin.id, minute + 7 * SECOND_MS + 1)).to.equal(sim.livePriceAt(coin.id, minute + 7 * SECOND_MS + 998));
    }
  });

  it('moves as much as the minutes do: a day of one-second returns adds up to the minutes variance, with no jump at the boundaries', function () {
    const sim = new MarketSimulation(SEED);
    const start = Date.UTC(2025, 2, 3);
    for (const coinId of ['ethereum', 'bitcoin', 'cardano'] as const) {
      let secondSquares = 0;
      let boundarySquares = 0;
      let minuteSquares = 0;
      let previous = sim.livePriceAt(coinId, start);
      for (let t = start + SECOND_MS; t <= start + DAY_MS; t += SECOND_MS) {
        const price = sim.livePriceAt(coinId, t);
        const r = Math.log(price / previous);
        secondSquares += r * r;
        if (t % MINUTE_MS === 0) {
          boundarySquares += r * r;
          const m = Math.log(price / sim.priceAt(coinId, t - MINUTE_MS));
          minuteSquares += m * m;
        }
        previous = price;
      }
      const ratio = secondSquares / minuteSquares;
      expect(ratio, `${coinId}: one-second variance / minute variance`).to.be.within(0.85, 1.15);
      // The step into a minute boundary is an ordinary second: about 1/60 of the total, not a jump.
      expect(boundarySquares / secondSquares, `${coinId}: share of the boundary seconds`).to.be.within(0.5 / 60, 2 / 60);
    }
  });

  it('keeps the bitcoin factor between minutes', function () {
    const sim = new MarketSimulation(SEED);
    const start = Date.UTC(2025, 2, 4, 14);
    const returns = (coinId: 'ethereum' | 'bitcoin') => {
      const out: number[] = [];
      for (let t = start + SECOND_MS; t < start + HOUR_MS; t += SECOND_MS) out.push(Math.log(sim.livePriceAt(coinId, t) / sim.livePriceAt(coinId, t - SECOND_MS)));
      return out;
    };
    expect(correlation(returns('ethereum'), returns('bitcoin'))).to.be.within(0.7, 0.95); // rho 0.82 in the catalogue
  });

  it('quotes to the second on the live path: now against the same second a day before', function () {
    const sim = new MarketSimulation(SEED);
    const quote = sim.liveQuote('solana', NOW);
    const second = NOW - (NOW % SECOND_MS);
    expect(quote.at).to.equal(second);
    expect(quote.price).to.equal(sim.livePriceAt('solana', second));
    expect(quote.price24hAgo).to.equal(sim.livePriceAt('solana', second - DAY_MS));
    expect(quote.changePercent24h).to.be.closeTo(((quote.price - quote.price24hAgo) / quote.price24hAgo) * 100, 1e-9);
    expect(quote.volume24h).to.equal(sim.quote('solana', NOW).volume24h);
    // At second 0 the live quote is the minute quote.
    const minute = NOW - (NOW % MINUTE_MS);
    expect(sim.liveQuote('solana', minute)).to.deep.equal(sim.quote('solana', minute));
  });
});

function correlation(a: number[], b: number[]): number {
  const mean = (x: number[]) => x.reduce((s, v) => s + v, 0) / x.length;
  const ma = mean(a);
  const mb = mean(b);
  let cov = 0;
  let va = 0;
  let vb = 0;
  for (let i = 0; i < a.length; i++) {
    cov += (a[i]! - ma) * (b[i]! - mb);
    va += (a[i]! - ma) ** 2;
    vb += (b[i]! - mb) ** 2;
  }
  return cov / Math.sqrt(va * vb);
}
