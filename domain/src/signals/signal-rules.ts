/**
 * The signal rules: a pure function from one closed candle's indicator readings to a verdict
 * (BUY, SELL or HOLD), a confidence and the reasons behind it, so a signal always says which
 * indicators produced it (DESIGN.md section 6, "AI is honest").
 *
 * Each indicator with a reading gives one reason that says BUY, SELL or HOLD (its vote +1, -1 or 0),
 * with a weight:
 *
 *   indicator  weight  BUY when                     SELL when                    else
 *   RSI        2       rsi < 30 (oversold)          rsi > 70 (overbought)        HOLD (neutral)
 *   MACD       2       macd > signal line           macd < signal line           HOLD (equal)
 *   SMA20      1       price > sma20                price < sma20                HOLD (equal)
 *   SMA50      1       price > sma50                price < sma50                HOLD (equal)
 *   EMA20      1       ema20 rising since the       ema20 falling                HOLD (flat)
 *                      previous candle
 *   VOLUME     1       HIGH volume confirms the direction the others point to; NORMAL or LOW
 *                      volume, or no direction, says HOLD (it dilutes the others' agreement)
 *
 * RSI and MACD weigh double: they are momentum oscillators with their own thresholds, while the
 * three averages largely say the same thing (trend) and would otherwise outvote them.
 *
 * The formula, named SIGNAL_FORMULA ('weighted-vote-v2') in every signal so a reader can recompute
 * it from the reasons (each carries its weight and vote). With B, S and H the weights saying BUY,
 * SELL and HOLD and W = B + S + H:
 *
 *   score = (B - S) / W                      (Σ weight · vote / Σ weight, in [-1, 1])
 *   BUY when score >= 0.25, SELL when score <= -0.25, else HOLD
 *   confidence (percent, whole) = 100 · (weight saying the verdict - weight saying its opposite) / W
 *     BUY: (B - S) / W    SELL: (S - B) / W    HOLD: H / W   (BUY and SELL are opposites; HOLD has none)
 *   mixed when the weight that cancels out, 2 · min(B, S), is more than the weight backing the
 *   verdict (B - S for BUY, S - B for SELL, H for HOLD): more of the evidence contradicts itself than
 *   supports the verdict, so the signal reads as low confidence and says so.
 *
 * Why not the earlier 'weighted-vote-v1' (HOLD's confidence 100 · (1 - |score|)): it counted votes
 * that cancel each other towards HOLD, so four weights of BUY against three of SELL read as an 88%
 * confident HOLD. v2 is v1 less that cancelled weight (for BUY and SELL the two agree). Signals stored
 * before v2 keep their v1 confidence and name v1 as their formula (signal.ts upcasts them).
 *
 * Indicators without a reading yet (too little history) give no reason and no weight; with no reading
 * at all the verdict is HOLD with confidence 0 and score 0.
 */
import { HIGH_VOLUME_RATIO, LOW_VOLUME_RATIO, volumeLevel } from '../market/indicators/volume-level';

export const signalTypes = ['BUY', 'SELL', 'HOLD'] as const;
export type SignalType = (typeof signalTypes)[number];

export const signalIndicators = ['RSI', 'MACD', 'SMA20', 'SMA50', 'EMA20', 'VOLUME'] as const;
export type SignalIndicator = (typeof signalIndicators)[number];

export const RSI_OVERSOLD = 30;
export const RSI_OVERBOUGHT = 70;
/** The share of the weighted evidence, net, that a BUY or SELL needs. */
export const SIGNAL_SCORE_THRESHOLD = 0.25;

export const SIGNAL_WEIGHTS: Readonly<Record<SignalIndicator, number>> = { RSI: 2, MACD: 2, SMA20: 1, SMA50: 1, EMA20: 1, VOLUME: 1 };

/** The confidence formulas a signal may name: v1 for signals generated before v2, v2 since. */
export const signalFormulas = ['weighted-vote-v1', 'weighted-vote-v2'] as const;
export type SignalFormula = (typeof signalFormulas)[number];
/** The formula the rules use now. */
export const SIGNAL_FORMULA: SignalFormula = 'weighted-vote-v2';

/** Each formula in words, for the API reference and the signals panel. */
export const SIGNAL_FORMULA_TEXT: Readonly<Record<SignalFormula, string>> = {
  'weighted-vote-v2':
    'score = Σ weight·vote / Σ weight (vote BUY +1, SELL -1, HOLD 0; RSI and MACD weigh 2, SMA20, SMA50, EMA20 and VOLUME 1); ' +
    `BUY when score >= ${SIGNAL_SCORE_THRESHOLD}, SELL when score <= -${SIGNAL_SCORE_THRESHOLD}, else HOLD; ` +
    'confidence = 100 × (weight saying the verdict - weight saying its opposite) / Σ weight, BUY and SELL being opposites and HOLD having none; ' +
    'mixed when the weight that cancels out (2 × the lesser of the BUY and SELL weights) is more than the weight backing the verdict',
  'weighted-vote-v1':
    'score as in weighted-vote-v2; confidence = 100 × |score| for BUY and SELL, 100 × (1 - |score|) for HOLD, which counted votes that cancel out towards HOLD',
};

