/**
 * Stops and targets along the path (issue 17, section 2): a stop loss, trailing stop or take profit
 * executes at the first tick after the position's opening fill that is at or beyond its level (for a
 * long: a tick <= the stop, or >= the target), at that tick's price, less the half spread and the
 * impact (the portfolio decider applies them): a gap through the level costs the gap, as on an
 * exchange, and the close never fills at a price the market did not show.
 *
 * The scan walks the ticks from the tick after the last one scanned (`ExitCursor`) to `toTick`, so
 * whoever calls it (the risk monitor on each tick notice, the paper engine between signals, a
 * backtest over history) finds the same first crossing, whichever notices arrived.
 *
 * A trailing stop's level follows the highest tick since the entry: level = max(entry, highest) x
 * (1 - trail), with the running highest updated tick by tick along the same scan (a tick that makes a
 * new high is above its own level, so updating before or after the check is the same).
 *
 * Cost: one price per tick (no allocation). Spans longer than two minutes are read top-down: a whole
 * day, then a whole hour, then a minute (the path's day and hour ranges, which it keeps, and its minute
 * candles, read an hour at a time into preallocated typed arrays) whose low is above the highest level
 * the stop could reach in it (with its high as the new highest) and whose high is below the target
 * cannot hold a crossing and is skipped whole; only the others are opened, down to the ticks of the
 * minutes that may cross. So a monitor restarted under a thousand positions opened weeks ago reads
 * each day's and hour's range once, and a backtest of a month reads each minute at most once.
 */
import type { CoinId } from '../../market/coins';
import { candleArrays, TICKS_PER_DAY, TICKS_PER_HOUR, TICKS_PER_MINUTE } from '../../market/market-path';
import type { PriceTicks } from './price-ticks';

/** A long position's exit levels (USD per coin). */
export interface ExitSpec {
  /** Close at a tick at or below it; -Infinity: no fixed stop. */
  stopLoss: number;
  /** A trailing stop: the fraction below the highest tick since the entry (0.02: 2 % below); 0: none. */
  trail: number;
  /** The average entry price: the trailing stop's highest starts there. */
  entry: number;
  /** Close at a tick at or above it; +Infinity: no target. */
  takeProfit: number;
}

/** How far a position has been scanned. */
export interface ExitCursor {
  /** The last tick scanned (the opening fill's tick before the first scan). */
  tick: number;
  /** The highest tick price seen since the entry (NaN: none yet). */
  highest: number;
}

export const STOP_LOSS = 1;
export const TAKE_PROFIT = 2;

/** The crossing found (written in place: the scan allocates nothing). */
export interface ExitHit {
  tick: number;
  /** The tick's price (the mid the close fills at, before the spread and impact). */
  price: number;
  reason: typeof STOP_LOSS | typeof TAKE_PROFIT;
  /** The level crossed (for a trailing stop, its level at that tick). */
  level: number;
}

export const newExitHit = (): ExitHit => ({ tick: -1, price: Number.NaN, reason: STOP_LOSS, level: Number.NaN });

/** The spans shorter than this go tick by tick without looking at candles. */
const SHORT_SPAN = 2 * TICKS_PER_MINUTE;
const MINUTES_PER_HOUR = 60;
/** An hour of minute candles, reused by every scan (the scan is synchronous, so one buffer serves all). */
const hourCandles = candleArrays(MINUTES_PER_HOUR);

/** The stop level with the highest price seen `highest`. */
function stopLevel(spec: ExitSpec, highest: number): number {
  if (spec.trail > 0) {
    // Stryker disable next-line EqualityOperator: equivalent, on a tie both branches are the same number (and a NaN compares false either way); the other twin is covered by the condition's true/false mutants, which stay.
    const trailing = (highest > spec.entry ? highest : spec.entry) * (1 - spec.trail);
    // Stryker disable next-line EqualityOperator: equivalent, on a tie both branches are the same number (and a NaN compares false either way); the other twin is covered by the condition's true/false mutants, which stay.
    return trailing > spec.stopLoss ? trailing : spec.stopLoss;
  }
  return spec.stopLoss;
}

/**
 * Whether a span with this high and low may hold a crossing; when not, the cursor takes its high and
 * moves past it (to `last`). A span that cannot cross moves the cursor as scanning it would: every part
 * of it is within the same range, and the stop's level only rises with the highest price.
 */
export function skipSpan(spec: ExitSpec, cursor: ExitCursor, high: number, low: number, last: number): boolean {
  // Stryker disable next-line EqualityOperator: equivalent, on a tie both branches are the same number (and a NaN compares false either way); the other twin is covered by the condition's true/false mutants, which stay.
  const highest = cursor.highest > high ? cursor.highest : high;
  if (!(low > stopLevel(spec, highest) && high < spec.takeProfit)) return false;
  cursor.highest = highest;
  cursor.tick = last;
  return true;
}

