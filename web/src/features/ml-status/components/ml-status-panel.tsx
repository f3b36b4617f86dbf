/**
 * The ML model status panel (spec sections 2, 4, 8 and 9; issue 19). GET /api/ml-status is polled
 * every 30 s here (the shell keeps 60 s) and refreshed by ML_UPDATE.
 *
 * - Model, training data, accuracy with its High / Medium / Low text and, beside it, the baseline
 *   it must beat, the 95 % interval and the verdict; 'Last update: Never' before any training. Whose
 *   model it is (yours, or the house model everyone without one sees).
 * - Retrain Model and Create New Model (a form: the model type select, default Neural Network,
 *   30 days of training data, Create and Cancel; it closes on success or Cancel). Neither is gated on
 *   the client (spec section 6): the server answers a visitor 401, a second training 409, the daily
 *   limit 429, and the toast says so.
 * - Both POSTs answer at once; the training runs as a long job. While it runs the panel shows its
 *   place in the queue or its progress (JOB_PROGRESS on the socket). The toast comes when it ends:
 *   ML_UPDATE refreshes ml-status, and once ml-status names the requested job as the last one ended,
 *   'Model Retrained' / 'Model Created' (or 'Retrain Failed' / 'Creation Failed') shows.
 */
import { useEffect, useId, useState } from 'react';
import { DEFAULT_MODEL_TYPE, modelTypeIds, modelTypes, type ModelTypeId } from '@papertrade/domain/ml/model-types';
import { Panel } from '../../../components/ui/panel';
import { useToast } from '../../../components/ui/toast/use-toast';
import { formatPercent } from '../../../lib/number-format';
import { useJobProgress } from '../../../lib/realtime/realtime-hooks';
import { useMlStatus } from '../api/get-ml-status';
import { useModelTypes } from '../api/get-model-types';
import { CREATE_TRAINING_DAYS, useCreateModel, useRetrainModel } from '../api/train-model';
import { accuracyLevel, baselineText, trainingEndedToast, trainingFailedToast, type TrainingAction } from '../ml-texts';
import './ml-status.css';

export const ML_STATUS_DASHBOARD_REFETCH_MS = 30_000;

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export function MlStatusPanel() {
  const status = useMlStatus({ refetchInterval: ML_STATUS_DASHBOARD_REFETCH_MS });
  const data = status.data;
  const toast = useToast();
  const create = useCreateModel();
  const retrain = useRetrainModel();
  const [formOpen, setFormOpen] = useState(false);
  const [modelType, setModelType] = useState<ModelTypeId>(DEFAULT_MODEL_TYPE);
  const [pending, setPending] = useState<{ jobId: string; action: TrainingAction } | null>(null);
  const types = useModelTypes({ enabled: formOpen });
  const selectId = useId();
  const training = data?.training ?? null;
  const progress = useJobProgress(training?.jobId ?? pending?.jobId);

  // The toast of a training this page asked for, once ml-status names its job as the last one ended.
  useEffect(() => {
    if (!pending || !data) return;
    const ended = trainingEndedToast(pending.action, data, pending.jobId);
    if (!ended) return;
    toast(ended);
    setPending(null);
  }, [pending, data, toast]);

  async function train(action: TrainingAction) {
    try {
      const job = action === 'create' ? await create.mutateAsync(modelType) : await retrain.mutateAsync();
      setPending({ jobId: job.jobId, action });
      if (action === 'create') setFormOpen(false);
    } catch (error) {
      toast(trainingFailedToast(action, error));
    }
  }

  const lastTraining = data?.lastTraining ? new Date(data.lastTraining) : null;
  const honest = data ? baselineText(data) : null;
  const busy = create.isPending || retrain.isPending || pending !== null;
  const typeOptions = types.data?.types ?? modelTypes;
  return (
    <Panel
      title="ML Model Status"
      testId="ml-status-panel"
      actions={data ? <span className="badge" data-testid="ml-owner">{data.owner === 'own' ? 'Your model' : 'House model'}</span> : undefined}
    >
      <dl className="kv">
        <div>
          <dt>Model</dt>
          <dd data-testid="ml-model-type">{data?.modelName ?? 'Never trained'}</dd>
        </div>
        <div>
          <dt>Training data</dt>
          <dd className="num" data-testid="ml-training-days">{data ? `${data.trainingDataDays} days` : '—'}</dd>
        </div>
        <div>
          <dt>Accuracy</dt>
          <dd className="num" data-testid="ml-accuracy">
            {data?.accuracy != null ? `${formatPercent(data.accuracy, 1)} (${accuracyLevel(data.accuracy)})` : '—'}
          </dd>
        </div>
        <div>
          <dt>Last update</dt>
          <dd data-testid="ml-last-update">{lastTraining && !Number.isNaN(lastTraining.getTime()) ? when.format(lastTraining) : 'Never'}</dd>
        </div>
      </dl>
      {honest && (
        <p className="ml-status__honest" data-testid="ml-baseline">
          {honest}
        </p>
      )}
      {data && data.accuracy === null && !training && (
        <p className="ml-status__note" data-testid="ml-note">
          {data.status === 'TRAINING' ? 'The model is training; its held-out accuracy comes when it ends.' : 'No model has been trained yet.'}
        </p>
      )}
      {training && (
        <div className="ml-status__training" data-testid="ml-training">
          {training.status === 'QUEUED' && !progress ? (
            <span>Queued for training ({ordinal(training.queuePosition)} in line)</span>
          ) : (
            <>
              <span>Training {progress ? formatPercent(progress.progress * 100, 0) : ''}{progress?.message ? ` · ${progress.message}` : ''}</span>
              <progress max={1} value={progress?.progress ?? 0} aria-label="Training progress" />
            </>
          )}
        </div>
      )}
      {formOpen ? (
        <form
          className="ml-status__form"
          data-testid="ml-create-form"
          onSubmit={(event) => {
            event.preventDefault();
            void train('create');
          }}
        >
          <label htmlFor={selectId}>Model type</label>
          <select id={selectId} className="input" data-testid="ml-model-select" value={modelType} onChange={(e) => setModelType(e.target.value as ModelTypeId)}>
            {typeOptions
              .filter((t) => (modelTypeIds as readonly string[]).includes(t.id))
              .map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
          </select>
          <p className="ml-status__note">Trains on {CREATE_TRAINING_DAYS} days of 5-minute candles; accuracy is measured on held-out candles.</p>
          <div className="button-row">
            <button type="submit" className="btn btn--sm btn--primary" disabled={create.isPending}>
              {create.isPending ? 'Creating...' : 'Create'}
            </button>
            <button type="button" className="btn btn--sm" onClick={() => setFormOpen(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="button-row">
          <button type="button" className="btn btn--sm" disabled={busy} onClick={() => void train('retrain')}>
            {retrain.isPending ? 'Retraining...' : 'Retrain Model'}
          </button>
          <button type="button" className="btn btn--sm" disabled={busy} onClick={() => setFormOpen(true)}>
            Create New Model
          </button>
        </div>
      )}
    </Panel>
  );
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th';
  return `${n}${suffix}`;
}
