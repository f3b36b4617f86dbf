/**
 * A candle too close to a threshold is read over its own window (house-signals.ts windowReadings), with
 * the numbers the signal engine reads for the same candles (signals/readings.ts readingsOfLastCandle):
 * the price, RSI, MACD and its signal line, the SMAs, the EMA and the one before it, and the volume ratio.
 */
import { expect } from 'chai';
import type { Candle } from '../market/coins';
import { readingsOfLastCandle } from '../signals/readings';
import { emptyCandles } from './candles';
import { windowReadings, type Readings } from './house-signals';

const FIVE = 5 * 60_000;

describe('house signals: a window read as the signal engine reads it', function () {
  it('gives every reading of the window\'s last candle as readingsOfLastCandle gives it for the same candles', function () {
    // A seeded walk with changing volumes: 400 candles.
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const candles: Candle[] = [];
    let price = 2000;
    for (let i = 0; i < 400; i++) {
      price *= 1 + (random() - 0.5) * 0.01;
      candles.push({ time: i * FIVE, open: price, high: price, low: price, close: price, volume: 1000 + random() * 5000 });
    }
    const c = emptyCandles(candles.length, 5);
    candles.forEach((x, i) => {
      c.time[i] = x.time;
      c.open[i] = c.high[i] = c.low[i] = c.close[i] = x.close;
      c.volume[i] = x.volume;
    });
    for (const [from, k] of [[0, 59], [10, 99], [150, 399], [300, 371]] as const) {
      const out: Readings = { price: 0, rsi: 0, macd: 0, signal: 0, sma20: 0, sma50: 0, ema20: 0, ema20Previous: 0, volumeRatio: 0 };
      windowReadings(c, from, k, out);
      const { readings } = readingsOfLastCandle(candles.slice(from, k + 1))!;
      expect(out, `window [${from}, ${k}]`).to.deep.equal({
        price: readings.price,
        rsi: readings.rsi,
        macd: readings.macd!.macd,
        signal: readings.macd!.signal,
        sma20: readings.sma20,
        sma50: readings.sma50,
        ema20: readings.ema20,
        ema20Previous: readings.ema20Previous,
        volumeRatio: readings.volumeRatio,
      });
    }
  });
});
