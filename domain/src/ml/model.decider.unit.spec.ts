/** The model stream: one pending training per user, a daily limit, retrain of the current settings, each job's end recorded once. */
import { specFor } from '../shared/decider-specification';
import { IllegalStateError, TooManyRequestsError } from '../shared/errors';
import type { ModelEvent, TrainedModel, TrainingSettings } from './model';
import { modelDecider, PENDING_EXPIRY_MS } from './model.decider';
import { parametersOf } from './model-types';

const spec = specFor(modelDecider);
const NOW = '2026-03-04T10:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(NOW) + ms).toISOString();
const nn: TrainingSettings = { modelType: 'neural_network', trainingDays: 30, parameters: parametersOf('neural_network', {}) };
const lr: TrainingSettings = { modelType: 'logistic_regression', trainingDays: 90, parameters: parametersOf('logistic_regression', { l2: 3 }) };
const ASOF = '2026-03-04T09:55:00.000Z';
const request = (jobId: string, settings: TrainingSettings | null, now = NOW, dailyLimit: number | null = 3) => ({
  type: 'RequestModelTraining' as const,
  data: { userId: 'u1', jobId, reason: settings ? ('create' as const) : ('retrain' as const), settings, fallback: nn, asOf: ASOF, dailyLimit },
  metadata: { now },
});
const requested = (jobId: string, settings: TrainingSettings, requestedAt = NOW, reason: 'create' | 'retrain' | 'scheduled' = 'create'): ModelEvent => ({
  type: 'ModelTrainingRequested',
  data: { userId: 'u1', jobId, reason, ...settings, asOf: ASOF, requestedAt },
});
const model = (jobId: string, settings: TrainingSettings): TrainedModel => ({
  ...settings, jobId, symbol: 'ETH', candleMinutes: 5, asOf: ASOF, trainSamples: 5000, testSamples: 2000, correct: 1010, majority: 1004,
  accuracy: 50.5, baseline: 50.2, low: 48.3, high: 52.7, verdict: 'no edge', trainingTimeMs: 1200, digest: 'ab'.repeat(32), trainedAt: later(60_000),
});
const trained = (jobId: string, settings: TrainingSettings, reason: 'create' | 'retrain' = 'create'): ModelEvent => ({ type: 'ModelTrained', data: { userId: 'u1', reason, ...model(jobId, settings) } });

describe('model decider', function () {
  it('a request names its job, settings and data end', function () {
    spec.given([]).when(request('j1', lr)).then([requested('j1', lr)]);
  });

  it('one training at a time: a second request while one is pending is a 409 naming the job', function () {
    spec.given([requested('j1', lr)]).when(request('j2', nn)).thenThrows(IllegalStateError, /already training for you \(job j1\)/);
  });

  it('after the job ended (trained or failed) the user may ask again', function () {
    spec.given([requested('j1', lr), trained('j1', lr)]).when(request('j2', nn)).then([requested('j2', nn)]);
    const failed: ModelEvent = { type: 'ModelTrainingFailed', data: { userId: 'u1', jobId: 'j1', reason: 'x', failedAt: NOW } };
    spec.given([requested('j1', lr), failed]).when(request('j2', nn)).then([requested('j2', nn)]);
  });

  it('a request pending longer than the expiry (its job lost) no longer blocks', function () {
    const at = later(PENDING_EXPIRY_MS);
    spec.given([requested('j1', lr)]).when(request('j2', nn, at)).then([requested('j2', nn, at)]);
  });

  it('the daily limit: the limit-th request of a UTC day passes, the next is a 429; the next day counts again; the house has none', function () {
    const day = [requested('a', nn), trained('a', nn), requested('b', nn, later(1000)), trained('b', nn)];
    spec.given(day).when(request('c', nn, later(2000))).then([requested('c', nn, later(2000))]);
    const full = [...day, requested('c', nn, later(2000)), trained('c', nn)];
    spec.given(full).when(request('d', nn, later(3000))).thenThrows(TooManyRequestsError, /Daily training limit reached: 3/);
    const tomorrow = '2026-03-05T00:00:01.000Z';
    spec.given(full).when(request('d', nn, tomorrow)).then([requested('d', nn, tomorrow)]);
    spec.given(full).when(request('d', nn, later(3000), null)).then([requested('d', nn, later(3000))]);
  });

  it('the daily auto-retrain (a scheduled request) is not one of the user\'s requests of the day: after it the user still has the whole limit', function () {
    const scheduled = [requested('a', nn), trained('a', nn), requested('s', nn, later(500), 'scheduled'), trained('s', nn), requested('b', nn, later(1000)), trained('b', nn)];
    spec.given(scheduled).when(request('c', nn, later(2000))).then([requested('c', nn, later(2000))]);
    spec.given([...scheduled, requested('c', nn, later(2000)), trained('c', nn)]).when(request('d', nn, later(3000))).thenThrows(TooManyRequestsError, /Daily training limit reached: 3/);
  });

  it('retrain: the current model\'s settings; with no model yet, the fallback (the house model\'s)', function () {
    spec.given([requested('j1', lr), trained('j1', lr)]).when(request('j2', null)).then([requested('j2', lr, NOW, 'retrain')]);
    spec.given([]).when(request('j2', null)).then([requested('j2', nn, NOW, 'retrain')]);
  });

  it('a job\'s end is recorded once (a job run again after a takeover appends nothing)', function () {
    const record = { type: 'RecordModelTrained' as const, data: { userId: 'u1', model: model('j1', lr) }, metadata: { now: NOW } };
    spec.given([requested('j1', lr)]).when(record).then([trained('j1', lr)]);
    spec.given([requested('j1', lr), trained('j1', lr)]).when(record).then([]);
    const fail = { type: 'RecordModelTrainingFailed' as const, data: { userId: 'u1', jobId: 'j1', reason: 'boom' }, metadata: { now: NOW } };
    spec.given([requested('j1', lr), trained('j1', lr)]).when(fail).then([]);
  });
});
