/**
 * The one price path: a pure function of (key, coin, tick), every candle built from its ticks, and a
 * forward process (nothing known at a tick tells where the next ticks go). The stylized facts over a
 * year are `npm run market:stats`'s (bench/market-stats.ts); these specs check the construction.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { coins, type CoinId } from './coins';
import { MarketPath, MINUTE_MS, SIMULATION_EPOCH_MS, tickAt, tickTime, TICK_MS, TICKS_PER_DAY, TICKS_PER_HOUR, TICKS_PER_MINUTE, type Summary } from './market-path';
import { correlation, mean } from './stylized-facts';

const key = (n: number) => Uint32Array.from([n, 0x9e3779b9, 0x243f6a88, 3, 4, 5, 6, 0x85a308d3]);
const KEY = key(20240601);
const DAY = tickAt(Date.UTC(2025, 2, 14)); // a UTC midnight: tick 0 of a day
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function ticksOf(p: MarketPath, coin: CoinId, from: number, count: number): Float64Array {
  return p.ticks(coin, from, new Float64Array(count));
}

/** Open, high, low and close of ticks[from, to) the plain way. */
function bruteForce(ticks: Float64Array, from: number, to: number): Omit<Summary, 'volume'> {
  let high = -Infinity;
  let low = Infinity;
  for (let i = from; i < to; i++) {
    high = Math.max(high, ticks[i]!);
    low = Math.min(low, ticks[i]!);
  }
  return { open: ticks[from]!, high, low, close: ticks[to - 1]! };
}

function logMoves(prices: Float64Array): number[] {
  return Array.from({ length: prices.length - 1 }, (_, i) => Math.log(prices[i + 1]! / prices[i]!));
}

function withoutVolume({ volume: _volume, ...prices }: Summary): Omit<Summary, 'volume'> {
  return prices;
}

