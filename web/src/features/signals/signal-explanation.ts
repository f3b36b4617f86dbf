/**
 * How a signal's confidence follows from its reasons, in the words the signals panel shows (pure, so
 * the arithmetic is tested without a DOM). The numbers are the server's: each reason's weight and
 * vote, the signal's weights per verdict, score, confidence and formula (GET /api/signals); this
 * only writes them out as the formula (SIGNAL_FORMULA_TEXT) combines them:
 *
 *   score = (+2 −2 +1 −1 +1 0) / 8 = +0.13, between −0.25 and +0.25 → HOLD
 *   confidence = HOLD weight / all weight = 1 / 8 = 13%
 *   Mixed evidence: BUY 4 against SELL 3 cancels 6 of the weight, more than the 1 backing HOLD
 *
 * A signal stored before weighted-vote-v2 keeps its weighted-vote-v1 confidence; its line names that
 * formula and, where v2 differs (a HOLD with opposing votes), what v2 would say.
 */
import { SIGNAL_SCORE_THRESHOLD, type Signal } from '@papertrade/domain/signals/contracts';

type Reason = Signal['reasons'][number];

export interface SignalExplanation {
  score: string;
  confidence: string;
  /** Why the evidence is mixed; null when it is not. */
  mixed: string | null;
  formula: Signal['formula'];
}

const MINUS = '−';
const weight = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

function signed(value: number, digits: number): string {
  const text = Math.abs(value).toFixed(digits);
  if (Number(text) === 0) return digits === 0 ? '0' : `+${text}`;
  return `${value > 0 ? '+' : MINUS}${text}`;
}

/** A reason's part of the score's numerator: weight x vote, e.g. '+2', '−1', '0'. */
export function reasonContribution(reason: Pick<Reason, 'weight' | 'vote'>): string {
  const value = reason.weight * reason.vote;
  if (value === 0) return '0';
  return `${value > 0 ? '+' : MINUS}${weight.format(Math.abs(value))}`;
}

function scoreLine(signal: Signal): string {
  if (signal.reasons.length === 0) return `No indicator had a reading: score 0 → ${signal.type}`;
  const threshold = SIGNAL_SCORE_THRESHOLD.toFixed(2);
  const verdict =
    signal.type === 'BUY' ? `≥ +${threshold} → BUY` : signal.type === 'SELL' ? `≤ ${MINUS}${threshold} → SELL` : `between ${MINUS}${threshold} and +${threshold} → HOLD`;
  const score = signed(signal.score, 2);
  return `score = (${signal.reasons.map(reasonContribution).join(' ')}) / ${weight.format(signal.weights.total)} = ${score}${signal.type === 'HOLD' ? ', ' : ' '}${verdict}`;
}

/** weighted-vote-v2's confidence written out. */
function v2Arithmetic(signal: Signal): string {
  const { buy, sell, hold, total } = signal.weights;
  const w = weight.format;
  const percent = Math.round((100 * (signal.type === 'BUY' ? buy - sell : signal.type === 'SELL' ? sell - buy : hold)) / total);
  if (signal.type === 'BUY') return `(BUY weight − SELL weight) / all weight = (${w(buy)} − ${w(sell)}) / ${w(total)} = ${percent}%`;
  if (signal.type === 'SELL') return `(SELL weight − BUY weight) / all weight = (${w(sell)} − ${w(buy)}) / ${w(total)} = ${percent}%`;
  return `HOLD weight / all weight = ${w(hold)} / ${w(total)} = ${percent}%`;
}

function confidenceLine(signal: Signal): string {
  if (signal.weights.total === 0) return `confidence = ${signal.confidence}%`;
  if (signal.formula === 'weighted-vote-v2') return `confidence = ${v2Arithmetic(signal)}`;
  const rule = signal.type === 'HOLD' ? '1 − |score|' : '|score|';
  const line = `confidence (weighted-vote-v1, the earlier formula) = ${rule} = ${signal.confidence}%`;
  // For BUY and SELL both formulas agree; a HOLD counted cancelled votes as agreement under v1.
  if (signal.type !== 'HOLD' || Math.min(signal.weights.buy, signal.weights.sell) === 0) return line;
  return `${line}; weighted-vote-v2 would give ${v2Arithmetic(signal).replace('HOLD weight / all weight = ', '')}`;
}

function mixedLine(signal: Signal): string | null {
  if (!signal.mixed) return null;
  const { buy, sell, hold } = signal.weights;
  const backing = signal.type === 'BUY' ? buy - sell : signal.type === 'SELL' ? sell - buy : hold;
  const w = weight.format;
  return `Mixed evidence: BUY ${w(buy)} against SELL ${w(sell)} cancels ${w(2 * Math.min(buy, sell))} of the weight, more than the ${w(backing)} backing ${signal.type}`;
}

export function explainSignal(signal: Signal): SignalExplanation {
  return { score: scoreLine(signal), confidence: confidenceLine(signal), mixed: mixedLine(signal), formula: signal.formula };
}
