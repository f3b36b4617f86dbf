/** Performance: the summary (total return, trades, win rate, Sharpe) and the cumulative return of the strategy's round trips, with where they come from. */
import type { Strategy } from '@papertrade/domain/strategies/contracts';
import { FetchError } from '../../../components/ui/fetch-error';
import { Spinner } from '../../../components/ui/spinner';
import { useStrategyPerformance } from '../api/get-strategy-performance';
import { figureText, figuresSourceText } from '../strategy-texts';
import { ReturnChartSvg } from './return-chart-svg';
import { StrategyDialog } from './strategy-dialog';

export function PerformanceDialog({ strategy, onClose }: { strategy: Strategy | null; onClose: () => void }) {
  const performance = useStrategyPerformance(strategy?.id ?? null);
  const data = performance.data;
  return (
    <StrategyDialog open={strategy !== null} title={strategy ? `${strategy.name} · Performance` : 'Performance'} testId="performance-dialog" onClose={onClose}>
      {performance.isPending ? (
        <Spinner size={22} label="Loading performance" />
      ) : performance.isError ? (
        <FetchError text="Failed to load the performance" error={performance.error} />
      ) : data ? (
        <>
          <dl className="kv strategy-summary">
            <div>
              <dt>Total return</dt>
              <dd className="num" data-testid="perf-total-return">{`${data.summary.totalReturn.toFixed(2)}%`}</dd>
            </div>
            <div>
              <dt>Total trades</dt>
              <dd className="num" data-testid="perf-total-trades">{data.summary.totalTrades}</dd>
            </div>
            <div>
              <dt>Win rate</dt>
              <dd className="num">{figureText(data.summary.winRate, 'percent')}</dd>
            </div>
            <div>
              <dt>Sharpe (per trade)</dt>
              <dd className="num">{figureText(data.summary.sharpeRatio, 'ratio')}</dd>
            </div>
          </dl>
          <p className="strategy-card__source">{figuresSourceText({ figuresSource: data.source, sampleSize: data.summary.totalTrades })}</p>
          {data.performance.length > 0 ? (
            <ReturnChartSvg series={[data.performance]} labels={[strategy?.name ?? '']} testId="performance-chart" />
          ) : (
            <p className="empty-text" data-testid="perf-empty">
              No round trips yet: the curve starts with the strategy&apos;s first closed trade.
            </p>
          )}
        </>
      ) : null}
      <div className="button-row strategy-dialog__actions">
        <button type="button" className="btn" onClick={onClose}>
          Close
        </button>
      </div>
    </StrategyDialog>
  );
}
