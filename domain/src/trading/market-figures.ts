/**
 * The market figures the risk rules read (issue 17, section 3), computed from candles the workers take
 * from the MarketData port and pass in: pure functions over typed arrays, prepared once per candle
 * and coin (`candleColumns`) and shared by every bot and position that needs them, so a signal for
 * 1,000 bots computes each coin's figures once.
 *
 * Only complete candles count (`candleColumns(candles, widthMs, untilMs)` drops a candle still open
 * at `untilMs`), so a figure never reads a price after the moment it is taken for.
 *
 * The figures, and what the rules do with them:
 * - `atr14`: the average true range of 14 five-minute candles, Wilder's smoothing (the first value the
 *   mean of the first 14 true ranges, then (previous x 13 + true range) / 14), over the day of
 *   5-minute candles; USD per coin. The atr stop sits k x ATR14 below the entry.
 * - `sigma20`: the standard deviation (n - 1) of the last 20 five-minute log returns; a fraction. The
 *   volatility stop sits k x sigma20 x the entry price below the entry.
 * - `range24hPercent`: (highest high - lowest low) / lowest low of the day's 5-minute candles, in
 *   percent: the coin's volatility as volatilityThreshold (10 % to 100 %) reads it. Chosen over an
 *   annualised volatility, which is above 30 % for every coin nearly all the time (the threshold
 *   would pause every entry), and over the 24-hour change, which is zero for a day that crashed and
 *   recovered.
 * - `recentVolatility`: the standard deviation of the day's 5-minute log returns; `averageVolatility`:
 *   that of the 30-day series' returns (the port's candles for 30 days: 4-hour candles on the
 *   simulated market), scaled to five minutes by the square root of time. Dynamic sizing multiplies
 *   the size by average / recent.
 * - `returnCorrelation(a, b)`: the Pearson correlation of two coins' log returns over the 30-day
 *   series, on the candle times both have; correlationLimit refuses an entry above it.
 * A figure that lacks data is NaN; the rules refuse an entry they cannot measure.
 */
import type { Candle } from '../market/coins';

/** A series of complete candles as columns. */
export interface CandleColumns {
  /** Candle width, ms. */
  widthMs: number;
  length: number;
  time: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
}

export const ATR_PERIOD = 14;
export const SIGMA_RETURNS = 20;
export const FIVE_MINUTES_MS = 5 * 60_000;

/** The candles of `candles` that closed by `untilMs`, as columns (oldest first, as the port sends them). */
export function candleColumns(candles: readonly Candle[], widthMs: number, untilMs: number): CandleColumns {
  let n = 0;
  while (n < candles.length && candles[n]!.time + widthMs <= untilMs) n++;
  const columns: CandleColumns = { widthMs, length: n, time: new Float64Array(n), high: new Float64Array(n), low: new Float64Array(n), close: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const c = candles[i]!;
    columns.time[i] = c.time;
    columns.high[i] = c.high;
    columns.low[i] = c.low;
    columns.close[i] = c.close;
  }
  return columns;
}

/** Wilder's average true range over `period` candles, smoothed over the whole series; NaN with fewer than period + 1 candles. */
export function wilderAtr(c: CandleColumns, period = ATR_PERIOD): number {
  // Stryker disable next-line ArithmeticOperator: equivalent, with period - 1 a series of period - 1 or period candles reads a candle that is not there, and the average is NaN just the same.
  if (c.length < period + 1) return Number.NaN;
  let atr = 0;
  for (let i = 1; i <= period; i++) atr += trueRange(c, i);
  atr /= period;
  for (let i = period + 1; i < c.length; i++) atr = (atr * (period - 1) + trueRange(c, i)) / period;
  return atr;
}

function trueRange(c: CandleColumns, i: number): number {
  const previous = c.close[i - 1]!;
  return Math.max(c.high[i]! - c.low[i]!, Math.abs(c.high[i]! - previous), Math.abs(c.low[i]! - previous));
}

/** Sample standard deviation (n - 1) of the log returns of close[from..to) (to - from - 1 returns); NaN with fewer than 2 returns. */
export function returnsStdev(close: Float64Array, from: number, to: number): number {
  const n = to - from - 1;
  // Stryker disable next-line ConditionalExpression: equivalent as `false` (either part or both), a start before the series reads a close that is not there and fewer than 2 returns divide 0 by 0: NaN just the same; `true` (always NaN) is also the `<=` mutants' case at a start of 0, which stay.
  if (from < 0 || n < 2) return Number.NaN;
  // Each log return computed once (kept in a scratch for the second pass: the same values, summed in the same order).
  // Stryker disable next-line ArithmeticOperator: equivalent, the scratch only grows when n is more than its length, so Math.max(n, length / 2) is n, room enough.
  if (logReturns.length < n) logReturns = new Float64Array(Math.max(n, logReturns.length * 2));
  const r = logReturns;
  let mean = 0;
  for (let i = from + 1, k = 0; i < to; i++, k++) {
    r[k] = Math.log(close[i]! / close[i - 1]!);
    mean += r[k]!;
  }
  mean /= n;
  let sum = 0;
  for (let k = 0; k < n; k++) {
    const d = r[k]! - mean;
    sum += d * d;
  }
  return Math.sqrt(sum / (n - 1));
}
let logReturns = new Float64Array(512);

