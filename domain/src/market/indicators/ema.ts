/**
 * Exponential moving average with smoothing k = 2 / (period + 1):
 * `ema[i] = ema[i-1] + k * (x[i] - ema[i-1])` (StockCharts' `{close - EMA(prev)} x k + EMA(prev)`),
 * computed as `(1 - k) * ema[i-1] + k * x[i]`, two points per step (see the loop).
 *
 * An EMA has to start somewhere, and the two conventions in use give different early values:
 * - `'first'` (the default, spec section 9 for ema20): seeded with the first value, so defined from the
 *   first point. Tulip Indicators and the `trading-signals` package do this.
 * - `'sma'`: seeded with the simple mean of the first `period` values, so `NaN` for the first
 *   `period - 1` points. StockCharts ChartSchool ("an SMA is used as the previous period's EMA in the
 *   first calculation"), TA-Lib and the `technicalindicators` package do this; MACD uses it here.
 * The difference decays by (1 - k) per point, so after a few hundred points the two agree to the last digits.
 */
import { assertPeriod } from './series';

export type EmaSeed = 'first' | 'sma';

export function ema(values: Float64Array, period: number, seed: EmaSeed = 'first'): Float64Array {
  assertPeriod('ema period', period);
  const n = values.length;
  const out = new Float64Array(n);
  // Stryker disable next-line ConditionalExpression: equivalent as `false`, an empty series reads and writes nothing below (a typed array ignores writes past its end) and returns the same empty array; `true` (always empty) is also the `!==` mutant's case, which stays.
  if (n === 0) return out;
  const k = 2 / (period + 1);
  let start: number; // first index computed by the recursion
  let prev: number;
  if (seed === 'first') {
    prev = values[0]!;
    out[0] = prev;
    start = 1;
  } else {
    // Stryker disable next-line ConditionalExpression: equivalent as `false`, with fewer values than the period the seed loop below writes NaN at every index there is (the sum reads a value that is not there), as fill(NaN) does; `true` (always NaN) is also the `>=` mutant's case, which stays.
    if (n < period) return out.fill(Number.NaN);
    let sum = 0;
    for (let i = 0; i < period - 1; i++) {
      sum += values[i]!;
      out[i] = Number.NaN;
    }
    sum += values[period - 1]!;
    prev = sum / period;
    out[period - 1] = prev;
    start = period;
  }
  // ema[i] = a * ema[i-1] + k * x[i] with a = 1 - k, two points per step: ema[i+1] = a² ema[i-1] +
  // (k a x[i] + k x[i+1]) depends on ema[i-1] too, so the loop-carried chain (a multiply and an add,
  // the whole cost of an EMA) is paid once per two closes. Same numbers to the last bit or two.
  const a = 1 - k;
  const aa = a * a;
  const ka = k * a;
  let i = start;
  // Stryker disable next-line ArithmeticOperator: equivalent, with i - 1 < n the extra steps write past the end (ignored) and the last value in range is the one the tail below writes.
  for (; i + 1 < n; i += 2) {
    const x0 = values[i]!;
    const x1 = values[i + 1]!;
    out[i] = a * prev + k * x0;
    prev = aa * prev + (ka * x0 + k * x1);
    out[i + 1] = prev;
  }
  // Stryker disable next-line ConditionalExpression: equivalent as `true`, at i = n the write is past the end and ignored; `false` (no tail) is also the `>=` mutant's case, which stays.
  if (i < n) out[i] = a * prev + k * values[i]!;
  return out;
}
