/**
 * returnsStdev keeps its log returns in a scratch array that grows with the longest series asked: a
 * series far longer than any before (100,000 closes, more than twice the scratch could hold) still
 * gives the sample standard deviation computed the plain way.
 */
import { expect } from 'chai';
import { returnsStdev } from './market-figures';

describe('market figures: the returns standard deviation of a long series', function () {
  it('equals the plain two-pass computation over 100,000 closes, and again over a part of them', function () {
    const closes = Float64Array.from({ length: 100_000 }, (_, i) => 100 * Math.exp(0.01 * Math.sin(i / 7) + 0.002 * Math.cos(i * 1.3)));
    const plain = (from: number, to: number) => {
      const r: number[] = [];
      for (let i = from + 1; i < to; i++) r.push(Math.log(closes[i]! / closes[i - 1]!));
      const mean = r.reduce((a, b) => a + b, 0) / r.length;
      return Math.sqrt(r.reduce((a, b) => a + (b - mean) ** 2, 0) / (r.length - 1));
    };
    for (const [from, to] of [[0, 100_000], [10, 60_000], [0, 3]] as const) {
      const value = returnsStdev(closes, from, to);
      expect(Number.isFinite(value), `${from}..${to}`).to.equal(true);
      expect(value, `${from}..${to}`).to.be.closeTo(plain(from, to), 1e-12);
    }
  });
});
