/**
 * Standard normal numbers from 32-bit random words, fast enough for the simulated market (a year of
 * one coin draws about 13 million of them): `normalFromWord` inverts the normal distribution
 * function by table. One word gives one normal (no pair, no rejection), so a word's place in a
 * ChaCha block is the normal's place in the path.
 *
 * The table holds the exact quantile at 4,096 equally spaced probabilities and interpolates linearly
 * between them. Linear interpolation of the quantile is poor only near 0 and 1, where it curves
 * sharply (its error k bins from the end is about 1 / (8 k^2 |x|), whatever the bin width), so the
 * outer 16 bins on each side (probability 1/128 in all, |x| > 2.66) use a second table indexed by
 * t = sqrt(-2 ln p), in which the quantile is nearly a straight line. Worst error about 2e-4 (at
 * |x| = 2.66), far below anything a statistic of the market could see; the largest normal a word can
 * give is 6.34 (p = 2^-33).
 *
 * The tables are built once, at first use, from `normalQuantile` (Newton's method on `normalCdf`,
 * both accurate to about 1e-14 in the tails' relative terms).
 */

const SQRT_2PI = Math.sqrt(2 * Math.PI);

/** The standard normal density. */
export function normalDensity(x: number): number {
  return Math.exp(-0.5 * x * x) / SQRT_2PI;
}

/**
 * The standard normal distribution function. |x| <= 3: the series 0.5 + phi(x) (x + x^3/3 + x^5/15
 * + ...); beyond, Laplace's continued fraction for the tail, phi(x) / (|x| + 1/(|x| + 2/(|x| + ...))).
 */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  const a = Math.abs(x);
  if (a <= 3) {
    const x2 = x * x;
    let term = x;
    let sum = x;
    for (let n = 1; n < 200; n++) {
      term *= x2 / (2 * n + 1);
      sum += term;
      if (Math.abs(term) < 1e-17 * Math.abs(sum)) break;
    }
    return 0.5 + normalDensity(x) * sum;
  }
  // Stryker disable next-line EqualityOperator: equivalent, past 40 standard deviations x is not 0, so x <= 0 is x < 0.
  if (a > 40) return x < 0 ? 0 : 1;
  let fraction = a;
  for (let n = 120; n >= 1; n--) fraction = a + n / fraction;
  const tail = normalDensity(a) / fraction;
  return x < 0 ? tail : 1 - tail;
}

/** The standard normal quantile for 0 < p < 1 (a rational first guess, then Halley's method on normalCdf). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) {
    if (p === 0) return -Infinity;
    if (p === 1) return Infinity;
    throw new RangeError(`a probability is between 0 and 1, got ${p}`);
  }
  if (p > 0.5) return -normalQuantile(1 - p);
  // Abramowitz and Stegun 26.2.23 (error below 4.5e-4) as the starting point.
  const t = Math.sqrt(-2 * Math.log(p));
  let x = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t));
  for (let i = 0; i < 4; i++) {
    const e = normalCdf(x) - p;
    const u = e / normalDensity(x);
    x -= u / (1 + (x * u) / 2);
  }
  return x;
}

const MAIN_BITS = 12;
const MAIN_BINS = 1 << MAIN_BITS;
const FRACTION_BITS = 32 - MAIN_BITS;
const FRACTION_SCALE = 1 / 2 ** FRACTION_BITS;
const FRACTION_MASK = 2 ** FRACTION_BITS - 1;
/** Bins at each end left to the tail table. */
const TAIL_BINS = 16;
const TAIL_T_FROM = 3.3;
const TAIL_T_TO = 6.8;
const TAIL_STEPS = 1024;
const TAIL_STEP = (TAIL_T_TO - TAIL_T_FROM) / TAIL_STEPS;
const WORD_SCALE = 1 / 4294967296;

let mainStart: Float64Array | undefined;
let mainSlope: Float64Array | undefined;
let tailStart: Float64Array | undefined;
let tailSlope: Float64Array | undefined;

function buildTables(): void {
  const q = new Float64Array(MAIN_BINS + 1);
  for (let i = 1; i < MAIN_BINS; i++) q[i] = normalQuantile(i / MAIN_BINS);
  mainStart = new Float64Array(MAIN_BINS);
  mainSlope = new Float64Array(MAIN_BINS);
  for (let i = TAIL_BINS; i < MAIN_BINS - TAIL_BINS; i++) {
    mainStart[i] = q[i]!;
    mainSlope[i] = q[i + 1]! - q[i]!;
  }
  const t = new Float64Array(TAIL_STEPS + 1);
  for (let j = 0; j <= TAIL_STEPS; j++) {
    const tj = TAIL_T_FROM + j * TAIL_STEP;
    t[j] = normalQuantile(Math.exp(-0.5 * tj * tj));
  }
  tailStart = new Float64Array(TAIL_STEPS);
  tailSlope = new Float64Array(TAIL_STEPS);
  for (let j = 0; j < TAIL_STEPS; j++) {
    tailStart[j] = t[j]!;
    tailSlope[j] = t[j + 1]! - t[j]!;
  }
}

/**
 * Lets the tables go: the next normal builds them again, the same (mutation testing's hooks use it, so
 * that tables built under one mutant of this file serve no other).
 */
// Stryker disable next-line BlockStatement: equivalent, the tables kept are the ones a rebuild makes.
export function forgetNormalTables(): void {
  mainStart = mainSlope = tailStart = tailSlope = undefined;
}

/** The (negative) quantile of a lower-tail probability p < 1/256, from the t table. */
function lowerTail(p: number): number {
  const t = Math.sqrt(-2 * Math.log(p));
  const position = (t - TAIL_T_FROM) / TAIL_STEP;
  const j = Math.min(TAIL_STEPS - 1, Math.max(0, Math.floor(position)));
  return tailStart![j]! + (position - j) * tailSlope![j]!;
}

/** A standard normal number from a 32-bit word (taken as the probability (word + 0.5) / 2^32). */
export function normalFromWord(word: number): number {
  if (mainStart === undefined) buildTables();
  const w = word >>> 0;
  const bin = w >>> FRACTION_BITS;
  if (bin >= TAIL_BINS && bin < MAIN_BINS - TAIL_BINS) {
    return mainStart![bin]! + ((w & FRACTION_MASK) + 0.5) * FRACTION_SCALE * mainSlope![bin]!;
  }
  return bin < TAIL_BINS ? lowerTail((w + 0.5) * WORD_SCALE) : -lowerTail((4294967295 - w + 0.5) * WORD_SCALE);
}

/** The uniform number in (0, 1) of a 32-bit word. */
export function uniformFromWord(word: number): number {
  return ((word >>> 0) + 0.5) * WORD_SCALE;
}
