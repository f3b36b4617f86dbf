/**
 * The edges of the candle-width ladder: a range that fills exactly MAX_CANDLES candles keeps the
 * narrower width, a range longer than the widest rung can draw in MAX_CANDLES still gets the widest
 * rung, and a refused range is named in the error.
 */
import { expect } from 'chai';
import { candleCount, candleIntervalForDays, candleIntervals, MAX_CANDLES } from './candle-interval';

describe('candle interval at the edges of the ladder', function () {
  it(`keeps a width that draws exactly ${MAX_CANDLES} candles`, function () {
    // 12.5 days = 18,000 minutes = 300 one-hour candles; 30m would need 600.
    const interval = candleIntervalForDays(12.5);
    expect(interval.label).to.equal('1h');
    expect(candleCount(12.5, interval)).to.equal(MAX_CANDLES);
    // 300 minutes exactly: 300 one-minute candles.
    expect(candleIntervalForDays(300 / 1440).label).to.equal('1m');
  });

  it('gives the widest rung to a range even that one cannot draw in the limit', function () {
    // 2d candles draw at most 600 days in 300 candles.
    const widest = candleIntervals[candleIntervals.length - 1]!;
    expect(widest.label).to.equal('2d');
    expect(candleIntervalForDays(1000)).to.equal(widest);
  });

  it('names the refused range in the error', function () {
    expect(() => candleIntervalForDays(-2)).to.throw(RangeError, 'days must be a positive number, got -2');
  });
});
