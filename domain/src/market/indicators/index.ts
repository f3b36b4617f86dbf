/**
 * Technical indicators over typed arrays (conventions in series.ts: Float64Array in, Float64Array out,
 * NaN where not defined yet), and the latest-values helper the signal engine and the API use.
 */
export { assertPeriod, lastValue, toSeries, warmUp, type Series } from './series';
export { sma } from './sma';
export { ema, type EmaSeed } from './ema';
export { rsi, RSI_PERIOD, RSI_WHEN_FLAT } from './rsi';
export { macd, MACD_PERIODS, type MacdPeriods, type MacdSeries } from './macd';
export {
  volumeLevel,
  volumeRatio,
  HIGH_VOLUME_RATIO,
  LOW_VOLUME_RATIO,
  VOLUME_AVERAGE_PERIOD,
  type VolumeLevel,
} from './volume-level';
export { latestIndicators, type LatestIndicators, type LatestMacd } from './latest';
