/**
 * AI Trading Strategies for Premium users (spec sections 2, 4, 7, 8; issue 19): the header counts of
 * active strategies and live signals, and the tabs Strategy Management (the three cards), Live Signals
 * and Analytics. GET /api/strategies is polled every 30 s, the live signals every 10 s. The open tab is
 * in the address (`?tab=signals`), so a link or a reload opens it.
 */
import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { BacktestDetail } from '@papertrade/domain/backtest/service-contracts';
import type { Strategy } from '@papertrade/domain/strategies/contracts';
import { FetchError } from '../../../components/ui/fetch-error';
import { Spinner } from '../../../components/ui/spinner';
import { TabList, tabPanelProps, type TabDef } from '../../../components/ui/tab-list';
import { useToast } from '../../../components/ui/toast/use-toast';
import { useStrategies } from '../api/get-strategies';
import { useStrategySignals } from '../api/get-strategy-signals';
import { useRetrainNeural } from '../api/retrain-neural';
import { useToggleStrategy } from '../api/toggle-strategy';
import { headerCounts, retrainStartedToast, retrainFailedToast, strategyUpdatedToast, toggleFailedToast } from '../strategy-texts';
import { Analytics } from './analytics';
import { BacktestDialog } from './backtest-dialog';
import { BacktestResult } from './backtest-result';
import { BacktestWatcher } from './backtest-watcher';
import { RetrainWatcher } from './retrain-watcher';
import { ConfigureDialog } from './configure-dialog';
import { LiveSignals } from './live-signals';
import { PerformanceDialog } from './performance-dialog';
import { StrategyCard } from './strategy-card';
import '../strategies.css';

type StrategiesTab = 'management' | 'signals' | 'analytics';
const tabs: ReadonlyArray<TabDef<StrategiesTab>> = [
  { value: 'management', label: 'Strategy Management' },
  { value: 'signals', label: 'Live Signals' },
  { value: 'analytics', label: 'Analytics' },
];

export function StrategiesScreen() {
  const toast = useToast();
  const strategies = useStrategies({ enabled: true });
  const signals = useStrategySignals({ enabled: true });
  const toggle = useToggleStrategy();
  const retrain = useRetrainNeural();
  const [params, setParams] = useSearchParams();
  const tab = tabs.find((t) => t.value === params.get('tab'))?.value ?? 'management';
  const setTab = (next: StrategiesTab) => setParams((current) => ({ ...Object.fromEntries(current), tab: next }), { replace: true });
  const [configuring, setConfiguring] = useState<Strategy | null>(null);
  const [performanceOf, setPerformanceOf] = useState<Strategy | null>(null);
  const [backtesting, setBacktesting] = useState<Strategy | null>(null);
  const [watching, setWatching] = useState<{ backtestId: string; strategyName: string } | null>(null);
  const [lastBacktest, setLastBacktest] = useState<{ strategyName: string; detail: BacktestDetail } | null>(null);
  const watchedName = watching?.strategyName ?? '';
  const stopWatching = useCallback(
    (completed: BacktestDetail | null) => {
      if (completed) setLastBacktest({ strategyName: watchedName, detail: completed });
      setWatching(null);
    },
    [watchedName],
  );
  const [retraining, setRetraining] = useState<string | null>(null);
  const stopRetraining = useCallback(() => setRetraining(null), []);

  if (strategies.isPending) return <Spinner size={28} label="Loading strategies" />;
  if (strategies.isError) return <FetchError text="Failed to load strategies" error={strategies.error} />;
  const list = strategies.data.strategies;
  const counts = headerCounts(list, signals.data?.signals);

  return (
    <>
      <div className="strategies-counts" data-testid="strategies-counts">
        <span className="badge badge--accent" data-testid="active-count">
          {counts.active} active {counts.active === 1 ? 'strategy' : 'strategies'}
        </span>
        <span className="badge" data-testid="signal-count">
          {counts.signals} live {counts.signals === 1 ? 'signal' : 'signals'}
        </span>
        <span className="strategies-counts__note">{counts.active > 0 ? 'Your bot follows your active strategies.' : 'No strategy active: your bot follows the house signals.'}</span>
      </div>
      <TabList tabs={tabs} value={tab} onChange={setTab} label="AI Trading Strategies" idPrefix="strategies" />
      <div {...tabPanelProps('strategies', tab)}>
        {tab === 'management' && (
          <div className="strategy-grid">
            {list.map((s) => (
              <StrategyCard
                key={s.id}
                strategy={s}
                actions={{
                  toggling: toggle.isPending && toggle.variables?.id === s.id,
                  retraining: retrain.isPending || retraining !== null,
                  onToggle: (active) =>
                    toggle.mutate(
                      { id: s.id, active },
                      { onSuccess: () => toast(strategyUpdatedToast(s.name, active)), onError: () => toast(toggleFailedToast()) },
                    ),
                  onConfigure: () => setConfiguring(s),
                  onPerformance: () => setPerformanceOf(s),
                  onBacktest: () => setBacktesting(s),
                  onRetrain: () => {
                    const learningRate = s.configuration['learningRate'] ?? s.defaults['learningRate']!;
                    const epochs = s.configuration['epochs'] ?? s.defaults['epochs']!;
                    retrain.mutate(
                      { learningRate, epochs },
                      {
                        onSuccess: (job) => {
                          toast(retrainStartedToast(learningRate, epochs));
                          setRetraining(job.jobId);
                        },
                        onError: (error) => toast(retrainFailedToast(error)),
                      },
                    );
                  },
                }}
              />
            ))}
          </div>
        )}
        {tab === 'management' && lastBacktest && <BacktestResult strategyName={lastBacktest.strategyName} detail={lastBacktest.detail} onDismiss={() => setLastBacktest(null)} />}
        {tab === 'signals' && <LiveSignals signals={signals.data?.signals ?? []} anyActive={counts.active > 0} />}
        {tab === 'analytics' && <Analytics strategies={list} />}
      </div>
      <ConfigureDialog strategy={configuring} onClose={() => setConfiguring(null)} />
      <PerformanceDialog strategy={performanceOf} onClose={() => setPerformanceOf(null)} />
      <BacktestDialog strategy={backtesting} onClose={() => setBacktesting(null)} onStarted={(backtestId) => backtesting && setWatching({ backtestId, strategyName: backtesting.name })} />
      {watching && <BacktestWatcher key={watching.backtestId} backtestId={watching.backtestId} onEnded={stopWatching} />}
      {retraining && <RetrainWatcher key={retraining} jobId={retraining} onEnded={stopRetraining} />}
    </>
  );
}
