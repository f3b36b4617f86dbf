/**
 * The signal rules: a pure function from one closed candle's indicator readings to a verdict
 * (BUY, SELL or HOLD), a confidence and the reasons behind it, so a signal always says which
 * indicators produced it (DESIGN.md section 6, "AI is honest").
 *
 * Each indicator with a reading gives one reason that says BUY, SELL or HOLD, with a weight:
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
 *   score = Σ weight · direction / Σ weight   (direction BUY +1, SELL -1, HOLD 0; in [-1, 1])
 *   BUY when score ≥ 0.25, SELL when score ≤ -0.25, else HOLD
 *   confidence (percent, whole) = |score| · 100 for BUY and SELL (how much of the evidence agrees,
 *   net of what disagrees), (1 - |score|) · 100 for HOLD (how little the evidence leans either way).
 *
 * Indicators without a reading yet (too little history) give no reason and no weight; with no reading
 * at all the verdict is HOLD with confidence 0.
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
  text: string;
}

export interface SignalVerdict {
  type: SignalType;
  /** Percent, 0-100, whole. */
  confidence: number;
  reasons: SignalReason[];
}

const DIRECTION: Readonly<Record<SignalType, number>> = { BUY: 1, SELL: -1, HOLD: 0 };

export function evaluateSignalRules(readings: IndicatorReadings): SignalVerdict {
  const directional = [rsiReason(readings), macdReason(readings), smaReason('SMA20', readings.price, readings.sma20), smaReason('SMA50', readings.price, readings.sma50), emaReason(readings)].filter(
    (r): r is SignalReason => r !== null,
  );
  const lean = Math.sign(directional.reduce((sum, r) => sum + SIGNAL_WEIGHTS[r.indicator] * DIRECTION[r.says], 0));
  const volume = volumeReason(readings.volumeRatio, lean);
  const reasons = volume ? [...directional, volume] : directional;
  if (reasons.length === 0) return { type: 'HOLD', confidence: 0, reasons };

  const totalWeight = reasons.reduce((sum, r) => sum + SIGNAL_WEIGHTS[r.indicator], 0);
  const score = reasons.reduce((sum, r) => sum + SIGNAL_WEIGHTS[r.indicator] * DIRECTION[r.says], 0) / totalWeight;
  const type: SignalType = score >= SIGNAL_SCORE_THRESHOLD ? 'BUY' : score <= -SIGNAL_SCORE_THRESHOLD ? 'SELL' : 'HOLD';
  const confidence = Math.round(100 * (type === 'HOLD' ? 1 - Math.abs(score) : Math.abs(score)));
  return { type, confidence, reasons };
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
  return { indicator, value, threshold, says, text };
}

/** Six significant digits: enough to read RSI, MACD and coin prices from 0.45 to 65,000 USD. */
function fmt(n: number): string {
  return Number(n.toPrecision(6)).toString();
}