/** A reason's vote: what it says as a number. */
export type SignalVote = 1 | 0 | -1;
export const SIGNAL_VOTES: Readonly<Record<SignalType, SignalVote>> = { BUY: 1, SELL: -1, HOLD: 0 };

/** One closed candle's readings; `null` where an indicator has no value yet. */
export interface IndicatorReadings {
  /** The candle's close, USD. */
  price: number;
  rsi: number | null;
  macd: { macd: number; signal: number; histogram: number } | null;
  sma20: number | null;
  sma50: number | null;
  ema20: number | null;
  /** ema20 at the candle before, for its trend. */
  ema20Previous: number | null;
  /** The candle's volume over its 20-candle average (see volume-level.ts). */
  volumeRatio: number | null;
}

export interface SignalReason {
  indicator: SignalIndicator;
  /** The reading (for VOLUME the volume ratio, for EMA20 the ema now). */
  value: number;
  /** What the reading is compared with (RSI: the bound crossed or nearest; MACD: the signal line). */
  threshold: number;
  says: SignalType;
  /** `says` as a number: BUY +1, SELL -1, HOLD 0. */
  vote: SignalVote;
  /** The indicator's weight (SIGNAL_WEIGHTS). */
  weight: number;
  text: string;
}

/** What the confidence is computed from: the weight of the reasons saying each verdict. */
export interface VoteWeights {
  buy: number;
  sell: number;
  hold: number;
  total: number;
}

export interface SignalVerdict {
  type: SignalType;
  /** Percent, 0-100, whole. */
  confidence: number;
  /** (B - S) / W, in [-1, 1]; 0 with no reasons. */
  score: number;
  formula: SignalFormula;
  /** More weight cancels out than backs the verdict (see the module comment). */
  mixed: boolean;
  reasons: SignalReason[];
}

export function voteWeights(reasons: ReadonlyArray<Pick<SignalReason, 'vote' | 'weight'>>): VoteWeights {
  const weights: VoteWeights = { buy: 0, sell: 0, hold: 0, total: 0 };
  for (const r of reasons) {
    if (r.vote > 0) weights.buy += r.weight;
    else if (r.vote < 0) weights.sell += r.weight;
    else weights.hold += r.weight;
    weights.total += r.weight;
  }
  return weights;
}

/** (B - S) / W; 0 when nothing weighs. */
export function signalScore(w: VoteWeights): number {
  return w.total === 0 ? 0 : (w.buy - w.sell) / w.total;
}

export function signalTypeOfScore(score: number): SignalType {
  return score >= SIGNAL_SCORE_THRESHOLD ? 'BUY' : score <= -SIGNAL_SCORE_THRESHOLD ? 'SELL' : 'HOLD';
}

/** The weight backing a verdict, net of the weight saying its opposite (HOLD has no opposite). */
function backingWeight(type: SignalType, w: VoteWeights): number {
  return type === 'BUY' ? w.buy - w.sell : type === 'SELL' ? w.sell - w.buy : w.hold;
}

/** Whether more weight cancels out (2 · min(B, S)) than backs the verdict. */
export function isMixedEvidence(type: SignalType, w: VoteWeights): boolean {
  return 2 * Math.min(w.buy, w.sell) > backingWeight(type, w);
}

/** Percent, whole, by the formula named. */
export function signalConfidence(type: SignalType, w: VoteWeights, formula: SignalFormula): number {
  if (w.total === 0) return 0;
  const share = formula === 'weighted-vote-v1' ? (type === 'HOLD' ? 1 - Math.abs(signalScore(w)) : Math.abs(signalScore(w))) : backingWeight(type, w) / w.total;
  return Math.round(100 * share);
}

/** A signal's type, score, confidence and mixed flag from its reasons alone, by the formula it names. */
export function confidenceFromReasons(
  reasons: ReadonlyArray<Pick<SignalReason, 'vote' | 'weight'>>,
  formula: SignalFormula,
): { type: SignalType; score: number; confidence: number; mixed: boolean } {
  const w = voteWeights(reasons);
  const score = signalScore(w);
  const type = signalTypeOfScore(score);
  return { type, score, confidence: signalConfidence(type, w, formula), mixed: isMixedEvidence(type, w) };
}

