/**
 * The AI Models screen's read models through their events: the `ml-status` document of a user (a
 * request shows the training, a result replaces the model and ends that training, a failure is kept
 * and ends it too; a result or failure of another job leaves a training under way as it is), the
 * `ml-model-types` document of a model type (the figures of its last training by anyone), and GET
 * /api/ml-status's answer for a user who has no model yet, one training, and one trained.
 */
import { expect } from 'chai';
import type { DomainEvent } from '../shared/decider';
import type { ModelEvent, TrainedModel } from './model';
import { ML_MODEL_TYPES_PROJECTION, ML_STATUS_PROJECTION, evolveMlStatusView, evolveModelTypeStats, mlStatusDocumentId, mlStatusResponse, modelTypeStatsDocumentId, type MlStatusView } from './ml-status-view';
import { parametersOf } from './model-types';

const T = (minute: number) => new Date(Date.UTC(2026, 2, 4, 10, minute)).toISOString();
const requested = (jobId: string, at: string): ModelEvent => ({
  type: 'ModelTrainingRequested',
  data: { userId: 'u1', jobId, reason: 'create', modelType: 'gradient_boosting', trainingDays: 14, parameters: parametersOf('gradient_boosting', {}), asOf: at, requestedAt: at },
});
const model = (jobId: string, at: string): TrainedModel => ({
  modelType: 'logistic_regression', trainingDays: 90, parameters: parametersOf('logistic_regression', {}), jobId, symbol: 'BTC', candleMinutes: 15, asOf: T(0), trainSamples: 5000, testSamples: 2100,
  correct: 1100, majority: 1060, accuracy: 52.38, baseline: 50.48, low: 50.55, high: 54.51, verdict: 'edge', trainingTimeMs: 2500, digest: 'cd'.repeat(32), trainedAt: at,
});
const trained = (jobId: string, at: string): ModelEvent => ({ type: 'ModelTrained', data: { userId: 'u1', reason: 'create', ...model(jobId, at) } });
const failed = (jobId: string, at: string): ModelEvent => ({ type: 'ModelTrainingFailed', data: { userId: 'u1', jobId, reason: 'out of memory', failedAt: at } });
const other: DomainEvent = { type: 'SimulatedTradePlaced', data: { userId: 'u1', modelType: 'neural_network' } };
const fold = (...events: DomainEvent[]) => events.reduce<MlStatusView | null>(evolveMlStatusView, null);

