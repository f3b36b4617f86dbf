/**
 * The Strategy Backtesting screen (premium-and-account.md sections 2 to 9; issue 18): tabs Run
 * Backtest, Results and History.
 * - Visitors: 'Login Required' with a link to /login (no request is made for them).
 * - Free users: 'Premium Required' with a link to /subscription; they still see the strategy list and
 *   the form, with Run disabled, and neither results nor history (the server answers 403 there).
 * - Premium users: Run answers at once (202); the run is followed by its JOB_PROGRESS messages (the
 *   progress bar) and by GET /api/backtest/{id} every 2 s while it is queued or running (its place in
 *   the queue). When it completes: 'Backtest Completed' with the trade count and the win rate, then
 *   the Results tab opens on it; when it fails or is refused: 'Backtest Failed' with the server's
 *   message.
 * - History is polled every 30 s (section 7) for premium users on every tab: a run under way from
 *   before the page was opened is followed too (Run waits for it); opening one shows its Results.
 * The open tab and the backtest shown are in the address (`?tab=results&id=...`), so a reload or a
 * link opens them; only the open tab is mounted, so only its reads are made.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { isPremium } from '@papertrade/domain/auth/contracts';
import { TabList, tabPanelProps, type TabDef } from '../../../components/ui/tab-list';
import { useToast } from '../../../components/ui/toast/use-toast';
import { describeError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth/auth-context';
import { useJobProgress } from '../../../lib/realtime/realtime-hooks';
import { useBacktest, backtestQueryOptions } from '../api/get-backtest';
import { backtestHistoryQueryOptions, useBacktestHistory } from '../api/get-backtest-history';
import { useBacktestStrategies } from '../api/get-backtest-strategies';
import { useRunBacktest } from '../api/run-backtest';
import { initialFormState, type BacktestFormState, type BacktestRequestBody } from '../backtest-form';
import { completedToast, failedToast } from '../backtest-texts';
import { HistoryTab } from './history-tab';
import { ResultsTab } from './results-tab';
import { RunBacktestTab, type RunProgress } from './run-backtest-tab';
import '../../../components/ui/data-table.css';
import './backtesting.css';

export type BacktestTab = 'run' | 'results' | 'history';
const DEFAULT_TAB: BacktestTab = 'run';
const tabs: ReadonlyArray<TabDef<BacktestTab>> = [
  { value: 'run', label: 'Run Backtest' },
  { value: 'results', label: 'Results' },
  { value: 'history', label: 'History' },
];

interface TrackedRun {
  id: string;
  /** Known from the 202; a run found in the history gets it from GET /api/backtest/{id}. */
  jobId: string | null;
  queuePosition: number | null;
  /** Started before this page was opened (found in the history): its end is toasted, but the tab stays. */
  adopted: boolean;
}

export function BacktestingScreen() {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const tab = tabs.find((t) => t.value === params.get('tab'))?.value ?? DEFAULT_TAB;
  const shownId = params.get('id');
  const signedIn = user !== null;
  const premium = isPremium(user);
  const setTab = (next: BacktestTab) => setParams((current) => ({ ...Object.fromEntries(current), tab: next }), { replace: true });
  const openResults = (id: string) => setParams({ tab: 'results', id }, { replace: false });

  if (!signedIn) {
    return (
      <section className="screen-empty card" data-testid="backtest-login-required">
        <h2>Login Required</h2>
        <p>Log in to backtest trading strategies over the market&apos;s history.</p>
        <Link to="/login" className="btn btn--primary">
          Login
        </Link>
      </section>
    );
  }
  return <SignedInScreen premium={premium} tab={tab} setTab={setTab} shownId={shownId} openResults={openResults} />;
}

