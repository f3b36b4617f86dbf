/** Closed candles of a chart and the readings of the last one. */
import { expect } from 'chai';
import type { Candle } from '../market/coins';
import { latestIndicators } from '../market/indicators';
import { closedCandles, readingsOfLastCandle } from './readings';

const MIN = 60_000;
const candle = (i: number, close: number): Candle => ({ time: i * 5 * MIN, open: close, high: close, low: close, close, volume: 1000 + i });

describe('signal readings', function () {
  it('keeps the candles whose whole width has passed, drops the forming one', function () {
    const candles = [candle(0, 1), candle(1, 2), candle(2, 3)];
    expect(closedCandles(candles, 5, 15 * MIN - 1).map((c) => c.time)).to.deep.equal([0, 5 * MIN]);
    expect(closedCandles(candles, 5, 15 * MIN).map((c) => c.time)).to.deep.equal([0, 5 * MIN, 10 * MIN]);
  });

  it('reads the last candle: its close, the latest indicators, the ema20 one candle before', function () {
    const candles = Array.from({ length: 60 }, (_, i) => candle(i, 100 + Math.sin(i / 3) * 5));
    const { candle: last, readings } = readingsOfLastCandle(candles)!;
    const latest = latestIndicators(candles.map((c) => c.close), candles.map((c) => c.volume));
    expect(last).to.equal(candles[59]);
    expect(readings).to.deep.include({ price: candles[59]!.close, rsi: latest.rsi, macd: latest.macd, sma20: latest.sma20, sma50: latest.sma50, ema20: latest.ema20 });
    expect(readings.ema20Previous).to.equal(latestIndicators(candles.slice(0, 59).map((c) => c.close), []).ema20);
    expect(readings.volumeRatio).to.be.a('number');
  });

  it('nothing to read without candles; one candle has no previous ema', function () {
    expect(readingsOfLastCandle([])).to.equal(undefined);
    expect(readingsOfLastCandle([candle(0, 5)])!.readings).to.deep.include({ ema20: 5, ema20Previous: null, rsi: null, volumeRatio: null });
  });
});
