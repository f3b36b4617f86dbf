/** Five-minute candles of given closes for the strategy backtest specs (test support). */
import { emptyCandles, type Candles } from '../backtest/candles';

export const FIVE_MIN = 300_000;
export const T0 = Date.UTC(2025, 0, 1);

/**
 * Candles from T0, five minutes apart: each opens at the previous close, its high and low 0.1 %
 * beyond its open and close; volume 1000 + (i mod 7) x 10 unless `volumeAt` says otherwise.
 */
export function candlesOf(closes: readonly number[], volumeAt: (i: number) => number = (i) => 1000 + (i % 7) * 10): Candles {
  const c = emptyCandles(closes.length, 5);
  closes.forEach((x, i) => {
    c.time[i] = T0 + i * FIVE_MIN;
    c.open[i] = i > 0 ? closes[i - 1]! : x;
    c.close[i] = x;
    c.high[i] = Math.max(x, c.open[i]!) * 1.001;
    c.low[i] = Math.min(x, c.open[i]!) * 0.999;
    c.volume[i] = volumeAt(i);
  });
  return c;
}
