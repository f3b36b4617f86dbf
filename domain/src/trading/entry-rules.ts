/**
 * The risk profile's entry rules as pure numeric functions (issue 17, section 3): the trading bot
 * (bot-trade-decision.ts) calls them per signal and user, the risk monitor and GET /api/risk read the
 * drawdown, and the engine can call them per bar. Each takes numbers and returns a number, so they
 * allocate nothing; what a rule decided, in words and figures, is the caller's record.
 */
import { TRADE_FEE_RATE } from './money';

/**
 * How far the portfolio's value is below its peak, percent of the peak (0 at or above it). The peak
 * passed in is the recorded one (PortfolioPeakRecorded); a value above it is its own peak.
 */
export function drawdownPercent(peak: number, value: number): number {
  const top = Math.max(peak, value);
  return top > 0 ? ((top - value) / top) * 100 : 0;
}

/** maxDrawdown: new entries stop while the drawdown is above the maximum. */
export const drawdownStopsEntries = (drawdown: number, maxDrawdown: number) => drawdown > maxDrawdown;

/**
 * Reward / risk of an entry at `entry` with its stop and target, net of the fees both ways (the fee
 * rate of each fill; the engine adds its spread to the same figure): reward = what the target's sale
 * brings in after its fee minus what the entry cost with its fee; risk = the entry's cost minus what
 * the stop's sale brings in. Without costs this is (target - entry) / (entry - stop), the ratio of the
 * distances, which the take-profit ratio sets: the rule bites when the costs are large against the
 * stop's distance (a tight atr or volatility stop in a calm market). Infinity for no risk; NaN for
 * levels that are not numbers.
 */
export function rewardToRisk(entry: number, stopLoss: number, takeProfit: number, feeRate = TRADE_FEE_RATE): number {
  const cost = entry * (1 + feeRate);
  const reward = takeProfit * (1 - feeRate) - cost;
  const risk = cost - stopLoss * (1 - feeRate);
  if (!(risk > 0)) return risk === 0 ? Infinity : Number.NaN;
  return reward / risk;
}

/** riskRewardRatio refuses an entry whose reward/risk falls below it. */
export const rewardRiskRefuses = (rewardRisk: number, riskRewardRatio: number) => !(rewardRisk >= riskRewardRatio);

/** The closed trades Kelly sizing measures (the portfolio's `closedTrades`, all-time: a reset keeps them). */
export interface ClosedTradeStats {
  /** Closing trades: SELLs, stop losses and take profits. */
  closes: number;
  /** Closes with a realised P&L above zero, and below zero. */
  wins: number;
  losses: number;
  /** Sum of the wins' realised P&L, and of the losses' (as a positive number), micro-dollars. */
  winMicros: number;
  lossMicros: number;
}

/** Closed trades Kelly needs before it sizes anything (fewer: the fixed size). */
export const KELLY_MIN_CLOSES = 20;

/**
 * Half Kelly: f = 0.5 x (W - (1 - W) / R), W the win rate (wins / closes), R the payoff (average win /
 * average loss). NaN with fewer than KELLY_MIN_CLOSES closes. No loss yet: R is infinite and f = W / 2;
 * no win: f = -0.5 (no edge). A fraction of the portfolio, before the cap at maxPositionSize.
 */
export function halfKelly(stats: ClosedTradeStats): number {
  if (stats.closes < KELLY_MIN_CLOSES) return Number.NaN;
  if (stats.wins === 0) return -0.5;
  const w = stats.wins / stats.closes;
  // No loss yet (each loss adds at least a micro-dollar, so lossMicros is 0 only without one): R is infinite.
  if (stats.lossMicros === 0) return 0.5 * w;
  const payoff = stats.winMicros / stats.wins / (stats.lossMicros / stats.losses);
  return 0.5 * (w - (1 - w) / payoff);
}

/** The payoff ratio R of `halfKelly` (Infinity without a loss, 0 without a win). */
export function payoffRatio(stats: ClosedTradeStats): number {
  if (stats.wins === 0) return 0;
  if (stats.lossMicros === 0) return Infinity;
  return stats.winMicros / stats.wins / (stats.lossMicros / stats.losses);
}

/** Dynamic sizing's scale limits: a calm coin at most doubles the size, a turbulent one at least quarters it. */
export const DYNAMIC_SCALE_MIN = 0.25;
export const DYNAMIC_SCALE_MAX = 2;

/** Dynamic sizing: the coin's average volatility over its recent one, within [0.25, 2]; NaN when either is unknown. */
export function dynamicScale(averageVolatility: number, recentVolatility: number): number {
  if (!(averageVolatility > 0 && recentVolatility > 0)) return Number.NaN;
  return Math.min(DYNAMIC_SCALE_MAX, Math.max(DYNAMIC_SCALE_MIN, averageVolatility / recentVolatility));
}

/** correlationLimit refuses an entry whose correlation with an open position is above it. */
export const correlationRefuses = (correlation: number, limit: number) => correlation > limit;

/** volatilityThreshold pauses entries on a coin while its volatility (24-hour range, percent) is above it. */
export const volatilityPauses = (range24hPercent: number, threshold: number) => range24hPercent > threshold;
