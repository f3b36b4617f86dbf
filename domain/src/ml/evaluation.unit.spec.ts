/** The held-out score: accuracy, majority baseline, Wilson interval, and the verdict at its boundary. */
import { expect } from 'chai';
import { evaluate, wilsonInterval } from './evaluation';

describe('ML evaluation', function () {
  it('Wilson 95 % interval matches published values', function () {
    // 50 of 100: 0.4038 to 0.5962; 81 of 263 (Wilson's classic): 0.2553 to 0.3662.
    const a = wilsonInterval(50, 100);
    expect(a.low).to.be.closeTo(0.4038, 1e-4);
    expect(a.high).to.be.closeTo(0.5962, 1e-4);
    const b = wilsonInterval(81, 263);
    expect(b.low).to.be.closeTo(0.2553, 1e-4);
    expect(b.high).to.be.closeTo(0.3662, 1e-4);
    expect(wilsonInterval(0, 10).low).to.equal(0);
    expect(wilsonInterval(10, 10).high).to.be.closeTo(1, 1e-12);
  });

  it('the baseline is the test rows\' majority class; "edge" only when the lower bound is above it', function () {
    const labels = [...Array(600).fill(1), ...Array(400).fill(0)];
    // Always predicting 1 scores the baseline exactly: no edge.
    const always = evaluate(labels.map(() => 0.9), labels);
    expect(always).to.include({ testSamples: 1000, correct: 600, majority: 600, accuracy: 0.6, baseline: 0.6, verdict: 'no edge' });
    // 700 right of 1000 (lower bound 0.671 > 0.6): an edge.
    const good = evaluate(labels.map((y, i) => (i < 700 ? y : 1 - y)), labels);
    expect(good.accuracy).to.equal(0.7);
    expect(good.low).to.be.greaterThan(0.6);
    expect(good.verdict).to.equal('edge');
    // 630 of 1000: the interval (0.599, 0.660) still holds 0.6: no edge.
    const close = evaluate(labels.map((y, i) => (i < 630 ? y : 1 - y)), labels);
    expect(close.low).to.be.lessThan(0.6);
    expect(close.verdict).to.equal('no edge');
  });
});
