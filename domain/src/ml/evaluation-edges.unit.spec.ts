/**
 * The held-out score at its edges: no test rows at all (nothing measured, so no edge and an interval
 * that holds everything), a prediction of exactly 0.5 (not a call that the price goes up), and
 * predictions that do not match the labels one for one (refused, not scored).
 */
import { expect } from 'chai';
import { evaluate, wilsonInterval } from './evaluation';

describe('ML evaluation at the edges', function () {
  it('with no test rows: an interval from 0 to 1, accuracy and baseline 0, and no edge', function () {
    expect(wilsonInterval(0, 0)).to.deep.equal({ low: 0, high: 1 });
    expect(evaluate([], [])).to.deep.equal({ testSamples: 0, correct: 0, majority: 0, accuracy: 0, baseline: 0, low: 0, high: 1, verdict: 'no edge' });
  });

  it('a probability of exactly 0.5 predicts down; anything above it predicts up', function () {
    expect(evaluate([0.5, 0.5000001], [0, 1])).to.deep.include({ correct: 2, accuracy: 1 });
    expect(evaluate([0.5], [1])).to.deep.include({ correct: 0, accuracy: 0 });
  });

  it('the baseline is the share of the more frequent direction, whichever it is', function () {
    expect(evaluate([0.9, 0.9, 0.9, 0.9], [0, 0, 0, 1])).to.deep.include({ majority: 3, baseline: 0.75, correct: 1, accuracy: 0.25 });
    expect(evaluate([0.9, 0.9, 0.9, 0.9], [1, 1, 1, 0])).to.deep.include({ majority: 3, baseline: 0.75, correct: 3, accuracy: 0.75 });
  });

  it('predictions and labels must pair one for one', function () {
    expect(() => evaluate([0.6], [1, 0])).to.throw(RangeError, '1 predictions for 2 labels');
    expect(() => evaluate([0.6, 0.4, 0.7], [1, 0])).to.throw(RangeError, '3 predictions for 2 labels');
  });
});
