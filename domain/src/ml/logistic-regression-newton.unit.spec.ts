/**
 * The exact logistic regression's method, beyond its optimum: it is Newton's method, so from all-zero
 * weights it takes the same steps as a plain Newton iteration written from the definition (gradient
 * and Hessian of the mean log-loss plus the L2 penalty on the weights, each step solved here by
 * Gaussian elimination instead of Cholesky) and stops at the same iteration, the first whose largest
 * step is below 1e-8. A wrong linear solve still ends near the optimum but needs other (more) steps.
 * A feature that is always 0 takes no part in the loss: its weight never leaves 0 and the other
 * coefficients are those of the fit without it.
 */
import { expect } from 'chai';
import { trainLogisticRegression } from './logistic-regression';

const logit = (p: number) => Math.log(p / (1 - p));
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

interface Rows {
  x: Float32Array;
  y: Uint8Array;
  rows: number;
  features: number;
}

/** Correlated features from a small linear congruential generator, noisy labels (never separable). */
function correlatedRows(rows: number, seed: number): Rows {
  let state = seed;
  const uniform = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const xs: number[] = [];
  const ys: number[] = [];
  for (let r = 0; r < rows; r++) {
    const a = uniform() * 2 - 1;
    const b = 0.8 * a + 0.6 * (uniform() * 2 - 1);
    const c = 0.5 * a - 0.7 * b + 0.4 * (uniform() * 2 - 1);
    xs.push(a, b, c);
    ys.push(uniform() < sigmoid(0.3 + 1.5 * a - 1 * b + 0.8 * c) ? 1 : 0);
  }
  return { x: Float32Array.from(xs), y: Uint8Array.from(ys), rows, features: 3 };
}

/** Solves A s = g by Gaussian elimination with partial pivoting (A is d x d, row-major in arrays). */
function gaussianSolve(a: number[][], g: number[]): number[] {
  const d = g.length;
  const m = a.map((row, i) => [...row, g[i]!]);
  for (let col = 0; col < d; col++) {
    let pivot = col;
    for (let r = col + 1; r < d; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let r = col + 1; r < d; r++) {
      const factor = m[r]![col]! / m[col]![col]!;
      for (let c = col; c <= d; c++) m[r]![c]! -= factor * m[col]![c]!;
    }
  }
  const s = new Array<number>(d).fill(0);
  for (let r = d - 1; r >= 0; r--) {
    let sum = m[r]![d]!;
    for (let c = r + 1; c < d; c++) sum -= m[r]![c]! * s[c]!;
    s[r] = sum / m[r]![r]!;
  }
  return s;
}

/** Newton's method on the mean log-loss + (l2 / n) / 2 x |weights|^2, from zero, as the definition reads. */
function plainNewton(data: Rows, l2: number): { coefficients: number[]; iterations: number } {
  const d = data.features + 1;
  let w = new Array<number>(d).fill(0);
  for (let iteration = 1; iteration <= 50; iteration++) {
    const g = new Array<number>(d).fill(0);
    const h = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    for (let r = 0; r < data.rows; r++) {
      const row = [1, ...Array.from(data.x.subarray(r * data.features, (r + 1) * data.features))];
      const p = sigmoid(row.reduce((z, v, k) => z + v * w[k]!, 0));
      for (let a = 0; a < d; a++) {
        g[a]! += ((p - data.y[r]!) * row[a]!) / data.rows;
        for (let b = 0; b < d; b++) h[a]![b]! += (p * (1 - p) * row[a]! * row[b]!) / data.rows;
      }
    }
    for (let a = 1; a < d; a++) {
      g[a]! += (l2 * w[a]!) / data.rows;
      h[a]![a]! += l2 / data.rows;
    }
    const step = gaussianSolve(h, g);
    w = w.map((v, k) => v - step[k]!);
    if (Math.max(...step.map(Math.abs)) < 1e-8) return { coefficients: w, iterations: iteration };
  }
  return { coefficients: w, iterations: 50 };
}

describe("logistic regression: Newton's steps", function () {
  it('three correlated features, with and without a penalty: the same coefficients as a plain Newton iteration, at the same iteration', function () {
    for (const [rows, seed, l2] of [
      [40, 7, 0],
      [40, 7, 3],
      [25, 99, 0.5],
    ] as const) {
      const data = correlatedRows(rows, seed);
      const reference = plainNewton(data, l2);
      const seen: number[] = [];
      const { coefficients } = trainLogisticRegression(data.x, data.y, data.rows, data.features, l2, (i) => seen.push(i));
      expect(reference.iterations, 'the reference converges quadratically').to.be.below(15);
      expect(seen.length, `iterations, ${rows} rows, l2 ${l2}`).to.equal(reference.iterations);
      expect(coefficients).to.have.length(4);
      for (const [k, c] of coefficients.entries()) expect(c, `coefficient ${k}`).to.be.closeTo(reference.coefficients[k]!, 1e-9);
    }
  });

  it('a feature that is always 0: its weight stays exactly 0, the others are the closed form of the fit without it', function () {
    // (x, 0) rows: x = 0: 3 of 4 up (log-odds ln 3); x = 1: 1 of 5 up (log-odds ln 1/4).
    const xs: number[] = [];
    const ys: number[] = [];
    for (const [x, y, count] of [
      [0, 1, 3],
      [0, 0, 1],
      [1, 1, 1],
      [1, 0, 4],
    ] as const)
      for (let i = 0; i < count; i++) (xs.push(x, 0), ys.push(y));
    const { coefficients } = trainLogisticRegression(Float32Array.from(xs), Uint8Array.from(ys), ys.length, 2, 0);
    expect(coefficients).to.have.length(3);
    expect(coefficients[0]).to.be.closeTo(logit(3 / 4), 1e-9);
    expect(coefficients[1]).to.be.closeTo(logit(1 / 5) - logit(3 / 4), 1e-9);
    expect(coefficients[2]).to.equal(0);
  });
});
