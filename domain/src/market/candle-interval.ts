/**
 * Which candle width a chart range is drawn with. The dashboard asks for ranges of 0.04, 0.17, 1, 7
 * and 30 days (spec section 2) and any client may ask for any range up to 365 days; every range
 * gets the narrowest width of a fixed ladder that keeps the chart at most MAX_CANDLES wide. Adjacent
 * rungs are at most 5x apart (1m to 5m) and at most 3x apart from 5m up, so a range of 40 minutes or
 * more draws at least MIN_CANDLES candles: 0.04 d -> 58 x 1m, 0.17 d -> 245 x 1m, 1 d -> 288 x 5m,
 * 7 d -> 168 x 1h, 30 d -> 180 x 4h, 365 d -> 183 x 2d. Shorter ranges than 40 minutes cannot draw 40
 * one-minute candles and get one per minute.
 */
import { z } from 'zod';

export const MIN_CANDLES = 40;
export const MAX_CANDLES = 300;
/** The longest range a chart may ask for (the market keeps at least this much history). */
export const MAX_CHART_DAYS = 365;

export interface CandleInterval {
  label: string;
  minutes: number;
}

const HOUR = 60;
const DAY = 24 * HOUR;

export const candleIntervals: readonly CandleInterval[] = [
  { label: '1m', minutes: 1 },
  { label: '5m', minutes: 5 },
  { label: '15m', minutes: 15 },
  { label: '30m', minutes: 30 },
  { label: '1h', minutes: HOUR },
  { label: '2h', minutes: 2 * HOUR },
  { label: '4h', minutes: 4 * HOUR },
  { label: '6h', minutes: 6 * HOUR },
  { label: '12h', minutes: 12 * HOUR },
  { label: '1d', minutes: DAY },
  { label: '2d', minutes: 2 * DAY },
];

/** A chart range in days: positive, at most MAX_CHART_DAYS; query strings ("7") are coerced. */
export const chartDaysSchema = z.coerce
  .number({ error: 'days must be a number' })
  .refine(Number.isFinite, 'days must be a finite number')
  .refine((d) => d > 0, 'days must be greater than 0')
  .refine((d) => d <= MAX_CHART_DAYS, `days must be at most ${MAX_CHART_DAYS}`);

/** The narrowest rung of the ladder that draws `days` in at most MAX_CANDLES candles. */
export function candleIntervalForDays(days: number): CandleInterval {
  if (!(days > 0) || !Number.isFinite(days)) throw new RangeError(`days must be a positive number, got ${days}`);
  const minutes = days * DAY;
  const fits = candleIntervals.find((interval) => Math.ceil(minutes / interval.minutes) <= MAX_CANDLES);
  return fits ?? candleIntervals[candleIntervals.length - 1]!;
}

/** How many candles of `interval` a range of `days` spans (the last one may be partial). */
export function candleCount(days: number, interval: CandleInterval): number {
  return Math.ceil((days * DAY) / interval.minutes);
}
