/**
 * The backtest's equity and drawdown chart, computed without a DOM (STYLE.md: d3 computes scales and
 * paths in pure, unit-tested functions; React renders the SVG):
 * - two plots over one time axis: the equity curve above (about two thirds of the height) and the
 *   drawdown below it, drawn downward from 0 as a filled area (drawdown is a positive fraction: 0.12
 *   is 12 % below the running peak);
 * - the equity's y domain is its lowest to highest value padded by 5 % of that range (a flat curve
 *   gets 1 % of its value), and always holds the starting capital, whose level is drawn as a dashed
 *   reference line; the drawdown's domain is 0 to its deepest point (at least 1 %, so a curve that
 *   never fell draws a flat line at the top, not a divide by zero);
 * - time ticks and value ticks from d3's `ticks` (round dates and round dollar amounts);
 * - the point under the mouse or the keyboard's cursor: the nearest time, by binary search.
 * The same function draws the walk-forward's stitched out-of-sample curve, which has no drawdown.
 * Times are epoch milliseconds, ascending.
 */
import { area, bisectCenter, line, scaleLinear, scaleUtc, type ScaleLinear, type ScaleTime } from 'd3';

export interface EquityPoint {
  time: number;
  equity: number;
}

export interface DrawdownPoint {
  time: number;
  drawdown: number;
}

export interface PlotRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface EquityChartSize {
  width: number;
  height: number;
}

export const MARGINS = { top: 10, right: 76, bottom: 24, left: 10 } as const;
/** The equity plot's share of the height when a drawdown is drawn; the gap between the two plots. */
export const EQUITY_SHARE = 0.68;
export const PLOT_GAP_PX = 18;
export const Y_PADDING_OF_RANGE = 0.05;
/** The drawdown axis never spans less than this (a curve that never fell). */
export const MIN_DRAWDOWN_DOMAIN = 0.01;

export interface Tick<T> {
  value: T;
  /** Pixel position along its axis. */
  at: number;
}

export interface EquityChartGeometry {
  x: ScaleTime<number, number>;
  equityY: ScaleLinear<number, number>;
  equityPlot: PlotRect;
  equityPath: string | null;
  /** The starting capital's level (null when no reference is given). */
  reference: { value: number; y: number } | null;
  drawdown: { y: ScaleLinear<number, number>; plot: PlotRect; areaPath: string | null; linePath: string | null; ticks: Tick<number>[] } | null;
  timeTicks: Tick<Date>[];
  equityTicks: Tick<number>[];
  /** Times of the equity points, ascending: what the cursor searches. */
  times: Float64Array;
}

