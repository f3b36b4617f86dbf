/**
 * Cross-check against the two npm packages the bench compares with, `technicalindicators` (3.x) and
 * `trading-signals` (8.x), on random walks. Compared only where the conventions agree:
 *
 * | ours                    | technicalindicators                                  | trading-signals                          |
 * |-------------------------|------------------------------------------------------|------------------------------------------|
 * | sma                     | SMA: same                                            | SMA: same                                |
 * | ema, seeded 'first'     | EMA seeds with the SMA: compared with ema(.., 'sma') | EMA seeds with the first value: same     |
 * | rsi (Wilder, SMA seed)  | RSI: same method, output rounded to 2 decimals       | RSI (WSMA): same                         |
 * | macd (SMA-seeded EMAs)  | MACD with SimpleMAOscillator/Signal false: same      | seeds every EMA with its first input and |
 * |                         |                                                      | the signal at the 26th close: compared   |
 * |                         |                                                      | once the seeds have decayed (600 closes) |
 *
 * A flat stretch would be the one RSI difference (ours 50, theirs 100); a random walk never has one.
 */
import { expect } from 'chai';
import * as ti from 'technicalindicators';
import * as ts from 'trading-signals';
import { ema } from './ema';
import { macd } from './macd';
import { rsi } from './rsi';
import { sma } from './sma';

/** mulberry32: a small deterministic PRNG, so every run checks the same series. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A multiplicative random walk from 1000, steps up to ±2%. */
function randomWalk(length: number, seed: number): Float64Array {
  const random = prng(seed);
  const closes = new Float64Array(length);
  let price = 1000;
  for (let i = 0; i < length; i++) {
    price *= 1 + (random() - 0.5) * 0.04;
    closes[i] = price;
  }
  return closes;
}

/** Compares `ours[offset + k]` with `theirs[k]` for every k, relatively. */
function expectAligned(ours: Float64Array, theirs: readonly number[], offset: number, tolerance: number, label: string): void {
  expect(ours.length - offset, `${label}: number of defined points`).to.equal(theirs.length);
  for (let k = 0; k < theirs.length; k++) {
    const a = ours[offset + k]!;
    const b = theirs[k]!;
    if (Math.abs(a - b) > tolerance * Math.max(1, Math.abs(b))) {
      expect.fail(`${label}: at ${offset + k} ours ${a}, theirs ${b}`);
    }
  }
}

const SEEDS = [1, 2, 3, 42];
const LENGTH = 3000;

describe('indicators against technicalindicators and trading-signals on random walks', function () {
  for (const seed of SEEDS) {
    describe(`random walk ${seed}`, function () {
      const closes = randomWalk(LENGTH, seed);
      const values = Array.from(closes);

      it('sma 20 and 50 equal both packages', function () {
        for (const period of [20, 50]) {
          const ours = sma(closes, period);
          expectAligned(ours, ti.SMA.calculate({ period, values }), period - 1, 1e-12, `ti sma${period}`);
          const theirs = new ts.SMA(period);
          const tsValues = values.map((v) => theirs.add(v)).filter((v): v is number => v !== null);
          expectAligned(ours, tsValues, period - 1, 1e-12, `ts sma${period}`);
        }
      });

      it("ema 20 seeded with the first close equals trading-signals' EMA; seeded with the SMA, technicalindicators' EMA", function () {
        const theirs = new ts.EMA(20);
        expectAligned(ema(closes, 20, 'first'), values.map((v) => theirs.add(v) as number), 0, 1e-12, 'ts ema20');
        expectAligned(ema(closes, 20, 'sma'), ti.EMA.calculate({ period: 20, values }), 19, 1e-12, 'ti ema20');
      });

      it("rsi 14 equals trading-signals' RSI, and technicalindicators' to its 2 decimals", function () {
        const ours = rsi(closes, 14);
        const theirs = new ts.RSI(14);
        const tsValues = values.map((v) => theirs.add(v)).filter((v): v is number => v !== null);
        expectAligned(ours, tsValues, 14, 1e-9, 'ts rsi14');
        const tiValues = ti.RSI.calculate({ period: 14, values });
        expect(ours.length - 14).to.equal(tiValues.length);
        for (let k = 0; k < tiValues.length; k++) expect(ours[14 + k], `ti rsi14 at ${14 + k}`).to.be.closeTo(tiValues[k]!, 0.005 + 1e-9);
      });

      it("macd 12/26/9 equals technicalindicators' (EMA-based) MACD, and trading-signals' once the seeds have decayed", function () {
        const ours = macd(closes);
        const tiValues = ti.MACD.calculate({ values, fastPeriod: 12, slowPeriod: 26, signalPeriod: 9, SimpleMAOscillator: false, SimpleMASignal: false });
        expectAligned(ours.macd, tiValues.map((r) => r.MACD!), 25, 1e-9, 'ti macd');
        expectAligned(ours.signal, tiValues.slice(8).map((r) => r.signal!), 33, 1e-9, 'ti signal');
        expectAligned(ours.histogram, tiValues.slice(8).map((r) => r.histogram!), 33, 1e-9, 'ti histogram');

        const theirs = new ts.MACD(new ts.EMA(12), new ts.EMA(26), new ts.EMA(9));
        const tsValues = values.map((v) => theirs.add(v));
        const from = 600; // (25/27)^575 and (4/5)^575 leave nothing of the different seeds
        const tail = tsValues.slice(from).map((r) => r!);
        // The line is a difference of two prices near 1000: compare to 1e-9 of the price, not of the line.
        for (const [name, pick] of [['macd', 'macd'], ['signal', 'signal'], ['histogram', 'histogram']] as const) {
          for (let k = 0; k < tail.length; k++) {
            const a = ours[pick][from + k]!;
            const b = tail[k]![pick];
            if (Math.abs(a - b) > 1e-9 * closes[from + k]!) expect.fail(`ts ${name}: at ${from + k} ours ${a}, theirs ${b}`);
          }
        }
        // Early on the seeding shows: at the 34th close the two signal lines differ.
        expect(Math.abs(ours.signal[33]! - tsValues[33]!.signal)).to.be.greaterThan(1e-6);
      });
    });
  }
});
