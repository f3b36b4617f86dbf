/**
 * RequestModelTraining, RecordModelTrained, RecordModelTrainingFailed on `model-{userId}` (model.ts).
 *
 * - A request is refused while another of the user's runs is pending (409: one running job per user;
 *   the client is told to wait, it is not queued twice), unless that one was requested more than
 *   PENDING_EXPIRY_MS ago: a job that has not ended by then was lost (its job stream never written,
 *   or failed without word), and must not block the user for ever.
 * - At most `dailyLimit` requests per UTC day (429 with the seconds to midnight); null for the house.
 * - A retrain (`settings: null`) trains the user's current model's type, days and parameters on data
 *   up to now; a user with no model yet retrains what they see, the house model's settings (`fallback`).
 * - A job's end is recorded once: the runner may run a job again after a takeover, and its second
 *   RecordModelTrained appends nothing. A result on data older than the model in use (a lost job
 *   reporting after the run that replaced it trained) appends nothing either: the newer model stays.
 */
import { assertNever, type Decider } from '../shared/decider';
import { IllegalStateError, TooManyRequestsError } from '../shared/errors';
import { evolveModel, initialModelState, type ModelEvent, type ModelState, type TrainedModel, type TrainingReason, type TrainingSettings } from './model';

/** After this a pending request no longer blocks a new one (see the file comment). */
export const PENDING_EXPIRY_MS = 2 * 60 * 60 * 1000;

type Meta = { metadata: { now: string } };
export type RequestModelTraining = {
  type: 'RequestModelTraining';
  data: { userId: string; jobId: string; reason: TrainingReason; settings: TrainingSettings | null; fallback: TrainingSettings; asOf: string; dailyLimit: number | null };
} & Meta;
export type RecordModelTrained = { type: 'RecordModelTrained'; data: { userId: string; model: TrainedModel } } & Meta;
export type RecordModelTrainingFailed = { type: 'RecordModelTrainingFailed'; data: { userId: string; jobId: string; reason: string } } & Meta;
export type ModelCommand = RequestModelTraining | RecordModelTrained | RecordModelTrainingFailed;

export function secondsToUtcMidnight(now: string): number {
  const t = Date.parse(now);
  const midnight = Date.UTC(new Date(t).getUTCFullYear(), new Date(t).getUTCMonth(), new Date(t).getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - t) / 1000));
}

export function requestModelTraining(command: RequestModelTraining, state: ModelState): ModelEvent[] {
  const { userId, jobId, reason, settings, fallback, asOf, dailyLimit } = command.data;
  const { now } = command.metadata;
  if (state.pending && Date.parse(now) - Date.parse(state.pending.requestedAt) < PENDING_EXPIRY_MS) {
    throw new IllegalStateError(`A model is already training for you (job ${state.pending.jobId}); wait for it to finish`, { jobId: state.pending.jobId });
  }
  const today = now.slice(0, 10);
  const used = state.day === today ? state.requestsToday : 0;
  if (dailyLimit !== null && used >= dailyLimit) {
    throw new TooManyRequestsError(`Daily training limit reached: ${dailyLimit} model trainings a day; try again after 00:00 UTC`).retryAfter(secondsToUtcMidnight(now));
  }
  const chosen: TrainingSettings = settings ?? (state.current ? { modelType: state.current.modelType, trainingDays: state.current.trainingDays, parameters: state.current.parameters } : fallback);
  return [{ type: 'ModelTrainingRequested', data: { userId, jobId, reason, ...chosen, asOf, requestedAt: now } }];
}

export function recordModelTrained(command: RecordModelTrained, state: ModelState): ModelEvent[] {
  const { userId, model } = command.data;
  if (state.endedJobs.includes(model.jobId)) return [];
  // A lost job reporting after the run that replaced it has trained: its model, on older data, does
  // not replace the newer one (the user would see an older model come back).
  if (state.current && Date.parse(model.asOf) < Date.parse(state.current.asOf)) return [];
  const reason: TrainingReason = state.pending?.jobId === model.jobId ? state.pending.reason : 'retrain';
  return [{ type: 'ModelTrained', data: { userId, reason, ...model } }];
}

export function recordModelTrainingFailed(command: RecordModelTrainingFailed, state: ModelState): ModelEvent[] {
  const { userId, jobId, reason } = command.data;
  if (state.endedJobs.includes(jobId)) return [];
  return [{ type: 'ModelTrainingFailed', data: { userId, jobId, reason, failedAt: command.metadata.now } }];
}

export const modelDecider: Decider<ModelState, ModelCommand, ModelEvent> = {
  name: 'model',
  schemaVersion: 1,
  initialState: initialModelState,
  evolve: evolveModel,
  decide(command, state) {
    switch (command.type) {
      case 'RequestModelTraining':
        return requestModelTraining(command, state);
      case 'RecordModelTrained':
        return recordModelTrained(command, state);
      case 'RecordModelTrainingFailed':
        return recordModelTrainingFailed(command, state);
      default:
        return assertNever(command);
    }
  },
};