describe('market path', function () {
  this.timeout(120_000);

  describe('a pure function of (key, coin, tick)', function () {
    const probes = [0, 1, 11, 12, DAY - 1, DAY, DAY + 5 * TICKS_PER_HOUR + 7, DAY + TICKS_PER_DAY + 123, 12_345_678];

    it('gives the same ticks from two instances, whatever each was asked before and in whatever order', function () {
      const a = new MarketPath(KEY);
      const b = new MarketPath(KEY);
      b.minuteCandles('solana', DAY / TICKS_PER_MINUTE - 500, 3000); // b's caches hold other hours and days first
      for (const coin of coins) {
        const fromA = probes.map((t) => a.price(coin.id, t));
        const fromB = [...probes].reverse().map((t) => b.price(coin.id, t)).reverse();
        expect(fromB, coin.id).to.deep.equal(fromA);
      }
    });

    it('gives the same ticks in another process', function () {
      const script = [
        "import { MarketPath } from './domain/src/market/market-path.ts';",
        `const p = new MarketPath(Uint32Array.from(${JSON.stringify(Array.from(KEY))}));`,
        `console.log(JSON.stringify(${JSON.stringify(probes)}.map((t) => [p.price('ethereum', t), p.price('uniswap', t)])));`,
      ].join('\n');
      const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' });
      const here = new MarketPath(KEY);
      expect(JSON.parse(output)).to.deep.equal(probes.map((t) => [here.price('ethereum', t), here.price('uniswap', t)]));
    });

    it('gives an hour\'s candles and ticks at once (hourWithTicks) as minuteCandles and ticks give them, for bitcoin and two coins that follow it', function () {
      const hours = [0, DAY / TICKS_PER_HOUR, DAY / TICKS_PER_HOUR + 13, 12_345_678 / TICKS_PER_HOUR | 0];
      for (const coin of ['bitcoin', 'ethereum', 'polygon'] as CoinId[]) {
        for (const hour of hours) {
          const together = new MarketPath(KEY);
          const apart = new MarketPath(KEY);
          const candles = { time: new Float64Array(60), open: new Float64Array(60), high: new Float64Array(60), low: new Float64Array(60), close: new Float64Array(60), volume: new Float64Array(60) };
          const ticks = new Float64Array(TICKS_PER_HOUR);
          together.hourWithTicks(coin, hour, candles, ticks);
          expect(Array.from(ticks), `${coin} hour ${hour}: ticks`).to.deep.equal(Array.from(ticksOf(apart, coin, hour * TICKS_PER_HOUR, TICKS_PER_HOUR)));
          const plain = apart.minuteCandles(coin, hour * 60, 60);
          for (const f of ['time', 'open', 'high', 'low', 'close', 'volume'] as const) expect(Array.from(candles[f]), `${coin} hour ${hour}: ${f}`).to.deep.equal(Array.from(plain[f]));
        }
      }
      expect(() => new MarketPath(KEY).hourWithTicks('bitcoin', 0, { time: new Float64Array(59), open: new Float64Array(59), high: new Float64Array(59), low: new Float64Array(59), close: new Float64Array(59), volume: new Float64Array(59) }, new Float64Array(TICKS_PER_HOUR))).to.throw(RangeError);
    });

    it('differs for another key and between coins', function () {
      const a = new MarketPath(KEY);
      const b = new MarketPath(key(20240602));
      const moves = (p: MarketPath, coin: CoinId) => logMoves(ticksOf(p, coin, DAY, 100));
      expect(moves(a, 'bitcoin')).to.not.deep.equal(moves(b, 'bitcoin'));
      expect(moves(a, 'ethereum')).to.not.deep.equal(moves(a, 'uniswap'));
      for (const t of probes.slice(1)) expect(a.price('bitcoin', t), `tick ${t}`).to.not.equal(b.price('bitcoin', t));
    });

    it('starts at the catalogue price at the epoch and refuses ticks before it and keys of the wrong size', function () {
      const p = new MarketPath(KEY);
      for (const coin of coins) expect(p.price(coin.id, 0), coin.id).to.be.closeTo(coin.simulation.startingPriceUsd, coin.simulation.startingPriceUsd * 1e-12);
      expect(() => p.price('bitcoin', -1)).to.throw(RangeError);
      expect(() => p.price('bitcoin', 1.5)).to.throw(RangeError);
      expect(() => tickAt(SIMULATION_EPOCH_MS - 1)).to.throw(RangeError, 'starts at 2020-01-01');
      expect(() => tickAt(Number.NaN)).to.throw(RangeError);
      expect(() => new MarketPath(new Uint32Array(4))).to.throw(RangeError);
      expect(tickTime(tickAt(Date.UTC(2025, 0, 1, 0, 0, 7)))).to.equal(Date.UTC(2025, 0, 1, 0, 0, 5));
    });
  });

  describe('candles from ticks', function () {
    const p = new MarketPath(KEY);
    const from = DAY - 3 * TICKS_PER_HOUR;
    const count = 2 * TICKS_PER_DAY + 6 * TICKS_PER_HOUR;
    const ticks = ticksOf(new MarketPath(KEY), 'ethereum', from, count);

    it('has at every width the first, highest, lowest and last tick of its span as open, high, low and close', function () {
      for (const minutes of [1, 5, 15, 60, 240, 1440]) {
        const width = minutes * TICKS_PER_MINUTE;
        for (let start = Math.ceil(from / width) * width; start + width <= from + count; start += width) {
          const expected = bruteForce(ticks, start - from, start - from + width);
          expect(withoutVolume(p.summary('ethereum', start, start + width)), `${minutes}m at tick ${start}`).to.deep.equal(expected);
        }
      }
    });

    it('has the same for ragged spans: a few ticks, across minute, hour and day boundaries', function () {
      const spans: [number, number][] = [
        [DAY + 5, DAY + 6],
        [DAY + 5, DAY + 9],
        [DAY - 7, DAY + 30],
        [DAY + 3 * TICKS_PER_HOUR - 1, DAY + 4 * TICKS_PER_HOUR + 13],
        [DAY - TICKS_PER_HOUR - 17, DAY + TICKS_PER_DAY + 5 * TICKS_PER_HOUR + 3],
      ];
      for (const [a, b] of spans) expect(withoutVolume(new MarketPath(KEY).summary('ethereum', a, b)), `${a}..${b}`).to.deep.equal(bruteForce(ticks, a - from, b - from));
    });

    it('has minute candles (typed arrays) that agree with the spans, and volumes that add up', function () {
      const firstMinute = DAY / TICKS_PER_MINUTE - 90;
      const candles = p.minuteCandles('ethereum', firstMinute, 1440 + 180);
      let volume = 0;
      for (let i = 0; i < candles.open.length; i++) {
        const start = (firstMinute + i) * TICKS_PER_MINUTE;
        const span = p.summary('ethereum', start, start + TICKS_PER_MINUTE);
        expect(candles.time[i]).to.equal(tickTime(start));
        expect([candles.open[i], candles.high[i], candles.low[i], candles.close[i]]).to.deep.equal([span.open, span.high, span.low, span.close]);
        expect(candles.volume[i]).to.be.closeTo(span.volume, span.volume * 1e-12);
        expect(candles.volume[i]).to.be.greaterThan(0);
        volume += candles.volume[i]!;
      }
      const whole = new MarketPath(KEY).summary('ethereum', firstMinute * TICKS_PER_MINUTE, (firstMinute + 1440 + 180) * TICKS_PER_MINUTE);
      expect(whole.volume).to.be.closeTo(volume, volume * 1e-9);
      // A partial minute's volume is its ticks' share: the first 6 ticks and the last 6 make the minute.
      const m = DAY + 40 * TICKS_PER_MINUTE;
      const halves = p.summary('ethereum', m, m + 6).volume + p.summary('ethereum', m + 6, m + 12).volume;
      expect(halves).to.be.closeTo(p.summary('ethereum', m, m + 12).volume, halves * 1e-12);
    });

    it('opens each minute one tick after the previous one closed, a move like any other tick', function () {
      const firstMinute = DAY / TICKS_PER_MINUTE - 90;
      const candles = p.minuteCandles('ethereum', firstMinute, 1440 + 180);
      const boundary: number[] = [];
      for (let i = 1; i < candles.open.length; i++) {
        const open = (firstMinute + i) * TICKS_PER_MINUTE;
        expect(candles.open[i]).to.equal(ticks[open - from]);
        expect(candles.close[i - 1]).to.equal(ticks[open - 1 - from]);
        boundary.push(Math.abs(Math.log(candles.open[i]! / candles.close[i - 1]!)));
      }
      // The same minutes' moves between their own ticks.
      const inside: number[] = [];
      const first = firstMinute * TICKS_PER_MINUTE - from;
      for (let i = first + 1; i < first + candles.open.length * TICKS_PER_MINUTE; i++) if ((from + i) % TICKS_PER_MINUTE !== 0) inside.push(Math.abs(Math.log(ticks[i]! / ticks[i - 1]!)));
      expect(mean(boundary) / mean(inside)).to.be.within(0.85, 1.18);
    });

    it('joins hours and days without a seam: the tick into an hour or a day moves like any other', function () {
      const q = new MarketPath(KEY);
      const start = DAY - 150 * TICKS_PER_DAY;
      const all = ticksOf(q, 'bitcoin', start, 180 * TICKS_PER_DAY);
      const byKind = { hour: [] as number[], day: [] as number[], other: [] as number[] };
      for (let i = 1; i < all.length; i++) {
        const move = Math.log(all[i]! / all[i - 1]!) ** 2;
        const t = start + i;
        if (t % TICKS_PER_DAY === 0) byKind.day.push(move);
        else if (t % TICKS_PER_HOUR === 0) byKind.hour.push(move);
        else byKind.other.push(move);
      }
      // Mean squared moves (variances): hours 4,140 samples, days 180; fat tails make the day ratio noisy.
      expect(mean(byKind.hour) / mean(byKind.other), 'hours').to.be.within(0.75, 1.33);
      expect(mean(byKind.day) / mean(byKind.other), 'days').to.be.within(0.5, 2);
    });
  });

  describe('a forward process', function () {
    // 60 days of three coins, from the coins the issue measured the old leak on.
    const p = new MarketPath(KEY);
    const start = DAY - 60 * TICKS_PER_DAY;
    const span = 60 * TICKS_PER_DAY;
    const series = new Map<CoinId, Float64Array>((['ethereum', 'bitcoin', 'solana'] as const).map((c) => [c, ticksOf(p, c, start, span + 2 * TICKS_PER_MINUTE)]));

    it('tells nothing about the next minute from the ticks of this one (the old path: 0.957)', function () {
      for (const [coin, ticks] of series) {
        const before: number[] = [];
        const after: number[] = [];
        const afterHour: number[] = [];
        for (let m = 0; m + 2 < span / TICKS_PER_MINUTE; m++) {
          const open = m * TICKS_PER_MINUTE;
          const second55 = open + TICKS_PER_MINUTE - 1;
          before.push(Math.log(ticks[second55]! / ticks[open]!)); // the minute so far, at second 55
          after.push(Math.log(ticks[second55 + TICKS_PER_MINUTE]! / ticks[second55]!)); // the next 60 seconds
          afterHour.push(Math.log(ticks[Math.min(ticks.length - 1, second55 + TICKS_PER_HOUR)]! / ticks[second55]!));
        }
        expect(Math.abs(correlation(before, after)), `${coin}: second 55 -> next minute`).to.be.below(0.02);
        expect(Math.abs(correlation(before, afterHour)), `${coin}: second 55 -> next hour`).to.be.below(0.03);
      }
    });

    it('tells nothing about the next hour from the hour so far, nor about tomorrow from today', function () {
      const ticks = series.get('ethereum')!;
      const so: number[] = [];
      const next: number[] = [];
      for (let h = 0; h + 1 < span / TICKS_PER_HOUR; h++) {
        const open = h * TICKS_PER_HOUR;
        const last = open + TICKS_PER_HOUR - TICKS_PER_MINUTE; // minute 59 of the hour
        so.push(Math.log(ticks[last]! / ticks[open]!));
        next.push(Math.log(ticks[last + TICKS_PER_HOUR]! / ticks[last]!));
      }
      expect(Math.abs(correlation(so, next)), 'hour').to.be.below(0.08); // 1,439 pairs: 3 standard errors
      const longer = ticksOf(new MarketPath(KEY), 'bitcoin', DAY - 700 * TICKS_PER_DAY, 700 * TICKS_PER_DAY + 1);
      const today: number[] = [];
      const tomorrow: number[] = [];
      for (let d = 0; d + 1 < 700; d++) {
        const lateToday = d * TICKS_PER_DAY + TICKS_PER_DAY - TICKS_PER_HOUR;
        today.push(Math.log(longer[lateToday]! / longer[d * TICKS_PER_DAY]!));
        tomorrow.push(Math.log(longer[lateToday + TICKS_PER_DAY]! / longer[lateToday]!));
      }
      expect(Math.abs(correlation(today, tomorrow)), 'day').to.be.below(0.12); // 699 pairs
    });

    it('gives the rule "buy 0.25% above the minute\'s open, sell a minute later" no edge before fees (the old path: 130 of 135 ETH trades won)', function () {
      for (const [coin, ticks] of series) {
        const returns: number[] = [];
        for (let m = 0; m + 2 < span / TICKS_PER_MINUTE; m++) {
          const open = m * TICKS_PER_MINUTE;
          for (let k = 1; k < TICKS_PER_MINUTE; k++) {
            if (ticks[open + k]! < ticks[open]! * 1.0025) continue;
            returns.push(Math.log(ticks[open + k + TICKS_PER_MINUTE]! / ticks[open + k]!)); // bought at that tick, sold 60 s later
            break;
          }
        }
        const n = returns.length;
        const wins = returns.filter((r) => r > 0).length;
        expect(n, `${coin}: trades`).to.be.greaterThan(100);
        // Within three standard errors of a coin toss, and of a zero mean.
        expect(Math.abs(wins / n - 0.5), `${coin}: ${wins} of ${n} won`).to.be.below(3 * Math.sqrt(0.25 / n));
        const m = mean(returns);
        const sd = Math.sqrt(mean(returns.map((r) => (r - m) ** 2)));
        expect(Math.abs(m) / (sd / Math.sqrt(n)), `${coin}: mean return ${m}`).to.be.below(3);
      }
    });
  });

  describe('coins', function () {
    it('move with bitcoin tick by tick as the catalogue says (rho 0.82 for ether)', function () {
      const p = new MarketPath(KEY);
      const moves = (coin: CoinId) => logMoves(ticksOf(p, coin, DAY, 2 * TICKS_PER_DAY));
      expect(correlation(moves('ethereum'), moves('bitcoin'))).to.be.closeTo(0.82, 0.03);
      expect(correlation(moves('uniswap'), moves('bitcoin'))).to.be.closeTo(0.75, 0.03);
    });

    it('stay at plausible prices for years', function () {
      const p = new MarketPath(KEY);
      for (const coin of coins) {
        for (let d = 0; d < 6 * 365; d += 30) {
          const ratio = p.price(coin.id, d * TICKS_PER_DAY) / coin.simulation.startingPriceUsd;
          expect(ratio, `${coin.id} day ${d}`).to.be.within(0.05, 20);
        }
      }
    });
  });

  it('ticks every TICK_MS: 12 a minute', function () {
    expect(TICK_MS * TICKS_PER_MINUTE).to.equal(MINUTE_MS);
  });
});
