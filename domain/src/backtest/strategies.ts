/**
 * The rule strategies: candles (typed-array columns) in, one decision per candle out (an Int8Array:
 * BUY, SELL, or nothing), decided at the candle's close from that candle and the ones before it only.
 * The indicators are the dashboard's own (market/indicators: one pass each, a series per run, nothing
 * allocated per candle), so a strategy trades exactly where the indicators a person sees cross.
 *
 * - rsi-mean-reversion: Wilder's RSI (indicators/rsi.ts). BUY when it closes below `oversold` having
 *   been at or above it the candle before (entering oversold), SELL when it closes above `overbought`
 *   having been at or below it (entering overbought).
 * - ma-crossover: simple moving averages of `fastPeriod` and `slowPeriod` closes (indicators/sma.ts,
 *   compensated running sums, so the averages do not drift with the run's length). BUY when fast -
 *   slow turns positive (it was <= 0 the candle before), SELL when it turns negative.
 * - macd-momentum: the MACD line (EMA fast - EMA slow, each seeded with the SMA of its first closes)
 *   and its signal line (EMA of the line, seeded likewise), indicators/macd.ts. BUY when the line
 *   crosses above the signal line (the histogram turns positive), SELL when below.
 * - house-signals: house-signals.ts (the live signal engine's rules, exactly).
 *
 * Warm-up: a decision needs the indicators defined at the candle and the one before; the backtest
 * loads `warmUpCandles` candles before its start so its first decision already has them, and so long
 * that the recursions' seeds have decayed below any float difference (40 x the longest period: the
 * seed's weight is then below 1e-17), which the recursive-check spec shows.
 */
import { macd, rsi, sma } from '../market/indicators';
import type { Candles } from './candles';
import type { StrategyId } from './contracts';
import { houseSignals, HOUSE_WARM_UP_CANDLES } from './house-signals';

export const NO_SIGNAL = 0;
export const BUY = 1;
export const SELL = -1;
/** house-signals only: the signal engine appended a HOLD signal (the bot ignores it; it is a signal all the same). */
export const HOLD = 2;

/** A decision per candle: NO_SIGNAL, BUY, SELL (or HOLD for house-signals). */
export type Decisions = Int8Array;

const SEED_DECAY_MULTIPLE = 40;

/** How many candles before the first decision the strategy's indicators need. */
export function warmUpCandles(strategyId: StrategyId, p: Readonly<Record<string, number>>): number {
  switch (strategyId) {
    case 'rsi-mean-reversion':
      return SEED_DECAY_MULTIPLE * num(p, 'rsiPeriod') + 2;
    case 'ma-crossover':
      return num(p, 'slowPeriod') + 2;
    case 'macd-momentum':
      return SEED_DECAY_MULTIPLE * (num(p, 'slowPeriod') + num(p, 'signalPeriod')) + 2;
    case 'house-signals':
      return HOUSE_WARM_UP_CANDLES;
  }
}

function num(p: Readonly<Record<string, number>>, name: string): number {
  const v = p[name];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new RangeError(`strategy parameter ${name} is missing`);
  return v;
}

/**
 * The strategy's decisions for candles [0, candles.length) into `out` (length >= candles.length;
 * reused across runs by the walk-forward). Candles before the warm-up get NO_SIGNAL.
 * `confidence` (house-signals): each signal's confidence, percent.
 */
export function strategyDecisions(strategyId: StrategyId, p: Readonly<Record<string, number>>, candles: Candles, out: Decisions, confidence?: Uint8Array): Decisions {
  out.fill(NO_SIGNAL, 0, candles.length);
  switch (strategyId) {
    case 'rsi-mean-reversion':
      return rsiMeanReversion(candles.close, candles.length, num(p, 'rsiPeriod'), num(p, 'oversold'), num(p, 'overbought'), out);
    case 'ma-crossover':
      return maCrossover(candles.close, candles.length, num(p, 'fastPeriod'), num(p, 'slowPeriod'), out);
    case 'macd-momentum':
      return macdMomentum(candles.close, candles.length, num(p, 'fastPeriod'), num(p, 'slowPeriod'), num(p, 'signalPeriod'), out);
    case 'house-signals':
      return houseSignals(candles, { rsiOversold: num(p, 'rsiOversold'), rsiOverbought: num(p, 'rsiOverbought'), scoreThreshold: num(p, 'scoreThreshold') }, out, confidence);
  }
}

export function rsiMeanReversion(close: Float64Array, n: number, period: number, oversold: number, overbought: number, out: Decisions): Decisions {
  const r = rsi(close.subarray(0, n), period);
  // NaN before the RSI is defined: no comparison holds, so the first decision needs it at the candle before too.
  for (let i = 1; i < n; i++) {
    if (r[i]! < oversold && r[i - 1]! >= oversold) out[i] = BUY;
    else if (r[i]! > overbought && r[i - 1]! <= overbought) out[i] = SELL;
  }
  return out;
}

/** BUY where `line` turns positive (it was <= 0 the candle before), SELL where it turns negative (NaN: neither). */
function zeroCrossings(line: Float64Array, n: number, out: Decisions): Decisions {
  for (let i = 1; i < n; i++) {
    if (line[i]! > 0 && line[i - 1]! <= 0) out[i] = BUY;
    else if (line[i]! < 0 && line[i - 1]! >= 0) out[i] = SELL;
  }
  return out;
}

export function maCrossover(close: Float64Array, n: number, fast: number, slow: number, out: Decisions): Decisions {
  const series = close.subarray(0, n);
  const slowSma = sma(series, slow);
  return zeroCrossings(sma(series, fast).map((f, i) => f - slowSma[i]!), n, out);
}

export function macdMomentum(close: Float64Array, n: number, fast: number, slow: number, signal: number, out: Decisions): Decisions {
  return zeroCrossings(macd(close.subarray(0, n), { fast, slow, signal }).histogram, n, out);
}
