/**
 * Where the chart's candles come from when the candle call fails (spec sections 7 and 8), as pure
 * functions the chart's query function calls after its fetches:
 * 1. `GET /api/coins/{coin}/ohlc?days=` answered OK: its candles, as they are;
 * 2. else `GET /api/coins/{coin}/history?days=` answered OK: its prices "converted to candles with
 *    dates counted backwards from today, one per entry" (`candlesFromHistory`), or, when that array is
 *    empty, synthetic candles (`syntheticCandles`);
 * 3. else an error, 'Failed to fetch price data'.
 *
 * Decisions the spec leaves open, made here:
 * - The dates: the last entry is `now`, each earlier one a step before it, the step being the
 *   range asked for divided by the number of entries, so the candles span the range the user chose
 *   (30 entries over 30 days are a day apart, as the spec's "one per entry" reads for daily data).
 *   The server's history points carry their own times; the spec's rule ignores them and so does this.
 * - A history candle opens at the previous entry's price (the first at its own) and closes at its
 *   entry's, high and low the larger and smaller of the two, volume 0 (history has none): a line of
 *   closes drawn as candles, without inventing wicks.
 * - Synthetic candles are flat at the coin's current price (when the caller knows it): the chart has
 *   a level and a range to show, and nothing that looks like market movement is made up. Without a
 *   price there is nothing honest to draw: no candles.
 */
import type { HistoryResponse, OhlcResponse } from '@papertrade/domain/market/contracts';
import type { Candle } from './chart-geometry';

export const DAY_MS = 86_400_000;
/** How many candles stand in for an empty history. */
export const SYNTHETIC_CANDLE_COUNT = 30;
export const PRICE_DATA_FETCH_FAILED = 'Failed to fetch price data';

/** A fetch's result as the fallback needs it: the parsed answer of an OK response, or not OK. */
export type FetchOutcome<T> = { ok: true; value: T } | { ok: false };

export interface ChartRange {
  /** The range asked for, in days (a timeframe's `days`). */
  days: number;
  /** ms since the epoch: "today" in the spec's rule. */
  now: number;
}

/** The chart's candles from the ohlc call, else the history call; throws when neither answered OK. */
export function chartCandles(
  ohlc: FetchOutcome<OhlcResponse>,
  history: FetchOutcome<HistoryResponse> | undefined,
  range: ChartRange & { price?: number | null },
): Candle[] {
  if (ohlc.ok) return ohlc.value.candles;
  if (history === undefined || !history.ok) throw new Error(PRICE_DATA_FETCH_FAILED);
  if (history.value.length === 0) return syntheticCandles(range.price ?? null, range);
  return candlesFromHistory(history.value, range);
}

/** One candle per history entry, oldest first, dated backwards from `now`. */
export function candlesFromHistory(history: HistoryResponse, range: ChartRange): Candle[] {
  const step = stepMs(range.days, history.length);
  const last = history.length - 1;
  return history.map((point, i) => {
    const open = i === 0 ? point.price : history[i - 1]!.price;
    const close = point.price;
    return {
      time: Math.round(range.now - (last - i) * step),
      open,
      high: Math.max(open, close),
      low: Math.min(open, close),
      close,
      volume: 0,
    };
  });
}

/** SYNTHETIC_CANDLE_COUNT flat candles at `price`, dated like history entries; none without a price. */
export function syntheticCandles(price: number | null, range: ChartRange, count: number = SYNTHETIC_CANDLE_COUNT): Candle[] {
  if (price === null || !Number.isFinite(price) || price <= 0) return [];
  const step = stepMs(range.days, count);
  return Array.from({ length: count }, (_, i) => ({
    time: Math.round(range.now - (count - 1 - i) * step),
    open: price,
    high: price,
    low: price,
    close: price,
    volume: 0,
  }));
}

function stepMs(days: number, count: number): number {
  return count === 0 ? 0 : (days * DAY_MS) / count;
}
