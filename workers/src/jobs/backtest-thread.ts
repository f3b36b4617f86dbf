/**
 * A backtest worker thread (backtest-runner-thread.ts starts it): runs one backtest at a time
 * (domain/src/backtest/run-backtest.ts) on its own copy of the simulated market (the same key, so the
 * same path; its ticks bounded at the tick the job was started at, as the process's market is by its
 * clock), posting progress and then the run back. Off the job process's event loop, so the lease
 * renewals and the JOB_PROGRESS messages go out while it runs. One market per key is kept between runs
 * (its caches make the next run cheaper).
 */
import { parentPort } from 'node:worker_threads';
import type { BacktestRun } from '@papertrade/domain/backtest/contracts';
import { cachedTicks, simulationMarket } from '@papertrade/domain/backtest/market';
import { runBacktest, type BacktestConfig, type BacktestMarket } from '@papertrade/domain/backtest/run-backtest';
import { MarketSimulation } from '@papertrade/domain/market/simulation';
import type { EngineRules, RecordedPeak } from '@papertrade/domain/trading/engine/paper-engine';
import { runPlannedStrategyBacktest, type StrategyBacktestConfig, type StrategyBacktestPlan } from '@papertrade/domain/strategies/strategy-backtest';
import { liveSignalEventIdOf, liveSignalIdOf, liveStrategySignalIds } from '../backtest/live-ids';

export interface BacktestThreadRequest {
  id: number;
  key: number[];
  /** The last tick the run may read (the job's start: never after now). */
  lastTick: number;
  /** A backtest of the catalogue's strategy; or */
  config?: BacktestConfig;
  /** an AI strategy's (issue 19), with its plan made in the job's thread (the neural one's models and predictions). */
  strategy?: { config: StrategyBacktestConfig; plan: StrategyBacktestPlan };
  rules: EngineRules;
  userId: string;
  peaks?: RecordedPeak[];
  /** Name the strategy's signals and their events as the live signal engine does (the house signals). */
  liveSignalIds: boolean;
}

export type BacktestThreadReply =
  | { id: number; type: 'progress'; fraction: number }
  | { id: number; type: 'done'; run: BacktestRun }
  | { id: number; type: 'error'; message: string };

const simulations = new Map<string, MarketSimulation>();
/** Progress messages a run posts at most (the job runner throttles what it publishes anyway). */
const PROGRESS_STEPS = 100;

parentPort?.on('message', (request: BacktestThreadRequest) => {
  const port = parentPort!;
  try {
    const name = request.key.join(',');
    let sim = simulations.get(name);
    if (!sim) {
      simulations.clear();
      sim = new MarketSimulation(Uint32Array.from(request.key));
      simulations.set(name, sim);
    }
    const market: BacktestMarket = { ...(request.liveSignalIds ? simulationMarket(sim, liveSignalIdOf, liveSignalEventIdOf) : simulationMarket(sim)), ticks: cachedTicks(sim, () => request.lastTick) };
    let posted = -1;
    const options = {
      rules: request.rules,
      userId: request.userId,
      ...(request.peaks ? { peaks: request.peaks } : {}),
      onProgress: (fraction: number) => {
        const step = Math.floor(fraction * PROGRESS_STEPS);
        if (step === posted) return;
        posted = step;
        port.postMessage({ id: request.id, type: 'progress', fraction } satisfies BacktestThreadReply);
      },
    };
    let run: BacktestRun;
    if (request.strategy) {
      const { result, trades } = runPlannedStrategyBacktest(request.strategy.config, market, { ...options, signalIds: liveStrategySignalIds }, request.strategy.plan);
      run = { result, trades };
    } else if (request.config) run = runBacktest(request.config, market, options);
    else throw new Error('a backtest thread request names no backtest');
    port.postMessage({ id: request.id, type: 'done', run } satisfies BacktestThreadReply);
  } catch (error) {
    port.postMessage({ id: request.id, type: 'error', message: error instanceof Error ? error.message : String(error) } satisfies BacktestThreadReply);
  }
});
