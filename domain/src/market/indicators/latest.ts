/**
 * The latest value of every dashboard indicator, for the signal engine and the market API: RSI 14,
 * MACD 12/26/9, sma20, sma50, ema20 (seeded with the first close, spec section 9) and the volume
 * level. Each is `null` until its series is long enough (see `warmUp` in series.ts):
 * rsi from 15 closes, macd from 34, sma20 from 20, sma50 from 50, ema20 from 1, volume from 20 volumes.
 *
 * Closes and volumes are separate series, oldest first; each value comes from its own series' last
 * point, so they should describe the same candles (same length, same order).
 */
import { ema } from './ema';
import { macd } from './macd';
import { rsi } from './rsi';
import { lastValue, toSeries } from './series';
import { sma } from './sma';
import { volumeLevel, volumeRatio, type VolumeLevel } from './volume-level';

export interface LatestMacd {
  macd: number;
  signal: number;
  histogram: number;
}

export interface LatestIndicators {
  rsi: number | null;
  /** `null` until the signal line is defined (all three then are). */
  macd: LatestMacd | null;
  sma20: number | null;
  sma50: number | null;
  ema20: number | null;
  volumeLevel: VolumeLevel | null;
}

export function latestIndicators(
  closes: Float64Array | readonly number[],
  volumes: Float64Array | readonly number[],
): LatestIndicators {
  const c = toSeries(closes);
  const m = macd(c);
  const last = c.length - 1;
  const signal = lastValue(m.signal); // the signal is the last of the three to be defined
  const ratio = lastValue(volumeRatio(toSeries(volumes)));
  return {
    rsi: lastValue(rsi(c)),
    macd: signal === null ? null : { macd: m.macd[last]!, signal, histogram: m.histogram[last]! },
    sma20: lastValue(sma(c, 20)),
    sma50: lastValue(sma(c, 50)),
    ema20: lastValue(ema(c, 20, 'first')),
    volumeLevel: ratio === null ? null : volumeLevel(ratio),
  };
}
