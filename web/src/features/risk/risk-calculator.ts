/**
 * The Risk Management screen's calculators (premium-and-account.md: "work locally with no calls").
 *
 * Position size: risk a fixed share of the account on the distance between entry and stop, so that
 * being stopped out loses exactly that share: quantity = balance x risk% / |entry - stop|.
 * Stop loss: the stop a given percent away from the entry (below for a long, above for a short) and
 * the take profit at the risk/reward ratio times that distance on the other side.
 * Bad input is an error text, never NaN or Infinity on the screen.
 */
export interface PositionSizeInput {
  accountBalance: number;
  /** Percent of the account risked on the trade. */
  riskPercent: number;
  entryPrice: number;
  stopLossPrice: number;
}

export interface PositionSize {
  /** USD lost if the stop is hit. */
  riskAmount: number;
  /** Coins to buy (or sell short). */
  quantity: number;
  /** quantity x entry, USD. */
  positionValue: number;
  /** positionValue as a percent of the account. */
  percentOfAccount: number;
}

export type Calculated<T> = { ok: true; value: T } | { ok: false; error: string };

const positive = (n: number) => Number.isFinite(n) && n > 0;

export function calculatePositionSize(input: PositionSizeInput): Calculated<PositionSize> {
  if (!positive(input.accountBalance)) return { ok: false, error: 'Account balance must be above 0' };
  if (!positive(input.riskPercent) || input.riskPercent > 100) return { ok: false, error: 'Risk must be above 0 and at most 100 percent' };
  if (!positive(input.entryPrice)) return { ok: false, error: 'Entry price must be above 0' };
  if (!positive(input.stopLossPrice)) return { ok: false, error: 'Stop loss price must be above 0' };
  const distance = Math.abs(input.entryPrice - input.stopLossPrice);
  if (distance === 0) return { ok: false, error: 'Stop loss must differ from the entry price' };
  const riskAmount = (input.accountBalance * input.riskPercent) / 100;
  const quantity = riskAmount / distance;
  const positionValue = quantity * input.entryPrice;
  return { ok: true, value: { riskAmount, quantity, positionValue, percentOfAccount: (positionValue / input.accountBalance) * 100 } };
}

export type TradeSide = 'long' | 'short';

export interface StopLossInput {
  entryPrice: number;
  stopLossPercent: number;
  riskRewardRatio: number;
  side: TradeSide;
}

export interface StopLevels {
  stopLossPrice: number;
  takeProfitPrice: number;
  /** Per coin: what the stop loses and the target gains. */
  riskPerUnit: number;
  rewardPerUnit: number;
}

export function calculateStopLoss(input: StopLossInput): Calculated<StopLevels> {
  if (!positive(input.entryPrice)) return { ok: false, error: 'Entry price must be above 0' };
  if (!positive(input.stopLossPercent) || input.stopLossPercent >= 100) return { ok: false, error: 'Stop loss must be above 0 and below 100 percent' };
  if (!positive(input.riskRewardRatio)) return { ok: false, error: 'Risk/reward ratio must be above 0' };
  const riskPerUnit = (input.entryPrice * input.stopLossPercent) / 100;
  const rewardPerUnit = riskPerUnit * input.riskRewardRatio;
  const direction = input.side === 'long' ? 1 : -1;
  const takeProfitPrice = input.entryPrice + direction * rewardPerUnit;
  // A short's target cannot go below zero: the ratio asks for more than the price can fall.
  if (takeProfitPrice <= 0) return { ok: false, error: 'The take profit would be at or below 0: lower the ratio or the stop' };
  return { ok: true, value: { stopLossPrice: input.entryPrice - direction * riskPerUnit, takeProfitPrice, riskPerUnit, rewardPerUnit } };
}
