/**
 * macd: the line, signal and histogram with every EMA seeded by an SMA (the StockCharts / TA-Lib /
 * technicalindicators convention), against the technicalindicators package's published vector, and
 * their consistency with `ema` and the warm-up lengths.
 */
import { expect } from 'chai';
import { ema } from './ema';
import { macd, MACD_PERIODS } from './macd';
import { warmUp } from './series';

describe('macd', function () {
  it("matches the technicalindicators package's documented MACD(5, 8, 3) vector (test/moving_averages/MACD.js)", function () {
    // anandanand84/technicalindicators test/data.js closes; test/moving_averages/MACD.js with
    // SimpleMAOscillator and SimpleMASignal false (EMAs seeded with the SMA of their first period).
    // The published numbers are rounded to 2 decimals from intermediate values that were themselves
    // rounded, so a few differ from the exact ones by up to 0.01 (0.88 for 0.8747, 9.35 for 9.3585);
    // the cross-check spec compares with the package's current, unrounded output to 1e-9.
    const closes = Float64Array.from([127.75, 129.02, 132.75, 145.4, 148.98, 137.52, 147.38, 139.05, 137.23, 149.3, 162.45, 178.95, 200.35, 221.9, 243.23, 243.52, 286.42, 280.27]);
    const published = [
      { MACD: 1.52 },
      { MACD: 0.88 },
      { MACD: 1.82, histogram: 0.41, signal: 1.41 },
      { MACD: 3.63, histogram: 1.11, signal: 2.52 },
      { MACD: 6.14, histogram: 1.81, signal: 4.33 },
      { MACD: 9.35, histogram: 2.51, signal: 6.84 },
      { MACD: 12.73, histogram: 2.94, signal: 9.79 },
      { MACD: 15.9, histogram: 3.06, signal: 12.84 },
      { MACD: 16.41, histogram: 1.78, signal: 14.63 },
      { MACD: 20.22, histogram: 2.8, signal: 17.42 },
      { MACD: 20.01, histogram: 1.29, signal: 18.72 },
    ];
    const out = macd(closes, { fast: 5, slow: 8, signal: 3 });
    expect(out.macd.subarray(0, 7).every(Number.isNaN)).to.equal(true);
    expect(out.signal.subarray(0, 9).every(Number.isNaN)).to.equal(true);
    published.forEach((row, k) => {
      const i = 7 + k;
      expect(out.macd[i], `macd at ${i}`).to.be.closeTo(row.MACD, 0.01);
      if (row.signal === undefined) return;
      expect(out.signal[i], `signal at ${i}`).to.be.closeTo(row.signal, 0.01);
      expect(out.histogram[i], `histogram at ${i}`).to.be.closeTo(row.histogram!, 0.01);
    });
    // By hand: EMA5 seeded at close 5 with the mean 136.78, then k = 1/3: 137.0266667, 140.4777778,
    // 140.0018519 at close 8; EMA8 seeded at close 8 with the mean 138.48125. Line: 1.5206019.
    expect(out.macd[7]).to.be.closeTo(140.0018518519 - 138.48125, 1e-9);
  });

  it('is EMA12 - EMA26 (SMA-seeded), with a signal that is the SMA-seeded EMA9 of that line', function () {
    const closes = Float64Array.from({ length: 400 }, (_, i) => 100 + 8 * Math.sin(i / 9) + 3 * Math.cos(i / 3.1));
    const out = macd(closes);
    const fast = ema(closes, 12, 'sma');
    const slow = ema(closes, 26, 'sma');
    const line = Float64Array.from(closes, (_, i) => fast[i]! - slow[i]!);
    const signal = ema(line.subarray(25), 9, 'sma');
    for (let i = 25; i < closes.length; i++) {
      expect(out.macd[i], `macd ${i}`).to.be.closeTo(line[i]!, 1e-12);
      if (i < 33) continue;
      expect(out.signal[i], `signal ${i}`).to.be.closeTo(signal[i - 25]!, 1e-12);
      expect(out.histogram[i], `histogram ${i}`).to.equal(out.macd[i]! - out.signal[i]!);
    }
  });

  it('with 12, 26, 9 has a line from the 26th close and a signal and histogram from the 34th', function () {
    expect(MACD_PERIODS).to.deep.equal({ fast: 12, slow: 26, signal: 9 });
    const closes = Float64Array.from({ length: 60 }, (_, i) => 20 + (i % 5));
    const out = macd(closes);
    for (const series of [out.macd, out.signal, out.histogram]) expect(series.length).to.equal(60);
    expect(out.macd.findIndex((x) => !Number.isNaN(x))).to.equal(warmUp.macdLine(26)).and.to.equal(25);
    expect(out.signal.findIndex((x) => !Number.isNaN(x))).to.equal(warmUp.macdSignal(26, 9)).and.to.equal(33);
    expect(out.histogram.findIndex((x) => !Number.isNaN(x))).to.equal(33);
    expect(out.histogram.subarray(33).every(Number.isFinite)).to.equal(true);
    // Too short for a signal: 33 closes give a line but no signal.
    const short = macd(closes.subarray(0, 33));
    expect(Number.isNaN(short.macd[32])).to.equal(false);
    expect(short.signal.every(Number.isNaN)).to.equal(true);
    expect(macd(new Float64Array(0)).macd.length).to.equal(0);
  });

  it('is 0, 0, 0 on a constant series and positive while prices accelerate upwards', function () {
    const flat = macd(new Float64Array(100).fill(3.25));
    for (let i = 33; i < 100; i++) expect([flat.macd[i], flat.signal[i], flat.histogram[i]]).to.deep.equal([0, 0, 0]);
    const rising = macd(Float64Array.from({ length: 100 }, (_, i) => 100 + i * i * 0.01));
    expect(rising.macd[99]).to.be.greaterThan(0);
    expect(rising.histogram[99]).to.be.greaterThan(0);
  });

  it('works with a signal period of 1 (the signal is the line)', function () {
    const closes = Float64Array.from({ length: 40 }, (_, i) => 10 + Math.sqrt(i));
    const out = macd(closes, { fast: 3, slow: 6, signal: 1 });
    const fast = ema(closes, 3, 'sma');
    const slow = ema(closes, 6, 'sma');
    expect(out.signal.findIndex((x) => !Number.isNaN(x))).to.equal(5);
    for (let i = 5; i < 40; i++) {
      expect(out.macd[i]).to.be.closeTo(fast[i]! - slow[i]!, 1e-12);
      expect(out.signal[i]).to.be.closeTo(out.macd[i]!, 1e-12);
    }
  });

  it('refuses periods that are not positive integers or a fast period not shorter than the slow one', function () {
    const closes = Float64Array.from([1, 2, 3]);
    expect(() => macd(closes, { fast: 0, slow: 26, signal: 9 })).to.throw(RangeError, 'macd fast period must be a positive integer');
    expect(() => macd(closes, { fast: 12, slow: -26, signal: 9 })).to.throw(RangeError, 'macd slow period must be a positive integer');
    expect(() => macd(closes, { fast: 12, slow: 26, signal: 0.5 })).to.throw(RangeError, 'macd signal period must be a positive integer');
    expect(() => macd(closes, { fast: 26, slow: 26, signal: 9 })).to.throw(RangeError, 'must be shorter than the slow period');
  });
});
