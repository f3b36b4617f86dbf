/**
 * The simulated market: a pure function of (seed, coin, minute) that looks like a market. These specs
 * check that it is deterministic, that a year of its minutes has the statistics of a crypto market
 * (fat tails, clustered volatility, a common bitcoin factor, busy and quiet hours), and that its
 * candles are consistent with its minutes however they are assembled.
 */
import { expect } from 'chai';
import { coinById, coins, type Candle, type CoinId } from './coins';
import { MarketSimulation, MINUTE_MS, SIMULATION_EPOCH_MS } from './simulation';

const DAY_MS = 24 * 60 * MINUTE_MS;
const HOUR_MS = 60 * MINUTE_MS;
const NOW = Date.UTC(2025, 5, 1, 12, 34, 56, 789);
const YEAR_AGO = Date.UTC(2024, 5, 1);
const SEED = 20240601;

describe('simulated market', function () {
  describe('determinism', function () {
    it('gives the same prices and candles from two instances with the same seed, whatever each was asked before', function () {
      const a = new MarketSimulation(SEED);
      const b = new MarketSimulation(SEED);
      b.chart('solana', 30, NOW); // b's caches hold other things than a's
      const times = [NOW, NOW - 3 * DAY_MS - 17 * MINUTE_MS, YEAR_AGO + 12345 * MINUTE_MS, SIMULATION_EPOCH_MS];
      for (const coin of coins) {
        for (const t of [...times].reverse()) expect(b.priceAt(coin.id, t), `${coin.id} at ${t}`).to.equal(a.priceAt(coin.id, t));
      }
      expect(b.chart('ethereum', 7, NOW)).to.deep.equal(a.chart('ethereum', 7, NOW));
      expect(b.candles('bitcoin', NOW - 2 * DAY_MS, NOW, 7)).to.deep.equal(new MarketSimulation(SEED).candles('bitcoin', NOW - 2 * DAY_MS, NOW, 7));
      expect(b.quotes(NOW)).to.deep.equal(a.quotes(NOW));
    });

    it('gives different paths for different seeds and for different coins', function () {
      const a = new MarketSimulation(1);
      const b = new MarketSimulation(2);
      expect(a.priceAt('bitcoin', NOW)).to.not.equal(b.priceAt('bitcoin', NOW));
      const ethReturns = returns(a.minuteSeries('ethereum', NOW - DAY_MS, NOW).prices);
      const uniReturns = returns(a.minuteSeries('uniswap', NOW - DAY_MS, NOW).prices);
      expect(ethReturns).to.not.deep.equal(uniReturns);
    });

    it('refuses a time before the start of its history, a bad seed and a bad interval', function () {
      const sim = new MarketSimulation(SEED);
      expect(() => sim.priceAt('bitcoin', SIMULATION_EPOCH_MS - 1)).to.throw(RangeError, 'starts at 2020-01-01');
      expect(() => sim.priceAt('bitcoin', Number.NaN)).to.throw(RangeError);
      expect(() => new MarketSimulation(-1)).to.throw(RangeError);
      expect(() => new MarketSimulation(1.5)).to.throw(RangeError);
      expect(() => sim.candles('bitcoin', NOW - DAY_MS, NOW, 0)).to.throw(RangeError);
      expect(() => sim.candles('bitcoin', NOW - DAY_MS, NOW, 2.5)).to.throw(RangeError);
    });
  });

  describe('a year of minutes', function () {
    this.timeout(120_000);
    const sim = new MarketSimulation(SEED);
    const minutes = new Map<CoinId, { prices: Float64Array; volumes: Float64Array }>();
    const series = (coin: CoinId) => {
      let s = minutes.get(coin);
      if (!s) {
        s = sim.minuteSeries(coin, YEAR_AGO, YEAR_AGO + 365 * DAY_MS);
        minutes.set(coin, s);
      }
      return s;
    };

    it('has fat tails: positive excess kurtosis of minute, hourly and daily returns', function () {
      const prices = series('bitcoin').prices;
      expect(excessKurtosis(returns(prices)), 'minutes').to.be.greaterThan(1);
      expect(excessKurtosis(returns(every(prices, 60))), 'hours').to.be.greaterThan(0.5);
      const days = Array.from({ length: 2000 }, (_, d) => sim.priceAt('bitcoin', SIMULATION_EPOCH_MS + d * DAY_MS));
      expect(excessKurtosis(returns(days)), 'days').to.be.greaterThan(0.5);
    });

    it('has clustered volatility: large moves follow large moves (autocorrelation of absolute returns)', function () {
      const minuteAbs = returns(series('bitcoin').prices).map(Math.abs);
      expect(autocorrelation(minuteAbs, 1), 'minute lag 1').to.be.greaterThan(0.05);
      expect(autocorrelation(minuteAbs, 60), 'minute lag 60').to.be.greaterThan(0.02);
      const days = Array.from({ length: 2000 }, (_, d) => sim.priceAt('ethereum', SIMULATION_EPOCH_MS + d * DAY_MS));
      expect(autocorrelation(returns(days).map(Math.abs), 1), 'daily lag 1').to.be.greaterThan(0.05);
    });

    it('joins hours and days seamlessly: a move across an hour or day boundary is an ordinary minute move', function () {
      const r = returns(series('ethereum').prices).map(Math.abs);
      const within: number[] = [];
      const acrossHours: number[] = [];
      const acrossDays: number[] = [];
      r.forEach((x, i) => {
        const minuteOfDay = (i + 1) % 1440; // r[i] moves from minute i to minute i + 1
        if (minuteOfDay === 0) acrossDays.push(x);
        else if (minuteOfDay % 60 === 0) acrossHours.push(x);
        else within.push(x);
      });
      expect(mean(acrossHours) / mean(within), 'hours').to.be.within(0.8, 1.25);
      expect(mean(acrossDays) / mean(within), 'days').to.be.within(0.6, 1.6);
    });

    it('moves other coins with bitcoin to the degree the catalogue says', function () {
      const btc = returns(series('bitcoin').prices);
      for (const coin of ['ethereum', 'cardano', 'uniswap'] as const) {
        const rho = coinById(coin).simulation.btcCorrelation;
        const r = correlation(returns(series(coin).prices), btc);
        expect(r, coin).to.be.within(rho - 0.08, rho + 0.05);
      }
    });

    it('has annualised volatility near the catalogue value', function () {
      for (const coin of ['bitcoin', 'solana'] as const) {
        const days = Array.from({ length: 2000 }, (_, d) => sim.priceAt(coin, SIMULATION_EPOCH_MS + d * DAY_MS));
        const annual = standardDeviation(returns(days)) * Math.sqrt(365);
        const target = coinById(coin).simulation.annualVolatility;
        expect(annual, coin).to.be.within(0.75 * target, 1.3 * target);
      }
    });

    it('trades more in busy hours (around 15:00 UTC) than in quiet ones (around 03:00 UTC)', function () {
      const volumes = series('bitcoin').volumes;
      const byHour = Array.from({ length: 24 }, () => ({ sum: 0, n: 0 }));
      volumes.forEach((v, i) => {
        const hour = new Date(YEAR_AGO + i * MINUTE_MS).getUTCHours();
        byHour[hour]!.sum += v;
        byHour[hour]!.n += 1;
      });
      const mean = (hours: number[]) => hours.reduce((a, h) => a + byHour[h]!.sum / byHour[h]!.n, 0) / hours.length;
      expect(mean([13, 14, 15, 16])).to.be.greaterThan(1.8 * mean([1, 2, 3, 4]));
      const daily = volumes.reduce((a, b) => a + b, 0) / 365;
      const target = coinById('bitcoin').simulation.dailyVolumeUsd;
      expect(daily).to.be.within(0.6 * target, 1.6 * target);
    });

    it('keeps prices plausible for years (mean reversion towards the starting price)', function () {
      for (const coin of coins) {
        const start = coin.simulation.startingPriceUsd;
        for (let d = 0; d < 2200; d += 50) {
          const p = sim.priceAt(coin.id, SIMULATION_EPOCH_MS + d * DAY_MS);
          expect(p / start, `${coin.id} day ${d}`).to.be.within(0.1, 10);
        }
      }
    });
  });

  describe('candles', function () {
    const sim = new MarketSimulation(SEED);

    it('equal the aggregation of their minutes, for whole days, whole hours and ragged ranges', function () {
      const day = Date.UTC(2025, 2, 14);
      const cases: [number, number][] = [
        [day, day + DAY_MS], // a whole day, from the day summary
        [day + 5 * HOUR_MS, day + 6 * HOUR_MS], // a whole hour
        [day - 37 * MINUTE_MS, day + DAY_MS + 3 * HOUR_MS + 11 * MINUTE_MS], // ragged at both ends, across days
        [day + 7 * MINUTE_MS, day + 8 * MINUTE_MS], // a single minute
      ];
      for (const [from, to] of cases) {
        const fresh = new MarketSimulation(SEED);
        expectSameCandle(sim.candle('cardano', from, to), aggregate(fresh.minutes('cardano', from, to)), `${from}..${to}`);
      }
    });

    it('of any width agree with their minutes and are internally consistent', function () {
      const from = NOW - 3 * DAY_MS;
      const minutes = new MarketSimulation(SEED).minutes('avalanche-2', from - DAY_MS, NOW + MINUTE_MS);
      for (const width of [1, 7, 15, 60, 240, 1440]) {
        const candles = sim.candles('avalanche-2', from, NOW, width);
        expect(candles.at(-1)!.close, `${width}m last close`).to.equal(sim.priceAt('avalanche-2', NOW));
        for (const c of candles) {
          expect((c.time - SIMULATION_EPOCH_MS) % (width * MINUTE_MS), 'aligned').to.equal(0);
          expect(c.high).to.be.at.least(Math.max(c.open, c.close));
          expect(c.low).to.be.at.most(Math.min(c.open, c.close));
          expect(c.volume).to.be.greaterThan(0);
          const own = minutes.filter((m) => m.time >= c.time && m.time < c.time + width * MINUTE_MS && m.time <= NOW);
          expectSameCandle(c, aggregate(own), `${width}m at ${new Date(c.time).toISOString()}`);
        }
      }
    });

    it('never reach past now: the last candle is partial and closes at the current price', function () {
      const chart = sim.chart('ethereum', 1, NOW);
      const last = chart.candles.at(-1)!;
      expect(last.time).to.be.at.most(NOW);
      expect(last.time + chart.interval.minutes * MINUTE_MS).to.be.greaterThan(NOW);
      expect(last.close).to.equal(sim.priceAt('ethereum', NOW));
    });

    it('draw every dashboard range, and a year, in 40 to 300 candles', function () {
      for (const days of [0.04, 0.17, 1, 7, 30, 90, 365]) {
        const chart = sim.chart('bitcoin', days, NOW);
        expect(chart.candles.length, `${days} days`).to.be.within(40, 301);
        const first = chart.candles[0]!;
        expect(first.time, `${days} days starts within one candle of the range`).to.be.above(NOW - days * DAY_MS - chart.interval.minutes * MINUTE_MS);
        expect(sim.history('bitcoin', days, NOW).map((p) => p.price)).to.deep.equal(chart.candles.map((c) => c.close));
      }
    });
  });

  describe('quotes', function () {
    it('give the current price, the change over 24 hours and the volume traded in them', function () {
      const sim = new MarketSimulation(SEED);
      const quote = sim.quote('polkadot', NOW);
      const price = sim.priceAt('polkadot', NOW);
      const before = sim.priceAt('polkadot', NOW - DAY_MS);
      expect(quote.price).to.equal(price);
      expect(quote.price24hAgo).to.equal(before);
      expect(quote.change24h).to.be.closeTo(price - before, 1e-12);
      expect(quote.changePercent24h).to.be.closeTo(((price - before) / before) * 100, 1e-9);
      const minuteVolumes = sim.minutes('polkadot', NOW - DAY_MS + MINUTE_MS, NOW + MINUTE_MS).reduce((a, m) => a + m.volume, 0);
      expect(quote.volume24h).to.be.closeTo(minuteVolumes, minuteVolumes * 1e-9);
      expect(quote.at).to.equal(NOW - (NOW % MINUTE_MS));
      expect(sim.quotes(NOW).map((q) => q.coinId)).to.deep.equal(coins.map((c) => c.id));
    });
  });
});

