/**
 * The equity and drawdown chart's SVG, drawn by React from equity-chart-geometry.ts (d3 computes,
 * React renders). The curves come at most 1,000 points each (the server downsamples), so the static
 * layers are one memoised component and moving the cursor re-renders only the cursor and its label.
 *
 * Keyboard: the chart is focusable; the left and right arrows move the cursor one point, Home and End
 * go to the first and the last, Escape hides it; what it points at is read out (a live region).
 */
import { memo, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import { formatPercent, formatUsd } from '../../../lib/number-format';
import { buildEquityChartGeometry, drawdownAt, nearestPointIndex, timeTickLabels, type DrawdownPoint, type EquityChartGeometry, type EquityPoint } from '../equity-chart-geometry';
import { percentOfFraction } from '../backtest-texts';

interface Size {
  width: number;
  height: number;
}

function useElementWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    setWidth(Math.floor(element.getBoundingClientRect().width));
    const observer = new ResizeObserver((entries) => {
      const rect = entries[0]?.contentRect;
      if (rect) setWidth(Math.floor(rect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

const fullFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC' });

export function EquityChart({
  equity,
  drawdown,
  reference,
  label,
  height = 320,
  testId = 'equity-chart',
}: {
  equity: readonly EquityPoint[];
  drawdown: readonly DrawdownPoint[] | null;
  reference: number | null;
  label: string;
  height?: number;
  testId?: string;
}) {
  const frameRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(frameRef);
  const size: Size | null = width && width > 0 ? { width, height } : null;
  const geometry = useMemo(() => (width && width > 0 ? buildEquityChartGeometry(equity, drawdown, { width, height }, reference) : null), [equity, drawdown, reference, width, height]);
  const [active, setActive] = useState<number | null>(null);
  const [keyboard, setKeyboard] = useState(false);
  const count = equity.length;
  const index = active === null || count === 0 ? null : Math.min(active, count - 1);

  function onPointerMove(event: PointerEvent<SVGSVGElement>) {
    if (!geometry) return;
    const nearest = nearestPointIndex(geometry, event.clientX - event.currentTarget.getBoundingClientRect().left);
    setActive((previous) => (previous === nearest ? previous : nearest));
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (count === 0) return;
    const last = count - 1;
    if (event.key === 'Escape') {
      setActive(null);
      return;
    }
    const moves: Record<string, (i: number) => number> = {
      ArrowLeft: (i) => Math.max(0, i - 1),
      ArrowRight: (i) => Math.min(last, i + 1),
      Home: () => 0,
      End: () => last,
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    setActive((previous) => move(previous ?? last));
  }

  const describe = (i: number) => {
    const point = equity[i]!;
    const dd = drawdown ? `, drawdown ${percentOfFraction(drawdownAt(drawdown, point.time))}` : '';
    return `${fullFormat.format(point.time)} UTC: equity ${formatUsd(point.equity)}${dd}`;
  };

  return (
    <div
      ref={frameRef}
      className="bt-chart"
      style={{ height }}
      tabIndex={0}
      role="group"
      aria-label={`${label}. Left and right arrow keys move along the curve.`}
      data-testid={testId}
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
        <svg width={size.width} height={size.height} aria-hidden="true" onPointerMove={onPointerMove} onPointerLeave={() => setActive(null)}>
          <ChartLayers geometry={geometry} />
          {index !== null && <Cursor geometry={geometry} point={equity[index]!} />}
        </svg>
      )}
      {geometry && index !== null && (
        <div className="bt-chart__tooltip" data-testid={`${testId}-tooltip`} style={{ left: Math.min(Math.max(8, geometry.x(equity[index]!.time) + 12), (size?.width ?? 0) - 200) }}>
          {describe(index)}
        </div>
      )}
      <p className="visually-hidden" aria-live="polite">
        {keyboard && index !== null ? describe(index) : ''}
      </p>
    </div>
  );
}

const ChartLayers = memo(function ChartLayers({ geometry }: { geometry: EquityChartGeometry }) {
  const { equityPlot, equityPath, reference, drawdown, timeTicks, equityTicks } = geometry;
  const right = equityPlot.x + equityPlot.width;
  const bottom = drawdown ? drawdown.plot.y + drawdown.plot.height : equityPlot.y + equityPlot.height;
  const timeLabels = timeTickLabels(timeTicks);
  return (
    <>
      <g className="bt-chart__grid">
        {equityTicks.map((t) => (
          <g key={`e${t.value}`}>
            <line x1={equityPlot.x} x2={right} y1={t.at} y2={t.at} />
            <text x={right + 6} y={t.at} dy="0.32em" className="bt-chart__axis-label">
              {formatUsd(t.value).replace(/\.00$/, '')}
            </text>
          </g>
        ))}
        {drawdown?.ticks.map((t) => (
          <g key={`d${t.value}`}>
            <line x1={drawdown.plot.x} x2={right} y1={t.at} y2={t.at} />
            <text x={right + 6} y={t.at} dy="0.32em" className="bt-chart__axis-label">
              {t.value === 0 ? '0%' : `-${formatPercent(t.value * 100, t.value * 100 < 1 ? 1 : 0)}`}
            </text>
          </g>
        ))}
        {timeTicks.map((t, i) => (
          <text key={t.value.getTime()} x={t.at} y={bottom + 16} textAnchor="middle" className="bt-chart__axis-label">
            {timeLabels[i]}
          </text>
        ))}
      </g>
      {reference && <line className="bt-chart__reference" data-testid="equity-reference" x1={equityPlot.x} x2={right} y1={reference.y} y2={reference.y} />}
      {equityPath && <path className="bt-chart__equity" data-testid="equity-path" d={equityPath} />}
      {drawdown && (
        <g data-testid="drawdown">
          <text x={drawdown.plot.x + 4} y={drawdown.plot.y + drawdown.plot.height - 4} className="bt-chart__plot-label">
            Drawdown
          </text>
          {drawdown.areaPath && <path className="bt-chart__drawdown-area" data-testid="drawdown-path" d={drawdown.areaPath} />}
          {drawdown.linePath && <path className="bt-chart__drawdown-line" d={drawdown.linePath} />}
        </g>
      )}
      <text x={equityPlot.x + 4} y={equityPlot.y + 12} className="bt-chart__plot-label">
        Equity
      </text>
    </>
  );
});

function Cursor({ geometry, point }: { geometry: EquityChartGeometry; point: EquityPoint }) {
  const x = geometry.x(point.time);
  const bottom = geometry.drawdown ? geometry.drawdown.plot.y + geometry.drawdown.plot.height : geometry.equityPlot.y + geometry.equityPlot.height;
  return (
    <g className="bt-chart__cursor" pointerEvents="none" data-testid="equity-cursor">
      <line x1={x} x2={x} y1={geometry.equityPlot.y} y2={bottom} />
      <circle cx={x} cy={geometry.equityY(point.equity)} r={3} />
    </g>
  );
}
