/**
 * The ML panel's texts (spec sections 8 and 9, issue 19), as pure functions so the exact strings are
 * checked without a browser:
 * - accuracy's confidence text: above 80 High, above 60 Medium, otherwise Low;
 * - the honest line beside it: the baseline, the 95 % interval and the verdict;
 * - the toasts when a training the user asked for ends: 'Model Retrained' ('New accuracy: N%'),
 *   'Model Created' ('New {type} model created with N% accuracy'), 'Retrain Failed' / 'Creation
 *   Failed' ('Failed to retrain the ML model' / 'Failed to create the ML model'); a request the server
 *   refused at once (409 one at a time, 429 the daily limit, 401) says the server's reason.
 */
import type { MlStatusResponse } from '@papertrade/domain/ml/contracts';
import { accuracyLevel } from '@papertrade/domain/ml/contracts';
import type { ToastInput } from '../../components/ui/toast/toast-slice';
import { ApiError } from '../../lib/api-client';
import { formatPercent } from '../../lib/number-format';

export type TrainingAction = 'create' | 'retrain';

export { accuracyLevel };

export function baselineText(status: Pick<MlStatusResponse, 'baseline' | 'interval' | 'verdict'>): string | null {
  if (status.baseline === null || status.interval === null || status.verdict === null) return null;
  return `Baseline ${formatPercent(status.baseline, 1)} · 95% interval ${formatPercent(status.interval.low, 1)}–${formatPercent(status.interval.high, 1)} · ${status.verdict === 'edge' ? 'Edge' : 'No edge'}`;
}

export function trainingEndedToast(action: TrainingAction, status: MlStatusResponse, jobId: string): ToastInput | null {
  if (status.lastJobId !== jobId) return null;
  if (status.lastFailure?.jobId === jobId || status.accuracy === null) return trainingFailedToast(action, null);
  const accuracy = formatPercent(status.accuracy, 1);
  return action === 'retrain'
    ? { title: 'Model Retrained', description: `New accuracy: ${accuracy}`, variant: 'success' }
    : { title: 'Model Created', description: `New ${status.modelName} model created with ${accuracy} accuracy`, variant: 'success' };
}

export function trainingFailedToast(action: TrainingAction, error: unknown): ToastInput {
  const server = error instanceof ApiError ? error.problem?.detail || null : null;
  return action === 'retrain'
    ? { title: 'Retrain Failed', description: server ?? 'Failed to retrain the ML model', variant: 'destructive' }
    : { title: 'Creation Failed', description: server ?? 'Failed to create the ML model', variant: 'destructive' };
}
