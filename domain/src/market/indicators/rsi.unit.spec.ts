/**
 * rsi: Wilder's smoothing against StockCharts' worked example (the 14-day RSI of the QQQQ series) and
 * Tulip Indicators' vector, plus properties (rising 100, falling 0, flat 50, bounds, warm-up).
 */
import { expect } from 'chai';
import { rsi, RSI_WHEN_FLAT } from './rsi';
import { warmUp } from './series';

const fixed = (series: Float64Array, digits: number) => Array.from(series, (x) => (Number.isNaN(x) ? null : Number(x.toFixed(digits))));
const nulls = (count: number) => Array<null>(count).fill(null);

describe('rsi', function () {
  it("matches StockCharts ChartSchool's 14-day RSI worked example (Wilder's method, cs-rsi.xls, QQQQ)", function () {
    // StockCharts ChartSchool, "Relative Strength Index (RSI)", spreadsheet cs-rsi.xls: QQQQ closes from
    // 14-Dec-2009 to 1-Feb-2010 at the spreadsheet's 4 decimals (the page shows them rounded to 2) and
    // its 14-day RSI column, first value on the 15th close (5-Jan-2010). The first average gain and
    // loss are the sums of the first 14 divided by 14; later ones (prev x 13 + current) / 14.
    const closes = Float64Array.from([
      44.3389, 44.0902, 44.1497, 43.6124, 44.2778, 44.8264, 45.0955, 45.4245, 45.8433, 46.0826, 45.8931, 46.0328, 45.614,
      46.282, 46.282, 46.0028, 46.0328, 46.4116, 46.2222, 45.6439, 46.2122, 46.2521, 45.7137, 46.4515, 45.7835, 45.3548,
      44.0288, 44.1783, 44.2181, 44.5672, 43.4205, 42.6628, 43.1314,
    ]);
    expect(fixed(rsi(closes, 14), 2)).to.deep.equal([
      ...nulls(14),
      70.53, 66.32, 66.55, 69.41, 66.36, 57.97, 62.93, 63.26, 56.06, 62.38,
      54.71, 50.42, 39.99, 41.46, 41.87, 45.46, 37.3, 33.08, 37.77,
    ]);
  });

  it("matches Tulip Indicators' published rsi 5 test vector (tests/untest.txt), also trading-signals' RSI test", function () {
    // TulipCharts/tulipindicators tests/untest.txt "rsi 5"; bennycode/trading-signals RSI.test.ts checks
    // the same numbers ("Test data verified with ... tulipindicators ... untest.txt").
    const closes = Float64Array.from([81.59, 81.06, 82.87, 83.0, 83.61, 83.15, 82.84, 83.99, 84.55, 84.36, 85.53, 86.54, 86.89, 87.77, 87.29]);
    expect(fixed(rsi(closes, 5), 3)).to.deep.equal([
      ...nulls(5),
      72.034, 64.927, 75.936, 79.796, 74.713, 83.033, 87.478, 88.755, 91.483, 78.498,
    ]);
  });

  it('is 100 for a strictly rising series and 0 for a strictly falling one', function () {
    const rising = Float64Array.from({ length: 100 }, (_, i) => 10 + i * 0.37);
    const falling = Float64Array.from({ length: 100 }, (_, i) => 100 - i * 0.37);
    expect(rsi(rising).subarray(14).every((x) => x === 100)).to.equal(true);
    expect(rsi(falling).subarray(14).every((x) => x === 0)).to.equal(true);
  });

  it('is 50 for a flat series, where the references say 100 (no gain and no loss is not Overbought)', function () {
    expect(RSI_WHEN_FLAT).to.equal(50);
    expect(rsi(new Float64Array(30).fill(7)).subarray(14).every((x) => x === 50)).to.equal(true);
    // One move is enough to leave the flat case: a single rise after a flat start is all gain.
    const oneRise = new Float64Array(30).fill(7).fill(8, 20);
    expect(rsi(oneRise)[29]).to.equal(100);
  });

  it('stays within 0..100 and has 14 leading NaNs and the length of its input', function () {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const closes = new Float64Array(5000);
    closes[0] = 100;
    for (let i = 1; i < closes.length; i++) closes[i] = Math.max(1, closes[i - 1]! + (random() - 0.5) * 2);
    const out = rsi(closes);
    expect(out.length).to.equal(closes.length);
    expect(out.findIndex((x) => !Number.isNaN(x))).to.equal(warmUp.rsi(14));
    expect(out.subarray(14).every((x) => x >= 0 && x <= 100)).to.equal(true);
    // 14 closes are 13 changes: not enough. 15 are.
    expect(rsi(closes.subarray(0, 14)).every(Number.isNaN)).to.equal(true);
    expect(Number.isNaN(rsi(closes.subarray(0, 15))[14])).to.equal(false);
    expect(rsi(new Float64Array(0)).length).to.equal(0);
  });

  it('refuses a period that is not a positive integer', function () {
    expect(() => rsi(Float64Array.from([1, 2]), 1.5)).to.throw(RangeError, 'rsi period must be a positive integer');
  });
});
