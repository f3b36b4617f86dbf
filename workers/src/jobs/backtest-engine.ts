/**
 * The engine the backtest jobs run (backtest-jobs.ts `BacktestEngine`), over this process's simulated
 * market: the path's ticks up to now (never past the clock: SimulatedMarketData's bound) and its charts,
 * the same the paper bot trades on, through the backtester's caches (domain/src/backtest/market.ts).
 *
 * So that a backtest of a period the bot traded gives the bot's very trades (compare-paper.ts):
 * - it trades as the owner (trade ids derive from the user and the signal, as the bot's);
 * - the house-signals strategy names its signals, and their events, as the live signal engine does
 *   (workers/src/backtest/live-ids.ts), so a backtest trade and the bot's trade on the same signal share an id;
 * - the drawdown rule's peaks are the live risk monitor's (PortfolioPeakRecorded in the period) when
 *   the backtest replays the paper account (backtest-jobs.ts paperHistory); otherwise the engine's own.
 *
 * A backtest is one synchronous pass (seconds for six months). With a thread (backtest-runner-thread.ts,
 * what the workers service uses) it runs there, so the job's lease renewals and JOB_PROGRESS messages
 * go out meanwhile; without one (tests that call the engine directly) it runs here. A walk-forward
 * runs its windows on the worker-thread pool when one is given, else here, yielding to the event loop
 * between windows.
 */
import { validateWalkForwardRequest, type BacktestRun, type WalkForwardReport } from '@papertrade/domain/backtest/contracts';
import { cachedTicks, simulationMarket } from '@papertrade/domain/backtest/market';
import { runBacktest, type BacktestMarket } from '@papertrade/domain/backtest/run-backtest';
import { isStrategyBacktestId, planStrategyBacktest, runPlannedStrategyBacktest, type StrategyModelPort } from '@papertrade/domain/strategies/strategy-backtest';
import { evaluateWindow, walkForwardReport, windowJobs } from '@papertrade/domain/backtest/walk-forward';
import type { WalkForwardConfig } from '@papertrade/domain/backtest/backtest';
import type { RecordedPeak } from '@papertrade/domain/trading/engine/paper-engine';
import type { MarketData } from '@papertrade/platform/market/market-data';
import { SimulatedMarketData } from '@papertrade/platform/market/simulated-market-data';
import { liveSignalEventIdOf, liveSignalIdOf, liveStrategySignalIds } from '../backtest/live-ids';
import type { BacktestEngine } from './backtest-jobs';
import type { BacktestRunnerThread } from './backtest-runner-thread';
import type { WalkForwardPool } from '../backtest/walk-forward-pool';

export const SIMULATED_MARKET_REQUIRED = "Backtests replay the simulated market's price path; this deployment reads another market (MARKET_DATA=simulated is needed)";

/** Yields to the event loop (a lease renewal or a progress message due goes out). */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Where a walk-forward's windows run in parallel (workers/src/backtest/walk-forward-pool.ts). */
export type WindowPool = Pick<WalkForwardPool, 'run'>;

export interface BacktestEngineOptions {
  /** Where single backtests run (off the event loop); absent: in this thread. */
  thread?: BacktestRunnerThread;
  /** The stored models the neural strategy's backtest reads (workers/src/strategies/strategy-models.ts); absent: it fails saying so. */
  models?: StrategyModelPort;
  /** Where a walk-forward's windows run (in parallel, on worker threads); absent: in this thread, window by window. */
  walkForwardPool?: WindowPool;
}

export function inProcessBacktestEngine(marketData: MarketData, options: BacktestEngineOptions = {}): BacktestEngine {
  const { thread, walkForwardPool, models } = options;
  const simulated = marketData instanceof SimulatedMarketData ? marketData : null;
  const marketFor = (strategyId: string): BacktestMarket => {
    if (!simulated) throw new Error(SIMULATED_MARKET_REQUIRED);
    const sim = simulated.simulation;
    const live = strategyId === 'house-signals';
    // The backtester's caches over the path, its ticks bounded by this process's clock (never after now).
    return { ...(live ? simulationMarket(sim, liveSignalIdOf, liveSignalEventIdOf) : simulationMarket(sim)), ticks: cachedTicks(sim, () => simulated.ticks.lastTick()) };
  };
  return {
    async backtest({ userId, config, profile, peaks }, progress, signal): Promise<BacktestRun> {
      const market = marketFor(config.strategyId);
      const recorded = peaks && peaks.length > 0 ? { peaks: [...peaks] } : {};
      const { strategyId } = config;
      if (isStrategyBacktestId(strategyId)) {
        // An AI strategy's backtest (issue 19): its plan here (the neural one awaits its models'
        // predictions), the run on the thread as every backtest's.
        const strategy = { ...config, strategyId };
        const plan = await planStrategyBacktest(strategy, market.ticks, { userId, ...(models ? { models } : {}) });
        if (signal.aborted) throw signal.reason as Error;
        if (thread && simulated) return thread.run({ key: Array.from(simulated.key), lastTick: simulated.ticks.lastTick(), strategy: { config: strategy, plan }, rules: { profile }, userId, liveSignalIds: false, ...recorded }, progress, signal);
        await breathe();
        if (signal.aborted) throw signal.reason as Error;
        const { result, trades } = runPlannedStrategyBacktest(strategy, market, { rules: { profile }, userId, onProgress: progress, signalIds: liveStrategySignalIds, ...recorded }, plan);
        return { result, trades };
      }
      const run = { ...config, strategyId, startMs: Date.parse(config.startDate), endMs: Date.parse(config.endDate) };
      if (thread && simulated) {
        const request = { key: Array.from(simulated.key), lastTick: simulated.ticks.lastTick(), config: run, rules: { profile }, userId, liveSignalIds: config.strategyId === 'house-signals', ...recorded };
        return thread.run(request, progress, signal);
      }
      await breathe();
      if (signal.aborted) throw signal.reason as Error;
      return runBacktest(run, market, { rules: { profile }, userId, onProgress: progress, ...recorded });
    },
    async walkForward({ userId, config, profile }, progress, signal): Promise<WalkForwardReport> {
      const market = marketFor(config.strategyId);
      const request = walkForwardRequestOf(config);
      if (walkForwardPool && simulated) {
        // The pool cannot stop a window under way: a run whose claim was lost finishes and is thrown away.
        const report = await walkForwardPool.run(request, { profile }, simulated.key, progress, userId);
        if (signal.aborted) throw signal.reason as Error;
        return report;
      }
      const jobs = windowJobs(request, { profile }, userId);
      const total = jobs.reduce((a, j) => a + j.sets.length, 0);
      let done = 0;
      const outcomes = [];
      for (const job of jobs) {
        await breathe();
        if (signal.aborted) throw signal.reason as Error;
        outcomes.push(evaluateWindow(job, market, (n) => progress((done + n) / total)));
        done += job.sets.length;
      }
      return walkForwardReport(request, outcomes);
    },
  };
}

/** The stored settings as the engine's validated request (they were validated when asked; the clock then is the period's end). */
export function walkForwardRequestOf(config: WalkForwardConfig) {
  const endMs = Date.parse(config.endDate);
  return validateWalkForwardRequest({ ...config, startDate: config.startDate, endDate: config.endDate }, endMs + 60_000);
}

export type { RecordedPeak };
