/**
 * The house strategy: exactly the signals the live signal engine appends (workers/src/signal-engine.ts
 * and signals/signal.decider.ts), so a backtest follows what the paper bot followed.
 *
 * Live, at each 5-minute close the engine reads the coin's last day of 5-minute candles (the chart of
 * SIGNAL_HISTORY_DAYS: the 288 candles that closed by then), computes the readings of the last one
 * over that window (signals/readings.ts: RSI14, MACD 12/26/9, SMA20, SMA50, EMA20 and its previous
 * value, the volume ratio, each seeded at the window's first candle), and the decider appends a
 * SignalGenerated when the verdict's evidence (its type and each indicator's vote) differs from the
 * last signal's. The last signal's evidence is always the previous candle's (an unchanged one appends
 * nothing and leaves it as it was), so: a signal at candle k iff evidence(k) != evidence(k - 1).
 *
 * Recomputing the window per candle would cost 288 candles' indicators each. Instead the indicators
 * are computed once over the whole series (the vectorised helpers of market/indicators), which differ
 * from the window's only by the weight left of the window's seeds after 288 candles (below 1e-8 of the
 * value for RSI14, far less for the EMAs) and by rounding; a vote is taken from them only when every
 * comparison is clear of its threshold by a margin well above that (NEAR_* below); a candle with a
 * comparison within the margin is recomputed over its own window, as the live engine does. So the
 * votes are the live engine's, the same bits where it matters, at the cost of a vectorised pass.
 * A window that would start before the series' first candle is the series up to the candle (the
 * indicators are causal, so the whole-series values are that window's exactly): the live engine's at
 * the start of the simulated history, where its window is cut short too; elsewhere the backtest
 * loads HOUSE_WARM_UP_CANDLES before its first decision, so every window is whole.
 *
 * Parameters: the RSI bounds and the score threshold (defaults 30, 70 and 0.25: the live rules,
 * signal-rules.ts); the weights are the live ones (SIGNAL_WEIGHTS).
 */
import { ema, latestIndicators, macd, rsi, sma, volumeRatio, HIGH_VOLUME_RATIO, LOW_VOLUME_RATIO } from '../market/indicators';
import { SIGNAL_HISTORY_DAYS } from '../signals/contracts';
import { SIGNAL_WEIGHTS } from '../signals/signal-rules';
import type { Candles } from './candles';

/** Candles in the live engine's window (a day of 5-minute candles). */
export const HOUSE_WINDOW = (SIGNAL_HISTORY_DAYS * 1440) / 5;
/** The house strategy needs a window and the previous candle's evidence. */
export const HOUSE_WARM_UP_CANDLES = HOUSE_WINDOW + 2;

/** RSI points: a reading this close to a bound is recomputed over its window. */
const NEAR_RSI = 1e-4;
/** Fractions of the price: MACD against its signal line, EMA20 against its previous value. */
const NEAR_TREND = 1e-7;
/** Fractions of the price: the price against its SMAs (they differ only by rounding). */
const NEAR_SMA = 1e-10;
/** The volume ratio against its levels (rounding only). */
const NEAR_VOLUME = 1e-10;

export interface HouseParameters {
  rsiOversold: number;
  rsiOverbought: number;
  scoreThreshold: number;
}

const W_RSI = SIGNAL_WEIGHTS.RSI;
const W_MACD = SIGNAL_WEIGHTS.MACD;
const W_SMA20 = SIGNAL_WEIGHTS.SMA20;
const W_SMA50 = SIGNAL_WEIGHTS.SMA50;
const W_EMA20 = SIGNAL_WEIGHTS.EMA20;
const W_VOLUME = SIGNAL_WEIGHTS.VOLUME;

// Per indicator: 0 no reading, 1 BUY, 2 SELL, 3 HOLD.
const NONE = 0;
const V_BUY = 1;
const V_SELL = 2;
const V_HOLD = 3;

/** One candle's readings, as scalars (NaN: none). */
export interface Readings {
  price: number;
  rsi: number;
  macd: number;
  signal: number;
  sma20: number;
  sma50: number;
  ema20: number;
  ema20Previous: number;
  volumeRatio: number;
}

