/**
 * How the Backtesting screen names things (pure, unit-tested): a strategy by its catalogue name, a
 * period (the server stores [start, end) in ISO; a day-aligned end is shown as the last day included),
 * a status, a trade's reason and what its fill met, a comparison difference's kind, an objective.
 */
import type { BacktestExecution, BacktestStatus, ComparisonKind, StrategyDefinition, TradeReason, WalkForwardObjective } from '@papertrade/domain/backtest/contracts';
import { STRATEGIES } from '@papertrade/domain/strategies/strategy-catalogue';
import { formatPercent, formatPrice } from '../../lib/number-format';

const DAY_MS = 86_400_000;
const day = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
const minute = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC' });

export function strategyName(strategies: readonly Pick<StrategyDefinition, 'id' | 'name'>[] | undefined, id: string): string {
  return strategies?.find((s) => s.id === id)?.name ?? aiStrategyName(id) ?? id;
}

/** An AI strategy's name (its backtests, run from /ai-signals, are listed here too): "RSI Mean Reversion (AI strategy)". */
function aiStrategyName(id: string): string | undefined {
  const ai = STRATEGIES.find((s) => s.id === id);
  return ai ? `${ai.name} (AI strategy)` : undefined;
}


/** `Jan 1, 2026 – Jun 30, 2026` (UTC days); an end at a day's midnight is exclusive, so the day before is the last one. */
export function periodText(startIso: string, endIso: string): string {
  const start = Date.parse(startIso);
  let end = Date.parse(endIso);
  if (!Number.isFinite(start) || !Number.isFinite(end)) return `${startIso} – ${endIso}`;
  const endAtMidnight = end % DAY_MS === 0;
  if (endAtMidnight && end > start) end -= DAY_MS;
  return `${day.format(start)} – ${endAtMidnight ? day.format(end) : `${minute.format(end)} UTC`}`;
}

/** A fill's time, to the minute, UTC. */
export function fillTime(iso: string): string {
  const t = Date.parse(iso);
  return Number.isFinite(t) ? `${minute.format(t)}` : iso;
}

const statusLabels: Record<BacktestStatus, string> = { QUEUED: 'Queued', RUNNING: 'Running', COMPLETED: 'Completed', FAILED: 'Failed' };
export const statusLabel = (status: BacktestStatus) => statusLabels[status];

export const reasonLabels: Record<TradeReason, string> = {
  SIGNAL: 'Signal',
  STOP_LOSS: 'Stop loss',
  TAKE_PROFIT: 'Take profit',
  TRAILING_STOP: 'Trailing stop',
  END_OF_TEST: 'End of test',
};

/** What the fill met: `mid $3,000.00 · spread 0.5 bp · impact 0.02 bp`, plus a stop's level or a late order's delay. */
export function executionText(execution: BacktestExecution): string {
  const bp = (fraction: number) => `${formatBasisPoints(fraction * 10_000)} bp`;
  const parts = [`mid ${formatPrice(execution.mid)}`, `spread ${bp(execution.halfSpread)}`, `impact ${bp(execution.impact)}`];
  if (execution.level !== null) parts.push(`level ${formatPrice(execution.level)}`);
  if (execution.delayMs !== null && execution.delayMs > 0) parts.push(`+${formatDelay(execution.delayMs)} after the signal`);
  return parts.join(' · ');
}

function formatBasisPoints(bp: number): string {
  return bp === 0 ? '0' : Math.abs(bp) >= 1 ? bp.toFixed(1) : bp.toPrecision(1);
}

/** `2 s`, `1 min 25 s`. */
export function formatDelay(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

export const comparisonKindLabels: Record<ComparisonKind, string> = {
  'missing-in-paper': 'Not traded by the bot',
  'missing-in-backtest': 'Not in the backtest',
  'different-fill': 'Different fill',
  'refused-by-risk': 'Refused by a risk rule',
  'late-fill': 'Late fill',
};

export const objectiveLabels: Record<WalkForwardObjective, string> = {
  sharpeRatio: 'Sharpe ratio',
  totalReturn: 'Total return',
  profitFactor: 'Profit factor',
};

/** `rsiPeriod 14 · oversold 30`: a parameter set, in the catalogue's order when known. */
export function parametersText(parameters: Record<string, number>, order?: readonly string[]): string {
  const names = order ? [...order.filter((n) => n in parameters), ...Object.keys(parameters).filter((n) => !order.includes(n))] : Object.keys(parameters);
  return names.map((n) => `${n} ${parameters[n]}`).join(' · ');
}

/** An in-sample share as set: `75%`. */
export const fractionAsPercent = (f: number) => formatPercent(f * 100, 0);

const ACRONYMS = new Set(['rsi', 'macd', 'sma', 'ema', 'atr']);

/** `rsiPeriod` reads `RSI Period`, `scoreThreshold` `Score Threshold`. */
export function parameterLabel(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(' ')
    .map((word) => (ACRONYMS.has(word.toLowerCase()) ? word.toUpperCase() : word.charAt(0).toUpperCase() + word.slice(1)))
    .join(' ');
}

