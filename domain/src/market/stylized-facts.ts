/**
 * The statistics that tell a market from a random walk (Cont 2001, "Empirical properties of asset
 * returns: stylized facts and statistical issues"), over plain typed arrays: the market:stats script
 * measures the simulated market with them against the published bands (`STYLIZED_FACT_BANDS`), and
 * the market's specs use them too.
 *
 * Conventions: returns are log returns of consecutive closes; kurtosis is excess kurtosis (0 for a
 * normal distribution), from the sample's second and fourth central moments; autocorrelation at lag
 * k is the correlation of x[i] with x[i + k] over the pairs that exist.
 */

/** Log returns of consecutive values: out[i] = ln(values[i + 1] / values[i]). */
export function logReturns(values: ArrayLike<number>): Float64Array {
  const out = new Float64Array(Math.max(0, values.length - 1));
  for (let i = 0; i < out.length; i++) out[i] = Math.log(values[i + 1]! / values[i]!);
  return out;
}

/** Every `step`th value from `offset` on (e.g. hourly closes from minute closes: step 60, offset 59). */
export function everyNth(values: ArrayLike<number>, step: number, offset = 0): Float64Array {
  const out = new Float64Array(Math.max(0, Math.ceil((values.length - offset) / step)));
  for (let i = 0; i < out.length; i++) out[i] = values[offset + i * step]!;
  return out;
}

export function mean(xs: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += xs[i]!;
  return sum / xs.length;
}

export function standardDeviation(xs: ArrayLike<number>): number {
  const m = mean(xs);
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += (xs[i]! - m) ** 2;
  return Math.sqrt(sum / xs.length);
}

export function excessKurtosis(xs: ArrayLike<number>): number {
  const m = mean(xs);
  let m2 = 0;
  let m4 = 0;
  for (let i = 0; i < xs.length; i++) {
    const d2 = (xs[i]! - m) ** 2;
    m2 += d2;
    m4 += d2 * d2;
  }
  m2 /= xs.length;
  m4 /= xs.length;
  return m4 / (m2 * m2) - 3;
}

/** Pearson correlation of xs[i] and ys[i] over the first `length` pairs (default all). */
export function correlation(xs: ArrayLike<number>, ys: ArrayLike<number>, length = Math.min(xs.length, ys.length), xOffset = 0, yOffset = 0): number {
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < length; i++) {
    sx += xs[xOffset + i]!;
    sy += ys[yOffset + i]!;
  }
  const mx = sx / length;
  const my = sy / length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < length; i++) {
    const dx = xs[xOffset + i]! - mx;
    const dy = ys[yOffset + i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxy / Math.sqrt(sxx * syy);
}

export function autocorrelation(xs: ArrayLike<number>, lag: number): number {
  return correlation(xs, xs, xs.length - lag, 0, lag);
}

export function absolute(xs: ArrayLike<number>): Float64Array {
  return Float64Array.from(xs as ArrayLike<number>, Math.abs);
}

/** Annualised volatility from returns of `periodsPerYear` a year: their standard deviation times sqrt(periodsPerYear). */
export function annualisedVolatility(returns: ArrayLike<number>, periodsPerYear: number): number {
  return standardDeviation(returns) * Math.sqrt(periodsPerYear);
}

/** Mean volume per UTC hour of day (24 numbers) of 1-minute volumes starting at `firstMinuteMs`. */
export function volumeByUtcHour(volumes: ArrayLike<number>, firstMinuteMs: number): Float64Array {
  const sums = new Float64Array(24);
  const counts = new Float64Array(24);
  const firstHour = Math.floor(firstMinuteMs / 60_000 / 60);
  const firstMinuteOfHour = Math.floor(firstMinuteMs / 60_000) % 60;
  for (let i = 0; i < volumes.length; i++) {
    const hour = (firstHour + Math.floor((firstMinuteOfHour + i) / 60)) % 24;
    sums[hour] = sums[hour]! + volumes[i]!;
    counts[hour] = counts[hour]! + 1;
  }
  return sums.map((s, h) => s / counts[h]!);
}

/** Mean daily volume on Saturdays and Sundays (UTC) over that on weekdays, from 1-minute volumes starting at a UTC midnight. */
export function weekendToWeekdayVolume(volumes: ArrayLike<number>, firstMinuteMs: number): number {
  if (firstMinuteMs % 86_400_000 !== 0) throw new RangeError('the minutes must start at a UTC midnight');
  let weekend = 0;
  let weekendDays = 0;
  let weekday = 0;
  let weekdays = 0;
  const days = Math.floor(volumes.length / 1440);
  for (let d = 0; d < days; d++) {
    let sum = 0;
    for (let i = d * 1440; i < (d + 1) * 1440; i++) sum += volumes[i]!;
    const dayOfWeek = new Date(firstMinuteMs + d * 86_400_000).getUTCDay();
    if (dayOfWeek === 0 || dayOfWeek === 6) {
      weekend += sum;
      weekendDays += 1;
    } else {
      weekday += sum;
      weekdays += 1;
    }
  }
  return weekend / weekendDays / (weekday / weekdays);
}

/** A band a statistic should fall in, and where it comes from. */
export interface Band {
  min: number;
  max: number;
  source: string;
}

/**
 * The bands of issue 17 section 1, from one month of real 1-minute BTC bars, Cont (2001), Baur,
 * Hoang et al. (2019, weekday effects in crypto) and Binance Research (2019, intraday volume).
 */
export const STYLIZED_FACT_BANDS = {
  minuteKurtosis: { min: 10, max: 40, source: 'real BTC 1-minute bars: about 23; Cont 2001: 10+' },
  hourlyKurtosis: { min: 3, max: 15, source: 'Cont 2001: tails thin with aggregation' },
  minuteReturnAutocorrelation: { min: -0.05, max: 0.05, source: 'Cont 2001: no linear autocorrelation' },
  minuteAbsAutocorrelationLag1: { min: 0.2, max: 0.4, source: 'real BTC 1-minute bars: 0.33' },
  minuteAbsAutocorrelationLag60: { min: 0.1, max: Infinity, source: 'real BTC 1-minute bars: 0.18' },
  intradayVolumePeakToTrough: { min: 2, max: 4, source: 'Binance Research 2019' },
  intradayVolumePeakHour: { min: 13, max: 16, source: 'Binance Research 2019: the European/US overlap' },
  weekendToWeekdayVolume: { min: 0.5, max: 0.8, source: 'Baur et al. 2019; real about 0.62' },
  dailyCorrelationWithBtc: { min: 0.6, max: 0.9, source: 'major coins against BTC, daily returns' },
  btcAnnualVolatility: { min: 0.5, max: 0.7, source: 'BTC 2023-2025' },
} as const satisfies Record<string, Band>;

export function within(value: number, band: Band): boolean {
  return value >= band.min && value <= band.max;
}
