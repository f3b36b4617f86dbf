/**
 * ema: smoothing 2 / (period + 1) under both seedings. Seeded with the first close (spec section 9,
 * ema20) against Tulip Indicators' vector; seeded with an SMA against StockCharts' worked example and
 * the technicalindicators package's vector; plus properties.
 */
import { expect } from 'chai';
import { ema } from './ema';
import { warmUp } from './series';

const fixed = (series: Float64Array, digits: number) => Array.from(series, (x) => (Number.isNaN(x) ? null : Number(x.toFixed(digits))));
const nulls = (count: number) => Array<null>(count).fill(null);

describe('ema', function () {
  it("seeded with the first close, matches Tulip Indicators' published ema 5 test vector (tests/untest.txt)", function () {
    // TulipCharts/tulipindicators tests/untest.txt, "ema 5": Tulip seeds its EMA with the first input,
    // like spec section 9's ema20, so the output starts at the first close (81.590).
    const closes = Float64Array.from([81.59, 81.06, 82.87, 83.0, 83.61, 83.15, 82.84, 83.99, 84.55, 84.36, 85.53, 86.54, 86.89, 87.77, 87.29]);
    expect(fixed(ema(closes, 5), 3)).to.deep.equal([
      81.59, 81.413, 81.899, 82.266, 82.714, 82.859, 82.853, 83.232, 83.671, 83.901, 84.444, 85.143, 85.725, 86.407, 86.701,
    ]);
  });

  it('ema20 uses 2/21 and starts at the first close (spec section 9)', function () {
    // 10, then 10 + (31 - 10) x 2/21 = 12, then 12 + (33 - 12) x 2/21 = 14.
    const out = ema(Float64Array.from([10, 31, 33, 14]), 20);
    expect(out[0]).to.equal(10);
    expect(out[1]).to.be.closeTo(12, 1e-12);
    expect(out[2]).to.be.closeTo(14, 1e-12);
    expect(out[3]).to.be.closeTo(14, 1e-12); // 14 + (14 - 14) x 2/21
  });

  it("seeded with the SMA, matches StockCharts ChartSchool's 10-day EMA worked example (cs-movavg.xls, Intel)", function () {
    // StockCharts ChartSchool, "Moving Averages - Simple and Exponential": "the exponential moving average
    // in the spreadsheet starts with the SMA value (22.22) for its first EMA value". Spreadsheet cs-movavg.xls,
    // 10-day EMA column to 2 decimals.
    const closes = Float64Array.from([
      22.2734, 22.194, 22.0847, 22.1741, 22.184, 22.1344, 22.2337, 22.4323, 22.2436, 22.2933, 22.1542, 22.3926, 22.3816,
      22.6109, 23.3558, 24.0519, 23.753, 23.8324, 23.9516, 23.6338, 23.8225, 23.8722, 23.6537, 23.187, 23.0976, 23.326,
      22.6805, 23.0976, 22.4025, 22.1725,
    ]);
    expect(fixed(ema(closes, 10, 'sma'), 2)).to.deep.equal([
      ...nulls(9),
      22.22, 22.21, 22.24, 22.27, 22.33, 22.52, 22.8, 22.97, 23.13, 23.28, 23.34,
      23.43, 23.51, 23.54, 23.47, 23.4, 23.39, 23.26, 23.23, 23.08, 22.92,
    ]);
  });

  it("seeded with the SMA, matches the technicalindicators package's documented EMA 9 vector (test/moving_averages/EMA.js)", function () {
    const closes = Float64Array.from([127.75, 129.02, 132.75, 145.4, 148.98, 137.52, 147.38, 139.05, 137.23, 149.3, 162.45, 178.95, 200.35, 221.9, 243.23, 243.52, 286.42, 280.27]);
    expect(fixed(ema(closes, 9, 'sma'), 2)).to.deep.equal([
      ...nulls(8),
      138.34, 140.53, 144.92, 151.72, 161.45, 173.54, 187.48, 198.69, 216.23, 229.04,
    ]);
  });

  it('has the warm-up of its seeding and the length of its input', function () {
    const closes = Float64Array.from({ length: 40 }, (_, i) => 50 + Math.sin(i));
    for (const period of [1, 5, 20, 40]) {
      for (const seed of ['first', 'sma'] as const) {
        const out = ema(closes, period, seed);
        expect(out.length).to.equal(closes.length);
        expect(out.findIndex((x) => !Number.isNaN(x)), `${seed} ${period}`).to.equal(warmUp.ema(period, seed));
        expect(out.subarray(warmUp.ema(period, seed)).every(Number.isFinite)).to.equal(true);
      }
    }
    expect(ema(closes, 41, 'sma').every(Number.isNaN)).to.equal(true);
    expect(ema(new Float64Array(0), 20).length).to.equal(0);
  });

  it('of a constant series is the constant; the two seedings converge', function () {
    for (const seed of ['first', 'sma'] as const) {
      const out = ema(new Float64Array(300).fill(42.42), 20, seed);
      for (let i = 19; i < out.length; i++) expect(out[i]).to.be.closeTo(42.42, 1e-12);
    }
    const closes = Float64Array.from({ length: 1000 }, (_, i) => 100 + 10 * Math.sin(i / 7) + i / 50);
    const first = ema(closes, 20, 'first');
    const seeded = ema(closes, 20, 'sma');
    expect(Math.abs(first[19]! - seeded[19]!)).to.be.greaterThan(0.01); // they do differ early
    expect(first[999]).to.be.closeTo(seeded[999]!, 1e-9);
  });

  it('refuses a period that is not a positive integer', function () {
    expect(() => ema(Float64Array.from([1]), 0)).to.throw(RangeError, 'ema period must be a positive integer');
  });
});