export function buildEquityChartGeometry(
  equity: readonly EquityPoint[],
  drawdown: readonly DrawdownPoint[] | null,
  size: EquityChartSize,
  reference: number | null = null,
): EquityChartGeometry {
  const inner = { x: MARGINS.left, y: MARGINS.top, width: Math.max(0, size.width - MARGINS.left - MARGINS.right), height: Math.max(0, size.height - MARGINS.top - MARGINS.bottom) };
  const withDrawdown = drawdown !== null && drawdown.length > 0;
  const equityHeight = withDrawdown ? Math.max(0, (inner.height - PLOT_GAP_PX) * EQUITY_SHARE) : inner.height;
  const equityPlot: PlotRect = { x: inner.x, y: inner.y, width: inner.width, height: equityHeight };

  const times = Float64Array.from(equity, (p) => p.time);
  let first = times.length > 0 ? times[0]! : 0;
  let last = times.length > 0 ? times[times.length - 1]! : 1;
  if (withDrawdown) {
    first = Math.min(first, drawdown[0]!.time);
    last = Math.max(last, drawdown[drawdown.length - 1]!.time);
  }
  if (last <= first) last = first + 1;
  const x = scaleUtc()
    .domain([new Date(first), new Date(last)])
    .range([inner.x, inner.x + inner.width]);

  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (const p of equity) {
    low = Math.min(low, p.equity);
    high = Math.max(high, p.equity);
  }
  if (reference !== null && Number.isFinite(reference)) {
    low = Math.min(low, reference);
    high = Math.max(high, reference);
  }
  const equityY = scaleLinear()
    .domain(paddedDomain(low, high))
    .range([equityPlot.y + equityPlot.height, equityPlot.y]);
  const equityPath =
    equity.length === 0
      ? null
      : line<EquityPoint>()
          .x((p) => x(p.time))
          .y((p) => equityY(p.equity))(equity);

  let drawdownPart: EquityChartGeometry['drawdown'] = null;
  if (withDrawdown) {
    const top = inner.y + equityHeight + PLOT_GAP_PX;
    const plot: PlotRect = { x: inner.x, y: top, width: inner.width, height: Math.max(0, inner.y + inner.height - top) };
    let deepest = 0;
    for (const p of drawdown) deepest = Math.max(deepest, p.drawdown);
    const y = scaleLinear()
      .domain([0, Math.max(MIN_DRAWDOWN_DOMAIN, deepest)])
      .range([plot.y, plot.y + plot.height]);
    drawdownPart = {
      y,
      plot,
      areaPath: area<DrawdownPoint>()
        .x((p) => x(p.time))
        .y0(plot.y)
        .y1((p) => y(p.drawdown))(drawdown),
      linePath: line<DrawdownPoint>()
        .x((p) => x(p.time))
        .y((p) => y(p.drawdown))(drawdown),
      ticks: y.ticks(3).map((value) => ({ value, at: y(value) })),
    };
  }

  return {
    x,
    equityY,
    equityPlot,
    equityPath,
    reference: reference !== null && Number.isFinite(reference) ? { value: reference, y: equityY(reference) } : null,
    drawdown: drawdownPart,
    timeTicks: times.length === 0 ? [] : x.ticks(Math.max(2, Math.floor(inner.width / 120))).map((value) => ({ value, at: x(value) })),
    equityTicks: equity.length === 0 ? [] : equityY.ticks(Math.max(2, Math.floor(equityHeight / 50))).map((value) => ({ value, at: equityY(value) })),
    times,
  };
}

/** The index of the equity point nearest in time to the pixel `px`; -1 without points. */
const DAY_MS = 86_400_000;
const dayLabel = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const hourLabel = new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC' });

/**
 * The time axis's labels (UTC): the day alone when the ticks are a day or more apart; within a day,
 * the day at midnight ticks and the hour between (as d3's multi-scale format does), so one day is
 * never labelled twice in a row.
 */
export function timeTickLabels(ticks: readonly Tick<Date>[]): string[] {
  const step = ticks.length > 1 ? ticks[1]!.value.getTime() - ticks[0]!.value.getTime() : DAY_MS;
  return ticks.map(({ value }) => (step >= DAY_MS || value.getTime() % DAY_MS === 0 ? dayLabel.format(value) : hourLabel.format(value)));
}

export function nearestPointIndex(geometry: EquityChartGeometry, px: number): number {
  if (geometry.times.length === 0 || Number.isNaN(px)) return -1;
  return bisectCenter(geometry.times, geometry.x.invert(px).getTime());
}

/** The drawdown at the time of an equity point: the last drawdown point at or before it (0 before any). */
export function drawdownAt(drawdown: readonly DrawdownPoint[], time: number): number {
  let lo = 0;
  let hi = drawdown.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (drawdown[mid]!.time <= time) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? 0 : drawdown[lo - 1]!.drawdown;
}

function paddedDomain(low: number, high: number): [number, number] {
  if (!Number.isFinite(low) || !Number.isFinite(high)) return [0, 1];
  const range = high - low;
  const pad = range > 0 ? range * Y_PADDING_OF_RANGE : Math.abs(high) * 0.01 || 1;
  return [low - pad, high + pad];
}
