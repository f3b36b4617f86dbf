/** The ML panel's exact texts: the confidence level at its thresholds, the baseline line, the toasts when a training ends. */
import { expect } from 'chai';
import type { MlStatusResponse } from '@papertrade/domain/ml/contracts';
import { ApiError } from '../../lib/api-client';
import { accuracyLevel, baselineText, trainingEndedToast, trainingFailedToast } from './ml-texts';

const status = (over: Partial<MlStatusResponse>): MlStatusResponse => ({
  modelType: 'neural_network', modelName: 'Neural Network', trainingDataDays: 30, accuracy: 51.2, baseline: 50.6, interval: { low: 49.1, high: 53.3 }, verdict: 'no edge',
  testSamples: 2400, lastTraining: '2026-03-04T10:00:00.000Z', owner: 'own', status: 'READY', training: null, lastFailure: null, lastJobId: 'j1', symbol: 'ETH', candleMinutes: 5, dataAsOf: null, ...over,
});

describe('ML panel texts', function () {
  it('confidence: above 80 High, above 60 Medium, otherwise Low (section 9)', function () {
    expect([80.1, 80, 60.1, 60, 51.2].map(accuracyLevel)).to.deep.equal(['High', 'Medium', 'Medium', 'Low', 'Low']);
  });

  it('the baseline, the interval and the verdict beside the accuracy', function () {
    expect(baselineText(status({}))).to.equal('Baseline 50.6% · 95% interval 49.1%–53.3% · No edge');
    expect(baselineText(status({ verdict: 'edge', interval: { low: 55, high: 60 } }))).to.equal('Baseline 50.6% · 95% interval 55.0%–60.0% · Edge');
    expect(baselineText(status({ baseline: null, interval: null, verdict: null }))).to.equal(null);
  });

  it('a training ended: Model Retrained / Model Created with the new accuracy; nothing for another job', function () {
    expect(trainingEndedToast('retrain', status({}), 'j1')).to.deep.equal({ title: 'Model Retrained', description: 'New accuracy: 51.2%', variant: 'success' });
    expect(trainingEndedToast('create', status({}), 'j1')).to.deep.equal({ title: 'Model Created', description: 'New Neural Network model created with 51.2% accuracy', variant: 'success' });
    expect(trainingEndedToast('create', status({}), 'j2')).to.equal(null);
  });

  it('a training that failed, or a request refused: Retrain Failed / Creation Failed, with the server\'s reason when it gave one', function () {
    const failed = status({ lastFailure: { jobId: 'j1', reason: 'x', at: '2026-03-04T10:00:00.000Z' } });
    expect(trainingEndedToast('retrain', failed, 'j1')).to.deep.equal({ title: 'Retrain Failed', description: 'Failed to retrain the ML model', variant: 'destructive' });
    expect(trainingEndedToast('create', failed, 'j1')).to.deep.equal({ title: 'Creation Failed', description: 'Failed to create the ML model', variant: 'destructive' });
    const refused = new ApiError(429, '{}', 'Too Many Requests', { type: 'about:blank', title: 'Too many requests', status: 429, detail: 'Daily training limit reached: 10 model trainings a day; try again after 00:00 UTC' } as never);
    expect(trainingFailedToast('retrain', refused).description).to.equal('Daily training limit reached: 10 model trainings a day; try again after 00:00 UTC');
    expect(trainingFailedToast('create', new Error('network')).description).to.equal('Failed to create the ML model');
  });
});
