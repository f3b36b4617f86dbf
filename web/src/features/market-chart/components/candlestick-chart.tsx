/**
 * The candlestick chart's SVG, drawn by React from chart-geometry.ts (d3 computes, React renders).
 *
 * Kept smooth at 2,000 candles by doing the expensive part once per input:
 * - the geometry is memoised on the candles and the measured size: a new fetch, a live tick or a
 *   resize rebuild it; nothing else does;
 * - everything drawn from it (grid, axes, candles, overlays, support and resistance) is one memoised
 *   component, so moving the mouse re-renders only the crosshair and the tooltip: React does not even
 *   compare the 4,000 candle elements on hover;
 * - each overlay is a single <path>; the tooltip's candle is found by binary search over the band
 *   centres (nearestCandleIndex).
 *
 * Keyboard: the chart is focusable; the left and right arrows move the crosshair one candle, Home and
 * End go to the first and newest candle, Escape hides it.
 */
import { memo, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import { buildChartGeometry, DEFAULT_MARGINS, nearestCandleIndex, type Candle, type ChartGeometry, type ChartMargins } from '../chart-geometry';
import { formatAxisPrice, formatCompactUsd, formatPrice } from '../../../lib/number-format';
import { axisTickIndices, formatAxisTime, formatTooltipTime } from '../chart-format';

export const OVERLAY_STYLES = [
  { key: 'sma20', label: 'SMA 20', colour: '#f5a524' },
  { key: 'sma50', label: 'SMA 50', colour: '#a78bfa' },
  { key: 'ema20', label: 'EMA 20', colour: '#38bdf8' },
] as const;

/** Room on the right for price labels such as $104,250.00 and the newest close's tag. */
const MARGINS: ChartMargins = { ...DEFAULT_MARGINS, right: 84 };

interface Size {
  width: number;
  height: number;
}

/** The element's content size, following it with a ResizeObserver; the same object while it is unchanged. */
function useElementSize(ref: RefObject<HTMLElement | null>): Size | null {
  const [size, setSize] = useState<Size | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const update = (width: number, height: number) => {
      const next = { width: Math.floor(width), height: Math.floor(height) };
      setSize((previous) => (previous && previous.width === next.width && previous.height === next.height ? previous : next));
    };
    const box = element.getBoundingClientRect();
    update(box.width, box.height);
    const observer = new ResizeObserver((entries) => {
      const rect = entries[0]?.contentRect;
      if (rect) update(rect.width, rect.height);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}

export function CandlestickChart({ candles, days }: { candles: readonly Candle[]; days: number }) {
  const frameRef = useRef<HTMLDivElement>(null);
  const size = useElementSize(frameRef);
  const geometry = useMemo(() => (size && size.width > 0 && size.height > 0 ? buildChartGeometry(candles, { ...size, margins: MARGINS }) : null), [candles, size]);
  const [active, setActive] = useState<number | null>(null);
  const [keyboard, setKeyboard] = useState(false);
  const count = geometry?.candles.length ?? 0;
  // A refetch or a new live candle may shorten the series under the crosshair.
  const index = active === null || count === 0 ? null : Math.min(active, count - 1);

  function onPointerMove(event: PointerEvent<SVGSVGElement>) {
    if (!geometry) return;
    const x = event.clientX - event.currentTarget.getBoundingClientRect().left;
    const nearest = nearestCandleIndex(geometry.centres, x);
    setActive((previous) => (previous === nearest ? previous : nearest));
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (count === 0) return;
    const last = count - 1;
    const moves: Record<string, (i: number) => number> = {
      ArrowLeft: (i) => Math.max(0, i - 1),
      ArrowRight: (i) => Math.min(last, i + 1),
      Home: () => 0,
      End: () => last,
    };
    if (event.key === 'Escape') {
      setActive(null);
      return;
    }
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    setActive((previous) => move(previous === null ? last + (event.key === 'ArrowLeft' ? 1 : 0) : Math.min(previous, last)));
  }

  return (
    <div
      ref={frameRef}
      className="candle-chart"
      tabIndex={0}
      role="group"
      aria-label="Candlestick chart. Left and right arrow keys move between candles."
      data-testid="candle-chart"
      onKeyDown={onKeyDown}
      onFocus={() => {
        setKeyboard(true);
        setActive((previous) => previous ?? (count > 0 ? count - 1 : null));
      }}
      onBlur={() => {
        setKeyboard(false);
        setActive(null);
      }}
    >
      {geometry && size && (
        <svg
          width={size.width}
          height={size.height}
          className="candle-chart__svg"
          data-testid="candle-chart-svg"
          onPointerMove={onPointerMove}
          onPointerLeave={() => setActive(null)}
          aria-hidden="true"
        >
          <ChartLayers geometry={geometry} days={days} />
          {index !== null && <Crosshair geometry={geometry} index={index} />}
        </svg>
      )}
      {geometry && size && index !== null && <Tooltip geometry={geometry} index={index} width={size.width} />}
      {/* What the arrow keys select, read out by screen readers (the SVG itself is hidden from them). */}
      <p className="visually-hidden" aria-live="polite" data-testid="chart-announcement">
        {keyboard && geometry && index !== null ? describeCandle(geometry, index) : ''}
      </p>
    </div>
  );
}

/** Everything that depends only on the geometry: rendered again only when the geometry changes. */
const ChartLayers = memo(function ChartLayers({ geometry, days }: { geometry: ChartGeometry; days: number }) {
  const { plot, y, candles, overlays, levels } = geometry;
  const right = plot.x + plot.width;
  const bottom = plot.y + plot.height;
  const priceTicks = y.ticks(5);
  const tickStep = priceTicks.length > 1 ? priceTicks[1]! - priceTicks[0]! : 0;
  const timeTicks = axisTickIndices(candles.length, plot.width);
  const newest = candles.at(-1);
  return (
    <>
      <g className="candle-chart__grid">
        {priceTicks.map((price) => (
          <g key={price}>
            <line x1={plot.x} x2={right} y1={y(price)} y2={y(price)} />
            <text x={right + 6} y={y(price)} dy="0.32em" className="candle-chart__axis-label">
              {formatAxisPrice(price, tickStep)}
            </text>
          </g>
        ))}
        {timeTicks.map((i) => (
          <text key={i} x={candles[i]!.centre} y={bottom + 16} textAnchor="middle" className="candle-chart__axis-label">
            {formatAxisTime(candles[i]!.candle.time, days)}
          </text>
        ))}
      </g>
      <g data-testid="candles">
        {candles.map((c, i) => (
          <g key={i} className="candle" data-up={c.up}>
            <line x1={c.wick.x} x2={c.wick.x} y1={c.wick.y1} y2={c.wick.y2} stroke={c.colour} className="candle__wick" />
            <rect x={c.body.x} y={c.body.y} width={c.body.width} height={c.body.height} fill={c.colour} className="candle__body" />
          </g>
        ))}
      </g>
      {levels && (
        <g className="candle-chart__levels">
          <line data-testid="support-line" data-price={levels.support.price} x1={plot.x} x2={right} y1={levels.support.y} y2={levels.support.y} className="candle-chart__level candle-chart__level--support" />
          <line data-testid="resistance-line" data-price={levels.resistance.price} x1={plot.x} x2={right} y1={levels.resistance.y} y2={levels.resistance.y} className="candle-chart__level candle-chart__level--resistance" />
        </g>
      )}
      <g className="candle-chart__overlays">
        {OVERLAY_STYLES.map(({ key, colour }) => {
          const d = overlays[key];
          return d === null ? null : <path key={key} d={d} stroke={colour} data-testid={`overlay-${key}`} className="candle-chart__overlay" />;
        })}
      </g>
      {newest && (
        <g className="candle-chart__last" transform={`translate(${right}, ${y(newest.candle.close)})`}>
          <rect x={1} y={-9} width={MARGINS.right - 2} height={18} fill={newest.colour} rx={3} />
          <text x={6} dy="0.32em" data-testid="last-price">
            {formatPrice(newest.candle.close)}
          </text>
        </g>
      )}
    </>
  );
});

function describeCandle(geometry: ChartGeometry, index: number): string {
  const { candle } = geometry.candles[index]!;
  return `${formatTooltipTime(candle.time)}: open ${formatPrice(candle.open)}, high ${formatPrice(candle.high)}, low ${formatPrice(candle.low)}, close ${formatPrice(candle.close)}`;
}

function Crosshair({ geometry, index }: { geometry: ChartGeometry; index: number }) {
  const c = geometry.candles[index]!;
  const { plot } = geometry;
  return (
    <g className="candle-chart__crosshair" data-testid="crosshair" data-index={index} pointerEvents="none">
      <line x1={c.centre} x2={c.centre} y1={plot.y} y2={plot.y + plot.height} />
      <circle cx={c.centre} cy={geometry.y(c.candle.close)} r={3} fill={c.colour} />
    </g>
  );
}

function Tooltip({ geometry, index, width }: { geometry: ChartGeometry; index: number; width: number }) {
  const c = geometry.candles[index]!;
  const { candle } = c;
  const onLeft = c.centre > width / 2;
  const overlay = (key: 'sma20' | 'sma50' | 'ema20') => {
    const value = geometry.overlayValues[key][index]!;
    return Number.isNaN(value) ? '—' : formatPrice(value);
  };
  const rows: Array<[string, string, string]> = [
    ['Open', formatPrice(candle.open), 'open'],
    ['High', formatPrice(candle.high), 'high'],
    ['Low', formatPrice(candle.low), 'low'],
    ['Close', formatPrice(candle.close), 'close'],
    ['Volume', formatCompactUsd(candle.volume), 'volume'],
    ...OVERLAY_STYLES.map(({ key, label }): [string, string, string] => [label, overlay(key), key]),
  ];
  return (
    <div
      className={`candle-chart__tooltip${onLeft ? ' candle-chart__tooltip--left' : ''}`}
      style={{ left: onLeft ? c.centre - 14 : c.centre + 14, top: geometry.plot.y + 6 }}
      data-testid="chart-tooltip"
      data-index={index}
      data-time={candle.time}
    >
      <div className="candle-chart__tooltip-time" data-testid="tooltip-time">
        {formatTooltipTime(candle.time)}
      </div>
      <dl>
        {rows.map(([label, value, id]) => (
          <div key={id} className="candle-chart__tooltip-row">
            <dt>{label}</dt>
            <dd className={`num${id === 'close' ? (c.up ? ' up' : ' down') : ''}`} data-testid={`tooltip-${id}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
