/**
 * Read models of the model slice, as pure evolves:
 * - `ml-status`: one document per user whose model stream has events (the house's too): the current
 *   model's figures, a training under way, the last failure, the last job that ended. GET
 *   /api/ml-status reads the caller's, else the house's.
 * - `ml-model-types`: one document per model type, the figures of the last training of that type by
 *   anyone (the house or a user): GET /api/ml/model-types reports them as the type's accuracy and
 *   training time (measured, never constants).
 */
import type { DomainEvent } from '../shared/decider';
import { HOUSE_SETTINGS, MODEL_CANDLE_MINUTES, MODEL_EVENT_TYPES, MODEL_SYMBOL, type ModelEvent, type TrainedModel, type TrainingReason } from './model';
import { modelTypeInfo, type ModelTypeId } from './model-types';
import type { MlStatusResponse } from './contracts';

export const ML_STATUS_PROJECTION = 'ml-status';
export const ML_MODEL_TYPES_PROJECTION = 'ml-model-types';

export type MlStatusView = {
  userId: string;
  current: TrainedModel | null;
  training: { jobId: string; modelType: ModelTypeId; trainingDays: number; requestedAt: string; reason: TrainingReason } | null;
  lastFailure: { jobId: string; reason: string; at: string } | null;
  lastJobId: string | null;
  /** When the current model was trained (ms), top-level so the daily auto-retrain finds the due ones with one range query; null without a model. */
  trainedAtMs?: number | null;
  /** What the last change was, for the ML_UPDATE the projection sends. */
  lastChange: 'QUEUED' | 'TRAINED' | 'FAILED';
  updatedAt: string;
};

export function mlStatusDocumentId(event: { type: string; data: unknown }): string | null {
  if (!MODEL_EVENT_TYPES.has(event.type)) return null;
  const userId = (event.data as { userId?: unknown }).userId;
  return typeof userId === 'string' ? userId : null;
}

export function evolveMlStatusView(doc: MlStatusView | null, event: DomainEvent): MlStatusView | null {
  if (!MODEL_EVENT_TYPES.has(event.type)) return doc;
  const e = event as ModelEvent;
  const current: MlStatusView = doc ?? { userId: e.data.userId, current: null, training: null, lastFailure: null, lastJobId: null, lastChange: 'QUEUED', updatedAt: '' };
  switch (e.type) {
    case 'ModelTrainingRequested': {
      const { jobId, modelType, trainingDays, requestedAt, reason } = e.data;
      return { ...current, training: { jobId, modelType, trainingDays, requestedAt, reason }, lastChange: 'QUEUED', updatedAt: requestedAt };
    }
    case 'ModelTrained': {
      const { userId: _user, reason: _reason, ...model } = e.data;
      return { ...current, current: model, trainedAtMs: Date.parse(model.trainedAt), training: current.training?.jobId === model.jobId ? null : current.training, lastJobId: model.jobId, lastChange: 'TRAINED', updatedAt: model.trainedAt };
    }
    case 'ModelTrainingFailed': {
      const { jobId, reason, failedAt } = e.data;
      return { ...current, training: current.training?.jobId === jobId ? null : current.training, lastFailure: { jobId, reason, at: failedAt }, lastJobId: jobId, lastChange: 'FAILED', updatedAt: failedAt };
    }
  }
}

export type ModelTypeStatsView = {
  modelType: ModelTypeId;
  accuracy: number;
  baseline: number;
  verdict: 'edge' | 'no edge';
  trainingTimeMs: number;
  trainingDays: number;
  trainedAt: string;
};

export function modelTypeStatsDocumentId(event: { type: string; data: unknown }): string | null {
  if (event.type !== 'ModelTrained') return null;
  const modelType = (event.data as { modelType?: unknown }).modelType;
  return typeof modelType === 'string' ? modelType : null;
}

export function evolveModelTypeStats(doc: ModelTypeStatsView | null, event: DomainEvent): ModelTypeStatsView | null {
  if (event.type !== 'ModelTrained') return doc;
  const m = (event as unknown as Extract<ModelEvent, { type: 'ModelTrained' }>).data;
  return { modelType: m.modelType, accuracy: m.accuracy, baseline: m.baseline, verdict: m.verdict, trainingTimeMs: m.trainingTimeMs, trainingDays: m.trainingDays, trainedAt: m.trainedAt };
}

/**
 * A recorded percent (ModelTrained keeps two decimals) as the API shows it, with one: half up from
 * the recorded hundredths, so 50.65 reads 50.7 on the panel and in the model types alike (the two had
 * rounded it two ways, 50.6 and 50.7).
 */
export function shownPercent(recorded: number): number {
  const hundredths = Math.round(recorded * 100);
  return Math.round(hundredths / 10) / 10;
}

/**
 * The verdict as the panel can show it: "edge" only when the shown interval's lower bound is above the
 * shown baseline. The recorded verdict compares the exact fractions, and a lower bound above the
 * baseline by less than the shown 0.1 point read "edge" beside two equal figures.
 */
export function shownVerdict(model: { verdict: 'edge' | 'no edge'; low: number; baseline: number }): 'edge' | 'no edge' {
  return model.verdict === 'edge' && shownPercent(model.low) > shownPercent(model.baseline) ? 'edge' : 'no edge';
}

/**
 * GET /api/ml-status's answer for a status document (null: the house model not requested yet). Figures
 * are the current model's, 1 decimal; while its first training runs, the settings it trains with.
 * `training.queuePosition` is the job's place (1 = next) while queued, 0 once it runs.
 */
export function mlStatusResponse(view: MlStatusView | null, owner: 'own' | 'house', training: { status: 'QUEUED' | 'RUNNING'; queuePosition: number } | null): MlStatusResponse {
  const model = view?.current ?? null;
  const settings = model ?? (view?.training ? { modelType: view.training.modelType, trainingDays: view.training.trainingDays } : HOUSE_SETTINGS);
  const one = shownPercent;
  return {
    modelType: settings.modelType,
    modelName: modelTypeInfo(settings.modelType).name,
    trainingDataDays: settings.trainingDays,
    accuracy: model ? one(model.accuracy) : null,
    baseline: model ? one(model.baseline) : null,
    interval: model ? { low: one(model.low), high: one(model.high) } : null,
    verdict: model ? shownVerdict(model) : null,
    testSamples: model?.testSamples ?? null,
    lastTraining: model?.trainedAt ?? null,
    owner,
    status: model ? 'READY' : view?.training ? 'TRAINING' : 'NOT_TRAINED',
    training: view?.training && training ? { jobId: view.training.jobId, status: training.status, queuePosition: training.queuePosition, requestedAt: view.training.requestedAt, modelType: view.training.modelType, trainingDays: view.training.trainingDays } : null,
    lastFailure: view?.lastFailure ?? null,
    lastJobId: view?.lastJobId ?? null,
    symbol: model?.symbol ?? MODEL_SYMBOL,
    candleMinutes: model?.candleMinutes ?? MODEL_CANDLE_MINUTES,
    dataAsOf: model?.asOf ?? null,
  };
}
