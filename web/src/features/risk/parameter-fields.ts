/**
 * The Parameters tab's numeric inputs: label, and the bounds and step of premium-and-account.md
 * section 5 taken from the domain contract (the server checks the same bounds, so they cannot drift).
 * A typed value is sent only once it is a number within its bounds: a half-typed "5" on its way to
 * "500" is shown as invalid instead of being sent for a 400.
 */
import { boundsMessage, riskParameterBounds, type NumberBounds } from '@papertrade/domain/trading/contracts';

export type NumericParameter = keyof typeof riskParameterBounds;

export const numericParameterFields: ReadonlyArray<{ name: NumericParameter; label: string; bounds: NumberBounds }> = [
  { name: 'maxPositionSize', label: 'Max Position Size (%)', bounds: riskParameterBounds.maxPositionSize },
  { name: 'maxConcurrentTrades', label: 'Max Concurrent Trades', bounds: riskParameterBounds.maxConcurrentTrades },
  { name: 'maxDailyLoss', label: 'Max Daily Loss ($)', bounds: riskParameterBounds.maxDailyLoss },
  { name: 'maxDrawdown', label: 'Max Drawdown (%)', bounds: riskParameterBounds.maxDrawdown },
  { name: 'stopLossValue', label: 'Stop Loss Value (%)', bounds: riskParameterBounds.stopLossValue },
  { name: 'takeProfitRatio', label: 'Take Profit Ratio', bounds: riskParameterBounds.takeProfitRatio },
  { name: 'riskRewardRatio', label: 'Risk/Reward Ratio', bounds: riskParameterBounds.riskRewardRatio },
  { name: 'correlationLimit', label: 'Correlation Limit', bounds: riskParameterBounds.correlationLimit },
  { name: 'volatilityThreshold', label: 'Volatility Threshold (%)', bounds: riskParameterBounds.volatilityThreshold },
];

export type ParsedInput = { ok: true; value: number } | { ok: false; error: string };

export function parseParameterInput(text: string, bounds: NumberBounds): ParsedInput {
  const trimmed = text.trim();
  const value = trimmed === '' ? Number.NaN : Number(trimmed);
  const fits = Number.isFinite(value) && value >= bounds.min && value <= bounds.max && (!bounds.integer || Number.isInteger(value));
  return fits ? { ok: true, value } : { ok: false, error: boundsMessage(bounds) };
}
