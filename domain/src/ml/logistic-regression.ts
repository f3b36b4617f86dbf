/**
 * Logistic regression, exact and small (issue 19: the registry's packages are about 1,000 times slower
 * here): Newton's method (iteratively reweighted least squares) on the mean log-loss plus an L2
 * penalty on the weights (not the bias), from all-zero weights, until the step is below 1e-8 or after
 * MAX_ITERATIONS. Each iteration solves the (d+1) x (d+1) Newton system by Cholesky. No randomness:
 * the same rows give the same coefficients bit for bit.
 */
export interface LogisticModel {
  /** The bias first, then one weight per feature. */
  coefficients: number[];
}

const MAX_ITERATIONS = 50;

export function trainLogisticRegression(x: Float32Array, y: Uint8Array, rows: number, features: number, l2: number, onIteration?: (iteration: number) => void): LogisticModel {
  const d = features + 1;
  const w = new Float64Array(d);
  const gradient = new Float64Array(d);
  const hessian = new Float64Array(d * d);
  const row = new Float64Array(d);
  row[0] = 1;
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    gradient.fill(0);
    hessian.fill(0);
    for (let r = 0; r < rows; r++) {
      // Stryker disable next-line EqualityOperator: equivalent, one more feature writes row[d], past the row's end (a typed array ignores a write past its end)
      for (let f = 0; f < features; f++) row[f + 1] = x[r * features + f]!;
      let z = 0;
      for (let k = 0; k < d; k++) z += w[k]! * row[k]!;
      const p = 1 / (1 + Math.exp(-z));
      const residual = p - y[r]!;
      const weight = p * (1 - p);
      // Stryker disable next-line EqualityOperator: equivalent, a = d only writes past the ends of the gradient and the Hessian (a typed array ignores a write past its end)
      for (let a = 0; a < d; a++) {
        gradient[a]! += residual * row[a]!;
        const wa = weight * row[a]!;
        for (let b = 0; b <= a; b++) hessian[a * d + b]! += wa * row[b]!;
      }
    }
    for (let a = 0; a < d; a++) {
      gradient[a] = gradient[a]! / rows + (a > 0 ? l2 * w[a]! / rows : 0);
      for (let b = 0; b <= a; b++) {
        hessian[a * d + b] = hessian[a * d + b]! / rows + (a === b && a > 0 ? l2 / rows : 0) + (a === b ? 1e-10 : 0);
      }
    }
    const step = solveCholesky(hessian, gradient, d);
    let size = 0;
    for (let k = 0; k < d; k++) {
      w[k] = w[k]! - step[k]!;
      size = Math.max(size, Math.abs(step[k]!));
    }
    onIteration?.(iteration + 1);
    // Stryker disable next-line EqualityOperator: equivalent, a step of exactly 1e-8 does not happen in floating point, and one more Newton step from there moves nothing a test can see
    if (size < 1e-8) break;
  }
  return { coefficients: Array.from(w) };
}

export function predictLogistic(model: LogisticModel, x: Float32Array, rows: number, features: number): Float64Array {
  const out = new Float64Array(rows);
  const w = model.coefficients;
  // Stryker disable next-line EqualityOperator: equivalent, r = rows only writes out[rows] (a typed array ignores a write past its end)
  for (let r = 0; r < rows; r++) {
    let z = w[0]!;
    for (let f = 0; f < features; f++) z += w[f + 1]! * x[r * features + f]!;
    out[r] = 1 / (1 + Math.exp(-z));
  }
  return out;
}

/** Solves A s = b for a symmetric positive definite A (row-major, d x d), reading its lower triangle only. */
function solveCholesky(a: Float64Array, b: Float64Array, d: number): Float64Array {
  const l = new Float64Array(d * d);
  // Stryker disable next-line EqualityOperator: equivalent, i = d reads and writes past the arrays' ends (a typed array ignores a write past its end)
  for (let i = 0; i < d; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = a[i * d + j]!;
      // Stryker disable next-line EqualityOperator: equivalent, k = j subtracts L[i][j] x L[j][j], and L[i][j] is not computed yet: 0
      for (let k = 0; k < j; k++) sum -= l[i * d + k]! * l[j * d + k]!;
      l[i * d + j] = i === j ? Math.sqrt(Math.max(sum, 1e-300)) : sum / l[j * d + j]!;
    }
  }
  const z = new Float64Array(d);
  // Stryker disable next-line EqualityOperator: equivalent, i = d writes z[d], past its end (a typed array ignores it)
  for (let i = 0; i < d; i++) {
    let sum = b[i]!;
    // Stryker disable next-line EqualityOperator: equivalent, k = i subtracts L[i][i] x z[i], and z[i] is not computed yet: 0
    for (let k = 0; k < i; k++) sum -= l[i * d + k]! * z[k]!;
    z[i] = sum / l[i * d + i]!;
  }
  const s = new Float64Array(d);
  // Stryker disable next-line ArithmeticOperator: equivalent, starting at d + 1 first writes s[d + 1] and s[d], past its end (a typed array ignores them)
  for (let i = d - 1; i >= 0; i--) {
    let sum = z[i]!;
    for (let k = i + 1; k < d; k++) sum -= l[k * d + i]! * s[k]!;
    s[i] = sum / l[i * d + i]!;
  }
  return s;
}
