/**
 * Everything the candlestick chart draws, computed without a DOM (STYLE.md: d3 computes scales and
 * paths in pure, unit-tested functions; React renders the SVG). Spec sections 2 and 9:
 * - candles on a band scale, one band per candle (index, not time, so gaps in the data leave no hole);
 *   the body is 70% of the band but at least 3 px wide and at least 1 px high; the wick runs from
 *   high to low through the band's centre; teal #26a69a when close >= open, else red #ef5350;
 * - overlays sma20, sma50 and ema20 over the closes, with the domain's indicators (the same code the
 *   server uses): sma20 from the 20th candle, sma50 from the 50th, ema20 (seeded with the first close)
 *   from the first. Points not defined yet are skipped, so a line starts where its average does;
 * - support and resistance 10 percent inside the high-low range: low + 10% and high - 10% of it;
 * - the tooltip's candle: the nearest band centre to the mouse, by binary search.
 *
 * The y domain is the lowest low to the highest high, padded by 5% of that range on each side so
 * wicks do not touch the frame (a flat series gets 1% of its price instead; every price is positive).
 * The averages are means of closes, so they always fall inside it.
 *
 * Cost: one pass over the candles for the extremes and the closes, one to place them, and one per
 * overlay (the indicators and d3's line generator are single passes), so linear in the candle count;
 * the unit spec counts the reads of each candle's fields to hold that at 2,000 candles.
 */
import { bisectCenter, line, scaleBand, scaleLinear, type ScaleBand, type ScaleLinear } from 'd3';
import { ema } from '@papertrade/domain/market/indicators/ema';
import { sma } from '@papertrade/domain/market/indicators/sma';
import type { OhlcResponse } from '@papertrade/domain/market/contracts';

/** What the chart draws of a candle: the server's timestamp and timeLabel are not needed (the chart formats time itself, and candles built from history or live ticks have neither). */
export type Candle = Omit<OhlcResponse['candles'][number], 'timestamp' | 'timeLabel'>;

export const UP_COLOUR = '#26a69a';
export const DOWN_COLOUR = '#ef5350';
export const BODY_WIDTH_OF_BAND = 0.7;
export const MIN_BODY_WIDTH_PX = 3;
export const MIN_BODY_HEIGHT_PX = 1;
/** Support and resistance sit this fraction of the high-low range inside it. */
export const LEVEL_INSET_OF_RANGE = 0.1;
/** Room above the highest high and below the lowest low, as a fraction of the range. */
export const Y_PADDING_OF_RANGE = 0.05;
export const OVERLAY_PERIODS = { sma20: 20, sma50: 50, ema20: 20 } as const;

