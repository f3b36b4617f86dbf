/**
 * The market figures the risk rules read (market-figures.ts), against hand-computed values: complete
 * candles only, Wilder's ATR14, sigma of log returns, the 24-hour range, the correlation of returns on
 * common candle times, and the highest high since an entry over a ladder of widths.
 */
import { expect } from 'chai';
import type { Candle } from '../market/coins';
import { candleColumns, coinFigures, FIVE_MINUTES_MS, highestHighSince, rangePercent, returnCorrelation, returnsStdev, wilderAtr } from './market-figures';

const T0 = Date.UTC(2026, 2, 4, 10, 0);
const candle = (i: number, close: number, high = close + 1, low = close - 1, width = FIVE_MINUTES_MS): Candle => ({ time: T0 + i * width, open: close, high, low, close, volume: 1 });

describe('market figures', function () {
  it('keeps only the candles complete at the moment given', function () {
    const candles = [candle(0, 100), candle(1, 101), candle(2, 102)];
    expect(candleColumns(candles, FIVE_MINUTES_MS, T0 + 3 * FIVE_MINUTES_MS).length).to.equal(3);
    expect(candleColumns(candles, FIVE_MINUTES_MS, T0 + 3 * FIVE_MINUTES_MS - 1).length, 'the last one still open').to.equal(2);
  });

  it("ATR14: Wilder's, the first value the mean of 14 true ranges; NaN with fewer than 15 candles", function () {
    // Constant true range 2 (high - low), closes flat: ATR 2.
    const flat = candleColumns(Array.from({ length: 20 }, (_, i) => candle(i, 100)), FIVE_MINUTES_MS, Infinity);
    expect(wilderAtr(flat)).to.equal(2);
    expect(wilderAtr(candleColumns(Array.from({ length: 14 }, (_, i) => candle(i, 100)), FIVE_MINUTES_MS, Infinity))).to.be.NaN;
    // A gap: the 15th candle's true range is |high - previous close| = 10 -> (2 x 13 + 10) / 14 on the 16th.
    const gap = candleColumns([...Array.from({ length: 15 }, (_, i) => candle(i, 100)), candle(15, 108, 110, 107)], FIVE_MINUTES_MS, Infinity);
    expect(wilderAtr(gap)).to.be.closeTo((2 * 13 + 10) / 14, 1e-12);
  });

  it('sigma: sample standard deviation of log returns; the 24-hour range of highs and lows', function () {
    const c = candleColumns([candle(0, 100), candle(1, 110), candle(2, 99), candle(3, 99)], FIVE_MINUTES_MS, Infinity);
    const r = [Math.log(1.1), Math.log(99 / 110), 0];
    const mean = r.reduce((a, b) => a + b) / 3;
    expect(returnsStdev(c.close, 0, 4)).to.be.closeTo(Math.sqrt(r.reduce((a, b) => a + (b - mean) ** 2, 0) / 2), 1e-12);
    expect(returnsStdev(c.close, 2, 4), 'one return is not a deviation').to.be.NaN;
    expect(rangePercent(c, 0, 4)).to.be.closeTo(((111 - 98) / 98) * 100, 1e-12);
  });

  it('correlation of returns on the times both series have: 1 for proportional moves, -1 for opposite ones, NaN for too few', function () {
    const closes = [100, 103, 101, 106, 104, 108];
    const a = candleColumns(closes.map((c, i) => candle(i, c)), FIVE_MINUTES_MS, Infinity);
    const doubled = candleColumns(closes.map((c, i) => candle(i, c * 2)), FIVE_MINUTES_MS, Infinity);
    const inverse = candleColumns(closes.map((c, i) => candle(i, 10_000 / c)), FIVE_MINUTES_MS, Infinity);
    expect(returnCorrelation(a, doubled)).to.be.closeTo(1, 1e-12);
    expect(returnCorrelation(a, inverse)).to.be.closeTo(-1, 1e-12);
    // Shifted by three candles: only two common returns.
    const shifted = candleColumns(closes.map((c, i) => candle(i + 3, c)), FIVE_MINUTES_MS, Infinity);
    expect(returnCorrelation(a, shifted)).to.be.NaN;
  });

  it('coin figures: ATR14 and sigma20 of the day of 5-minute candles, the range, and the average volatility scaled to 5 minutes', function () {
    const day = candleColumns(Array.from({ length: 288 }, (_, i) => candle(i, 100 * (1 + 0.001 * (i % 2)))), FIVE_MINUTES_MS, Infinity);
    const month = candleColumns(Array.from({ length: 180 }, (_, i) => candle(i, 100 * (1 + 0.01 * (i % 2)), undefined, undefined, 4 * 3_600_000)), 4 * 3_600_000, Infinity);
    const f = coinFigures(day, month);
    expect(f.atr14, 'high - low 2 is every true range').to.be.closeTo(2, 1e-12);
    expect(f.sigma20).to.be.closeTo(returnsStdev(day.close, 267, 288), 1e-15);
    expect(f.recentVolatility).to.be.closeTo(returnsStdev(day.close, 0, 288), 1e-15);
    expect(f.averageVolatility).to.be.closeTo(returnsStdev(month.close, 0, 180) * Math.sqrt(1 / 48), 1e-15);
    expect(f.range24hPercent).to.be.closeTo(((100.1 + 1 - 99) / 99) * 100, 1e-9);
  });

  it('the highest high since an entry over a ladder, leaving out the candle the entry falls in', function () {
    const minutes = candleColumns([candle(0, 100, 120, 99, 60_000), candle(1, 101, 105, 100, 60_000), candle(2, 102, 103, 101, 60_000)], 60_000, Infinity);
    const hours = candleColumns([candle(-3, 90, 150, 80, 3_600_000), candle(-2, 95, 110, 90, 3_600_000)], 3_600_000, Infinity);
    expect(highestHighSince([minutes, hours], T0 + 30_000)).to.equal(105);
    expect(highestHighSince([minutes, hours], T0)).to.equal(120);
    expect(highestHighSince([minutes, hours], T0 - 2 * 3_600_000)).to.equal(120);
    expect(highestHighSince([minutes, hours], T0 - 3 * 3_600_000)).to.equal(150);
    expect(highestHighSince([], T0)).to.equal(-Infinity);
  });
});
