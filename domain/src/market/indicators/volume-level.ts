/**
 * Volume level: a candle's volume against the simple moving average of volume, the same window
 * charting platforms draw under the volume bars (it includes the candle itself).
 *
 *   ratio = volume / sma(volume, 20)
 *   HIGH   when ratio > 1.5  (more than half again the average; spec section 9: 'Above average')
 *   LOW    when ratio < 0.5  (less than half the average; 'Below average')
 *   NORMAL otherwise (the bounds 1.5 and 0.5 themselves are NORMAL)
 *
 * The ratio is `NaN` for the first `period - 1` candles (no average yet) and where the average is 0
 * (no volume at all in the window): there is nothing to compare with, so there is no level either.
 */
import { assertPeriod } from './series';
import { sma } from './sma';

/** Candles in the volume average. */
export const VOLUME_AVERAGE_PERIOD = 20;
/** Above this multiple of the average, volume is HIGH. */
export const HIGH_VOLUME_RATIO = 1.5;
/** Below this multiple of the average, volume is LOW. */
export const LOW_VOLUME_RATIO = 0.5;

export type VolumeLevel = 'HIGH' | 'LOW' | 'NORMAL';

/** volume[i] / sma(volume, period)[i]; `NaN` where the average is not defined or is 0. */
export function volumeRatio(volumes: Float64Array, period: number = VOLUME_AVERAGE_PERIOD): Float64Array {
  assertPeriod('volume average period', period);
  const out = sma(volumes, period); // reused in place: out[i] becomes the ratio
  // An average of 0 means every volume in the window is 0, this one too: 0 / 0 is NaN, no level.
  for (let i = period - 1; i < out.length; i++) out[i] = volumes[i]! / out[i]!;
  return out;
}

/** The level of one ratio from `volumeRatio`; `null` when the ratio is not defined. */
export function volumeLevel(ratio: number): VolumeLevel | null {
  if (Number.isNaN(ratio)) return null;
  if (ratio > HIGH_VOLUME_RATIO) return 'HIGH';
  if (ratio < LOW_VOLUME_RATIO) return 'LOW';
  return 'NORMAL';
}
