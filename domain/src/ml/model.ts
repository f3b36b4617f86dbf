/**
 * The `model-{userId}` stream (DESIGN.md section 5): a user's model, created and retrained with its
 * measured accuracy. ModelTrainingRequested names the job that trains it (`job-{jobId}`, the long-job
 * system, domain/src/jobs) and the data's end (`asOf`), ModelTrained records the run's held-out
 * figures and the digest of the stored model, ModelTrainingFailed why a run produced none. The house
 * model (trained by the system, HOUSE_MODEL_USER_ID) is a stream like any other.
 */
import type { DomainEvent } from '../shared/decider';
import type { Verdict } from './evaluation';
import { DEFAULT_MODEL_TYPE, DEFAULT_TRAINING_DAYS, parametersOf, type ModelParameters, type ModelTypeId } from './model-types';

/** Why a model is trained: a user's create or retrain, the house model, or the daily auto-retrain (Settings' autoRetrain), which the user's daily limit does not count. */
export type TrainingReason = 'create' | 'retrain' | 'house' | 'scheduled';

export type TrainingSettings = {
  modelType: ModelTypeId;
  trainingDays: number;
  parameters: ModelParameters;
};

/** What one training run measured and stored. Percentages are of the held-out test rows. */
export type TrainedModel = TrainingSettings & {
  jobId: string;
  /** The symbol and candle width trained on. */
  symbol: string;
  candleMinutes: number;
  /** End of the training data (ISO): the last candle used closed at or before it. */
  asOf: string;
  trainSamples: number;
  testSamples: number;
  correct: number;
  majority: number;
  /** Percent, 2 decimals. */
  accuracy: number;
  baseline: number;
  low: number;
  high: number;
  verdict: Verdict;
  trainingTimeMs: number;
  /** SHA-256 (hex) of the stored model's bytes (the `ml-models` document of that id). */
  digest: string;
  trainedAt: string;
};

export type ModelTrainingRequested = DomainEvent<
  'ModelTrainingRequested',
  TrainingSettings & { userId: string; jobId: string; reason: TrainingReason; asOf: string; requestedAt: string }
>;
export type ModelTrained = DomainEvent<'ModelTrained', TrainedModel & { userId: string; reason: TrainingReason }>;
export type ModelTrainingFailed = DomainEvent<'ModelTrainingFailed', { userId: string; jobId: string; reason: string; failedAt: string }>;

export type ModelEvent = ModelTrainingRequested | ModelTrained | ModelTrainingFailed;
export const MODEL_EVENT_TYPES: ReadonlySet<string> = new Set(['ModelTrainingRequested', 'ModelTrained', 'ModelTrainingFailed']);

export interface ModelState {
  current: TrainedModel | null;
  pending: (TrainingSettings & { jobId: string; requestedAt: string; reason: TrainingReason; asOf: string }) | null;
  /** UTC day (YYYY-MM-DD) of `requestsToday`. */
  day: string | null;
  requestsToday: number;
  /** The last jobs whose end is recorded (a job that ran again after a takeover records nothing twice). */
  endedJobs: string[];
}

export const initialModelState = (): ModelState => ({ current: null, pending: null, day: null, requestsToday: 0, endedJobs: [] });

const ENDED_KEPT = 20;
const ended = (state: ModelState, jobId: string) => [...state.endedJobs, jobId].slice(-ENDED_KEPT);
export const utcDay = (iso: string) => iso.slice(0, 10);

export function evolveModel(state: ModelState, event: ModelEvent): ModelState {
  switch (event.type) {
    case 'ModelTrainingRequested': {
      const { modelType, trainingDays, parameters, jobId, requestedAt, reason, asOf } = event.data;
      const day = utcDay(requestedAt);
      const before = state.day === day ? state.requestsToday : 0;
      // The daily auto-retrain is the system's, not one of the user's requests of the day.
      return { ...state, pending: { modelType, trainingDays, parameters, jobId, requestedAt, reason, asOf }, day, requestsToday: reason === 'scheduled' ? before : before + 1 };
    }
    case 'ModelTrained': {
      const { userId: _user, reason: _reason, ...model } = event.data;
      return { ...state, current: model, pending: state.pending?.jobId === model.jobId ? null : state.pending, endedJobs: ended(state, model.jobId) };
    }
    case 'ModelTrainingFailed':
      return { ...state, pending: state.pending?.jobId === event.data.jobId ? null : state.pending, endedJobs: ended(state, event.data.jobId) };
  }
}

export const modelStreamId = (userId: string) => `model-${userId}`;

/** The house model's owner (visitors and users without a model see it): the house demo account. */
export { HOUSE_DEMO_USER_ID as HOUSE_MODEL_USER_ID } from '../trading/house-demo';
/** The long-job kind of a training run. */
export const MODEL_TRAINING_JOB_KIND = 'model-training';
/** The symbol and candle width models learn from: the dashboard's default coin, the signal engine's candles. */
export const MODEL_SYMBOL = 'ETH';

/** The house model's settings: the spec's defaults (Neural Network, 30 days of candles). */
export const HOUSE_SETTINGS: TrainingSettings = { modelType: DEFAULT_MODEL_TYPE, trainingDays: DEFAULT_TRAINING_DAYS, parameters: parametersOf(DEFAULT_MODEL_TYPE, {}) };

/** The candle width models learn on: the signal engine's (domain/src/signals/contracts.ts SIGNAL_CANDLE_MINUTES). */
export const MODEL_CANDLE_MINUTES = 5;

/** The data's end for a request at `nowMs`: the last candle boundary (only complete candles are read). */
export function trainingAsOf(nowMs: number): number {
  const width = MODEL_CANDLE_MINUTES * 60_000;
  return Math.floor(nowMs / width) * width;
}
