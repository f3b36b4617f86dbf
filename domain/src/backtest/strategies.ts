/**
 * The rule strategies: candles (typed-array columns) in, one decision per candle out (an Int8Array:
 * BUY, SELL, or nothing), decided at the candle's close from that candle and the ones before it only.
 * One pass, indicators updated incrementally in local variables: nothing is allocated per candle.
 *
 * - rsi-mean-reversion: Wilder's RSI (the same recursion as market/indicators/rsi.ts). BUY when it
 *   closes below `oversold` having been at or above it the candle before (entering oversold), SELL
 *   when it closes above `overbought` having been at or below it (entering overbought).
 * - ma-crossover: simple moving averages of `fastPeriod` and `slowPeriod` closes (running sums with
 *   their rounding errors carried, as indicators/sma.ts, so the averages do not drift with the run's
 *   length). BUY when fast - slow turns positive (it was <= 0 the candle before), SELL when it turns
 *   negative.
 * - macd-momentum: the MACD line (EMA fast - EMA slow, each seeded with the SMA of its first closes)
 *   and its signal line (EMA of the line, seeded likewise), as indicators/macd.ts. BUY when the line
 *   crosses above the signal line, SELL when below.
 * - house-signals: house-signals.ts (the live signal engine's rules, exactly).
 *
 * Warm-up: a decision needs the indicators defined at the candle and the one before; the backtest
 * loads `warmUpCandles` candles before its start so its first decision already has them, and so long
 * that the recursions' seeds have decayed below any float difference (40 x the longest period: the
 * seed's weight is then below 1e-17), which the recursive-check spec shows.
 */
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
  if (n <= period + 1) return out;
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= period; i++) {
    const d = close[i]! - close[i - 1]!;
    if (d > 0) gain += d;
    else loss -= d;
  }
  let avgGain = gain / period;
  let avgLoss = loss / period;
  let prev = strength(avgGain, avgLoss);
  const keep = period - 1;
  const share = 1 / period;
  let previousClose = close[period]!;
  for (let i = period + 1; i < n; i++) {
    const c = close[i]!;
    const d = c - previousClose;
    previousClose = c;
    avgGain = (avgGain * keep + Math.max(d, 0)) * share;
    avgLoss = (avgLoss * keep + Math.max(-d, 0)) * share;
    const r = strength(avgGain, avgLoss);
    if (r < oversold && prev >= oversold) out[i] = BUY;
    else if (r > overbought && prev <= overbought) out[i] = SELL;
    prev = r;
  }
  return out;
}

function strength(avgGain: number, avgLoss: number): number {
  if (avgLoss === 0) return avgGain === 0 ? 50 : 100;
  return (100 * avgGain) / (avgGain + avgLoss);
}

export function maCrossover(close: Float64Array, n: number, fast: number, slow: number, out: Decisions): Decisions {
  // Running sums with the exact rounding error of every addition carried (Neumaier), as sma.ts.
  let fSum = 0;
  let fCarry = 0;
  let sSum = 0;
  let sCarry = 0;
  let prevDiff = Number.NaN;
  for (let i = 0; i < n; i++) {
    const x = close[i]!;
    let t = fSum + x;
    fCarry += Math.abs(fSum) >= Math.abs(x) ? fSum - t + x : x - t + fSum;
    fSum = t;
    if (i >= fast) {
      const y = -close[i - fast]!;
      t = fSum + y;
      fCarry += Math.abs(fSum) >= Math.abs(y) ? fSum - t + y : y - t + fSum;
      fSum = t;
    }
    t = sSum + x;
    sCarry += Math.abs(sSum) >= Math.abs(x) ? sSum - t + x : x - t + sSum;
    sSum = t;
    if (i >= slow) {
      const y = -close[i - slow]!;
      t = sSum + y;
      sCarry += Math.abs(sSum) >= Math.abs(y) ? sSum - t + y : y - t + sSum;
      sSum = t;
    }
    if (i < slow - 1) continue;
    const diff = (fSum + fCarry) / fast - (sSum + sCarry) / slow;
    if (diff > 0 && prevDiff <= 0) out[i] = BUY;
    else if (diff < 0 && prevDiff >= 0) out[i] = SELL;
    prevDiff = diff;
  }
  return out;
}

export function macdMomentum(close: Float64Array, n: number, fast: number, slow: number, signal: number, out: Decisions): Decisions {
  const kFast = 2 / (fast + 1);
  const kSlow = 2 / (slow + 1);
  const kSig = 2 / (signal + 1);
  const lineStart = slow - 1;
  const signalStart = slow + signal - 2;
  let fastEma = 0;
  let slowEma = 0;
  let sigEma = 0;
  let prevHist = Number.NaN;
  for (let i = 0; i < n; i++) {
    const x = close[i]!;
    if (i < fast - 1) fastEma += x;
    else if (i === fast - 1) fastEma = (fastEma + x) / fast;
    else fastEma += kFast * (x - fastEma);
    if (i < lineStart) {
      slowEma += x;
      continue;
    }
    slowEma = i === lineStart ? (slowEma + x) / slow : slowEma + kSlow * (x - slowEma);
    const m = fastEma - slowEma;
    if (i < signalStart) {
      sigEma += m;
      continue;
    }
    sigEma = i === signalStart ? (sigEma + m) / signal : sigEma + kSig * (m - sigEma);
    const hist = m - sigEma;
    if (hist > 0 && prevHist <= 0) out[i] = BUY;
    else if (hist < 0 && prevHist >= 0) out[i] = SELL;
    prevHist = hist;
  }
  return out;
}
