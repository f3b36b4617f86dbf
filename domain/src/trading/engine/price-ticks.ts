/**
 * The price path as the trading engine reads it: tick prices, minute candles and minute volumes of
 * any coin, up to a last tick that has happened. The simulated market's path (market-path.ts) is the
 * source; the market-data port gives the live workers a view bounded by the clock (nothing after now),
 * a backtest one bounded by the end of its period. A source without ticks (CoinGecko) has none, and
 * the workers fall back to its live prices.
 *
 * `price` is called per tick by the exit scan: it must not allocate (MarketPath keeps the minute it
 * computed last, so consecutive ticks of a minute cost an exp each).
 */
import type { CoinId } from '../../market/coins';
import { tickTime, TICKS_PER_MINUTE, type CandleArrays, type MarketPath } from '../../market/market-path';

export interface PriceTicks {
  /** The newest tick a reader may ask for (the tick of now, for the live workers). */
  lastTick(): number;
  /** The price of tick `tick` (USD). */
  price(coinId: CoinId, tick: number): number;
  /** The 1-minute candles of minutes [from, from + count) into `out` (the path computes whole hours: ask hour by hour). */
  minuteCandles(coinId: CoinId, from: number, count: number, out: CandleArrays): CandleArrays;
  /**
   * Optional: the minute candles of hour `hour` (since the epoch) when the source keeps them whole and
   * the hour has happened, to be read in place and never written (the exit scan then copies nothing);
   * undefined otherwise (the scan asks minuteCandles).
   */
  keptHour?(coinId: CoinId, hour: number): CandleArrays | undefined;
  /** The USD traded in minute `minute` (all of its ticks). */
  minuteVolume(coinId: CoinId, minute: number): number;
  /** The highest and lowest tick of ticks [from, to) (the path keeps whole hours' and days', so an hour or a day costs nothing the second time). */
  range(coinId: CoinId, from: number, to: number): { high: number; low: number };
}

/** What an order meets at a tick: the mid and the volume of the last complete minute before it. */
export interface TickQuote {
  coinId: CoinId;
  tick: number;
  /** The tick's time, ms. */
  timeMs: number;
  mid: number;
  minuteVolumeUsd: number;
}

/** A path's ticks up to `lastTick()` (default: all of them, for a backtest's own bounds). */
export function pathTicks(path: MarketPath, lastTick: () => number = () => Number.MAX_SAFE_INTEGER): PriceTicks {
  // The bound is read again only when a tick beyond the one known passes it (no clock read per tick).
  let horizon = -1;
  const within = (tick: number) => {
    if (tick <= horizon) return;
    horizon = lastTick();
    if (tick > horizon) throw new RangeError(`tick ${tick} (${new Date(tickTime(tick)).toISOString()}) has not happened yet`);
  };
  return {
    lastTick,
    price(coinId, tick) {
      within(tick);
      return path.price(coinId, tick);
    },
    minuteCandles(coinId, from, count, out) {
      within((from + count) * TICKS_PER_MINUTE - 1);
      return path.minuteCandles(coinId, from, count, out);
    },
    minuteVolume(coinId, minute) {
      within((minute + 1) * TICKS_PER_MINUTE - 1);
      return path.summary(coinId, minute * TICKS_PER_MINUTE, (minute + 1) * TICKS_PER_MINUTE).volume;
    },
    range(coinId, from, to) {
      within(to - 1);
      return path.summary(coinId, from, to);
    },
  };
}

/** The quote of `coinId` at tick `tick`: its price, and the volume of the last minute complete before it. */
export function quoteAt(ticks: PriceTicks, coinId: CoinId, tick: number): TickQuote {
  const minute = Math.floor(tick / TICKS_PER_MINUTE);
  return { coinId, tick, timeMs: tickTime(tick), mid: ticks.price(coinId, tick), minuteVolumeUsd: minute > 0 ? ticks.minuteVolume(coinId, minute - 1) : 0 };
}
