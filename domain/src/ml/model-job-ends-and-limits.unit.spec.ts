/**
 * The model stream when jobs end out of turn and days roll over: a lost job reporting late does not
 * end the run that replaced it, a failure keeps the model the user has, a result with no request
 * pending counts as a retrain, the daily count starts again each UTC day, the 409 names the running
 * job for the client, and the 429 says how many seconds are left until midnight UTC.
 */
import { expect } from 'chai';
import { fold } from '../shared/decider';
import { specFor } from '../shared/decider-specification';
import { IllegalStateError, TooManyRequestsError } from '../shared/errors';
import type { ModelEvent, TrainedModel, TrainingSettings } from './model';
import { modelDecider, PENDING_EXPIRY_MS, secondsToUtcMidnight } from './model.decider';
import { parametersOf } from './model-types';

const spec = specFor(modelDecider);
const NOW = '2026-03-04T10:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(NOW) + ms).toISOString();
const nn: TrainingSettings = { modelType: 'neural_network', trainingDays: 30, parameters: parametersOf('neural_network', {}) };
const lr: TrainingSettings = { modelType: 'logistic_regression', trainingDays: 90, parameters: parametersOf('logistic_regression', { l2: 3 }) };
const gb: TrainingSettings = { modelType: 'gradient_boosting', trainingDays: 14, parameters: parametersOf('gradient_boosting', {}) };
const ASOF = '2026-03-04T09:55:00.000Z';

const request = (jobId: string, settings: TrainingSettings | null, now = NOW, dailyLimit: number | null = 3) => ({
  type: 'RequestModelTraining' as const,
  data: { userId: 'u1', jobId, reason: settings ? ('create' as const) : ('retrain' as const), settings, fallback: nn, asOf: ASOF, dailyLimit },
  metadata: { now },
});
const requested = (jobId: string, settings: TrainingSettings, requestedAt = NOW, reason: 'create' | 'retrain' = 'create'): ModelEvent => ({
  type: 'ModelTrainingRequested',
  data: { userId: 'u1', jobId, reason, ...settings, asOf: ASOF, requestedAt },
});
const model = (jobId: string, settings: TrainingSettings): TrainedModel => ({
  ...settings, jobId, symbol: 'ETH', candleMinutes: 5, asOf: ASOF, trainSamples: 5000, testSamples: 2000, correct: 1010, majority: 1004,
  accuracy: 50.5, baseline: 50.2, low: 48.3, high: 52.7, verdict: 'no edge', trainingTimeMs: 1200, digest: 'ab'.repeat(32), trainedAt: later(60_000),
});
const trained = (jobId: string, settings: TrainingSettings, reason: 'create' | 'retrain' = 'create'): ModelEvent => ({ type: 'ModelTrained', data: { userId: 'u1', reason, ...model(jobId, settings) } });
const failed = (jobId: string): ModelEvent => ({ type: 'ModelTrainingFailed', data: { userId: 'u1', jobId, reason: 'out of memory', failedAt: NOW } });
const recordTrained = (jobId: string, settings: TrainingSettings, now = NOW) => ({ type: 'RecordModelTrained' as const, data: { userId: 'u1', model: model(jobId, settings) }, metadata: { now } });
const recordFailed = (jobId: string, now = NOW) => ({ type: 'RecordModelTrainingFailed' as const, data: { userId: 'u1', jobId, reason: 'out of memory' }, metadata: { now } });

