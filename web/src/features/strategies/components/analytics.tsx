/** Analytics: the strategies' equity curves (cumulative return of their round trips) on shared axes, and their figures side by side. */
import type { Strategy } from '@papertrade/domain/strategies/contracts';
import { Panel } from '../../../components/ui/panel';
import { useStrategiesPerformance } from '../api/get-strategy-performance';
import { figureText, figuresSourceText } from '../strategy-texts';
import { ReturnChartSvg, SERIES_COLOURS } from './return-chart-svg';

export function Analytics({ strategies }: { strategies: readonly Strategy[] }) {
  const performances = useStrategiesPerformance(
    strategies.map((s) => s.id),
    true,
  );
  const series = performances.map((p) => p.data?.performance ?? []);
  const anyPoint = series.some((s) => s.length > 0);
  return (
    <Panel title="Strategy Comparison" testId="strategy-analytics">
      {anyPoint ? (
        <ReturnChartSvg series={series} labels={strategies.map((s) => s.name)} testId="analytics-chart" />
      ) : (
        <p className="empty-text" data-testid="analytics-empty">
          No strategy has a closed round trip yet: the curves start with each strategy&apos;s first closed trade.
        </p>
      )}
      <div className="strategy-compare__scroll">
        <table className="data-table strategy-compare">
          <thead>
            <tr>
              <th scope="col">Strategy</th>
              <th scope="col">Return</th>
              <th scope="col">Trades</th>
              <th scope="col">Win rate</th>
              <th scope="col">Sharpe</th>
              <th scope="col">Max drawdown</th>
              <th scope="col">Measured on</th>
            </tr>
          </thead>
          <tbody>
            {strategies.map((s, i) => (
              <tr key={s.id} data-testid={`compare-${s.id}`}>
                <th scope="row">
                  <span className="strategy-compare__swatch" style={{ background: SERIES_COLOURS[i % SERIES_COLOURS.length] }} aria-hidden="true" /> {s.name}
                </th>
                <td className="num">{`${s.totalReturn.toFixed(2)}%`}</td>
                <td className="num">{s.sampleSize}</td>
                <td className="num">{figureText(s.winRate, 'percent')}</td>
                <td className="num">{figureText(s.sharpeRatio, 'ratio')}</td>
                <td className="num">{figureText(s.maxDrawdown, 'percent')}</td>
                <td>{figuresSourceText(s)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