const cmp = (a: number, b: number) => (Number.isNaN(a) || Number.isNaN(b) ? NONE : a > b ? V_BUY : a < b ? V_SELL : V_HOLD);

/**
 * The evidence of one candle's readings as a code (the type and each indicator's vote), and its
 * type and confidence through `verdict` (written in place).
 */
function evidence(r: Readings, p: HouseParameters, verdict: { type: number; confidence: number }): number {
  const vRsi = Number.isNaN(r.rsi) ? NONE : r.rsi < p.rsiOversold ? V_BUY : r.rsi > p.rsiOverbought ? V_SELL : V_HOLD;
  const vMacd = cmp(r.macd, r.signal);
  const vSma20 = cmp(r.price, r.sma20);
  const vSma50 = cmp(r.price, r.sma50);
  const vEma = cmp(r.ema20, r.ema20Previous);
  // The weights saying BUY, SELL and HOLD (no closure, no object: this runs per candle).
  let buy = 0;
  let sell = 0;
  let hold = 0;
  if (vRsi === V_BUY) buy += W_RSI;
  else if (vRsi === V_SELL) sell += W_RSI;
  else if (vRsi === V_HOLD) hold += W_RSI;
  if (vMacd === V_BUY) buy += W_MACD;
  else if (vMacd === V_SELL) sell += W_MACD;
  else if (vMacd === V_HOLD) hold += W_MACD;
  if (vSma20 === V_BUY) buy += W_SMA20;
  else if (vSma20 === V_SELL) sell += W_SMA20;
  else if (vSma20 === V_HOLD) hold += W_SMA20;
  if (vSma50 === V_BUY) buy += W_SMA50;
  else if (vSma50 === V_SELL) sell += W_SMA50;
  else if (vSma50 === V_HOLD) hold += W_SMA50;
  if (vEma === V_BUY) buy += W_EMA20;
  else if (vEma === V_SELL) sell += W_EMA20;
  else if (vEma === V_HOLD) hold += W_EMA20;
  const lean = Math.sign(buy - sell);
  const ratio = r.volumeRatio;
  const vVolume = Number.isNaN(ratio) ? NONE : ratio > HIGH_VOLUME_RATIO ? (lean > 0 ? V_BUY : lean < 0 ? V_SELL : V_HOLD) : V_HOLD;
  if (vVolume === V_BUY) buy += W_VOLUME;
  else if (vVolume === V_SELL) sell += W_VOLUME;
  else if (vVolume === V_HOLD) hold += W_VOLUME;
  const total = buy + sell + hold;
  // Stryker disable next-line ConditionalExpression: equivalent for every threshold the contract allows (0.05 to 0.95): with no vote the score is 0 or, as `false`, 0 / 0 = NaN, and both are HOLD; `true` (a score of 0 always) is also the ratio's arithmetic mutants' case, which stay.
  const score = total === 0 ? 0 : (buy - sell) / total;
  const type = score >= p.scoreThreshold ? 1 : score <= -p.scoreThreshold ? -1 : 2;
  const backing = type === 1 ? buy - sell : type === -1 ? sell - buy : hold;
  verdict.type = type;
  verdict.confidence = total === 0 ? 0 : Math.round((100 * backing) / total);
  // Two bits each (type -1, 1, 2 as 3, 1, 2): any one-to-one packing would do, only equality is read.
  return ((type & 3) << 14) | (vRsi << 12) | (vMacd << 10) | (vSma20 << 8) | (vSma50 << 6) | (vEma << 4) | (vVolume << 2);
}

