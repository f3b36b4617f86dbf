/**
 * Results (premium): the backtest named in the address (`?id=`), else the newest completed one of the
 * history. A backtest shows its settings, the metrics (fractions as percentages), the equity and
 * drawdown chart, its trades (paged by the server), the comparison with paper trading and the
 * walk-forward analysis over the same settings; a walk-forward opened from the history shows its
 * report; a queued or running one where it stands; a failed one the server's reason.
 */
import { useMemo } from 'react';
import type { StrategyDefinition } from '@papertrade/domain/backtest/contracts';
import type { BacktestDetail } from '@papertrade/domain/backtest/service-contracts';
import { Panel } from '../../../components/ui/panel';
import { ApiError, describeError } from '../../../lib/api-client';
import { formatUsd } from '../../../lib/number-format';
import { useJobProgress } from '../../../lib/realtime/realtime-hooks';
import { isRunning, useBacktest } from '../api/get-backtest';
import { useBacktestHistory } from '../api/get-backtest-history';
import { parametersText, periodText, statusLabel, strategyName } from '../backtest-labels';
import { metricRows, runStatusText } from '../backtest-texts';
import { ComparePaperPanel } from './compare-paper-panel';
import { EquityChart } from './equity-chart';
import { TradesTable } from './trades-table';
import { WalkForwardPanel, WalkForwardReportView } from './walk-forward-panel';

export function ResultsTab({ shownId, strategies, onRunFirst }: { shownId: string | null; strategies: readonly StrategyDefinition[] | undefined; onRunFirst: () => void }) {
  if (shownId !== null) return <BacktestView key={shownId} id={shownId} strategies={strategies} />;
  return <NewestResult strategies={strategies} onRunFirst={onRunFirst} />;
}

/** Without an id in the address: the newest completed backtest (the history is newest first). */
function NewestResult({ strategies, onRunFirst }: { strategies: readonly StrategyDefinition[] | undefined; onRunFirst: () => void }) {
  const history = useBacktestHistory({ enabled: true });
  const latest = history.data?.find((item) => item.status === 'COMPLETED' && item.mode !== 'walk-forward')?.id ?? null;
  if (latest !== null) return <BacktestView key={latest} id={latest} strategies={strategies} />;
  if (history.isError) {
    return (
      <p className="empty-text" role="alert">
        {describeError(history.error, 'Failed to load the backtest history')}
      </p>
    );
  }
  return (
    <section className="screen-empty card" data-testid="backtest-no-results">
      <h2>No results yet</h2>
      <p>{history.data ? 'Run a backtest to see its metrics, equity curve and trades here.' : 'Loading…'}</p>
      <button type="button" className="btn btn--primary" onClick={onRunFirst}>
        Run Backtest
      </button>
    </section>
  );
}

function BacktestView({ id, strategies }: { id: string; strategies: readonly StrategyDefinition[] | undefined }) {
  const detail = useBacktest(id);
  const progress = useJobProgress(detail.data?.jobId);
  if (detail.isError) {
    const notFound = detail.error instanceof ApiError && detail.error.status === 404;
    return (
      <p className="empty-text" role="alert" data-testid="backtest-result-error">
        {notFound ? 'No such backtest of yours.' : describeError(detail.error, 'Failed to load the backtest')}
      </p>
    );
  }
  const data = detail.data;
  if (!data) return <p className="empty-text">Loading…</p>;
  const strategy = strategies?.find((s) => s.id === data.config.strategyId);
  return (
    <div className="bt-results" data-testid="backtest-results" data-id={data.id}>
      <Settings detail={data} strategy={strategy} strategies={strategies} />
      {isRunning(data.status) && (
        <Panel title="In progress" testId="backtest-result-running">
          <div className="bt-progress">
            <span>{runStatusText(data.status === 'RUNNING' ? 'RUNNING' : 'QUEUED', data.queuePosition, progress?.status === 'RUNNING' ? progress.progress : null)}</span>
            <progress max={1} value={progress?.status === 'RUNNING' ? progress.progress : 0} aria-label="Backtest progress" />
          </div>
        </Panel>
      )}
      {data.status === 'FAILED' && (
        <p className="bt-error" role="alert" data-testid="backtest-result-failed">
          This run failed: {data.error ?? 'no reason recorded'}
        </p>
      )}
      {data.status === 'COMPLETED' && data.mode === 'backtest' && data.result && <CompletedBacktest detail={data} result={data.result} strategy={strategy} />}
      {data.status === 'COMPLETED' && data.mode === 'walk-forward' && data.report && (
        <Panel title="Walk-Forward Report" testId="walk-forward">
          <WalkForwardReportView report={data.report} initialCapital={data.config.initialCapital} strategy={strategy} />
        </Panel>
      )}
    </div>
  );
}

function Settings({ detail, strategy, strategies }: { detail: BacktestDetail; strategy: StrategyDefinition | undefined; strategies: readonly StrategyDefinition[] | undefined }) {
  const c = detail.config;
  return (
    <section className="bt-settings card" aria-label="Backtest settings" data-testid="backtest-result-settings">
      <h2 className="bt-settings__title">
        {strategyName(strategies, c.strategyId)} · {c.symbol}
        {detail.mode === 'walk-forward' && <span className="badge">Walk-forward</span>}
      </h2>
      <p className="bt-settings__line">
        {periodText(c.startDate, c.endDate)} · initial capital {formatUsd(c.initialCapital)} · {statusLabel(detail.status)}
        {c.parameters && Object.keys(c.parameters).length > 0 && <> · {parametersText(c.parameters, strategy ? Object.keys(strategy.parameters) : undefined)}</>}
      </p>
    </section>
  );
}

function CompletedBacktest({ detail, result, strategy }: { detail: BacktestDetail; result: NonNullable<BacktestDetail['result']>; strategy: StrategyDefinition | undefined }) {
  const equity = useMemo(() => result.equityCurve.map((p) => ({ time: Date.parse(p.time), equity: p.equity })), [result]);
  const drawdown = useMemo(() => result.drawdownCurve.map((p) => ({ time: Date.parse(p.time), drawdown: p.drawdown })), [result]);
  const rows = metricRows(result, detail.config.initialCapital);
  return (
    <>
      <Panel title="Performance" testId="backtest-metrics">
        <dl className="bt-metrics">
          {rows.map((row) => (
            <div key={row.key} className="bt-metric">
              <dt>{row.label}</dt>
              <dd className={`num${row.tone ? ` ${row.tone}` : ''}`} data-testid={`metric-${row.key}`}>
                {row.value}
              </dd>
            </div>
          ))}
        </dl>
        <p className="bt-note">
          {result.signals} signals, {result.refusedSignals} refused or skipped by your risk profile&apos;s rules; {result.fills} fills. Returns, win rate, drawdown and volatility are
          fractions shown as percentages; Sharpe from daily returns annualised with 365 days; profit factor = gross profit / gross loss.
        </p>
      </Panel>
      <Panel title="Equity and Drawdown" testId="backtest-chart-panel">
        <EquityChart equity={equity} drawdown={drawdown} reference={detail.config.initialCapital} label="Equity and drawdown chart" />
      </Panel>
      <TradesTable backtestId={detail.id} />
      <ComparePaperPanel backtestId={detail.id} />
      {/* The walk-forward re-optimises a catalogue strategy's parameters; an AI strategy's backtest (run from /ai-signals) has none to try. */}
      {strategy ? <WalkForwardPanel backtest={detail} strategy={strategy} /> : null}
    </>
  );
}
