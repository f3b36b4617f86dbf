/**
 * Relative Strength Index with Wilder's smoothing (J. Welles Wilder, 1978), default period 14.
 *
 * Changes d[i] = close[i] - close[i-1] split into gains (d > 0) and losses (-d for d < 0). The first
 * average gain and loss are the simple means of the first `period` of them (closes 1..period); after that
 * `avg = (avg * (period - 1) + current) / period`. RSI = 100 - 100 / (1 + avgGain / avgLoss), and 100
 * when the average loss is 0 (StockCharts: "RSI is set to 100 by definition").
 *
 * Defined from index `period` (the first `period` points are `NaN`): it needs `period` changes.
 *
 * One choice the references leave open: with no gain and no loss at all over the smoothing (a flat
 * market), RS is 0/0. StockCharts, `technicalindicators` and `trading-signals` report 100 there; this
 * reports 50, the neutral midpoint, because a coin that has not moved is not "Overbought" (spec
 * section 9 maps RSI above 70 to Overbought). Only an exactly flat history reaches this case.
 */
import { assertPeriod } from './series';

export const RSI_PERIOD = 14;

/** RSI when there was neither a gain nor a loss to average (see the file comment). */
export const RSI_WHEN_FLAT = 50;

export function rsi(closes: Float64Array, period: number = RSI_PERIOD): Float64Array {
  assertPeriod('rsi period', period);
  const n = closes.length;
  const out = new Float64Array(n);
  // Stryker disable next-line ConditionalExpression: equivalent as `false`, with period closes or fewer the loops below write NaN at every index there is (a close that is not there makes the averages NaN), as fill(NaN) does; `true` (always NaN) is also the `>` mutant's case, which stays.
  if (n <= period) return out.fill(Number.NaN);
  out[0] = Number.NaN;
  let gainSum = 0;
  let lossSum = 0;
  for (let i = 1; i <= period; i++) {
    const d = closes[i]! - closes[i - 1]!;
    // Stryker disable next-line EqualityOperator: equivalent, `>=` moves a change of 0 to the gains, adding 0 to one sum or taking 0 from the other; the `<=` twin is covered by the condition's true/false mutants, which stay.
    if (d > 0) gainSum += d;
    else lossSum -= d;
    out[i] = Number.NaN;
  }
  let avgGain = gainSum / period;
  let avgLoss = lossSum / period;
  out[period] = strength(avgGain, avgLoss);
  const keep = period - 1;
  const share = 1 / period;
  let previous = closes[period]!;
  // Stryker disable next-line EqualityOperator: equivalent, `<=` adds a step at i = n whose write is past the end (ignored); the `>=` twin is covered by the condition's false mutant, which stays.
  for (let i = period + 1; i < n; i++) {
    const close = closes[i]!;
    const d = close - previous;
    previous = close;
    // Math.max rather than a branch: up and down moves alternate unpredictably.
    avgGain = (avgGain * keep + Math.max(d, 0)) * share;
    avgLoss = (avgLoss * keep + Math.max(-d, 0)) * share;
    out[i] = strength(avgGain, avgLoss);
  }
  return out;
}

/** 100 - 100 / (1 + avgGain / avgLoss), written with one division; exactly 100 and 0 at the ends. */
function strength(avgGain: number, avgLoss: number): number {
  if (avgLoss === 0) return avgGain === 0 ? RSI_WHEN_FLAT : 100;
  return (100 * avgGain) / (avgGain + avgLoss);
}