describe('ML read models', function () {
  it('their names and documents: a status per user with model events, a type per trained model', function () {
    expect([ML_STATUS_PROJECTION, ML_MODEL_TYPES_PROJECTION]).to.deep.equal(['ml-status', 'ml-model-types']);
    for (const event of [requested('j1', T(1)), trained('j1', T(2)), failed('j1', T(3))]) expect(mlStatusDocumentId(event), event.type).to.equal('u1');
    expect(mlStatusDocumentId(other)).to.equal(null);
    expect(mlStatusDocumentId({ type: 'ModelTrained', data: { userId: 3 } })).to.equal(null);
    expect(modelTypeStatsDocumentId(trained('j1', T(2)))).to.equal('logistic_regression');
    expect(modelTypeStatsDocumentId(requested('j1', T(1)))).to.equal(null);
    expect(modelTypeStatsDocumentId({ type: 'ModelTrained', data: { modelType: 7 } })).to.equal(null);
  });

  it('a request shows the training under way', function () {
    expect(fold(requested('j1', T(1)))).to.deep.equal({
      userId: 'u1',
      current: null,
      training: { jobId: 'j1', modelType: 'gradient_boosting', trainingDays: 14, requestedAt: T(1), reason: 'create' },
      lastFailure: null,
      lastJobId: null,
      lastChange: 'QUEUED',
      updatedAt: T(1),
    });
  });

  it("a result becomes the model and ends its training; another job's result leaves a training under way", function () {
    const { userId: _u, reason: _r, ...asStored } = trained('j1', T(2)).data as TrainedModel & { userId: string; reason: string };
    expect(fold(requested('j1', T(1)), trained('j1', T(2)))).to.deep.equal({
      userId: 'u1',
      current: asStored,
      trainedAtMs: Date.UTC(2026, 2, 4, 10, 2),
      training: null,
      lastFailure: null,
      lastJobId: 'j1',
      lastChange: 'TRAINED',
      updatedAt: T(2),
    });
    const stillTraining = fold(requested('j2', T(1)), trained('j1', T(2)));
    expect(stillTraining!.training).to.deep.include({ jobId: 'j2' });
    expect(stillTraining!.current).to.deep.include({ jobId: 'j1' });
  });

  it("a failure is kept with its reason and ends its training; another job's failure leaves a training under way; the model stays", function () {
    const after = fold(requested('j1', T(1)), trained('j1', T(2)), requested('j2', T(3)), failed('j2', T(4)));
    expect(after).to.deep.include({ training: null, lastFailure: { jobId: 'j2', reason: 'out of memory', at: T(4) }, lastJobId: 'j2', lastChange: 'FAILED', updatedAt: T(4) });
    expect(after!.current).to.deep.include({ jobId: 'j1' });
    expect(fold(requested('j3', T(1)), failed('j2', T(2)))!.training).to.deep.include({ jobId: 'j3' });
  });

  it('other events leave the documents as they are', function () {
    const doc = fold(requested('j1', T(1)));
    expect(evolveMlStatusView(doc, other)).to.equal(doc);
    expect(evolveMlStatusView(null, other)).to.equal(null);
    const stats = evolveModelTypeStats(null, trained('j1', T(2)));
    expect(evolveModelTypeStats(stats, requested('j2', T(3)))).to.equal(stats);
  });

  it("a model type's figures: its last training by anyone", function () {
    const first = evolveModelTypeStats(null, trained('j1', T(2)));
    expect(first).to.deep.equal({ modelType: 'logistic_regression', accuracy: 52.38, baseline: 50.48, verdict: 'edge', trainingTimeMs: 2500, trainingDays: 90, trainedAt: T(2) });
    expect(evolveModelTypeStats(first, trained('j2', T(9)))!.trainedAt).to.equal(T(9));
  });

  it('GET /api/ml-status: no model yet (the house settings, not trained), one training (its settings and queue place), one trained (its figures)', function () {
    expect(mlStatusResponse(null, 'house', null)).to.deep.equal({
      modelType: 'neural_network',
      modelName: 'Neural Network',
      trainingDataDays: 30,
      accuracy: null,
      baseline: null,
      interval: null,
      verdict: null,
      testSamples: null,
      lastTraining: null,
      owner: 'house',
      status: 'NOT_TRAINED',
      training: null,
      lastFailure: null,
      lastJobId: null,
      symbol: 'ETH',
      candleMinutes: 5,
      dataAsOf: null,
    });
    const training = fold(requested('j1', T(1)));
    expect(mlStatusResponse(training, 'own', { status: 'QUEUED', queuePosition: 2 })).to.deep.include({
      modelType: 'gradient_boosting',
      modelName: 'Gradient Boosting',
      trainingDataDays: 14,
      status: 'TRAINING',
      training: { jobId: 'j1', status: 'QUEUED', queuePosition: 2, requestedAt: T(1), modelType: 'gradient_boosting', trainingDays: 14 },
    });
    expect(mlStatusResponse(training, 'own', null).training, 'no job known: no queue place to show').to.equal(null);
    const ready = fold(requested('j1', T(1)), trained('j1', T(2)), failed('j0', T(3)));
    expect(mlStatusResponse(ready, 'own', null)).to.deep.equal({
      modelType: 'logistic_regression',
      modelName: 'Logistic Regression',
      trainingDataDays: 90,
      accuracy: 52.4,
      baseline: 50.5,
      interval: { low: 50.6, high: 54.5 },
      verdict: 'edge',
      testSamples: 2100,
      lastTraining: T(2),
      owner: 'own',
      status: 'READY',
      training: null,
      lastFailure: { jobId: 'j0', reason: 'out of memory', at: T(3) },
      lastJobId: 'j0',
      symbol: 'BTC',
      candleMinutes: 15,
      dataAsOf: T(0),
    });
  });
});
