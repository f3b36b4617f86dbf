/**
 * How the one risk profile reads on the screens (issue 17): what stopLossValue measures under each
 * stop-loss type (a percent for fixed and trailing stops, the multiple k for atr and volatility ones),
 * the dashboard card's figures in that unit, the Parameters tab's hints (what each rule does, as the
 * bot and the risk monitor apply it), and the take-profit ratio shown rounded (a ratio set through Bot
 * Settings is the exact division, e.g. 5 / 3). Pure, so the unit spec reads the same words.
 */
import type { StopLossType, StopLossUnit } from '@papertrade/domain/trading/contracts';

/** A stop or target in its unit: `2%`, `2 × ATR14`, `2 σ`. */
export function stopFigure(value: number, unit: StopLossUnit): string {
  const n = formatRatio(value);
  if (unit === 'atr') return `${n} × ATR14`;
  if (unit === 'sigma') return `${n} σ`;
  return `${n}%`;
}

/** A ratio as an input shows it: at most 4 decimals, no trailing zeros (2.5, 1.6667). */
export function formatRatio(value: number): string {
  return String(Math.round(value * 10_000) / 10_000);
}

/** The stopLossValue input's label for the type chosen. */
export function stopLossValueLabel(type: StopLossType): string {
  return type === 'atr' || type === 'volatility' ? 'Stop Loss Value (k)' : 'Stop Loss Value (%)';
}

/** What the stop-loss type does with stopLossValue. */
export const stopLossTypeHints: Record<StopLossType, string> = {
  fixed: 'Stop Loss Value percent below the entry price',
  trailing: 'Stop Loss Value percent below the highest price since the entry (it moves up, never down)',
  atr: 'k × ATR14 of 5-minute candles below the entry (k is the Stop Loss Value)',
  volatility: 'k × the standard deviation of the last 20 five-minute returns below the entry (k is the Stop Loss Value)',
};

/** What each rule does, under its input (bounds are shown beside it). */
export const parameterHints: Record<string, string> = {
  maxPositionSize: 'Percent of the portfolio one bot entry may use (also the Bot Settings value)',
  maxConcurrentTrades: 'Open positions at most; more refuses the entry',
  maxDailyLoss: "Realised loss in one UTC day after which the bot opens nothing more (the Bot Settings' daily loss limit)",
  maxDrawdown: 'Below its peak by more than this, the portfolio takes no new entries',
  takeProfitRatio: "Target = this many times the stop's distance above the entry",
  riskRewardRatio: 'Entries whose reward / risk (fees included) is below this are refused',
  correlationLimit: "Entries whose 30-day return correlation with an open position's coin is above this are refused",
  volatilityThreshold: "Entries on a coin whose 24-hour range is above this percent are paused",
  kellyCriterionEnabled: 'Size by half Kelly from your own win rate and payoff after 20 closed trades (capped at the max position size)',
  dynamicPositionSizing: "Scale the size by the coin's average volatility over its recent one (0.25 to 2, capped)",
};