/** Ticks [from, to] one by one; true (and `hit`) at the first crossing. An empty span (from > to) reads nothing and is false. */
function tickByTick(ticks: PriceTicks, coinId: CoinId, spec: ExitSpec, cursor: ExitCursor, from: number, to: number, hit: ExitHit): boolean {
  let highest = cursor.highest;
  for (let t = from; t <= to; t++) {
    const price = ticks.price(coinId, t);
    // Stryker disable next-line EqualityOperator: equivalent, `<` replaces the highest by the same price on a tie (a NaN compares false either way); the `>` twin is covered by the condition's true/false mutants, which stay.
    if (!(price <= highest)) highest = price; // also replaces NaN
    const stop = stopLevel(spec, highest);
    if (price <= stop || price >= spec.takeProfit) {
      hit.tick = t;
      hit.price = price;
      hit.reason = price <= stop ? STOP_LOSS : TAKE_PROFIT;
      hit.level = price <= stop ? stop : spec.takeProfit;
      cursor.highest = highest;
      return true;
    }
    cursor.tick = t;
  }
  cursor.highest = highest;
  return false;
}

/**
 * Scans ticks (cursor.tick, toTick] of `coinId` for the first at or beyond the levels. True when one
 * is found: `hit` holds it and the cursor stays before it (a close that fails is found again). False
 * when none: the cursor has moved to `toTick`.
 */
export function scanExits(ticks: PriceTicks, coinId: CoinId, spec: ExitSpec, cursor: ExitCursor, toTick: number, hit: ExitHit): boolean {
  let t = cursor.tick + 1;
  // Also a span with no new tick (t > toTick): tick by tick over nothing.
  if (toTick - t < SHORT_SPAN) return tickByTick(ticks, coinId, spec, cursor, t, toTick, hit);
  // The ragged start, up to the next minute boundary (none when t starts a minute).
  const headEnd = Math.ceil(t / TICKS_PER_MINUTE) * TICKS_PER_MINUTE - 1;
  if (tickByTick(ticks, coinId, spec, cursor, t, headEnd, hit)) return true;
  t = headEnd + 1;
  const endMinute = Math.floor((toTick + 1) / TICKS_PER_MINUTE); // minutes before it are whole within the span
  while (t < endMinute * TICKS_PER_MINUTE) {
    // A whole day, then a whole hour, skipped on its range when it cannot cross.
    if (t % TICKS_PER_DAY === 0 && t + TICKS_PER_DAY - 1 <= toTick) {
      const day = ticks.range(coinId, t, t + TICKS_PER_DAY);
      if (skipSpan(spec, cursor, day.high, day.low, t + TICKS_PER_DAY - 1)) {
        t += TICKS_PER_DAY;
        continue;
      }
    }
    if (t % TICKS_PER_HOUR === 0 && t + TICKS_PER_HOUR - 1 <= toTick) {
      const hour = ticks.range(coinId, t, t + TICKS_PER_HOUR);
      if (skipSpan(spec, cursor, hour.high, hour.low, t + TICKS_PER_HOUR - 1)) {
        t += TICKS_PER_HOUR;
        continue;
      }
    }
    // The minutes up to the next hour (or the span's last whole minute), each skipped on its candle or read tick by tick.
    const minute = t / TICKS_PER_MINUTE;
    const count = Math.min(endMinute, (Math.floor(minute / MINUTES_PER_HOUR) + 1) * MINUTES_PER_HOUR) - minute;
    // Read in place when the source keeps the hour whole (a backtest's market), else copied into the scratch hour.
    const hour = Math.floor(minute / MINUTES_PER_HOUR);
    const kept = ticks.keptHour?.(coinId, hour);
    const minutes = kept ?? ticks.minuteCandles(coinId, minute, count, hourCandles);
    const offset = kept ? minute - hour * MINUTES_PER_HOUR : 0;
    for (let j = 0; j < count; j++) {
      const first = (minute + j) * TICKS_PER_MINUTE;
      if (skipSpan(spec, cursor, minutes.high[offset + j]!, minutes.low[offset + j]!, first + TICKS_PER_MINUTE - 1)) continue;
      if (tickByTick(ticks, coinId, spec, cursor, first, first + TICKS_PER_MINUTE - 1, hit)) return true;
    }
    t = (minute + count) * TICKS_PER_MINUTE;
  }
  // The ragged end (none when the span ends a minute).
  return tickByTick(ticks, coinId, spec, cursor, t, toTick, hit);
}

/** One price with no path behind it (a source without ticks: a live price): the same test on that price alone. */
export function exitAtPrice(spec: ExitSpec, cursor: ExitCursor, price: number, hit: ExitHit): boolean {
  // Stryker disable next-line EqualityOperator: equivalent, on a tie both branches are the same number (and a NaN compares false either way); the other twin is covered by the condition's true/false mutants, which stay.
  const highest = price > cursor.highest || Number.isNaN(cursor.highest) ? price : cursor.highest;
  cursor.highest = highest;
  const stop = stopLevel(spec, highest);
  if (price <= stop || price >= spec.takeProfit) {
    hit.tick = -1;
    hit.price = price;
    hit.reason = price <= stop ? STOP_LOSS : TAKE_PROFIT;
    hit.level = price <= stop ? stop : spec.takeProfit;
    return true;
  }
  return false;
}
