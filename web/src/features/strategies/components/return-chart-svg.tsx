/** The cumulative-return chart (return-chart.ts computes it; this renders the SVG). */
import { buildReturnChart, type ReturnPoint } from '../return-chart';

export const SERIES_COLOURS = ['#60a5fa', '#f59e0b', '#34d399'] as const;

export function ReturnChartSvg({ series, labels, testId, width = 560, height = 240 }: { series: ReadonlyArray<readonly ReturnPoint[]>; labels: readonly string[]; testId: string; width?: number; height?: number }) {
  const chart = buildReturnChart(series, { width, height, margin: { top: 12, right: 16, bottom: 24, left: 48 } });
  return (
    <svg className="return-chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`Cumulative return: ${labels.join(', ')}`} data-testid={testId}>
      {chart.yTicks.map((t) => (
        <g key={`y${t.label}`}>
          <line x1={48} x2={width - 16} y1={t.y} y2={t.y} className="return-chart__grid" />
          <text x={42} y={t.y + 4} textAnchor="end" className="return-chart__tick">
            {t.label}
          </text>
        </g>
      ))}
      {chart.xTicks.map((t) => (
        <text key={`x${t.x}`} x={t.x} y={height - 6} textAnchor={t.anchor} className="return-chart__tick">
          {t.label}
        </text>
      ))}
      <line x1={48} x2={width - 16} y1={chart.zeroY} y2={chart.zeroY} className="return-chart__zero" />
      {chart.paths.map((d, i) => (d ? <path key={labels[i] ?? i} d={d} fill="none" stroke={SERIES_COLOURS[i % SERIES_COLOURS.length]} strokeWidth={2} data-testid={`${testId}-path-${i}`} /> : null))}
    </svg>
  );
}
