/**
 * The newest candle moves with the live ticks (issue 7): between two fetches of the chart (every
 * 60 s, spec section 7) the price the dashboard receives is folded into the candles on the client.
 *
 * - A tick inside the newest candle's interval is that candle's latest trade: close = the price,
 *   high and low extended to it. The server's newest candle is still forming ("the newest may still
 *   be forming", OhlcResponse), so this is the same candle, only fresher.
 * - A tick at or past the newest candle's end (its open time + the response's `intervalMinutes`)
 *   opens the next candle: the one on the server's grid (candles are aligned to multiples of their
 *   width) that contains the tick, open = high = low = close = the price (the first price seen in it),
 *   volume 0 (the feed does not say what traded). The oldest candle leaves, so the chart keeps its
 *   range as the server's window slides. Candles the ticks skipped (a sleeping tab) are not made up:
 *   the band scale is by index, so the chart simply has no candle for them until the next fetch.
 * - Without an interval (candles built from the history fallback, whose dates are counted back from
 *   the fetch and carry no width) a tick can only be folded into the newest candle.
 * - A tick older than the newest candle's open, or with a price that is not a positive number, is
 *   ignored (ticks are at most once and may arrive after a fetch that already includes them).
 *
 * Every change returns a new array with a new last candle and leaves the input untouched, so memoised
 * geometry recomputes exactly when the candles change.
 */
import type { Candle } from './chart-geometry';

export const MINUTE_MS = 60_000;

export interface LiveTick {
  price: number;
  /** ms since the epoch: when the price was observed. */
  at: number;
}

/** The candles with `tick` folded in; the same array when the tick changes nothing. */
export function mergeLivePrice(candles: readonly Candle[], tick: LiveTick, intervalMinutes: number | null): readonly Candle[] {
  if (!(tick.price > 0) || !Number.isFinite(tick.price) || !Number.isFinite(tick.at)) return candles;
  const newest = candles.at(-1);
  if (newest === undefined || tick.at < newest.time) return candles;

  if (intervalMinutes !== null && intervalMinutes > 0) {
    const width = intervalMinutes * MINUTE_MS;
    if (tick.at >= newest.time + width) {
      const time = newest.time + Math.floor((tick.at - newest.time) / width) * width;
      const opened: Candle = { time, open: tick.price, high: tick.price, low: tick.price, close: tick.price, volume: 0 };
      return [...candles.slice(1), opened];
    }
  }

  if (newest.close === tick.price && newest.high >= tick.price && newest.low <= tick.price) return candles;
  const moved: Candle = { ...newest, close: tick.price, high: Math.max(newest.high, tick.price), low: Math.min(newest.low, tick.price) };
  return [...candles.slice(0, -1), moved];
}

/** What the chart draws: the fetched candles with every tick since the fetch folded in. */
export interface LiveCandles {
  /** The fetched candles this state started from (a new fetch starts over from its answer). */
  fetched: readonly Candle[];
  intervalMinutes: number | null;
  candles: readonly Candle[];
}

export type LiveCandlesAction =
  | { type: 'fetched'; candles: readonly Candle[]; intervalMinutes: number | null }
  | { type: 'tick'; tick: LiveTick };

/**
 * A fetch replaces whatever the ticks built (the server's candles are the truth; a tick older than the
 * fetch would only undo it); a tick folds into the current candles.
 */
export function liveCandlesReducer(state: LiveCandles, action: LiveCandlesAction): LiveCandles {
  switch (action.type) {
    case 'fetched':
      return { fetched: action.candles, intervalMinutes: action.intervalMinutes, candles: action.candles };
    case 'tick': {
      const candles = mergeLivePrice(state.candles, action.tick, state.intervalMinutes);
      return candles === state.candles ? state : { ...state, candles };
    }
  }
}