export interface ChartMargins {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** Room for a price axis on the right and a time axis below. */
export const DEFAULT_MARGINS: ChartMargins = { top: 10, right: 60, bottom: 24, left: 10 };

export interface ChartSize {
  width: number;
  height: number;
  margins?: ChartMargins;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface CandleGeometry {
  candle: Candle;
  /** Left edge of the candle's band. */
  x: number;
  /** Centre of the band: where the wick and the overlays' points are. */
  centre: number;
  body: Rect;
  /** The wick, a vertical line at `centre` from the high (`y1`) to the low (`y2`). */
  wick: { x: number; y1: number; y2: number };
  up: boolean;
  colour: typeof UP_COLOUR | typeof DOWN_COLOUR;
}

export interface PriceLevel {
  price: number;
  y: number;
}

export interface ChartGeometry {
  x: ScaleBand<number>;
  y: ScaleLinear<number, number>;
  /** The plot area inside the margins. */
  plot: Rect;
  candles: CandleGeometry[];
  /** Band centres, ascending, index for index with `candles`: what the tooltip searches. */
  centres: Float64Array;
  /** SVG path data of each overlay; null when none of its points is defined yet. */
  overlays: { sma20: string | null; sma50: string | null; ema20: string | null };
  /** Each overlay's value per candle (NaN before it is defined), index for index: what the tooltip reads. */
  overlayValues: { sma20: Float64Array; sma50: Float64Array; ema20: Float64Array };
  /** Null without candles. */
  levels: { support: PriceLevel; resistance: PriceLevel } | null;
}

/** The chart for `candles` (oldest first) in a `width` x `height` SVG. */
export function buildChartGeometry(candles: readonly Candle[], size: ChartSize): ChartGeometry {
  const margins = size.margins ?? DEFAULT_MARGINS;
  const plot: Rect = {
    x: margins.left,
    y: margins.top,
    width: Math.max(0, size.width - margins.left - margins.right),
    height: Math.max(0, size.height - margins.top - margins.bottom),
  };
  const { closes, low, high } = scan(candles);
  const indices = Array.from(closes, (_, i) => i);
  const x = scaleBand<number>()
    .domain(indices)
    .range([plot.x, plot.x + plot.width]);
  const y = scaleLinear()
    .domain(paddedDomain(low, high))
    .range([plot.y + plot.height, plot.y]);

  const geometry = placeCandles(candles, x, y);
  const path = overlayPath(indices, geometry.centres, y);
  const overlayValues = {
    sma20: sma(closes, OVERLAY_PERIODS.sma20),
    sma50: sma(closes, OVERLAY_PERIODS.sma50),
    ema20: ema(closes, OVERLAY_PERIODS.ema20, 'first'),
  };
  return {
    x,
    y,
    plot,
    candles: geometry.candles,
    centres: geometry.centres,
    overlays: { sma20: path(overlayValues.sma20), sma50: path(overlayValues.sma50), ema20: path(overlayValues.ema20) },
    overlayValues,
    levels: candles.length === 0 ? null : supportAndResistance(low, high, y),
  };
}

/** Support at low + 10% of the range, resistance at high - 10% of it. */
export function supportAndResistance(
  low: number,
  high: number,
  y: (price: number) => number,
): { support: PriceLevel; resistance: PriceLevel } {
  const inset = (high - low) * LEVEL_INSET_OF_RANGE;
  const support = low + inset;
  const resistance = high - inset;
  return { support: { price: support, y: y(support) }, resistance: { price: resistance, y: y(resistance) } };
}

/**
 * The index of the candle whose band centre is nearest to `mouseX` (d3's `bisectCenter`: the later
 * of two equally near), the first or last candle beyond either end; -1 without candles.
 */
export function nearestCandleIndex(centres: ArrayLike<number>, mouseX: number): number {
  if (centres.length === 0 || Number.isNaN(mouseX)) return -1;
  return bisectCenter(centres, mouseX);
}

/** The candle under the mouse for the tooltip, or null without candles. */
export function candleAt(geometry: ChartGeometry, mouseX: number): CandleGeometry | null {
  return geometry.candles[nearestCandleIndex(geometry.centres, mouseX)] ?? null;
}

/** One pass: the closes for the overlays, the lowest low and the highest high for the y domain. */
function scan(candles: readonly Candle[]): { closes: Float64Array; low: number; high: number } {
  const closes = new Float64Array(candles.length);
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < candles.length; i++) {
    const c = candles[i]!;
    closes[i] = c.close;
    low = Math.min(low, c.low);
    high = Math.max(high, c.high);
  }
  return { closes, low, high };
}

function paddedDomain(low: number, high: number): [number, number] {
  if (!Number.isFinite(low) || !Number.isFinite(high)) return [0, 1]; // no candles: any domain will do
  const range = high - low;
  const pad = range > 0 ? range * Y_PADDING_OF_RANGE : Math.abs(high) * 0.01 || 1;
  return [low - pad, high + pad];
}

function placeCandles(
  candles: readonly Candle[],
  x: ScaleBand<number>,
  y: ScaleLinear<number, number>,
): { candles: CandleGeometry[]; centres: Float64Array } {
  const band = x.bandwidth();
  const bodyWidth = Math.max(MIN_BODY_WIDTH_PX, band * BODY_WIDTH_OF_BAND);
  const out = new Array<CandleGeometry>(candles.length);
  const centres = new Float64Array(candles.length);
  for (let i = 0; i < candles.length; i++) {
    const candle = candles[i]!;
    const { open, close, high, low } = candle;
    const left = x(i)!;
    const centre = left + band / 2;
    const up = close >= open;
    const yOpen = y(open);
    const yClose = y(close);
    centres[i] = centre;
    out[i] = {
      candle,
      x: left,
      centre,
      body: {
        x: centre - bodyWidth / 2,
        y: Math.min(yOpen, yClose),
        width: bodyWidth,
        height: Math.max(MIN_BODY_HEIGHT_PX, Math.abs(yOpen - yClose)),
      },
      wick: { x: centre, y1: y(high), y2: y(low) },
      up,
      colour: up ? UP_COLOUR : DOWN_COLOUR,
    };
  }
  return { candles: out, centres };
}

/** A path over the defined (non-NaN) points of `series`, one per candle at its band centre. */
function overlayPath(
  indices: readonly number[],
  centres: Float64Array,
  y: ScaleLinear<number, number>,
): (series: Float64Array) => string | null {
  return (series) =>
    line<number>()
      .defined((i) => !Number.isNaN(series[i]!))
      .x((i) => centres[i]!)
      .y((i) => y(series[i]!))(indices);
}
