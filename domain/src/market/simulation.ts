/**
 * The simulated market as the rest of the product reads it: prices, quotes and candles at times (ms
 * since the Unix epoch), over the one price path of market-path.ts (read that file's header for how
 * the market moves and why nothing in it can see ahead). Everything here is a view of the path's
 * ticks (TICK_MS = 5 s): the price at a moment is its last tick's, a candle's open, high, low and
 * close are the first, highest, lowest and last tick in it, and the newest candle of a range ending
 * now is partial, built from the ticks up to now and none after.
 *
 * Nothing here reads a clock: callers pass the time, and a caller serving users passes now (the
 * market-data port, platform/src/market/simulated-market-data.ts). The path is defined for any time
 * after the epoch, so a time after now is the caller's mistake to avoid, never this module's to guess.
 */
import { candleIntervalForDays, type CandleInterval } from './candle-interval';
import type { ChaChaKey } from './chacha';
import { coins, type Candle, type CoinId, type PricePoint } from './coins';
import { candleArrays, MarketPath, MINUTE_MS, sharedMarketPath, SIMULATION_EPOCH_MS, tickAt, tickTime, TICK_MS, TICKS_PER_DAY, TICKS_PER_MINUTE, type CandleArrays } from './market-path';

export { MINUTE_MS, SIMULATION_EPOCH_MS, TICK_MS };

const MINUTES_PER_DAY = 1440;

export interface Quote {
  coinId: CoinId;
  price: number;
  /** Price 24 hours before `at`. */
  price24hAgo: number;
  change24h: number;
  changePercent24h: number;
  /** USD traded in the 24 hours up to and including `at`'s tick. */
  volume24h: number;
  /** The time of the tick the price belongs to (ms). */
  at: number;
}

export interface CandleSeries {
  coinId: CoinId;
  interval: CandleInterval;
  candles: Candle[];
}

/**
 * The simulated market for one key (the SHA-256 digest of the deployment's secret seed). What it
 * computes is memoised by its path, by default the process's one path for the key
 * (sharedMarketPath), so every simulation of a key in a process shares the work; one with a fresh
 * path of its own (`{ fresh: true }`) answers the same.
 */
export class MarketSimulation {
  readonly path: MarketPath;

  constructor(key: ChaChaKey, { fresh = false }: { fresh?: boolean } = {}) {
    this.path = fresh ? new MarketPath(key) : sharedMarketPath(key);
  }

  /** The price at `timeMs`: its last tick's. */
  priceAt(coinId: CoinId, timeMs: number): number {
    return this.path.price(coinId, tickAt(timeMs));
  }

  /** One candle over the ticks from `fromMs`'s to the one before `toMs`'s. */
  candle(coinId: CoinId, fromMs: number, toMs: number): Candle {
    const from = tickAt(fromMs);
    return { time: tickTime(from), ...this.path.summary(coinId, from, tickAt(toMs)) };
  }

  /**
   * Candles of `intervalMinutes` aligned to multiples of the interval since the simulation epoch
   * (an even number of days after the Unix epoch, so every rung of the candle ladder is aligned to
   * Unix time too and daily candles open at 00:00 UTC), from the one containing `fromMs` to the one
   * containing `toMs`; the last ends at `toMs`'s tick (included), so it may be partial.
   */
  candles(coinId: CoinId, fromMs: number, toMs: number, intervalMinutes: number): Candle[] {
    if (!Number.isInteger(intervalMinutes) || intervalMinutes < 1) throw new RangeError(`interval must be a whole number of minutes, got ${intervalMinutes}`);
    const endTick = tickAt(toMs) + 1;
    const width = intervalMinutes * TICKS_PER_MINUTE;
    const first = Math.floor(tickAt(Math.max(fromMs, SIMULATION_EPOCH_MS)) / width) * width;
    const result: Candle[] = [];
    for (let start = first; start < endTick; start += width) {
      result.push({ time: tickTime(start), ...this.path.summary(coinId, start, Math.min(start + width, endTick)) });
    }
    return result;
  }

  /** The chart for a range of `days` ending at `nowMs`, in the ladder's width for that range. */
  chart(coinId: CoinId, days: number, nowMs: number): CandleSeries {
    const interval = candleIntervalForDays(days);
    const fromMs = nowMs - Math.round(days * MINUTES_PER_DAY) * MINUTE_MS + MINUTE_MS;
    return { coinId, interval, candles: this.candles(coinId, fromMs, nowMs, interval.minutes) };
  }

  /** Closing prices of the chart for `days` ending at `nowMs` (one point per candle, at its open time). */
  history(coinId: CoinId, days: number, nowMs: number): PricePoint[] {
    return this.chart(coinId, days, nowMs).candles.map((c) => ({ time: c.time, price: c.close }));
  }

  /** The price at `nowMs` (its tick's), its change over 24 hours (the tick a day before) and the volume traded in them. */
  quote(coinId: CoinId, nowMs: number): Quote {
    const tick = tickAt(nowMs);
    const price = this.path.price(coinId, tick);
    const dayAgo = Math.max(0, tick - TICKS_PER_DAY);
    const price24hAgo = this.path.price(coinId, dayAgo);
    const volume24h = this.path.summary(coinId, dayAgo + 1 <= tick ? dayAgo + 1 : tick, tick + 1).volume;
    const change24h = price - price24hAgo;
    return { coinId, price, price24hAgo, change24h, changePercent24h: (change24h / price24hAgo) * 100, volume24h, at: tickTime(tick) };
  }

  quotes(nowMs: number): Quote[] {
    return coins.map((c) => this.quote(c.id, nowMs));
  }

  /** The 1-minute candles of the whole minutes in [fromMs, toMs) as typed arrays (for statistics and engines). */
  minuteCandles(coinId: CoinId, fromMs: number, toMs: number): CandleArrays {
    const from = Math.ceil(tickAt(fromMs) / TICKS_PER_MINUTE);
    const count = Math.max(0, Math.floor(tickAt(toMs) / TICKS_PER_MINUTE) - from);
    return this.path.minuteCandles(coinId, from, count, candleArrays(count));
  }
}
