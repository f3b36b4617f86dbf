/** A user's model stream, and where a training run's data ends: the last 5-minute boundary before now. */
import { expect } from 'chai';
import { MODEL_CANDLE_MINUTES, modelStreamId, trainingAsOf } from './model';

describe('model ids and the training data\'s end', function () {
  it('a model stream per user; the data ends at the last complete 5-minute candle', function () {
    expect(modelStreamId('u1')).to.equal('model-u1');
    expect(MODEL_CANDLE_MINUTES).to.equal(5);
    expect(trainingAsOf(Date.UTC(2026, 2, 4, 12, 7, 31, 500))).to.equal(Date.UTC(2026, 2, 4, 12, 5));
    expect(trainingAsOf(Date.UTC(2026, 2, 4, 12, 5))).to.equal(Date.UTC(2026, 2, 4, 12, 5));
    expect(trainingAsOf(Date.UTC(2026, 2, 4, 12, 4, 59, 999))).to.equal(Date.UTC(2026, 2, 4, 12, 0));
  });
});
