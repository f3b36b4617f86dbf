import { expect } from 'chai';
import { mlStatusResponse, shownPercent, type MlStatusView } from './ml-status-view';

describe('ml-status view: the figures as shown', function () {
  it('a recorded percent (two decimals) shows with one, half up from the hundredths', function () {
    expect(shownPercent(50.65)).to.equal(50.7);
    expect(shownPercent(50.64)).to.equal(50.6);
    expect(shownPercent(49.95)).to.equal(50);
    expect(shownPercent(0.05)).to.equal(0.1);
    expect(shownPercent(100)).to.equal(100);
  });

  it('GET /api/ml-status shows the figures as the model types do (50.65 reads 50.7 in both, not 50.6 here)', function () {
    const view = {
      userId: 'u',
      current: { modelType: 'logistic_regression', trainingDays: 7, accuracy: 50.65, baseline: 50.35, low: 48.65, high: 52.65, verdict: 'no edge', testSamples: 2000, trainedAt: '2026-11-26T00:00:00.000Z', jobId: 'j', symbol: 'ETH', candleMinutes: 5, asOf: '2026-11-26T00:00:00.000Z' },
      training: null,
      lastFailure: null,
      lastJobId: 'j',
      lastChange: 'TRAINED',
      updatedAt: '2026-11-26T00:00:00.000Z',
    } as unknown as MlStatusView;
    const shown = mlStatusResponse(view, 'own', null);
    expect(shown).to.include({ accuracy: 50.7, baseline: 50.4 });
    expect(shown.interval).to.deep.equal({ low: 48.7, high: 52.7 });
  });
});
