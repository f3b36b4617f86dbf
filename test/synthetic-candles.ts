/**
 * Candles a test controls, for the workers' market rules (volatility threshold, correlation limit, atr
 * and volatility stops, dynamic sizing): each coin walks on its own (a fixed pseudo-random sequence per
 * coin, so two coins are about uncorrelated), `volatility` per candle (0.1 % by default, a 24-hour range
 * of a few percent), on the candle ladder the port would use for `days`, ending at `nowMs`. `follows`
 * makes one coin move exactly as another (correlation 1). Deterministic: the same arguments give the
 * same candles.
 */
import { candleIntervalForDays } from '@papertrade/domain/market/candle-interval';
import type { Candle, CoinId } from '@papertrade/domain/market/coins';
import type { CandleSeries } from '@papertrade/platform/market/market-data';

export interface SyntheticMarket {
  /** Per-candle volatility (fraction), default 0.001. */
  volatility?: number;
  /** Per coin, a coin it moves exactly with. */
  follows?: Partial<Record<CoinId, CoinId>>;
  /** Per coin, a price level (default 100). */
  level?: Partial<Record<CoinId, number>>;
}

function uniform(seed: number, i: number): number {
  let x = (seed ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return ((x ^ (x >>> 16)) >>> 0) / 4294967296;
}

const seedOf = (coinId: string) => [...coinId].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0, 2166136261);

export function syntheticCandles(coinId: CoinId, days: number, nowMs: number, market: SyntheticMarket = {}): CandleSeries {
  const interval = candleIntervalForDays(days);
  const width = interval.minutes * 60_000;
  const count = Math.ceil((days * 86_400_000) / width);
  const first = Math.floor(nowMs / width) * width - (count - 1) * width;
  const walker = market.follows?.[coinId] ?? coinId;
  const seed = seedOf(walker);
  const vol = market.volatility ?? 0.001;
  const level = market.level?.[coinId] ?? 100;
  const candles: Candle[] = [];
  // The walk is indexed by the candle's time, so ranges of one width agree where they overlap.
  for (let k = 0; k < count; k++) {
    const time = first + k * width;
    const index = Math.floor(time / width);
    const move = (uniform(seed, index) - 0.5) * 2 * vol;
    const close = level * (1 + move);
    const open = level * (1 + (uniform(seed, index - 1) - 0.5) * 2 * vol);
    candles.push({ time, open, high: Math.max(open, close) * (1 + vol / 2), low: Math.min(open, close) * (1 - vol / 2), close, volume: 1 });
  }
  return { coinId, interval, candles };
}
