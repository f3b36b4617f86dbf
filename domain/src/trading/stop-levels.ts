/**
 * A position's exits: its stop loss and take profit levels. The trading engine's exit scan executes
 * them (engine/exit-spec.ts turns a plan into the levels the scan watches; engine/exit-scan.ts closes
 * at the first tick at or beyond a level, at that tick's price less the costs), the Active Trades tab
 * shows them, and the trading bot sets a bot position's plan and checks its reward/risk with them.
 * Pure and numeric.
 *
 * Each position has an exit plan (`ExitPlan`, set by the BUY that opened it, replaced by a later BUY
 * that names its own):
 * - PROFILE (the bot's positions): the levels follow the user's risk profile as it is now (a change of
 *   the stop or the ratio moves them at once), from the position's average entry price and, for atr
 *   and volatility stops, the coin's ATR14 / sigma20 recorded when the bot entered (so the level does
 *   not drift with the market's calm after the entry; market-figures.ts). A position whose entry
 *   recorded no figures (opened before issue 17, or by hand) uses the figures of now.
 * - MANUAL: the levels the person set on the trade form (either may be absent), fixed prices.
 * - NONE: a manual position without levels has no automatic exit.
 *
 * The stop-loss types (stopLossValue = v, the profile's `stopLossUnits`):
 * - fixed: entry x (1 - v / 100);
 * - trailing: the highest price since the entry x (1 - v / 100) (never below the fixed level, since
 *   the highest price is at least the entry); the highest is the highest tick after the opening fill,
 *   followed tick by tick by the exit scan, so the level moves with every new high;
 * - atr: entry - v x ATR14 of 5-minute candles;
 * - volatility: entry - v x sigma20 x entry (sigma20: the standard deviation of the last 20
 *   five-minute log returns).
 * The take profit is entry + takeProfitRatio x the initial stop's distance (for trailing, the fixed
 * distance entry x v / 100). So fixed, atr and volatility stops are fixed prices from the entry (the
 * figures recorded then), and only the trailing stop moves.
 */
import type { RiskProfile, StopLossType } from './contracts';
import { usdText } from './money-text';

/** How a position exits (see the module comment). Prices in USD per coin; ATR in USD, sigma a fraction. */
export type ExitPlan =
  | { kind: 'PROFILE'; atr: number | null; sigma: number | null }
  | { kind: 'MANUAL'; stopLoss: number | null; takeProfit: number | null; stopLossPercent: number | null; takeProfitPercent: number | null }
  | { kind: 'NONE' };

export const NO_EXITS: ExitPlan = Object.freeze({ kind: 'NONE' });

/** The initial stop's distance below `entry`, USD per coin; NaN when a figure it needs is unknown. */
export function stopDistance(type: StopLossType, value: number, entry: number, atr: number, sigma: number): number {
  switch (type) {
    case 'fixed':
    case 'trailing':
      return (entry * value) / 100;
    case 'atr':
      return value * atr;
    case 'volatility':
      return value * sigma * entry;
  }
}

/** The stop loss level now: `highest` is the highest price since the entry (only the trailing stop reads it). */
export function stopLossLevel(type: StopLossType, value: number, entry: number, highest: number, atr: number, sigma: number): number {
  if (type === 'trailing') return Math.max(entry, highest) * (1 - value / 100);
  return entry - stopDistance(type, value, entry, atr, sigma);
}

/** The take profit level: `ratio` times the initial stop's distance above the entry. */
export function takeProfitLevel(entry: number, distance: number, ratio: number): number {
  return entry + ratio * distance;
}

/** A position's two levels (NaN: none) and how each was set, for the monitor and the Active Trades tab. */
export interface ExitLevels {
  stopLoss: number;
  takeProfit: number;
}

/**
 * The levels of a position with plan `plan`, average entry `entry`, `highest` price since its entry,
 * under `profile`; `atrNow` / `sigmaNow` stand in for figures the entry did not record. Writes into
 * `out` (the monitor reuses one object per tick) and returns it.
 */
export function exitLevels(plan: ExitPlan, profile: RiskProfile, entry: number, highest: number, atrNow: number, sigmaNow: number, out: ExitLevels = { stopLoss: Number.NaN, takeProfit: Number.NaN }): ExitLevels {
  if (plan.kind === 'NONE') {
    out.stopLoss = Number.NaN;
    out.takeProfit = Number.NaN;
  } else if (plan.kind === 'MANUAL') {
    out.stopLoss = plan.stopLoss ?? Number.NaN;
    out.takeProfit = plan.takeProfit ?? Number.NaN;
  } else {
    const atr = plan.atr ?? atrNow;
    const sigma = plan.sigma ?? sigmaNow;
    out.stopLoss = stopLossLevel(profile.stopLossType, profile.stopLossValue, entry, highest, atr, sigma);
    out.takeProfit = takeProfitLevel(entry, stopDistance(profile.stopLossType, profile.stopLossValue, entry, atr, sigma), profile.takeProfitRatio);
  }
  return out;
}

/** Dollars as the decision texts write them (money-text.ts): $3,150.00, and 4 decimals below a dollar ($0.4512). */
export { usdText } from './money-text';
const usd = usdText;

/**
 * How a position's stop loss is set, in words (the Active Trades tab's rule column). The figures as
 * exitLevels takes them: the ones the entry recorded, else the market's now.
 */
export function stopRuleText(plan: ExitPlan, profile: RiskProfile, entry: number, highest: number, atrNow: number, sigmaNow: number): string {
  if (plan.kind === 'NONE') return 'No automatic exit (manual position)';
  if (plan.kind === 'MANUAL') {
    const parts = [
      plan.stopLossPercent !== null ? `stop ${plan.stopLossPercent}% below entry` : 'no stop',
      plan.takeProfitPercent !== null ? `target ${plan.takeProfitPercent}% above` : 'no target',
    ];
    return `Manual: ${parts.join(', ')}`;
  }
  const v = profile.stopLossValue;
  const atr = plan.atr ?? atrNow;
  const sigma = plan.sigma ?? sigmaNow;
  const target = `target ${profile.takeProfitRatio} x the stop's distance`;
  switch (profile.stopLossType) {
    case 'fixed':
      return `Fixed: ${v}% below entry, ${target}`;
    case 'trailing':
      return `Trailing: ${v}% below the high since entry ${usd(Math.max(entry, highest))}, ${target}`;
    case 'atr':
      return `ATR: ${v} x ATR14 ${Number.isFinite(atr) ? usd(atr) : '(unknown)'} below entry, ${target}`;
    case 'volatility':
      return `Volatility: ${v} x sigma ${Number.isFinite(sigma) ? `${(sigma * 100).toFixed(3)}%` : '(unknown)'} below entry, ${target}`;
  }
}