function SignedInScreen({ premium, tab, setTab, shownId, openResults }: { premium: boolean; tab: BacktestTab; setTab: (t: BacktestTab) => void; shownId: string | null; openResults: (id: string) => void }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const strategies = useBacktestStrategies({ enabled: true });
  const run = useRunBacktest();
  const [form, setForm] = useState<BacktestFormState>(() => initialFormState(new Date()));
  const [tracked, setTracked] = useState<TrackedRun | null>(null);
  const [runProgress, setRunProgress] = useState<RunProgress | null>(null);

  async function start(request: BacktestRequestBody) {
    try {
      const job = await run.mutateAsync(request);
      setTracked({ id: job.id, jobId: job.jobId, queuePosition: job.queuePosition, adopted: false });
      setRunProgress({ status: 'QUEUED', queuePosition: job.queuePosition, progress: null });
    } catch (error) {
      toast(failedToast(error));
    }
  }

  // Runs this page saw end: the history may still list one as queued until its next read.
  const endedIds = useRef(new Set<string>());
  const adopt = useCallback((id: string) => {
    if (endedIds.current.has(id)) return;
    setTracked((current) => current ?? { id, jobId: null, queuePosition: null, adopted: true });
    setRunProgress((current) => current ?? { status: 'QUEUED', queuePosition: null, progress: null });
  }, []);

  const ended = useCallback(
    (outcome: { id: string; completed: boolean }) => {
      endedIds.current.add(outcome.id);
      setTracked(null);
      setRunProgress(null);
      void queryClient.invalidateQueries({ queryKey: backtestHistoryQueryOptions().queryKey });
      if (outcome.completed) openResults(outcome.id);
    },
    [queryClient, openResults],
  );

  return (
    <>
      {!premium && (
        <section className="bt-premium card" data-testid="backtest-premium-required">
          <div>
            <h2>Premium Required</h2>
            <p>You can look at the strategies and the form; running a backtest and its history need Premium.</p>
          </div>
          <Link to="/subscription" className="btn btn--primary">
            Upgrade to Premium
          </Link>
        </section>
      )}
      {premium && <ActiveRunFinder onActive={adopt} />}
      {tracked && <RunWatcher key={tracked.id} run={tracked} onProgress={setRunProgress} onEnded={ended} />}
      <TabList tabs={tabs} value={tab} onChange={setTab} label="Strategy Backtesting" idPrefix="backtest" />
      <div {...tabPanelProps('backtest', tab)}>
        {tab === 'run' && (
          <RunBacktestTab
            premium={premium}
            strategies={strategies.data}
            strategiesError={strategies.isError ? describeError(strategies.error, 'Failed to load the strategies') : null}
            form={form}
            onFormChange={setForm}
            run={runProgress}
            starting={run.isPending}
            onRun={(request) => void start(request)}
          />
        )}
        {tab === 'results' && (premium ? <ResultsTab shownId={shownId} strategies={strategies.data} onRunFirst={() => setTab('run')} /> : <PremiumOnly what="results" />)}
        {tab === 'history' && (premium ? <HistoryTab strategies={strategies.data} onOpen={openResults} /> : <PremiumOnly what="history" />)}
      </div>
    </>
  );
}

function PremiumOnly({ what }: { what: 'results' | 'history' }) {
  return (
    <section className="screen-empty card" data-testid={`backtest-${what}-premium`}>
      <h2>Premium Required</h2>
      <p>{what === 'history' ? 'Your backtest history is a Premium feature.' : 'Backtest results are a Premium feature.'}</p>
      <Link to="/subscription" className="btn btn--primary">
        Upgrade to Premium
      </Link>
    </section>
  );
}

/**
 * Follows a run this page started (mounted only while there is one): its JOB_PROGRESS messages for
 * the progress bar, and GET /api/backtest/{id} (every 2 s while queued or running, at once when the
 * socket says the job ended) for its place in the queue and its end: 'Backtest Completed' with the
 * trade count and win rate, or 'Backtest Failed' with the reason the server recorded.
 */
function RunWatcher({ run, onProgress, onEnded }: { run: TrackedRun; onProgress: (p: RunProgress) => void; onEnded: (outcome: { id: string; completed: boolean }) => void }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const detail = useBacktest(run.id);
  const data = detail.data?.id === run.id ? detail.data : undefined;
  const progress = useJobProgress(run.jobId ?? data?.jobId);

  const jobEnded = progress?.status === 'COMPLETED' || progress?.status === 'FAILED';
  useEffect(() => {
    if (jobEnded) void queryClient.invalidateQueries({ queryKey: backtestQueryOptions(run.id).queryKey });
  }, [jobEnded, run.id, queryClient]);

  const status = data?.status === 'RUNNING' || progress?.status === 'RUNNING' ? 'RUNNING' : 'QUEUED';
  const queuePosition = data ? data.queuePosition : run.queuePosition;
  const fraction = progress?.status === 'RUNNING' ? progress.progress : status === 'RUNNING' ? 0 : null;
  useEffect(() => {
    onProgress({ status, queuePosition, progress: fraction });
  }, [status, queuePosition, fraction, onProgress]);

  const done = useRef(false);
  useEffect(() => {
    if (!data || done.current) return;
    if (data.status !== 'COMPLETED' && data.status !== 'FAILED') return;
    done.current = true;
    // A walk-forward found in the history: its panel speaks for it; here it only frees Run.
    if (data.mode === 'backtest') toast(data.status === 'COMPLETED' && data.result ? completedToast(data.result) : failedToast(data.error));
    onEnded({ id: data.id, completed: data.status === 'COMPLETED' && data.mode === 'backtest' && !run.adopted });
  }, [data, run.adopted, toast, onEnded]);
  return null;
}

/**
 * A premium user's history (GET /api/backtest/history, every 30 s, spec section 7), read for the run
 * that may be under way from before this page was opened (another tab, a reload): the server runs
 * one at a time per user, so Run waits for it and shows its progress.
 */
function ActiveRunFinder({ onActive }: { onActive: (id: string) => void }) {
  const history = useBacktestHistory({ enabled: true });
  const active = history.data?.find((item) => item.status === 'QUEUED' || item.status === 'RUNNING')?.id;
  useEffect(() => {
    if (active) onActive(active);
  }, [active, onActive]);
  return null;
}
