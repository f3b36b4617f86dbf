/**
 * Small rules of the model slice at their edges: a percent as the API shows it (fraction x 100,
 * rounded half up to the digits asked), a type's parameters with the defaults filled in (the ones
 * given kept), a failed retrain tried again exactly a day later, the parameter problems reported as
 * custom issues, a fresh model stream with no job ended, and a result arriving with no training under
 * way (a result of a job the read model never saw requested) becoming the model.
 */
import { expect } from 'chai';
import { AUTO_RETRAIN_AFTER_MS, autoRetrainCheck } from './auto-retrain';
import { createModelRequestSchema } from './contracts';
import { percent } from './evaluation';
import { evolveMlStatusView, type MlStatusView } from './ml-status-view';
import { evolveModel, initialModelState, type ModelEvent, type TrainedModel } from './model';
import { parametersOf } from './model-types';

const TRAINED = '2026-03-04T10:00:00.000Z';
const model = (jobId: string): TrainedModel => ({
  modelType: 'logistic_regression', trainingDays: 30, parameters: parametersOf('logistic_regression', {}), jobId, symbol: 'ETH', candleMinutes: 5,
  asOf: TRAINED, trainSamples: 5000, testSamples: 2000, correct: 1010, majority: 1004, accuracy: 50.5, baseline: 50.2, low: 48.3, high: 52.7,
  verdict: 'no edge', trainingTimeMs: 1200, digest: 'ab'.repeat(32), trainedAt: TRAINED,
});
const trained = (jobId: string): ModelEvent => ({ type: 'ModelTrained', data: { userId: 'u1', reason: 'create', ...model(jobId) } });

describe('ML rules at their edges', function () {
  it('a percent: the fraction times 100, rounded half up to one decimal by default, or to the digits asked', function () {
    expect([percent(0.25), percent(0.1234), percent(0.12345, 2), percent(0.987654, 3), percent(0.5, 0), percent(0)]).to.deep.equal([25, 12.3, 12.35, 98.765, 50, 0]);
  });

  it("a type's parameters: the ones given kept, the others' defaults filled in; none given, every default", function () {
    expect(parametersOf('logistic_regression', { l2: 5 })).to.deep.equal({ l2: 5 });
    expect(parametersOf('logistic_regression', undefined)).to.deep.equal({ l2: 1 });
    expect(parametersOf('gradient_boosting', { rounds: 20 })).to.deep.equal({ maxDepth: 3, rounds: 20, learningRate: 0.1, subsample: 0.8, seed: 42 });
    expect(parametersOf('neural_network', null)).to.deep.equal({ hiddenUnits: 16, epochs: 10, learningRate: 0.003, seed: 42 });
  });

  it('a failed retrain is tried again exactly a day after the failure, not a millisecond sooner', function () {
    const failedAt = '2026-03-10T08:00:00.000Z';
    const view: MlStatusView = {
      userId: 'u1', current: model('j1'), trainedAtMs: Date.parse(TRAINED), training: null, lastFailure: { jobId: 'j2', reason: 'x', at: failedAt }, lastJobId: 'j2', lastChange: 'FAILED', updatedAt: failedAt,
    };
    expect(autoRetrainCheck(view, true, Date.parse(failedAt) + AUTO_RETRAIN_AFTER_MS)).to.deep.equal({ due: true });
    expect(autoRetrainCheck(view, true, Date.parse(failedAt) + AUTO_RETRAIN_AFTER_MS - 1)).to.deep.equal({ due: false, reason: 'failed within a day' });
  });

  it("a bad parameter is reported as a custom issue under parameters.<name>", function () {
    const parsed = createModelRequestSchema.safeParse({ modelType: 'logistic_regression', parameters: { l2: -1, depth: 3 } });
    expect(parsed.success).to.equal(false);
    const issues = parsed.success ? [] : parsed.error.issues.map((i) => ({ code: i.code, path: i.path.join('.') }));
    expect(issues).to.have.deep.members([
      { code: 'custom', path: 'parameters' },
      { code: 'custom', path: 'parameters.l2' },
    ]);
  });

  it('a fresh model stream has no model, no pending job, no request today and no job ended; the first end recorded is the only one', function () {
    expect(initialModelState()).to.deep.equal({ current: null, pending: null, day: null, requestsToday: 0, endedJobs: [] });
    expect(evolveModel(initialModelState(), trained('j1')).endedJobs).to.deep.equal(['j1']);
  });

  it('a result with no training under way becomes the model; nothing is left training', function () {
    const { userId: _u, reason: _r, ...stored } = trained('j1').data as TrainedModel & { userId: string; reason: string };
    expect(evolveMlStatusView(null, trained('j1'))).to.deep.equal({
      userId: 'u1', current: stored, trainedAtMs: Date.parse(TRAINED), training: null, lastFailure: null, lastJobId: 'j1', lastChange: 'TRAINED', updatedAt: TRAINED,
    });
  });
});
