/**
 * The held-out score (DESIGN.md section 6): accuracy on the test rows, the majority-class baseline of
 * the same rows (what always guessing the more frequent direction scores), the 95 % Wilson score
 * interval of the accuracy, and the verdict: "edge" only when the interval's lower bound is above the
 * baseline, "no edge" when the interval holds it (or lies below: worse than the baseline is no edge
 * either). On a market that cannot be read ahead about 50 % and "no edge" is the honest result.
 */
export type Verdict = 'edge' | 'no edge';

export interface Evaluation {
  testSamples: number;
  correct: number;
  /** Test rows of the more frequent class. */
  majority: number;
  /** Fractions from 0 to 1. */
  accuracy: number;
  baseline: number;
  low: number;
  high: number;
  verdict: Verdict;
}

/** z for a two-sided 95 % interval. */
const Z95 = 1.959963984540054;

/** Wilson score interval of `successes` out of `n` at 95 %. */
export function wilsonInterval(successes: number, n: number): { low: number; high: number } {
  if (n <= 0) return { low: 0, high: 1 };
  const p = successes / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Scores predicted probabilities of class 1 (threshold 0.5) against the labels. */
export function evaluate(probabilities: ArrayLike<number>, labels: ArrayLike<number>): Evaluation {
  const n = labels.length;
  if (probabilities.length !== n) throw new RangeError(`${probabilities.length} predictions for ${n} labels`);
  let correct = 0;
  let ones = 0;
  // Stryker disable next-line EqualityOperator: equivalent, i = n reads no label (undefined), which neither matches a prediction nor is a 1
  for (let i = 0; i < n; i++) {
    const predicted = probabilities[i]! > 0.5 ? 1 : 0;
    if (predicted === labels[i]) correct += 1;
    // Stryker disable next-line EqualityOperator: equivalent, counting the labels that are not 1 gives n - ones, and the majority is the larger of the two counts either way
    if (labels[i] === 1) ones += 1;
  }
  const majority = Math.max(ones, n - ones);
  const { low, high } = wilsonInterval(correct, n);
  const baseline = n > 0 ? majority / n : 0;
  return { testSamples: n, correct, majority, accuracy: n > 0 ? correct / n : 0, baseline, low, high, verdict: low > baseline ? 'edge' : 'no edge' };
}

/** A fraction as a percent with `digits` decimals (what the API shows). */
export function percent(fraction: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(fraction * 100 * f) / f;
}
