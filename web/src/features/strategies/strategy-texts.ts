/**
 * The strategies page's texts (spec sections 8 and 9; issue 19), as pure functions so the exact
 * strings are checked without a browser: the toasts, the figures ('—' when not measured), where the
 * figures come from and how many round trips they measure.
 */
import type { MlStatusResponse } from '@papertrade/domain/ml/contracts';
import type { Strategy } from '@papertrade/domain/strategies/contracts';
import type { ToastInput } from '../../components/ui/toast/toast-slice';
import { ApiError } from '../../lib/api-client';

function serverMessage(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  return error.problem?.detail || error.message || null;
}

export const strategyUpdatedToast = (name: string, active: boolean): ToastInput => ({ title: 'Strategy Updated', description: `${name} is now ${active ? 'active' : 'inactive'}`, variant: 'success' });
export const toggleFailedToast = (): ToastInput => ({ title: 'Error', description: 'Failed to update strategy status', variant: 'destructive' });
export const configurationSavedToast = (name: string): ToastInput => ({ title: 'Configuration Saved', description: `${name} uses the new settings from the next candle`, variant: 'success' });
export const configurationFailedToast = (error: unknown): ToastInput => ({ title: 'Error', description: serverMessage(error) ?? 'Failed to save configuration', variant: 'destructive' });
export const retrainStartedToast = (learningRate: number, epochs: number): ToastInput => ({
  title: 'Retraining',
  description: `A neural network is training with learning rate ${learningRate} and ${epochs} epochs; the strategy uses it once it is trained`,
});

/** When the training job the card asked for has ended (ml-status names it as the last job): 'Model Retrained' with the held-out accuracy beside the baseline, or 'Training Failed'. */
export function retrainEndedToast(status: Pick<MlStatusResponse, 'lastJobId' | 'lastFailure' | 'accuracy' | 'baseline'>, jobId: string): ToastInput | null {
  if (status.lastJobId !== jobId) return null;
  if (status.lastFailure?.jobId === jobId || status.accuracy === null) return { title: 'Training Failed', description: 'Failed to retrain the neural network model', variant: 'destructive' };
  return {
    title: 'Model Retrained',
    description: `New accuracy: ${status.accuracy.toFixed(1)}%${status.baseline === null ? '' : ` (baseline ${status.baseline.toFixed(1)}%)`}`,
    variant: 'success',
  };
}
export const retrainFailedToast = (error: unknown): ToastInput => ({ title: 'Training Failed', description: serverMessage(error) ? `Failed to retrain the neural network model: ${serverMessage(error)}` : 'Failed to retrain the neural network model', variant: 'destructive' });
export const backtestStartedToast = (): ToastInput => ({ title: 'Backtest Started', description: 'The backtest runs in the background; its trades and win rate show when it completes' });
export const backtestCompletedToast = (totalTrades: number, winRate: number | null): ToastInput => ({
  title: 'Backtest Completed',
  description: `${totalTrades} trades, win rate ${winRate === null ? '—' : `${(winRate * 100).toFixed(1)}%`}`,
  variant: 'success',
});
export const backtestFailedToast = (error: unknown): ToastInput => ({ title: 'Backtest Failed', description: serverMessage(error) ?? 'The backtest could not run', variant: 'destructive' });

export const NOT_ENOUGH_TRADES = 'not enough trades';

/** A card figure: '—' when not measured. */
export function figureText(value: number | null, kind: 'percent' | 'ratio'): string {
  if (value === null) return '—';
  return kind === 'percent' ? `${value.toFixed(1)}%` : value.toFixed(2);
}

/** Where a card's figures come from, and over how many round trips. */
export function figuresSourceText(s: Pick<Strategy, 'figuresSource' | 'sampleSize'>): string {
  const trips = `${s.sampleSize} round trip${s.sampleSize === 1 ? '' : 's'}`;
  switch (s.figuresSource) {
    case 'paper':
      return `Paper trading since activation · ${trips}`;
    case 'backtest':
      return `Latest backtest · ${trips}`;
    case 'none':
      return 'No round trips yet';
  }
}

/** The configuration fields' labels, as the Configure dialog shows them. */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  learningRate: 'Learning rate',
  epochs: 'Epochs',
  confidenceThreshold: 'Confidence threshold (%)',
  rsiPeriod: 'RSI period',
  rsiOverbought: 'RSI overbought',
  stopLoss: 'Stop loss (%)',
  takeProfit: 'Take profit (%)',
  minSpread: 'Minimum spread after fees (%)',
  maxPositionSize: 'Max position size (USD)',
};

/** The header's counts. */
export function headerCounts(strategies: readonly Pick<Strategy, 'active'>[] | undefined, signals: readonly unknown[] | undefined): { active: number; signals: number } {
  return { active: strategies?.filter((s) => s.active).length ?? 0, signals: signals?.length ?? 0 };
}

/**
 * A completed strategy backtest's figures as the result panel shows them (backtest contracts'
 * conventions: fractions shown as percents with one decimal, USD with two).
 */
export function backtestResultFigures(result: { totalReturn: number; totalTrades: number; winRate: number; maxDrawdown: number; finalBalance: number; sharpeRatio: number | null; signals: number; refusedSignals: number }): Array<[label: string, value: string, id: string]> {
  const pctText = (x: number) => `${(x * 100).toFixed(1)}%`;
  return [
    ['Total return', `${result.totalReturn > 0 ? '+' : ''}${pctText(result.totalReturn)}`, 'return'],
    ['Closed trades', String(result.totalTrades), 'trades'],
    ['Win rate', result.totalTrades === 0 ? '—' : pctText(result.winRate), 'win-rate'],
    ['Max drawdown', pctText(result.maxDrawdown), 'max-drawdown'],
    ['Sharpe ratio', result.sharpeRatio === null ? '—' : result.sharpeRatio.toFixed(2), 'sharpe'],
    ['Final balance', `$${result.finalBalance.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`, 'final-balance'],
    ['Signals', String(result.signals), 'signals'],
    ['Not followed', String(result.refusedSignals), 'refused'],
  ];
}
