/** Who the daily auto-retrain trains again (Settings' autoRetrain, issue 21). */
import { expect } from 'chai';
import { AUTO_RETRAIN_AFTER_MS, autoRetrainCheck, autoRetrainKey } from './auto-retrain';
import { HOUSE_MODEL_USER_ID, type TrainedModel } from './model';
import type { MlStatusView } from './ml-status-view';
import { parametersOf } from './model-types';

const TRAINED = '2026-03-04T10:00:00.000Z';
const at = (ms: number) => Date.parse(TRAINED) + ms;
const model: TrainedModel = {
  modelType: 'neural_network', trainingDays: 30, parameters: parametersOf('neural_network', {}), jobId: 'j1', symbol: 'ETH', candleMinutes: 5,
  asOf: TRAINED, trainSamples: 5000, testSamples: 2000, correct: 1010, majority: 1004, accuracy: 50.5, baseline: 50.2, low: 48.3, high: 52.7,
  verdict: 'no edge', trainingTimeMs: 1200, digest: 'ab'.repeat(32), trainedAt: TRAINED,
};
const view = (changes: Partial<MlStatusView> = {}): MlStatusView => ({
  userId: 'u1', current: model, trainedAtMs: Date.parse(TRAINED), training: null, lastFailure: null, lastJobId: 'j1', lastChange: 'TRAINED', updatedAt: TRAINED, ...changes,
});

describe('auto-retrain: who is trained again each day', function () {
  it('a model of their own a day old, autoRetrain on: due; a millisecond younger: not yet', function () {
    expect(autoRetrainCheck(view(), true, at(AUTO_RETRAIN_AFTER_MS))).to.deep.equal({ due: true });
    expect(autoRetrainCheck(view(), true, at(AUTO_RETRAIN_AFTER_MS - 1))).to.deep.equal({ due: false, reason: 'trained within a day' });
  });

  it('never with autoRetrain off, without a model of their own, or for the house model', function () {
    const late = at(3 * AUTO_RETRAIN_AFTER_MS);
    expect(autoRetrainCheck(view(), false, late)).to.deep.equal({ due: false, reason: 'auto-retrain off' });
    expect(autoRetrainCheck(view({ current: null, trainedAtMs: null }), true, late)).to.deep.equal({ due: false, reason: 'no own model' });
    expect(autoRetrainCheck(null, true, late)).to.deep.equal({ due: false, reason: 'no own model' });
    expect(autoRetrainCheck(view({ userId: HOUSE_MODEL_USER_ID }), true, late)).to.deep.equal({ due: false, reason: 'no own model' });
  });

  it('not while a training runs, nor within a day of a failed one', function () {
    const late = at(3 * AUTO_RETRAIN_AFTER_MS);
    const training = { jobId: 'j2', modelType: 'neural_network' as const, trainingDays: 30, requestedAt: TRAINED, reason: 'retrain' as const };
    expect(autoRetrainCheck(view({ training }), true, late)).to.deep.equal({ due: false, reason: 'training' });
    const failedAt = new Date(late - 1000).toISOString();
    expect(autoRetrainCheck(view({ lastFailure: { jobId: 'j2', reason: 'x', at: failedAt } }), true, late)).to.deep.equal({ due: false, reason: 'failed within a day' });
    expect(autoRetrainCheck(view({ lastFailure: { jobId: 'j2', reason: 'x', at: failedAt } }), true, late + AUTO_RETRAIN_AFTER_MS)).to.deep.equal({ due: true });
  });

  it('one key a user and UTC day', function () {
    expect(autoRetrainKey('u1', '2026-03-05T23:59:59.000Z')).to.equal(autoRetrainKey('u1', '2026-03-05T00:00:00.000Z'));
    expect(autoRetrainKey('u1', '2026-03-05T00:00:00.000Z')).to.not.equal(autoRetrainKey('u1', '2026-03-06T00:00:00.000Z'));
    expect(autoRetrainKey('u1', '2026-03-05T00:00:00.000Z')).to.not.equal(autoRetrainKey('u2', '2026-03-05T00:00:00.000Z'));
  });
});
