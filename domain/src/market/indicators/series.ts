/**
 * The conventions every indicator in this folder follows, in one place.
 *
 * - Input: a `Float64Array` of finite numbers, oldest first (closes or volumes, one per candle).
 *   Typed arrays only, so the hot loops stay monomorphic; `toSeries` converts a plain array.
 * - Output: a new `Float64Array` of the same length, aligned index for index with the input. A point
 *   where the indicator is not defined yet (its warm-up) holds `NaN`; every point after the warm-up
 *   is defined. `warmUp` below says how many leading `NaN`s each indicator has.
 * - A `NaN` in the input is not an error: it propagates to every later point of a recursive indicator
 *   (EMA, RSI, MACD) and to the windows that contain it for a windowed one (SMA). Callers pass clean data.
 * - Periods are positive integers; anything else is a programming error (`RangeError`).
 * - Pure: no I/O, no clock, no randomness; one pass over the input, no allocation per element.
 */

/** A numeric series, oldest first; `NaN` marks a point where a value is not defined. */
export type Series = Float64Array;

/** Throws a `RangeError` unless `period` is an integer of at least 1. */
export function assertPeriod(name: string, period: number): void {
  if (!Number.isInteger(period) || period < 1) {
    throw new RangeError(`${name} must be a positive integer, got ${period}`);
  }
}

/** A `Float64Array` view of `values`: the same array when it already is one, else a copy. */
export function toSeries(values: Float64Array | readonly number[]): Float64Array {
  return values instanceof Float64Array ? values : Float64Array.from(values);
}

/** The last point of a series, or `null` when the series is empty or its last point is not defined. */
export function lastValue(series: Float64Array): number | null {
  const last = series.length === 0 ? Number.NaN : series[series.length - 1]!;
  return Number.isNaN(last) ? null : last;
}

/** How many leading points of each indicator are `NaN` (its warm-up), for the given periods. */
export const warmUp = {
  /** sma(p) is defined from the p-th point. */
  sma: (period: number) => period - 1,
  /** ema(p) seeded with the first value is defined from the first point; seeded with an SMA, from the p-th. */
  ema: (period: number, seed: 'first' | 'sma') => (seed === 'first' ? 0 : period - 1),
  /** rsi(p) needs p changes, so p + 1 closes. */
  rsi: (period: number) => period,
  /** The MACD line waits for the slow EMA; the signal and histogram for `signal` MACD values more. */
  macdLine: (slow: number) => slow - 1,
  macdSignal: (slow: number, signal: number) => slow + signal - 2,
} as const;
