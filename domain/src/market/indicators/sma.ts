/**
 * Simple moving average: the mean of the last `period` values (spec section 9: sma20 from the 20th
 * close, sma50 from the 50th). `NaN` for the first `period - 1` points.
 *
 * One pass with a running window sum. The sum is compensated: a plain running sum keeps the rounding
 * error of every value that has left the window, which shows after a huge value (a volume spike of
 * 1e15 next to volumes of 1) has passed through. Each addition and subtraction is an error-free
 * TwoSum (Knuth), branch-free, whose exact rounding error goes into `carry`; the mean is
 * (sum + carry) / period, accurate to a few ulps whatever went before. It costs about twice a plain
 * running sum and is still one pass with no allocation but the output.
 */
import { assertPeriod } from './series';

export function sma(values: Float64Array, period: number): Float64Array {
  assertPeriod('sma period', period);
  const n = values.length;
  const out = new Float64Array(n);
  let sum = 0;
  let carry = 0; // the exact rounding errors of every addition to `sum` so far
  const warm = Math.min(n, period - 1);
  for (let i = 0; i < warm; i++) {
    const x = values[i]!;
    const t = sum + x;
    const z = t - sum;
    carry += sum - (t - z) + (x - z);
    sum = t;
    out[i] = Number.NaN;
  }
  // Stryker disable next-line EqualityOperator: equivalent, `<=` adds a step at i = n whose writes are past the end (ignored); the `>=` twin (a timeout) is covered by the loop's false mutant, which stays.
  for (let i = warm; i < n; i++) {
    const x = values[i]!;
    let t = sum + x;
    let z = t - sum;
    carry += sum - (t - z) + (x - z);
    sum = t;
    out[i] = (sum + carry) / period;
    const y = -values[i - period + 1]!; // the value leaving the window
    t = sum + y;
    z = t - sum;
    carry += sum - (t - z) + (y - z);
    sum = t;
  }
  return out;
}
