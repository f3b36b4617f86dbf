/**
 * The ML model status panel (spec section 2). GET /api/ml-status is polled every 30 s here (the
 * shell keeps 60 s). The model itself arrives in a later issue: until the endpoint answers, the
 * panel says so, with 'Last update: Never', and its buttons are disabled rather than pretending.
 */
import { ComingSoon, Panel } from '../../../components/ui/panel';
import { formatPercent, MISSING } from '../../../lib/number-format';
import { useMlStatus } from '../api/get-ml-status';

export const ML_STATUS_DASHBOARD_REFETCH_MS = 30_000;

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export function MlStatusPanel() {
  const status = useMlStatus({ refetchInterval: ML_STATUS_DASHBOARD_REFETCH_MS });
  const data = status.data;
  const lastTraining = data?.lastTraining ? new Date(data.lastTraining) : null;
  return (
    <Panel title="ML Model Status" testId="ml-status-panel">
      <dl className="kv">
        <div>
          <dt>Model</dt>
          <dd>{data?.modelType ?? MISSING}</dd>
        </div>
        <div>
          <dt>Training data</dt>
          <dd className="num">{data?.trainingDataDays != null ? `${data.trainingDataDays} days` : MISSING}</dd>
        </div>
        <div>
          <dt>Accuracy</dt>
          <dd className="num">{formatPercent(data?.accuracy, 1)}</dd>
        </div>
        <div>
          <dt>Last update</dt>
          <dd data-testid="ml-last-update">{lastTraining && !Number.isNaN(lastTraining.getTime()) ? when.format(lastTraining) : 'Never'}</dd>
        </div>
      </dl>
      {!data && <ComingSoon>The AI model arrives in a later release; nothing has been trained yet.</ComingSoon>}
      <div className="button-row">
        <button type="button" className="btn btn--sm" disabled>
          Retrain Model
        </button>
        <button type="button" className="btn btn--sm" disabled>
          Create New Model
        </button>
      </div>
    </Panel>
  );
}
