/**
 * sma: published reference values (StockCharts, Tulip Indicators, technicalindicators) and properties
 * (constant series, warm-up length, accuracy after a huge value has left the window).
 */
import { expect } from 'chai';
import { sma } from './sma';
import { warmUp } from './series';

/** Each point to `digits` decimals, `null` where not defined: compares like a published table. */
const fixed = (series: Float64Array, digits: number) => Array.from(series, (x) => (Number.isNaN(x) ? null : Number(x.toFixed(digits))));
const nulls = (count: number) => Array<null>(count).fill(null);

describe('sma', function () {
  it("matches StockCharts ChartSchool's 10-day SMA worked example (cs-movavg.xls, Intel)", function () {
    // StockCharts ChartSchool, "Moving Averages - Simple and Exponential", spreadsheet cs-movavg.xls:
    // the 30 closes (4 decimals, as in the spreadsheet) and its 10-day SMA column, to 2 decimals.
    const closes = Float64Array.from([
      22.2734, 22.194, 22.0847, 22.1741, 22.184, 22.1344, 22.2337, 22.4323, 22.2436, 22.2933, 22.1542, 22.3926, 22.3816,
      22.6109, 23.3558, 24.0519, 23.753, 23.8324, 23.9516, 23.6338, 23.8225, 23.8722, 23.6537, 23.187, 23.0976, 23.326,
      22.6805, 23.0976, 22.4025, 22.1725,
    ]);
    expect(fixed(sma(closes, 10), 2)).to.deep.equal([
      ...nulls(9),
      22.22, 22.21, 22.23, 22.26, 22.31, 22.42, 22.61, 22.77, 22.91, 23.08, 23.21,
      23.38, 23.53, 23.65, 23.71, 23.69, 23.61, 23.51, 23.43, 23.28, 23.13,
    ]);
  });

  it("matches Tulip Indicators' published sma 5 test vector (tests/untest.txt)", function () {
    // TulipCharts/tulipindicators tests/untest.txt, "sma 5" (the same closes trading-signals' tests use).
    const closes = Float64Array.from([81.59, 81.06, 82.87, 83.0, 83.61, 83.15, 82.84, 83.99, 84.55, 84.36, 85.53, 86.54, 86.89, 87.77, 87.29]);
    expect(fixed(sma(closes, 5), 3)).to.deep.equal([
      ...nulls(4),
      82.426, 82.738, 83.094, 83.318, 83.628, 83.778, 84.254, 84.994, 85.574, 86.218, 86.804,
    ]);
  });

  it("matches the technicalindicators package's documented SMA 10 vector (test/moving_averages/SMA.js)", function () {
    // anandanand84/technicalindicators test/data.js closes and test/moving_averages/SMA.js expectations.
    const closes = Float64Array.from([127.75, 129.02, 132.75, 145.4, 148.98, 137.52, 147.38, 139.05, 137.23, 149.3, 162.45, 178.95, 200.35, 221.9, 243.23, 243.52, 286.42, 280.27]);
    expect(fixed(sma(closes, 10), 2)).to.deep.equal([...nulls(9), 139.44, 142.91, 147.9, 154.66, 162.31, 171.74, 182.34, 196.24, 210.36]);
  });

  it('is defined from the period-th point: sma20 from the 20th close, sma50 from the 50th', function () {
    const closes = Float64Array.from({ length: 60 }, (_, i) => 100 + i);
    for (const period of [1, 2, 20, 50, 60]) {
      const out = sma(closes, period);
      expect(out.length).to.equal(closes.length);
      const firstDefined = out.findIndex((x) => !Number.isNaN(x));
      expect(firstDefined, `period ${period}`).to.equal(warmUp.sma(period));
      expect(out.subarray(firstDefined).every((x) => Number.isFinite(x)), `period ${period}`).to.equal(true);
    }
    // sma20 at the 20th close is the mean of closes 1..20: 100..119, mean 109.5.
    expect(sma(closes, 20)[19]).to.equal(109.5);
    expect(sma(closes, 61).every((x) => Number.isNaN(x))).to.equal(true);
    expect(sma(new Float64Array(0), 20).length).to.equal(0);
  });

  it('of a constant series is the constant, and with period 1 is the series itself', function () {
    for (const c of [0, 1, 0.1, 3.7, 1234.5678, 1e-9]) {
      const out = sma(new Float64Array(500).fill(c), 20);
      for (let i = 19; i < out.length; i++) expect(out[i]).to.be.closeTo(c, Math.abs(c) * 1e-15);
    }
    const values = Float64Array.from([3, 1, 4, 1, 5, 9, 2, 6]);
    expect(Array.from(sma(values, 1))).to.deep.equal(Array.from(values));
  });

  it('stays accurate after a huge value has passed through the window (compensated running sum)', function () {
    // Volume spikes of 1e15 among volumes near 1 (one while the first window fills, one later): a plain
    // running sum keeps an error of ~0.1 / 20 for ever after each.
    const volumes = Float64Array.from({ length: 200 }, (_, i) => (i === 5 || i === 70 ? 1e15 : 1 + (i % 7) * 0.013));
    const out = sma(volumes, 20);
    for (const i of [30, 31, 32, 33, 34, 35]) {
      let exact = 0;
      for (let j = i - 19; j <= i; j++) exact += volumes[j]!;
      expect(out[i], `after the warm-up spike, at ${i}`).to.be.closeTo(exact / 20, 1e-14);
    }
    for (let i = 100; i < volumes.length; i++) {
      let exact = 0;
      for (let j = i - 19; j <= i; j++) exact += volumes[j]!;
      expect(out[i]).to.be.closeTo(exact / 20, 1e-14);
    }
  });

  it('refuses a period that is not a positive integer', function () {
    const closes = Float64Array.from([1, 2, 3]);
    for (const period of [0, -1, 2.5, Number.NaN]) expect(() => sma(closes, period)).to.throw(RangeError, 'sma period must be a positive integer');
  });
});
