/**
 * The Backtesting screen's texts as pure functions (premium-and-account.md sections 3, 8 and 9), so
 * the exact strings are checked without a browser:
 * - 'Backtest Completed' with the trade count and the win rate; 'Backtest Failed' with the server's
 *   message (a refused request's problem detail, or the reason the job failed); 'Strategy Required:
 *   Please select a trading strategy';
 * - the metrics as the Results tab lists them: fractions (totalReturn, winRate, maxDrawdown,
 *   volatility) as percentages, money in dollars, counts and ratios (lib/number-format.ts);
 * - where a queued or running job stands.
 */
import type { BacktestFigures } from '@papertrade/domain/backtest/contracts';
import type { ToastInput } from '../../components/ui/toast/toast-slice';
import { ApiError } from '../../lib/api-client';
import { formatCount, formatPercent, formatReading, formatSignedPercent, formatSignedUsd, formatUsd, MISSING } from '../../lib/number-format';

export const BACKTEST_FAILED_FALLBACK = 'The backtest could not be run';

/** A fraction (0.1234) as a percentage (12.34%). */
export function percentOfFraction(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? formatPercent(value * 100) : MISSING;
}

/** A signed fraction (-0.05) as a signed percentage (-5.00%). */
export function signedPercentOfFraction(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? formatSignedPercent(value * 100) : MISSING;
}

export function tradeCount(n: number): string {
  return `${formatCount(n)} trade${n === 1 ? '' : 's'}`;
}

export function completedToast(figures: Pick<BacktestFigures, 'totalTrades' | 'winRate'>): ToastInput {
  return { title: 'Backtest Completed', description: `${tradeCount(figures.totalTrades)}, ${percentOfFraction(figures.winRate)} win rate`, variant: 'success' };
}

/** A refused request (the server's problem detail), or a job that failed (its recorded reason). */
export function failedToast(reason: unknown): ToastInput {
  let description = BACKTEST_FAILED_FALLBACK;
  if (typeof reason === 'string' && reason.trim() !== '') description = reason;
  else if (reason instanceof ApiError) description = reason.problem?.detail || reason.message || BACKTEST_FAILED_FALLBACK;
  else if (reason instanceof Error && reason.message) description = reason.message;
  return { title: 'Backtest Failed', description, variant: 'destructive' };
}

export function strategyRequiredToast(): ToastInput {
  return { title: 'Strategy Required', description: 'Please select a trading strategy', variant: 'destructive' };
}

export interface MetricRow {
  key: string;
  label: string;
  value: string;
  /** up / down colouring for signed figures. */
  tone?: 'up' | 'down' | undefined;
}

const tone = (v: number | null | undefined): 'up' | 'down' | undefined => (typeof v !== 'number' || v === 0 ? undefined : v > 0 ? 'up' : 'down');

/** The metrics of a result, in the order the Results tab shows them. */
export function metricRows(f: BacktestFigures, initialCapital: number | null): MetricRow[] {
  const m = f.performanceMetrics;
  const pnl = initialCapital === null ? null : f.finalBalance - initialCapital;
  return [
    { key: 'totalReturn', label: 'Total Return', value: signedPercentOfFraction(f.totalReturn), tone: tone(f.totalReturn) },
    { key: 'finalBalance', label: 'Final Balance', value: formatUsd(f.finalBalance) },
    ...(pnl === null ? [] : [{ key: 'pnl', label: 'Profit / Loss', value: formatSignedUsd(pnl), tone: tone(pnl) }]),
    { key: 'totalTrades', label: 'Total Trades', value: formatCount(f.totalTrades) },
    { key: 'winRate', label: 'Win Rate', value: f.totalTrades === 0 ? MISSING : percentOfFraction(f.winRate) },
    { key: 'maxDrawdown', label: 'Max Drawdown', value: percentOfFraction(f.maxDrawdown), tone: f.maxDrawdown > 0 ? 'down' : undefined },
    { key: 'sharpeRatio', label: 'Sharpe Ratio', value: f.sharpeRatio === null ? MISSING : formatReading(f.sharpeRatio) },
    { key: 'winningTrades', label: 'Winning Trades', value: formatCount(m.winningTrades) },
    { key: 'losingTrades', label: 'Losing Trades', value: formatCount(m.losingTrades) },
    { key: 'averageWin', label: 'Average Win', value: m.winningTrades === 0 ? MISSING : formatSignedUsd(m.averageWin), tone: tone(m.averageWin) },
    { key: 'averageLoss', label: 'Average Loss', value: m.losingTrades === 0 ? MISSING : formatSignedUsd(m.averageLoss), tone: tone(m.averageLoss) },
    { key: 'profitFactor', label: 'Profit Factor', value: profitFactorText(m.profitFactor, m.winningTrades, m.losingTrades) },
    { key: 'volatility', label: 'Volatility (annualised)', value: percentOfFraction(m.volatility) },
  ];
}

/** null means no losing trade: infinite with wins, undefined without any closed trade. */
export function profitFactorText(profitFactor: number | null, wins: number, losses: number): string {
  if (profitFactor !== null) return formatReading(profitFactor);
  if (losses === 0 && wins > 0) return '∞ (no losing trade)';
  return MISSING;
}

/** `1st`, `2nd`, `3rd`, `11th`, `22nd`. */
export function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th';
  return `${n}${suffix}`;
}

/** Where the run stands: queued with its place, or running with its progress. */
export function runStatusText(status: 'QUEUED' | 'RUNNING', queuePosition: number | null, progress: number | null): string {
  if (status === 'QUEUED' && progress === null) return queuePosition !== null && queuePosition > 0 ? `Queued (${ordinal(queuePosition)} in line)` : 'Queued';
  return `Running ${formatPercent((progress ?? 0) * 100, 0)}`;
}