/** Whether any comparison of `r` is too close to its threshold to trust the whole-series values. */
// The margins are far wider than the whole-series values can be off, so a reading exactly at a margin
// gives the same vote whether recomputed or not: each `<` against `<=` below is equivalent.
// Stryker disable EqualityOperator
function near(r: Readings, p: HouseParameters): boolean {
  const price = Math.abs(r.price);
  if (!Number.isNaN(r.rsi) && (Math.abs(r.rsi - p.rsiOversold) < NEAR_RSI || Math.abs(r.rsi - p.rsiOverbought) < NEAR_RSI)) return true;
  if (!Number.isNaN(r.signal) && Math.abs(r.macd - r.signal) <= NEAR_TREND * price) return true;
  if (!Number.isNaN(r.ema20Previous) && Math.abs(r.ema20 - r.ema20Previous) <= NEAR_TREND * price) return true;
  if (!Number.isNaN(r.sma20) && Math.abs(r.price - r.sma20) <= NEAR_SMA * price) return true;
  if (!Number.isNaN(r.sma50) && Math.abs(r.price - r.sma50) <= NEAR_SMA * price) return true;
  if (!Number.isNaN(r.volumeRatio) && (Math.abs(r.volumeRatio - HIGH_VOLUME_RATIO) <= NEAR_VOLUME || Math.abs(r.volumeRatio - LOW_VOLUME_RATIO) <= NEAR_VOLUME)) return true;
  return false;
}
// Stryker restore EqualityOperator

/**
 * The readings of candle `k` over its own window [from, k], as signals/readings.ts computes them (a
 * window holds HOUSE_WINDOW candles, so its EMA has a value before the last and its volume ratio a last).
 */
export function windowReadings(c: Candles, from: number, k: number, out: Readings): void {
  const closes = c.close.subarray(from, k + 1);
  // Stryker disable next-line ArithmeticOperator: equivalent, of latestIndicators only the closes' readings are read here (the volume ratio is volumeRatio's, below).
  const latest = latestIndicators(closes, c.volume.subarray(from, k + 1));
  const e = ema(closes, 20, 'first');
  out.price = c.close[k]!;
  out.rsi = latest.rsi ?? Number.NaN;
  out.macd = latest.macd ? latest.macd.macd : Number.NaN;
  out.signal = latest.macd ? latest.macd.signal : Number.NaN;
  out.sma20 = latest.sma20 ?? Number.NaN;
  out.sma50 = latest.sma50 ?? Number.NaN;
  out.ema20 = latest.ema20 ?? Number.NaN;
  out.ema20Previous = e[e.length - 2]!;
  const ratio = volumeRatio(c.volume.subarray(from, k + 1));
  out.volumeRatio = ratio[ratio.length - 1]!;
}

/** How many candles were recomputed over their window in the last call (for the bench). */
export const houseStats = { recomputed: 0 };

/**
 * The house signals of candles [0, n) into `out` (BUY 1, SELL -1, HOLD 2, nothing 0) and their
 * confidences into `confidence`. A candle gets a signal when its evidence differs from the previous
 * candle's; candle 0 has no previous and gets none.
 */
export function houseSignals(c: Candles, p: HouseParameters, out: Int8Array, confidence?: Uint8Array): Int8Array {
  const n = c.length;
  if (n === 0) return out;
  const close = c.close.subarray(0, n);
  const volume = c.volume.subarray(0, n);
  const rsiS = rsi(close);
  const m = macd(close);
  const sma20 = sma(close, 20);
  const sma50 = sma(close, 50);
  const ema20 = ema(close, 20, 'first');
  const vr = volumeRatio(volume);
  const r: Readings = { price: 0, rsi: 0, macd: 0, signal: 0, sma20: 0, sma50: 0, ema20: 0, ema20Previous: 0, volumeRatio: 0 };
  const verdict = { type: 0, confidence: 0 };
  let previous = -1;
  let recomputed = 0;
  for (let k = 0; k < n; k++) {
    const from = k - HOUSE_WINDOW + 1;
    {
      r.price = close[k]!;
      r.rsi = rsiS[k]!;
      r.macd = m.macd[k]!;
      r.signal = m.signal[k]!;
      r.sma20 = sma20[k]!;
      r.sma50 = sma50[k]!;
      r.ema20 = ema20[k]!;
      r.ema20Previous = k > 0 ? ema20[k - 1]! : Number.NaN;
      r.volumeRatio = vr[k]!;
      // A window starting at the series' first candle is the series itself (the recursions are causal).
      if (from > 0 && near(r, p)) {
        windowReadings(c, from, k, r);
        recomputed++;
      }
    }
    const code = evidence(r, p, verdict);
    if (k > 0 && code !== previous) {
      out[k] = verdict.type;
      if (confidence) confidence[k] = verdict.confidence;
    }
    previous = code;
  }
  houseStats.recomputed = recomputed;
  return out;
}
