/** Range to candle width: every chart range draws 40 to 300 candles from a fixed ladder. */
import { expect } from 'chai';
import { candleCount, candleIntervalForDays, candleIntervals, chartDaysSchema, MAX_CANDLES, MIN_CANDLES } from './candle-interval';

describe('candle interval for a range', function () {
  it('draws the dashboard ranges (1H, 4H, 1D, 7D, 30D) and a year with the expected widths', function () {
    const chosen = [0.04, 0.17, 1, 7, 30, 365].map((days) => {
      const interval = candleIntervalForDays(days);
      return [days, interval.label, candleCount(days, interval)];
    });
    expect(chosen).to.deep.equal([
      [0.04, '1m', 58],
      [0.17, '1m', 245],
      [1, '5m', 288],
      [7, '1h', 168],
      [30, '4h', 180],
      [365, '2d', 183],
    ]);
  });

  it(`keeps every range from 40 minutes to 365 days between ${MIN_CANDLES} and ${MAX_CANDLES} candles`, function () {
    let previous = 0;
    for (let days = 40 / 1440; days <= 365; days *= 1.013) {
      const interval = candleIntervalForDays(days);
      const count = candleCount(days, interval);
      expect(count, `${days} days at ${interval.label}`).to.be.within(MIN_CANDLES, MAX_CANDLES);
      expect(interval.minutes, `${days} days: wider ranges never get narrower candles`).to.be.at.least(previous);
      previous = interval.minutes;
    }
    for (const days of [1 / 24, 0.5, 2, 3, 14, 45, 90, 180, 200, 364.99, 365]) {
      const count = candleCount(days, candleIntervalForDays(days));
      expect(count, `${days} days`).to.be.within(MIN_CANDLES, MAX_CANDLES);
    }
  });

  it('uses one-minute candles below 40 minutes and refuses ranges that are not positive', function () {
    expect(candleIntervalForDays(0.001).label).to.equal('1m');
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => candleIntervalForDays(bad), String(bad)).to.throw(RangeError);
  });

  it('has a ladder of whole minutes dividing a day or a whole number of days', function () {
    for (const interval of candleIntervals) {
      expect(Number.isInteger(interval.minutes)).to.equal(true);
      expect(1440 % interval.minutes === 0 || interval.minutes % 1440 === 0, interval.label).to.equal(true);
    }
  });

  it('accepts a range from a query string and refuses bad ones with a clear message', function () {
    expect(chartDaysSchema.parse('7')).to.equal(7);
    expect(chartDaysSchema.parse('0.04')).to.equal(0.04);
    expect(chartDaysSchema.parse(365)).to.equal(365);
    const message = (input: unknown) => chartDaysSchema.safeParse(input).error?.issues[0]?.message;
    expect(message('0')).to.equal('days must be greater than 0');
    expect(message('-3')).to.equal('days must be greater than 0');
    expect(message('366')).to.equal('days must be at most 365');
    expect(message('abc')).to.equal('days must be a number');
    expect(message('Infinity')).to.match(/days must be/);
  });
});
