/**
 * From candles to what the signal rules read: the closed candles of a series (the newest candle of a
 * chart may still be forming) and the indicator readings of the last of them. Shared by the signal
 * engine, which evaluates them, and GET /api/indicators, which shows them, so both see the same
 * numbers for the same candle.
 */
import type { Candle } from '../market/coins';
import { ema, lastValue, latestIndicators, toSeries, volumeRatio } from '../market/indicators';
import type { IndicatorReadings } from './signal-rules';

const MINUTE_MS = 60_000;

/** The candles of `intervalMinutes` that had closed by `nowMs` (open time + width <= now), oldest first. */
export function closedCandles(candles: readonly Candle[], intervalMinutes: number, nowMs: number): Candle[] {
  const width = intervalMinutes * MINUTE_MS;
  return candles.filter((c) => c.time + width <= nowMs);
}

/** The readings of the last candle of `candles` (oldest first); undefined when there is none. */
export function readingsOfLastCandle(candles: readonly Candle[]): { candle: Candle; readings: IndicatorReadings } | undefined {
  const candle = candles[candles.length - 1];
  if (!candle) return undefined;
  const closes = toSeries(candles.map((c) => c.close));
  const volumes = toSeries(candles.map((c) => c.volume));
  const latest = latestIndicators(closes, volumes);
  const ema20 = ema(closes, 20, 'first');
  const previous = ema20.length >= 2 ? ema20[ema20.length - 2]! : Number.NaN;
  return {
    candle,
    readings: {
      price: candle.close,
      rsi: latest.rsi,
      macd: latest.macd,
      sma20: latest.sma20,
      sma50: latest.sma50,
      ema20: latest.ema20,
      ema20Previous: Number.isNaN(previous) ? null : previous,
      volumeRatio: lastValue(volumeRatio(volumes)),
    },
  };
}
