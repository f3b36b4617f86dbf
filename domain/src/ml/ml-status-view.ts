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
import { MODEL_EVENT_TYPES, type ModelEvent, type TrainedModel, type TrainingReason } from './model';
import type { ModelTypeId } from './model-types';

export const ML_STATUS_PROJECTION = 'ml-status';
export const ML_MODEL_TYPES_PROJECTION = 'ml-model-types';

export type MlStatusView = {
  userId: string;
  current: TrainedModel | null;
  training: { jobId: string; modelType: ModelTypeId; trainingDays: number; requestedAt: string; reason: TrainingReason } | null;
  lastFailure: { jobId: string; reason: string; at: string } | null;
  lastJobId: string | null;
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
      return { ...current, current: model, training: current.training?.jobId === model.jobId ? null : current.training, lastJobId: model.jobId, lastChange: 'TRAINED', updatedAt: model.trainedAt };
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
