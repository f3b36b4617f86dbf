/**
 * The backtester's candles: the path's one-minute candles (read an hour at a time into typed arrays)
 * folded into wider candles, as columns, with no object per candle.
 *
 * A wide candle is folded exactly as the path's `summary` folds the minutes of a span (market-path.ts:
 * open of the first, highest high, lowest low, close of the last, volumes added left to right from the
 * first), so a 5-minute candle here is, bit for bit, the candle the market-data port serves the live
 * signal engine (simulation.ts `candles`): the house strategy reads the same numbers.
 */
import type { CoinId } from '../market/coins';
import { candleArrays, MINUTE_MS, SIMULATION_EPOCH_MS, type CandleArrays } from '../market/market-path';

/** What the candles are read from: the paper engine's PriceTicks has it (price-ticks.ts). */
export interface MinuteCandleSource {
  minuteCandles(coinId: CoinId, from: number, count: number, out: CandleArrays): CandleArrays;
}

/** Candles as columns, oldest first; `time` is each candle's open (ms since the Unix epoch). */
export interface Candles {
  length: number;
  widthMinutes: number;
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
}

export function emptyCandles(length: number, widthMinutes: number): Candles {
  return { length, widthMinutes, ...candleArrays(length) };
}

/** The minute index (since the simulation's epoch) of a time, floored. */
export const minuteIndexOf = (timeMs: number) => Math.floor((timeMs - SIMULATION_EPOCH_MS) / MINUTE_MS);

const HOUR = 60;

/**
 * Candles of `widthMinutes` (a divisor of 60, or a multiple of 60) aligned to the epoch, the first
 * containing `fromMs` (floored to its candle), up to the last that closes by `toMs`.
 */
export function loadCandles(source: MinuteCandleSource, coinId: CoinId, fromMs: number, toMs: number, widthMinutes: number): Candles {
  if (!Number.isInteger(widthMinutes) || widthMinutes < 1 || (HOUR % widthMinutes !== 0 && widthMinutes % HOUR !== 0)) throw new RangeError(`candle width must divide an hour or be whole hours, got ${widthMinutes}`);
  const firstMinute = Math.floor(Math.max(0, minuteIndexOf(fromMs)) / widthMinutes) * widthMinutes;
  const endMinute = Math.floor(minuteIndexOf(toMs) / widthMinutes) * widthMinutes;
  const count = Math.max(0, (endMinute - firstMinute) / widthMinutes);
  const out = emptyCandles(count, widthMinutes);
  if (count === 0) return out;
  // Whole hours at a time (the path computes hours), folded as they come.
  const chunk = widthMinutes <= HOUR ? HOUR : widthMinutes;
  const scratch = candleArrays(chunk);
  let c = 0;
  for (let m = firstMinute; m < endMinute; m += chunk) {
    const take = Math.min(chunk, endMinute - m);
    source.minuteCandles(coinId, m, take, scratch);
    for (let j = 0; j < take; j += widthMinutes, c++) {
      let high = scratch.high[j]!;
      let low = scratch.low[j]!;
      let volume = scratch.volume[j]!;
      for (let k = 1; k < widthMinutes; k++) {
        const h = scratch.high[j + k]!;
        const l = scratch.low[j + k]!;
        // Stryker disable next-line EqualityOperator: equivalent, `>=` keeps the same highest on a tie (and a NaN compares false either way); the `<=` twin is covered by the condition's true/false mutants, which stay.
        if (h > high) high = h;
        // Stryker disable next-line EqualityOperator: equivalent, `<=` keeps the same lowest on a tie (and a NaN compares false either way); the `>=` twin is covered by the condition's true/false mutants, which stay.
        if (l < low) low = l;
        volume = volume + scratch.volume[j + k]!;
      }
      out.time[c] = scratch.time[j]!;
      out.open[c] = scratch.open[j]!;
      out.high[c] = high;
      out.low[c] = low;
      out.close[c] = scratch.close[j + widthMinutes - 1]!;
      out.volume[c] = volume;
    }
  }
  return out;
}

/** The first candle index whose open is at or after `timeMs` (binary search; `length` if none). */
export function indexAtOrAfter(candles: Pick<Candles, 'time' | 'length'>, timeMs: number): number {
  let lo = 0;
  let hi = candles.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (candles.time[mid]! < timeMs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