/** returnsStdev over a whole series, kept per series (a month series serves every fill time of its last candle's span). */
const seriesStdev = new WeakMap<CandleColumns, number>();
function wholeStdev(c: CandleColumns): number {
  let v = seriesStdev.get(c);
  // Stryker disable next-line ConditionalExpression: equivalent as `true`, the memo computed again gives the same number; `false` (never computed) is also the `!==` mutant's case, which stays.
  if (v === undefined) {
    v = returnsStdev(c.close, 0, c.length);
    seriesStdev.set(c, v);
  }
  return v;
}

/** (highest high - lowest low) / lowest low over candles [from, to), percent; NaN when empty. */
export function rangePercent(c: CandleColumns, from: number, to: number): number {
  if (to <= from) return Number.NaN;
  let high = -Infinity;
  let low = Infinity;
  for (let i = from; i < to; i++) {
    // Stryker disable next-line EqualityOperator: equivalent, `>=` keeps the same highest on a tie (and a NaN compares false either way); the `<=` twin is covered by the condition's true/false mutants, which stay.
    if (c.high[i]! > high) high = c.high[i]!;
    // Stryker disable next-line EqualityOperator: equivalent, `<=` keeps the same lowest on a tie (and a NaN compares false either way); the `>=` twin is covered by the condition's true/false mutants, which stay.
    if (c.low[i]! < low) low = c.low[i]!;
  }
  return ((high - low) / low) * 100;
}

/**
 * Pearson correlation of the log returns of two series over the candle times both have (a return
 * counts when both its candle and the one before are in both series); NaN with fewer than 3 returns
 * or a series that does not move.
 */
export function returnCorrelation(a: CandleColumns, b: CandleColumns): number {
  let i = 1;
  let j = 1;
  let n = 0;
  let sa = 0;
  let sb = 0;
  let saa = 0;
  let sbb = 0;
  let sab = 0;
  while (i < a.length && j < b.length) {
    const ta = a.time[i]!;
    const tb = b.time[j]!;
    if (ta < tb) i++;
    else if (tb < ta) j++;
    else {
      if (a.time[i - 1] === b.time[j - 1]) {
        const ra = Math.log(a.close[i]! / a.close[i - 1]!);
        const rb = Math.log(b.close[j]! / b.close[j - 1]!);
        n++;
        sa += ra;
        sb += rb;
        saa += ra * ra;
        sbb += rb * rb;
        sab += ra * rb;
      }
      i++;
      j++;
    }
  }
  if (n < 3) return Number.NaN;
  const cov = sab - (sa * sb) / n;
  const va = saa - (sa * sa) / n;
  const vb = sbb - (sb * sb) / n;
  if (!(va > 0 && vb > 0)) return Number.NaN;
  return Math.max(-1, Math.min(1, cov / Math.sqrt(va * vb)));
}

/** One coin's figures at one moment (see the module comment). */
export interface CoinFigures {
  atr14: number;
  sigma20: number;
  range24hPercent: number;
  recentVolatility: number;
  averageVolatility: number;
}

/** The figures of one coin from its day of 5-minute candles and its 30-day series. */
export function coinFigures(fiveMinute: CandleColumns, thirtyDay: CandleColumns): CoinFigures {
  const n = fiveMinute.length;
  const average = wholeStdev(thirtyDay);
  return {
    atr14: wilderAtr(fiveMinute),
    sigma20: returnsStdev(fiveMinute.close, n - SIGMA_RETURNS - 1, n),
    range24hPercent: rangePercent(fiveMinute, 0, n),
    recentVolatility: returnsStdev(fiveMinute.close, 0, n),
    averageVolatility: thirtyDay.widthMs > 0 ? average * Math.sqrt(fiveMinute.widthMs / thirtyDay.widthMs) : Number.NaN,
  };
}

/**
 * The highest high of the complete candles that began at or after `sinceMs` in any of the series
 * (candle ladders of several widths, so a long-held position still finds its high), or -Infinity.
 * The candle in which `sinceMs` falls is left out (its high may predate it): the trailing stop's
 * reference may miss a high within the first candle after the entry of the finest series that
 * reaches back to it (one minute for positions up to four hours old on the simulated market).
 */
export function highestHighSince(series: readonly CandleColumns[], sinceMs: number): number {
  let highest = -Infinity;
  for (const c of series) {
    for (let i = firstAtOrAfter(c.time, sinceMs); i < c.length; i++) {
      // Stryker disable next-line EqualityOperator: equivalent, `>=` keeps the same highest on a tie (and a NaN compares false either way); the `<=` twin is covered by the condition's true/false mutants, which stay.
      if (c.high[i]! > highest) highest = c.high[i]!;
    }
  }
  return highest;
}

/** The first index whose time is at or after `ms` (binary search). */
export function firstAtOrAfter(time: Float64Array, ms: number): number {
  let lo = 0;
  let hi = time.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (time[mid]! < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
