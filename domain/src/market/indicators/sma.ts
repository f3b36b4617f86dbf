/**
 * Simple moving average: the mean of the last `period` values (spec section 9: sma20 from the 20th
 * close, sma50 from the 50th). `NaN` for the first `period - 1` points.
 *
 * One pass with a running window sum. The sum is compensated (Neumaier): a plain running sum keeps the
 * rounding error of every value that has left the window, which shows after a huge value (a volume
 * spike of 1e15 next to volumes of 1) has passed through; the compensation term carries those lost
 * low-order bits, so the mean stays accurate to a few ulps whatever went before.
 */
import { assertPeriod } from './series';

export function sma(values: Float64Array, period: number): Float64Array {
  assertPeriod('sma period', period);
  const n = values.length;
  const out = new Float64Array(n);
  let sum = 0;
  let carry = 0; // Neumaier compensation: what the rounding of `sum` has dropped so far
  const warm = Math.min(n, period - 1);
  for (let i = 0; i < warm; i++) {
    const x = values[i]!;
    const t = sum + x;
    carry += Math.abs(sum) >= Math.abs(x) ? sum - t + x : x - t + sum;
    sum = t;
    out[i] = Number.NaN;
  }
  for (let i = warm; i < n; i++) {
    const x = values[i]!;
    let t = sum + x;
    carry += Math.abs(sum) >= Math.abs(x) ? sum - t + x : x - t + sum;
    sum = t;
    out[i] = (sum + carry) / period;
    const old = -values[i - period + 1]!;
    t = sum + old;
    carry += Math.abs(sum) >= Math.abs(old) ? sum - t + old : old - t + sum;
    sum = t;
  }
  return out;
}