function aggregate(minutes: Candle[]): Candle {
  return {
    time: minutes[0]!.time,
    open: minutes[0]!.open,
    high: Math.max(...minutes.map((m) => m.high)),
    low: Math.min(...minutes.map((m) => m.low)),
    close: minutes.at(-1)!.close,
    volume: minutes.reduce((a, m) => a + m.volume, 0),
  };
}

function expectSameCandle(actual: Candle, expected: Candle, label: string): void {
  const { volume, ...prices } = actual;
  const { volume: expectedVolume, ...expectedPrices } = expected;
  expect(prices, label).to.deep.equal(expectedPrices);
  expect(volume, `${label} volume`).to.be.closeTo(expectedVolume, expectedVolume * 1e-9); // summed in another order
}

function returns(prices: ArrayLike<number>): number[] {
  const result: number[] = [];
  for (let i = 1; i < prices.length; i++) result.push(Math.log(prices[i]! / prices[i - 1]!));
  return result;
}

function every(values: Float64Array, step: number): number[] {
  const result: number[] = [];
  for (let i = 0; i < values.length; i += step) result.push(values[i]!);
  return result;
}

function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

function standardDeviation(xs: number[]): number {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / xs.length);
}

function excessKurtosis(xs: number[]): number {
  const m = mean(xs);
  let m2 = 0;
  let m4 = 0;
  for (const x of xs) {
    const d2 = (x - m) ** 2;
    m2 += d2;
    m4 += d2 * d2;
  }
  m2 /= xs.length;
  m4 /= xs.length;
  return m4 / (m2 * m2) - 3;
}

function correlation(xs: number[], ys: number[]): number {
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i++) {
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxy / Math.sqrt(sxx * syy);
}

function autocorrelation(xs: number[], lag: number): number {
  return correlation(xs.slice(0, -lag), xs.slice(lag));
}
