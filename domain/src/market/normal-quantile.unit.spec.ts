/**
 * The normal numbers the market draws: the exact distribution function and quantile against
 * published values, and the fast word-to-normal table against the exact quantile everywhere a word
 * can land (every bin edge, both tails, the extreme words), with the moments of a normal.
 */
import { expect } from 'chai';
import { normalCdf, normalFromWord, normalQuantile, uniformFromWord } from './normal-quantile';

describe('normal numbers', function () {
  it('has the normal distribution function to about 14 digits, tails included', function () {
    // Reference values (e.g. R's pnorm).
    const cases: [number, number][] = [
      [0, 0.5],
      [-1, 0.15865525393145707],
      [1.96, 0.9750021048517795],
      [-3, 0.0013498980316300946],
      [-5, 2.866515718791939e-7],
      [-8, 6.220960574271785e-16],
    ];
    for (const [x, p] of cases) expect(normalCdf(x), `Phi(${x})`).to.be.closeTo(p, Math.abs(p) * 1e-12);
    // The series (|x| <= 3) and the continued fraction (beyond) meet: a step across 3 moves Phi by its density.
    const step = 1e-6;
    expect(normalCdf(-3 - step) - normalCdf(-3 + step)).to.be.closeTo(-2 * step * 0.0044318484119380075, 1e-15);
  });

  it('inverts it: the quantile of Phi(x) is x', function () {
    expect(normalQuantile(0.975)).to.be.closeTo(1.959963984540054, 1e-12);
    expect(normalQuantile(0.5)).to.be.closeTo(0, 1e-15);
    for (let x = -6.5; x <= 6.5; x += 0.37) expect(normalQuantile(normalCdf(x)), `x = ${x}`).to.be.closeTo(x, x < 5 ? 1e-9 : 1e-6);
    expect(() => normalQuantile(1.5)).to.throw(RangeError);
  });

  it('turns a word into the quantile of its probability within 3e-4, at every bin edge and in both tails', function () {
    let worst = 0;
    const check = (word: number) => {
      const error = Math.abs(normalFromWord(word) - normalQuantile(uniformFromWord(word)));
      if (error > worst) worst = error;
    };
    for (let bin = 0; bin < 4096; bin++) {
      const edge = bin * 2 ** 20;
      for (const offset of [0, 1, 2 ** 19, 2 ** 20 - 1]) check(edge + offset);
    }
    for (let w = 0; w < 5000; w++) {
      check(w * 997);
      check(4294967295 - w * 997);
    }
    check(0);
    check(4294967295);
    expect(worst).to.be.below(3e-4);
    expect(normalFromWord(0)).to.be.closeTo(-6.34, 0.01);
    expect(normalFromWord(4294967295)).to.be.closeTo(6.34, 0.01);
    // Symmetric: the word's complement gives the opposite number.
    for (const w of [0, 12345, 2 ** 31 - 1, 3_000_000_000]) expect(normalFromWord(4294967295 - w)).to.be.closeTo(-normalFromWord(w), 1e-12);
  });

  it('has the moments of a standard normal over evenly spread words', function () {
    const n = 1 << 20;
    let s1 = 0;
    let s2 = 0;
    let s4 = 0;
    for (let i = 0; i < n; i++) {
      const x = normalFromWord(i * 4096 + 2048);
      s1 += x;
      s2 += x * x;
      s4 += x * x * x * x;
    }
    expect(s1 / n).to.be.closeTo(0, 1e-6);
    expect(s2 / n).to.be.closeTo(1, 2e-4);
    expect(s4 / n).to.be.closeTo(3, 5e-3);
  });
});
