/**
 * The exact logistic regression (the AI Models screen's "logistic_regression"), checked against what
 * the method promises rather than against figures it printed: with one binary feature and no penalty
 * the fit is the closed form (the bias is the log-odds of the label where the feature is 0, the weight
 * the difference of the log-odds); with more features and an L2 penalty the fitted coefficients make
 * the penalised loss's gradient vanish (the penalty on the weights, never on the bias); predictions
 * are the logistic function of the bias plus the weighted features; the same rows give the same
 * coefficients bit for bit.
 */
import { expect } from 'chai';
import { predictLogistic, trainLogisticRegression } from './logistic-regression';

const logit = (p: number) => Math.log(p / (1 - p));
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Rows of (x, y): `count` copies of each. */
function rows(...groups: Array<[x: number[], y: number, count: number]>) {
  const features = groups[0]![0].length;
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [x, y, count] of groups) for (let i = 0; i < count; i++) (xs.push(...x), ys.push(y));
  return { x: Float32Array.from(xs), y: Uint8Array.from(ys), rows: ys.length, features };
}

/** The gradient of the mean log-loss plus (l2 / n) / 2 x |weights|^2 at `w` (bias first). */
function gradientAt(w: number[], data: ReturnType<typeof rows>, l2: number): number[] {
  const g = new Array<number>(w.length).fill(0);
  for (let r = 0; r < data.rows; r++) {
    let z = w[0]!;
    for (let f = 0; f < data.features; f++) z += w[f + 1]! * data.x[r * data.features + f]!;
    const residual = sigmoid(z) - data.y[r]!;
    g[0]! += residual;
    for (let f = 0; f < data.features; f++) g[f + 1]! += residual * data.x[r * data.features + f]!;
  }
  return g.map((v, k) => v / data.rows + (k > 0 ? (l2 * w[k]!) / data.rows : 0));
}

describe('logistic regression (exact)', function () {
  it('one binary feature, no penalty: the closed form (bias = log-odds at 0, weight = the difference of the log-odds)', function () {
    // x = 0: 3 of 4 up (log-odds ln 3); x = 1: 1 of 5 up (log-odds ln 1/4).
    const data = rows([[0], 1, 3], [[0], 0, 1], [[1], 1, 1], [[1], 0, 4]);
    const { coefficients } = trainLogisticRegression(data.x, data.y, data.rows, data.features, 0);
    expect(coefficients).to.have.length(2);
    expect(coefficients[0]).to.be.closeTo(logit(3 / 4), 1e-9);
    expect(coefficients[1]).to.be.closeTo(logit(1 / 5) - logit(3 / 4), 1e-9);
    const p = predictLogistic({ coefficients }, Float32Array.from([0, 1]), 2, 1);
    expect(p[0]).to.be.closeTo(0.75, 1e-9);
    expect(p[1]).to.be.closeTo(0.2, 1e-9);
  });

  it('no feature at all: the bias is the log-odds of the labels', function () {
    const data = { x: new Float32Array(0), y: Uint8Array.from([1, 1, 0, 1, 0, 1, 1, 1]), rows: 8, features: 0 };
    expect(trainLogisticRegression(data.x, data.y, data.rows, 0, 5).coefficients[0]).to.be.closeTo(logit(6 / 8), 1e-9);
  });

  it('three features with an L2 penalty: the gradient of the penalised loss vanishes, the penalty on the weights only, and it shrinks them', function () {
    const data = rows([[1, 0.5, -1], 1, 3], [[0.2, -1, 2], 0, 2], [[-1, 1, 0.5], 1, 2], [[0.5, 0.5, 0.5], 0, 3], [[-0.3, -0.7, 1], 0, 1], [[2, -1, -1], 1, 1]);
    for (const l2 of [0, 1, 10]) {
      const { coefficients } = trainLogisticRegression(data.x, data.y, data.rows, data.features, l2);
      for (const [k, g] of gradientAt(coefficients, data, l2).entries()) expect(Math.abs(g), `l2 ${l2}, coefficient ${k}`).to.be.below(1e-9);
    }
    const weights = (l2: number) => trainLogisticRegression(data.x, data.y, data.rows, data.features, l2).coefficients.slice(1);
    const norm = (w: number[]) => Math.hypot(...w);
    expect(norm(weights(10))).to.be.below(norm(weights(1)));
    expect(norm(weights(1))).to.be.below(norm(weights(0)));
    // The same rows give the same coefficients, bit for bit.
    expect(trainLogisticRegression(data.x, data.y, data.rows, data.features, 1).coefficients).to.deep.equal(trainLogisticRegression(data.x, data.y, data.rows, data.features, 1).coefficients);
  });

  it('stops when the step is below 1e-8: a handful of iterations, each reported; at most 50', function () {
    const data = rows([[0], 1, 3], [[0], 0, 1], [[1], 1, 1], [[1], 0, 4]);
    const seen: number[] = [];
    trainLogisticRegression(data.x, data.y, data.rows, data.features, 0, (i) => seen.push(i));
    expect(seen[0]).to.equal(1);
    expect(seen).to.deep.equal(Array.from({ length: seen.length }, (_, i) => i + 1));
    expect(seen.length).to.be.within(3, 15);
    // Separable data never converges (the weight grows without end): it stops after 50 iterations.
    const separable = rows([[0], 0, 3], [[1], 1, 3]);
    const capped: number[] = [];
    trainLogisticRegression(separable.x, separable.y, separable.rows, 1, 0, (i) => capped.push(i));
    expect(capped.at(-1)).to.equal(50);
  });

  it('predictions are the logistic function of the bias plus the weighted features', function () {
    const model = { coefficients: [0.5, -1, 2] };
    const x = Float32Array.from([1, 1, 0, -0.5, 2, 0.25]);
    const p = predictLogistic(model, x, 3, 2);
    expect(Array.from(p)).to.deep.equal([sigmoid(0.5 - 1 + 2), sigmoid(0.5 + 0 - 1), sigmoid(0.5 - 2 + 0.5)]);
  });
});
