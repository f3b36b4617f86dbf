/**
 * Walk-forward (POST /api/backtest/walk-forward) over the settings of the backtest shown: rolling
 * in-sample / out-of-sample windows; in each, the best of up to N parameter sets in-sample by the
 * chosen objective is tested out of sample. The form: windows, objective, in-sample share, parameter
 * sets. The report: both summaries side by side (what optimisation promised, what it delivered, and
 * their ratio), each window's choice and figures, and the stitched out-of-sample curve. The run's id
 * is kept in the address (`wf=`), so a reload shows it again.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  DEFAULT_IN_SAMPLE_FRACTION,
  MAX_PARAMETER_SETS,
  MAX_WALK_FORWARD_WINDOWS,
  MIN_WALK_FORWARD_WINDOWS,
  walkForwardObjectives,
  type BacktestFigures,
  type StrategyDefinition,
  type WalkForwardObjective,
  type WalkForwardReport,
} from '@papertrade/domain/backtest/contracts';
import type { BacktestDetail } from '@papertrade/domain/backtest/service-contracts';
import { Panel } from '../../../components/ui/panel';
import { useToast } from '../../../components/ui/toast/use-toast';
import { describeError } from '../../../lib/api-client';
import { formatCount, formatReading, MISSING } from '../../../lib/number-format';
import { useJobProgress } from '../../../lib/realtime/realtime-hooks';
import { useBacktest } from '../api/get-backtest';
import { useRunWalkForward } from '../api/walk-forward';
import { parseBoundedNumber } from '../backtest-form';
import { objectiveLabels, parametersText, periodText } from '../backtest-labels';
import { percentOfFraction, runStatusText, signedPercentOfFraction } from '../backtest-texts';
import { EquityChart } from './equity-chart';
import { ScrollRegion } from './scroll-region';

const DEFAULT_WINDOWS = 6;

export function WalkForwardPanel({ backtest, strategy }: { backtest: BacktestDetail; strategy: StrategyDefinition | undefined }) {
  const ids = useId();
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const runId = params.get('wf');
  const [windows, setWindows] = useState(String(DEFAULT_WINDOWS));
  const [objective, setObjective] = useState<WalkForwardObjective>('sharpeRatio');
  const [inSample, setInSample] = useState(String(DEFAULT_IN_SAMPLE_FRACTION * 100));
  const [sets, setSets] = useState(String(MAX_PARAMETER_SETS));
  const start = useRunWalkForward();
  const detail = useBacktest(runId);
  const run = detail.data;
  const progress = useJobProgress(run?.jobId);

  const windowsParsed = parseBoundedNumber(windows, MIN_WALK_FORWARD_WINDOWS, MAX_WALK_FORWARD_WINDOWS);
  const inSampleParsed = parseBoundedNumber(inSample, 50, 90);
  const setsParsed = parseBoundedNumber(sets, 1, MAX_PARAMETER_SETS);
  const running = start.isPending || run?.status === 'QUEUED' || run?.status === 'RUNNING';
  const valid = windowsParsed.ok && Number.isInteger(windowsParsed.value) && inSampleParsed.ok && setsParsed.ok && Number.isInteger(setsParsed.value);

  // A walk-forward started here: a toast when it ends.
  const started = useRef<string | null>(null);
  useEffect(() => {
    if (!run || started.current !== run.id) return;
    if (run.status === 'COMPLETED') {
      started.current = null;
      toast({ title: 'Walk-Forward Completed', description: `${formatCount(run.report?.windows.length ?? 0)} windows tested out of sample`, variant: 'success' });
    } else if (run.status === 'FAILED') {
      started.current = null;
      toast({ title: 'Walk-Forward Failed', description: run.error ?? 'The walk-forward could not be run', variant: 'destructive' });
    }
  }, [run, toast]);

  async function submit() {
    if (!valid || !windowsParsed.ok || !inSampleParsed.ok || !setsParsed.ok) return;
    const c = backtest.config;
    try {
      const job = await start.mutateAsync({
        strategyId: c.strategyId,
        symbol: c.symbol,
        startDate: c.startDate,
        endDate: c.endDate,
        initialCapital: c.initialCapital,
        windows: windowsParsed.value,
        inSampleFraction: inSampleParsed.value / 100,
        objective,
        parameterSets: setsParsed.value,
      });
      started.current = job.id;
      setParams((current) => ({ ...Object.fromEntries(current), wf: job.id }), { replace: true });
    } catch (error) {
      toast({ title: 'Walk-Forward Failed', description: describeError(error, 'The walk-forward could not be run'), variant: 'destructive' });
    }
  }

  return (
    <Panel title="Walk-Forward Analysis" testId="walk-forward">
      <p className="empty-text">
        Re-optimises {strategy?.name ?? backtest.config.strategyId}&apos;s parameters on each in-sample window and tests the choice on the next, unseen part of{' '}
        {periodText(backtest.config.startDate, backtest.config.endDate)} ({backtest.config.symbol}). If the out-of-sample figures fall far below the in-sample ones, the
        parameters were fitted to noise.
      </p>
      <form
        className="bt-fields bt-wf__form"
        data-testid="walk-forward-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Field id={`${ids}-windows`} label="Windows" hint={`${MIN_WALK_FORWARD_WINDOWS} to ${MAX_WALK_FORWARD_WINDOWS}`} error={windowsParsed.ok ? (Number.isInteger(windowsParsed.value) ? undefined : 'A whole number') : windowsParsed.error}>
          <input id={`${ids}-windows`} className="input" type="number" min={MIN_WALK_FORWARD_WINDOWS} max={MAX_WALK_FORWARD_WINDOWS} step={1} value={windows} onChange={(e) => setWindows(e.target.value)} aria-describedby={`${ids}-windows-hint`} data-testid="wf-windows" />
        </Field>
        <Field id={`${ids}-objective`} label="Objective" hint="What the in-sample search maximises">
          <select id={`${ids}-objective`} className="input" value={objective} onChange={(e) => setObjective(e.target.value as WalkForwardObjective)} aria-describedby={`${ids}-objective-hint`} data-testid="wf-objective">
            {walkForwardObjectives.map((o) => (
              <option key={o} value={o}>
                {objectiveLabels[o]}
              </option>
            ))}
          </select>
        </Field>
        <Field id={`${ids}-in-sample`} label="In-sample share (%)" hint="50 to 90" error={inSampleParsed.ok ? undefined : inSampleParsed.error}>
          <input id={`${ids}-in-sample`} className="input" type="number" min={50} max={90} step={5} value={inSample} onChange={(e) => setInSample(e.target.value)} aria-describedby={`${ids}-in-sample-hint`} data-testid="wf-in-sample" />
        </Field>
        <Field id={`${ids}-sets`} label="Parameter sets per window" hint={`1 to ${MAX_PARAMETER_SETS}`} error={setsParsed.ok ? (Number.isInteger(setsParsed.value) ? undefined : 'A whole number') : setsParsed.error}>
          <input id={`${ids}-sets`} className="input" type="number" min={1} max={MAX_PARAMETER_SETS} step={1} value={sets} onChange={(e) => setSets(e.target.value)} aria-describedby={`${ids}-sets-hint`} data-testid="wf-sets" />
        </Field>
        <div className="bt-run__actions">
          <button type="submit" className="btn btn--primary btn--sm" disabled={running || !valid} data-testid="run-walk-forward">
            {running ? 'Running...' : 'Run Walk-Forward'}
          </button>
        </div>
      </form>
      {runId && detail.isError && (
        <p className="empty-text" role="alert">
          {describeError(detail.error, 'Failed to load the walk-forward')}
        </p>
      )}
      {run && (run.status === 'QUEUED' || run.status === 'RUNNING') && (
        <div className="bt-progress" data-testid="walk-forward-progress">
          <span>{runStatusText(run.status, run.queuePosition, progress?.status === 'RUNNING' ? progress.progress : null)}</span>
          <progress max={1} value={progress?.status === 'RUNNING' ? progress.progress : 0} aria-label="Walk-forward progress" />
        </div>
      )}
      {run?.status === 'FAILED' && (
        <p className="bt-error" role="alert" data-testid="walk-forward-error">
          Walk-forward failed: {run.error ?? 'no reason recorded'}
        </p>
      )}
      {run?.status === 'COMPLETED' && run.report && <WalkForwardReportView report={run.report} initialCapital={run.config.initialCapital} strategy={strategy} />}
    </Panel>
  );
}

function Field({ id, label, hint, error, children }: { id: string; label: string; hint: string; error?: string | undefined; children: ReactNode }) {
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children}
      <span className={error ? 'field__error' : 'field__hint'} id={`${id}-hint`}>
        {error ?? hint}
      </span>
    </div>
  );
}

const objectiveText = (objective: WalkForwardObjective, value: number | null) => (value === null ? MISSING : objective === 'totalReturn' ? signedPercentOfFraction(value) : formatReading(value));

/** The report: summaries side by side, the windows, the stitched out-of-sample curve. */
export function WalkForwardReportView({ report, initialCapital, strategy }: { report: WalkForwardReport; initialCapital: number; strategy: StrategyDefinition | undefined }) {
  const order = strategy ? Object.keys(strategy.parameters) : undefined;
  // With total return as the objective, the objective's column is the return's: shown once.
  const returnColumns = report.objective !== 'totalReturn';
  const stitched = report.stitchedEquity.map((p) => ({ time: Date.parse(p.time), equity: p.equity }));
  const summaryRows: Array<[string, (f: BacktestFigures) => string]> = [
    ['Total Return', (f) => signedPercentOfFraction(f.totalReturn)],
    ['Sharpe Ratio', (f) => (f.sharpeRatio === null ? MISSING : formatReading(f.sharpeRatio))],
    ['Max Drawdown', (f) => percentOfFraction(f.maxDrawdown)],
    ['Total Trades', (f) => formatCount(f.totalTrades)],
    ['Win Rate', (f) => (f.totalTrades === 0 ? MISSING : percentOfFraction(f.winRate))],
  ];
  return (
    <div className="bt-wf__report" data-testid="walk-forward-report">
      <h3 className="bt-subtitle">In-sample against out-of-sample ({objectiveLabels[report.objective]})</h3>
      <ScrollRegion label="Walk-forward summary">
        <table className="data-table bt-wf__summary" data-testid="walk-forward-summary">
          <thead>
            <tr>
              <th scope="col">Figure</th>
              <th scope="col" className="num">
                In-sample (mean of windows)
              </th>
              <th scope="col" className="num">
                Out-of-sample (stitched)
              </th>
            </tr>
          </thead>
          <tbody>
            {summaryRows.map(([label, value]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td className="num">{value(report.inSampleSummary)}</td>
                <td className="num">{value(report.outOfSampleSummary)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <p className="bt-wf__efficiency" data-testid="walk-forward-efficiency">
        Walk-forward efficiency (out-of-sample objective / in-sample objective): {report.efficiency === null ? MISSING : percentOfFraction(report.efficiency)}
      </p>
      <h3 className="bt-subtitle">Windows</h3>
      <ScrollRegion label="Walk-forward windows">
        <table className="data-table" data-testid="walk-forward-windows">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">In-sample</th>
              <th scope="col">Chosen parameters</th>
              <th scope="col" className="num">
                In-sample {objectiveLabels[report.objective]}
              </th>
              {returnColumns && (
                <th scope="col" className="num">
                  In-sample return
                </th>
              )}
              <th scope="col">Out-of-sample</th>
              <th scope="col" className="num">
                Out-of-sample {objectiveLabels[report.objective]}
              </th>
              {returnColumns && (
                <th scope="col" className="num">
                  Out-of-sample return
                </th>
              )}
              <th scope="col" className="num">
                Trades
              </th>
            </tr>
          </thead>
          <tbody>
            {report.windows.map((w) => (
              <tr key={w.index} data-testid="walk-forward-window">
                <td>{w.index + 1}</td>
                <td>{periodText(w.inSample.start, w.inSample.end)}</td>
                <td className="bt-wf__params">{parametersText(w.inSample.parameters, order)}</td>
                <td className="num">{objectiveText(report.objective, w.inSample.objectiveValue)}</td>
                {returnColumns && <td className="num">{signedPercentOfFraction(w.inSample.figures.totalReturn)}</td>}
                <td>{periodText(w.outOfSample.start, w.outOfSample.end)}</td>
                <td className="num">{objectiveText(report.objective, w.outOfSample.objectiveValue)}</td>
                {returnColumns && <td className={`num${w.outOfSample.figures.totalReturn > 0 ? ' up' : w.outOfSample.figures.totalReturn < 0 ? ' down' : ''}`}>{signedPercentOfFraction(w.outOfSample.figures.totalReturn)}</td>}
                <td className="num">{formatCount(w.outOfSample.figures.totalTrades)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <h3 className="bt-subtitle">Stitched out-of-sample equity</h3>
      <EquityChart equity={stitched} drawdown={null} reference={initialCapital} label="Stitched out-of-sample equity curve" height={240} testId="walk-forward-chart" />
    </div>
  );
}
