/** The candles of GET /api/coins/{coin}/ohlc under the spec's names: timestamp and a time label (UTC). */
import { expect } from 'chai';
import { ohlcCandleSchema } from './contracts';
import { candleTimeLabel, toOhlcCandle } from './candle-label';

describe('candle time label', function () {
  it('below a day: month, day and the UTC time of the candle opening', function () {
    expect(candleTimeLabel(Date.parse('2026-03-04T14:05:00.000Z'), 5)).to.equal('Mar 4, 14:05');
    expect(candleTimeLabel(Date.parse('2026-12-31T00:00:00.000Z'), 1)).to.equal('Dec 31, 00:00');
    expect(candleTimeLabel(Date.parse('2026-01-09T23:00:00.000Z'), 240)).to.equal('Jan 9, 23:00');
  });

  it('a day or wider: the UTC date with its year', function () {
    expect(candleTimeLabel(Date.parse('2026-03-04T00:00:00.000Z'), 1440)).to.equal('Mar 4, 2026');
    expect(candleTimeLabel(Date.parse('2025-11-30T00:00:00.000Z'), 2880)).to.equal('Nov 30, 2025');
  });

  it('a candle of the answer keeps time and adds timestamp (the same epoch ms) and timeLabel', function () {
    const candle = { time: Date.parse('2026-03-04T14:05:00.000Z'), open: 1, high: 2, low: 0.5, close: 1.5, volume: 10 };
    const out = ohlcCandleSchema.parse(toOhlcCandle(candle, 5));
    expect(out).to.deep.equal({ ...candle, timestamp: candle.time, timeLabel: 'Mar 4, 14:05' });
  });
});