/** The first request was lost (its job never reported in time); a second replaced it after the expiry. */
const AFTER_EXPIRY = later(PENDING_EXPIRY_MS);
const replaced = [requested('lost', lr), requested('j2', gb, AFTER_EXPIRY)];

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('model stream: late job ends, failures, days and refusals', function () {
  it('a failure of the running job is recorded with its reason and time', function () {
    spec.given([requested('j1', lr)]).when(recordFailed('j1', later(5000))).then([{ type: 'ModelTrainingFailed', data: { userId: 'u1', jobId: 'j1', reason: 'out of memory', failedAt: later(5000) } }]);
  });

  it("a lost job's result on older data, arriving after the run that replaced it trained, does not bring the older model back", function () {
    const newer = { ...trained('j2', gb), data: { ...(trained('j2', gb).data as TrainedModel & { userId: string; reason: 'create' }), asOf: later(PENDING_EXPIRY_MS) } } as ModelEvent;
    spec.given([...replaced, newer]).when(recordTrained('lost', lr, later(PENDING_EXPIRY_MS + 60_000))).then([]);
    // On data as new as the model in use (or newer), a result is recorded as ever.
    const sameData = recordTrained('lost', lr, later(PENDING_EXPIRY_MS + 60_000));
    sameData.data.model.asOf = later(PENDING_EXPIRY_MS);
    expect(modelDecider.decide(sameData, fold(modelDecider, [...replaced, newer]))).to.have.length(1);
  });

  it('a failure is recorded once, however often the runner reports it', function () {
    spec.given([requested('j1', lr), failed('j1')]).when(recordFailed('j1')).then([]);
  });

  it('a failed training keeps the model the user has: the next retrain trains its settings again', function () {
    const events = [requested('j1', lr), trained('j1', lr), requested('j2', gb, later(1000)), failed('j2')];
    spec.given(events).when(request('j3', null, later(2000))).then([requested('j3', lr, later(2000), 'retrain')]);
  });

  it('a lost job failing late does not end the run that replaced it: a new request is still refused, naming that run', function () {
    spec.given([...replaced, failed('lost')]).when(request('j3', nn, later(PENDING_EXPIRY_MS + 1000))).thenThrows(IllegalStateError, /already training for you \(job j2\)/);
  });

  it('a lost job finishing late does not end the run that replaced it either, though its model becomes the current one', function () {
    const events = [...replaced, trained('lost', lr, 'retrain')];
    spec.given(events).when(request('j3', nn, later(PENDING_EXPIRY_MS + 1000))).thenThrows(IllegalStateError, /\(job j2\)/);
    expect(fold(modelDecider, events).current).to.deep.equal(model('lost', lr));
  });

  it('a job ending when nothing is pending (its run already replaced and ended) changes no pending state', function () {
    const failedLate = [...replaced, trained('j2', gb), failed('lost')];
    spec.given(failedLate).when(request('j3', nn, later(PENDING_EXPIRY_MS + 1000))).then([requested('j3', nn, later(PENDING_EXPIRY_MS + 1000))]);
    const trainedLate = [requested('lost', lr), requested('j2', gb, AFTER_EXPIRY), failed('j2'), trained('lost', lr, 'retrain')];
    // The late model is the user's model now: a retrain trains its settings.
    spec.given(trainedLate).when(request('j3', null, later(PENDING_EXPIRY_MS + 1000))).then([requested('j3', lr, later(PENDING_EXPIRY_MS + 1000), 'retrain')]);
  });

  it('a trained model whose request is not the pending one is recorded as a retrain', function () {
    // Nothing pending at all.
    spec.given([]).when(recordTrained('j1', lr)).then([trained('j1', lr, 'retrain')]);
    // Another job pending, requested as a create: the late one is still a retrain.
    spec.given(replaced).when(recordTrained('lost', lr)).then([trained('lost', lr, 'retrain')]);
    // The pending job itself keeps the reason it was requested for.
    spec.given(replaced).when(recordTrained('j2', gb)).then([trained('j2', gb, 'create')]);
  });

  it('the daily count starts again each UTC day: the second request of the next day passes with a limit of 3', function () {
    const today = [requested('a', nn), trained('a', nn), requested('b', nn, later(1000)), trained('b', nn), requested('c', nn, later(2000)), trained('c', nn)];
    const tomorrow = (s: number) => `2026-03-05T08:00:0${s}.000Z`;
    const next = [...today, requested('d', nn, tomorrow(0)), trained('d', nn)];
    spec.given(next).when(request('e', nn, tomorrow(1))).then([requested('e', nn, tomorrow(1))]);
    spec.given([...next, requested('e', nn, tomorrow(1)), trained('e', nn)]).when(request('f', nn, tomorrow(2))).then([requested('f', nn, tomorrow(2))]);
    const full = [...next, requested('e', nn, tomorrow(1)), trained('e', nn), requested('f', nn, tomorrow(2)), trained('f', nn)];
    spec.given(full).when(request('g', nn, tomorrow(3))).thenThrows(TooManyRequestsError, /Daily training limit reached: 3/);
  });

  it('the stream remembers the ends of the last 20 jobs, not of every job ever run', function () {
    const events = Array.from({ length: 21 }, (_, k) => [requested(`j${k + 1}`, nn, later(k * 1000)), trained(`j${k + 1}`, nn)]).flat();
    expect(fold(modelDecider, events).endedJobs).to.deep.equal(Array.from({ length: 20 }, (_, k) => `j${k + 2}`));
    spec.given(events).when(recordTrained('j2', nn)).then([]);
    spec.given(events).when(recordTrained('j21', nn)).then([]);
  });

  it('the 409 names the running job in its problem body, so the client can follow it', function () {
    const error = thrownBy(() => modelDecider.decide(request('j2', nn, later(1000)), fold(modelDecider, [requested('j1', lr)])));
    expect(error).to.be.instanceOf(IllegalStateError);
    expect((error as IllegalStateError).message).to.equal('A model is already training for you (job j1); wait for it to finish');
    expect((error as IllegalStateError).extra).to.deep.equal({ jobId: 'j1' });
  });

  it('the 429 says to retry after the seconds left until midnight UTC', function () {
    const full = [requested('a', nn), trained('a', nn), requested('b', nn, later(1000)), trained('b', nn), requested('c', nn, later(2000)), trained('c', nn)];
    // 10:00:03 UTC: 13 h 59 min 57 s to midnight.
    const error = thrownBy(() => modelDecider.decide(request('d', nn, later(3000)), fold(modelDecider, full)));
    expect(error).to.be.instanceOf(TooManyRequestsError);
    expect((error as TooManyRequestsError).retryAfterSeconds).to.equal(14 * 3600 - 3);
  });

  it('seconds to midnight UTC: whole seconds rounded up, a whole day at midnight, across a month end', function () {
    expect(secondsToUtcMidnight('2026-03-04T10:00:00.000Z')).to.equal(14 * 3600);
    expect(secondsToUtcMidnight('2026-03-04T00:00:00.000Z')).to.equal(24 * 3600);
    expect(secondsToUtcMidnight('2026-03-04T23:59:58.200Z')).to.equal(2);
    expect(secondsToUtcMidnight('2026-03-04T23:59:59.999Z')).to.equal(1);
    expect(secondsToUtcMidnight('2026-03-31T23:00:00.000Z')).to.equal(3600);
    expect(secondsToUtcMidnight('2026-12-31T12:30:00.000Z')).to.equal(11.5 * 3600);
  });
});
