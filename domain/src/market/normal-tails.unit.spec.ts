/**
 * The far ends of the normal distribution: beyond 40 standard deviations the distribution function
 * is exactly 0 below and 1 above (the density underflows there), and the quantile of probability 0
 * is minus infinity, of 1 plus infinity.
 */
import { expect } from 'chai';
import { normalCdf, normalQuantile } from './normal-quantile';

describe('normal distribution at its far ends', function () {
  it('is 0 far below the mean and 1 far above it', function () {
    expect(normalCdf(-41)).to.equal(0);
    expect(normalCdf(-1e6)).to.equal(0);
    expect(normalCdf(41)).to.equal(1);
    expect(normalCdf(1e6)).to.equal(1);
    expect(normalCdf(Number.NEGATIVE_INFINITY)).to.equal(0);
    expect(normalCdf(Number.POSITIVE_INFINITY)).to.equal(1);
  });

  it('has quantile minus infinity at probability 0 and plus infinity at 1', function () {
    expect(normalQuantile(0)).to.equal(Number.NEGATIVE_INFINITY);
    expect(normalQuantile(1)).to.equal(Number.POSITIVE_INFINITY);
  });
});
