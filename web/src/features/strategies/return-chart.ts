/**
 * The cumulative-return charts (Performance dialog: one strategy; Analytics: every strategy's curve on
 * shared axes), computed without a DOM (STYLE.md: d3 computes scales and paths in pure, unit-tested
 * functions; React renders the SVG).
 *
 * - x: time (each point at its round trip's exit), a UTC time scale over the first to the last point
 *   of every series; a single instant is widened by an hour each side so it is not a zero-width domain.
 * - y: cumulative return in percent, always including 0 (the line that means "no gain"), padded by 10 %
 *   of the range; a curve starts at 0 at its first round trip's time (before any trade nothing was won).
 * - ticks: d3's nice ticks, 4 on y, 5 on x (days for spans of two days or more, else times, UTC).
 */
import { extent, line, scaleLinear, scaleUtc } from 'd3';

export interface ReturnPoint {
  date: string;
  cumulativeReturn: number;
}

export interface ChartBox {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
}

export interface ReturnChart {
  /** One SVG path per series (empty string for a series without points). */
  paths: string[];
  /** The y of the 0 % line. */
  zeroY: number;
  /** `anchor`: how the label sits on its tick ('end' near the right edge, so it is not cut off). */
  xTicks: Array<{ x: number; label: string; anchor: 'middle' | 'end' }>;
  yTicks: Array<{ y: number; label: string }>;
  /** The last point of each series (for its end label), or null. */
  ends: Array<{ x: number; y: number; value: number } | null>;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const month = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const clock = new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC' });

/** Tick labels: the day for spans of two days or more, else the time of day (UTC). */
export function tickLabel(time: Date, spanMs: number): string {
  return spanMs >= 2 * DAY_MS ? month.format(time) : clock.format(time);
}

/** The points of a series with the 0 % start at its first point's time. */
export function withOrigin(points: readonly ReturnPoint[]): Array<{ t: number; v: number }> {
  if (points.length === 0) return [];
  const first = Date.parse(points[0]!.date);
  return [{ t: first, v: 0 }, ...points.map((p) => ({ t: Date.parse(p.date), v: p.cumulativeReturn }))];
}

export function buildReturnChart(series: ReadonlyArray<readonly ReturnPoint[]>, box: ChartBox): ReturnChart {
  const { width, height, margin } = box;
  const all = series.map(withOrigin);
  const flat = all.flat();
  const [t0, t1] = extent(flat, (p) => p.t) as [number | undefined, number | undefined];
  const start = t0 ?? 0;
  const end = t1 ?? 0;
  const x = scaleUtc()
    .domain(start === end ? [start - HOUR_MS, end + HOUR_MS] : [start, end])
    .range([margin.left, width - margin.right]);
  const low = Math.min(0, ...flat.map((p) => p.v));
  const high = Math.max(0, ...flat.map((p) => p.v));
  const pad = (high - low || 1) * 0.1;
  const y = scaleLinear()
    .domain([low - pad, high + pad])
    .nice(4)
    .range([height - margin.bottom, margin.top]);
  const path = line<{ t: number; v: number }>()
    .x((p) => x(p.t))
    .y((p) => y(p.v));
  return {
    paths: all.map((points) => (points.length > 0 ? (path(points) ?? '') : '')),
    zeroY: y(0),
    xTicks: x.ticks(5).map((d) => ({ x: x(d), label: tickLabel(d, x.domain()[1]!.getTime() - x.domain()[0]!.getTime()), anchor: x(d) > width - margin.right - 24 ? 'end' : 'middle' })),
    yTicks: y.ticks(4).map((v) => ({ y: y(v), label: `${v}%` })),
    ends: all.map((points) => {
      const last = points[points.length - 1];
      return last ? { x: x(last.t), y: y(last.v), value: last.v } : null;
    }),
  };
}