export function evaluateSignalRules(readings: IndicatorReadings): SignalVerdict {
  const directional = [rsiReason(readings), macdReason(readings), smaReason('SMA20', readings.price, readings.sma20), smaReason('SMA50', readings.price, readings.sma50), emaReason(readings)].filter(
    (r): r is SignalReason => r !== null,
  );
  const lean = Math.sign(directional.reduce((sum, r) => sum + r.weight * r.vote, 0));
  const volume = volumeReason(readings.volumeRatio, lean);
  const reasons = volume ? [...directional, volume] : directional;
  const { type, score, confidence, mixed } = confidenceFromReasons(reasons, SIGNAL_FORMULA);
  return { type, confidence, score, formula: SIGNAL_FORMULA, mixed, reasons };
}

function rsiReason({ rsi }: IndicatorReadings): SignalReason | null {
  if (rsi === null) return null;
  if (rsi < RSI_OVERSOLD) return reason('RSI', rsi, RSI_OVERSOLD, 'BUY', `RSI ${fmt(rsi)} is below ${RSI_OVERSOLD}: oversold`);
  if (rsi > RSI_OVERBOUGHT) return reason('RSI', rsi, RSI_OVERBOUGHT, 'SELL', `RSI ${fmt(rsi)} is above ${RSI_OVERBOUGHT}: overbought`);
  const nearest = rsi - RSI_OVERSOLD <= RSI_OVERBOUGHT - rsi ? RSI_OVERSOLD : RSI_OVERBOUGHT;
  return reason('RSI', rsi, nearest, 'HOLD', `RSI ${fmt(rsi)} is between ${RSI_OVERSOLD} and ${RSI_OVERBOUGHT}: neutral`);
}

function macdReason({ macd }: IndicatorReadings): SignalReason | null {
  if (macd === null) return null;
  const { macd: line, signal } = macd;
  if (line > signal) return reason('MACD', line, signal, 'BUY', `MACD ${fmt(line)} is above its signal line ${fmt(signal)}: bullish`);
  if (line < signal) return reason('MACD', line, signal, 'SELL', `MACD ${fmt(line)} is below its signal line ${fmt(signal)}: bearish`);
  return reason('MACD', line, signal, 'HOLD', `MACD ${fmt(line)} is on its signal line`);
}

function smaReason(indicator: 'SMA20' | 'SMA50', price: number, average: number | null): SignalReason | null {
  if (average === null) return null;
  const name = indicator === 'SMA20' ? 'the 20-candle average' : 'the 50-candle average';
  if (price > average) return reason(indicator, price, average, 'BUY', `Price ${fmt(price)} is above ${name} ${fmt(average)}`);
  if (price < average) return reason(indicator, price, average, 'SELL', `Price ${fmt(price)} is below ${name} ${fmt(average)}`);
  return reason(indicator, price, average, 'HOLD', `Price ${fmt(price)} is on ${name}`);
}

function emaReason({ ema20, ema20Previous }: IndicatorReadings): SignalReason | null {
  if (ema20 === null || ema20Previous === null) return null;
  if (ema20 > ema20Previous) return reason('EMA20', ema20, ema20Previous, 'BUY', `EMA20 rose to ${fmt(ema20)} from ${fmt(ema20Previous)}: uptrend`);
  if (ema20 < ema20Previous) return reason('EMA20', ema20, ema20Previous, 'SELL', `EMA20 fell to ${fmt(ema20)} from ${fmt(ema20Previous)}: downtrend`);
  return reason('EMA20', ema20, ema20Previous, 'HOLD', `EMA20 is flat at ${fmt(ema20)}`);
}

/** `lean`: the sign of the other indicators' weighted vote, which HIGH volume confirms. */
function volumeReason(ratio: number | null, lean: number): SignalReason | null {
  const level = ratio === null ? null : volumeLevel(ratio);
  if (ratio === null || level === null) return null;
  const times = `${fmt(ratio)}x the 20-candle average`;
  if (level === 'HIGH') {
    if (lean > 0) return reason('VOLUME', ratio, HIGH_VOLUME_RATIO, 'BUY', `High volume (${times}) confirms the upward lean`);
    if (lean < 0) return reason('VOLUME', ratio, HIGH_VOLUME_RATIO, 'SELL', `High volume (${times}) confirms the downward lean`);
    return reason('VOLUME', ratio, HIGH_VOLUME_RATIO, 'HOLD', `High volume (${times}) with no direction to confirm`);
  }
  if (level === 'LOW') return reason('VOLUME', ratio, LOW_VOLUME_RATIO, 'HOLD', `Low volume (${times}) confirms nothing`);
  return reason('VOLUME', ratio, HIGH_VOLUME_RATIO, 'HOLD', `Normal volume (${times}) confirms nothing`);
}

function reason(indicator: SignalIndicator, value: number, threshold: number, says: SignalType, text: string): SignalReason {
  return { indicator, value, threshold, says, vote: SIGNAL_VOTES[says], weight: SIGNAL_WEIGHTS[indicator], text };
}

/** Six significant digits: enough to read RSI, MACD and coin prices from 0.45 to 65,000 USD. */
function fmt(n: number): string {
  return Number(n.toPrecision(6)).toString();
}
