/**
 * The model's inputs and label, from candles only (issue 19): for the candle at index i, features
 * computed from candles 0..i (what is known when candle i has closed, the moment a decision is
 * taken), and the label, the direction of the next candle (1 when candle i+1 closes above candle i's
 * close, else 0). Like backtesting.py's `init()`, every indicator is computed once over the whole
 * series, and every one of them is causal (the value at i reads indices up to i): the spec
 * `features.unit.spec.ts` changes candles after i and checks that row i does not move.
 *
 * Features (FEATURE_NAMES, in order): log returns over 1, 3, 12 and 48 candles; RSI14 (centred,
 * scaled to -0.5..0.5); the MACD histogram over the price; the distances of the close to its SMA20,
 * SMA50 and EMA20; the log of the volume over its 20-candle average; the volatility (standard
 * deviation of the last 20 one-candle log returns); the candle's high-low range over its close.
 * The longest window is 50 candles (SMA50); rows start at FEATURE_WARMUP so every feature is defined.
 */
import { ema } from '../market/indicators/ema';
import { macd } from '../market/indicators/macd';
import { rsi } from '../market/indicators/rsi';
import { sma } from '../market/indicators/sma';

export const FEATURE_NAMES = [
  'return_1',
  'return_3',
  'return_12',
  'return_48',
  'rsi_14',
  'macd_histogram',
  'distance_sma_20',
  'distance_sma_50',
  'distance_ema_20',
  'volume_ratio_20',
  'volatility_20',
  'range',
] as const;
export const FEATURE_COUNT = FEATURE_NAMES.length;
/** The longest window a feature reads (SMA50): the gap between training and test rows is at least this. */
export const LONGEST_FEATURE_WINDOW = 50;
/** The first candle index with every feature defined (MACD's signal line needs 26 + 9 - 1 closes; SMA50 50). */
export const FEATURE_WARMUP = LONGEST_FEATURE_WINDOW;

/** Candles as columns (oldest first), the shape the market path produces. */
export interface CandleColumnsInput {
  time: ArrayLike<number>;
  high: ArrayLike<number>;
  low: ArrayLike<number>;
  close: ArrayLike<number>;
  volume: ArrayLike<number>;
}

/** Row-major features (rows x FEATURE_COUNT) for candles FEATURE_WARMUP..n-1; `index[r]` is row r's candle. */
export interface FeatureMatrix {
  rows: number;
  values: Float64Array;
  index: Int32Array;
}

export function computeFeatures(candles: CandleColumnsInput): FeatureMatrix {
  const n = candles.close.length;
  const close = Float64Array.from(candles.close);
  const volume = Float64Array.from(candles.volume);
  const rsi14 = rsi(close, 14);
  const { histogram } = macd(close);
  const sma20 = sma(close, 20);
  const sma50 = sma(close, 50);
  const ema20 = ema(close, 20);
  const volSma20 = sma(volume, 20);
  const logReturn = new Float64Array(n);
  // Stryker disable next-line EqualityOperator: equivalent, i = n writes logReturn[n], past its end (a typed array ignores it)
  for (let i = 1; i < n; i++) logReturn[i] = Math.log(close[i]! / close[i - 1]!);
  const rows = Math.max(0, n - FEATURE_WARMUP);
  const values = new Float64Array(rows * FEATURE_COUNT);
  const index = new Int32Array(rows);
  // Stryker disable next-line EqualityOperator: equivalent, r = rows only writes past the ends of index and values (a typed array ignores it)
  for (let r = 0; r < rows; r++) {
    const i = r + FEATURE_WARMUP;
    index[r] = i;
    const c = close[i]!;
    let mean = 0;
    for (let k = i - 19; k <= i; k++) mean += logReturn[k]!;
    mean /= 20;
    let variance = 0;
    for (let k = i - 19; k <= i; k++) variance += (logReturn[k]! - mean) ** 2;
    const o = r * FEATURE_COUNT;
    values[o] = logReturn[i]!;
    values[o + 1] = Math.log(c / close[i - 3]!);
    values[o + 2] = Math.log(c / close[i - 12]!);
    values[o + 3] = Math.log(c / close[i - 48]!);
    values[o + 4] = (Number.isFinite(rsi14[i]!) ? rsi14[i]! : 50) / 100 - 0.5;
    values[o + 5] = Number.isFinite(histogram[i]!) ? histogram[i]! / c : 0;
    values[o + 6] = c / sma20[i]! - 1;
    values[o + 7] = c / sma50[i]! - 1;
    values[o + 8] = c / ema20[i]! - 1;
    values[o + 9] = volSma20[i]! > 0 && volume[i]! > 0 ? Math.log(volume[i]! / volSma20[i]!) : 0;
    values[o + 10] = Math.sqrt(variance / 19);
    values[o + 11] = (candles.high[i]! - candles.low[i]!) / c;
  }
  return { rows, values, index };
}

/** 1 when candle i+1 closes above candle i, else 0; -1 for the last candle (no next one yet). */
export function nextCandleLabels(close: ArrayLike<number>): Int8Array {
  const n = close.length;
  const labels = new Int8Array(n).fill(-1);
  for (let i = 0; i < n - 1; i++) labels[i] = close[i + 1]! > close[i]! ? 1 : 0;
  return labels;
}
