/**
 * A candle's time as the spec's Candle names it (dashboard-and-sign-in.md section 3: "timestamp, time
 * label"): `timestamp` is the open time in ms since the Unix epoch (the same number as `time`, which
 * older clients read), `timeLabel` that moment written for a chart axis or tooltip, in UTC so every
 * client and server agree: "Mar 4, 14:05" for candles narrower than a day, "Mar 4, 2026" from a day up.
 * Built by hand rather than with Intl: a chart answer holds up to 300 candles, and this runs per candle.
 */
import type { Candle } from './coins';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const DAY_MINUTES = 1440;
const two = (n: number) => (n < 10 ? `0${n}` : String(n));

export function candleTimeLabel(timeMs: number, intervalMinutes: number): string {
  const d = new Date(timeMs);
  const date = `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
  return intervalMinutes >= DAY_MINUTES ? `${date}, ${d.getUTCFullYear()}` : `${date}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}

export interface OhlcCandle extends Candle {
  /** The open time, ms since the Unix epoch (= time). */
  timestamp: number;
  /** The open time in UTC, e.g. "Mar 4, 14:05" (or "Mar 4, 2026" for candles of a day or more). */
  timeLabel: string;
}

export function toOhlcCandle(candle: Candle, intervalMinutes: number): OhlcCandle {
  return { ...candle, timestamp: candle.time, timeLabel: candleTimeLabel(candle.time, intervalMinutes) };
}
