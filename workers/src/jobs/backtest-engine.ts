/**
 * The engine the backtest jobs run (backtest-jobs.ts `BacktestEngine`), over this process's simulated
 * market: the path's ticks up to now (never past the clock: SimulatedMarketData's bound) and its charts,
 * the same the paper bot trades on, through the backtester's caches (domain/src/backtest/market.ts).
 *
 * So that a backtest of a period the bot traded gives the bot's very trades (compare-paper.ts):
 * - it trades as the owner (trade ids derive from the user and the signal, as the bot's);
 * - the house-signals strategy names its signals as the live signal engine does (signalIdFor), so a
 *   backtest trade and the bot's trade on the same signal share an id;
 * - the drawdown rule's peaks are the live risk monitor's (PortfolioPeakRecorded in the period) when
 *   the owner's portfolio recorded any, as the paper replay does; otherwise the engine's own.
 *
 * A backtest is one synchronous pass (seconds for six months): the job runner's lease renewals and the
 * progress messages wait for it, so the job's lease (JOB_LEASE_MS, 30 s) must outlast the longest run
 * (a year of 5-minute candles takes well under that here). A walk-forward runs window by window on
 * the worker-thread pool when one is given, else here, yielding to the event loop between windows.
 */
import { validateWalkForwardRequest, type BacktestRun, type WalkForwardReport } from '@papertrade/domain/backtest/contracts';
import { cachedCharts, cachedTicks } from '@papertrade/domain/backtest/market';
import { runBacktest, type BacktestMarket } from '@papertrade/domain/backtest/run-backtest';
import { evaluateWindow, walkForwardReport, windowJobs } from '@papertrade/domain/backtest/walk-forward';
import type { WalkForwardConfig } from '@papertrade/domain/backtest/backtest';
import type { RecordedPeak } from '@papertrade/domain/trading/engine/paper-engine';
import type { MarketData } from '@papertrade/platform/market/market-data';
import { SimulatedMarketData } from '@papertrade/platform/market/simulated-market-data';
import { signalIdFor } from '../signal-engine';
import type { BacktestEngine } from './backtest-jobs';

export const SIMULATED_MARKET_REQUIRED = "Backtests replay the simulated market's price path; this deployment reads another market (MARKET_DATA=simulated is needed)";

/** Yields to the event loop (a lease renewal or a progress message due goes out). */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs the walk-forward's windows (on worker threads, in parallel): what backtest-engine.ts uses when given. */
export type WindowRunner = (jobs: ReturnType<typeof windowJobs>, progress: (fraction: number) => void, signal: AbortSignal) => Promise<ReturnType<typeof evaluateWindow>[]>;

export function inProcessBacktestEngine(marketData: MarketData, windowRunner?: WindowRunner): BacktestEngine {
  const simulated = marketData instanceof SimulatedMarketData ? marketData : null;
  const marketFor = (strategyId: string): BacktestMarket => {
    if (!simulated) throw new Error(SIMULATED_MARKET_REQUIRED);
    const sim = simulated.simulation;
    return {
      ticks: cachedTicks(sim, () => simulated.ticks.lastTick()),
      charts: cachedCharts(sim),
      ...(strategyId === 'house-signals' ? { signalIdOf: signalIdFor } : {}),
    };
  };
  return {
    async backtest({ userId, config, profile, peaks }, progress, signal): Promise<BacktestRun> {
      const market = marketFor(config.strategyId);
      await breathe();
      if (signal.aborted) throw signal.reason as Error;
      return runBacktest(
        { ...config, startMs: Date.parse(config.startDate), endMs: Date.parse(config.endDate) },
        market,
        { rules: { profile }, userId, onProgress: progress, ...(peaks && peaks.length > 0 ? { peaks } : {}) },
      );
    },
    async walkForward({ userId, config, profile }, progress, signal): Promise<WalkForwardReport> {
      const market = marketFor(config.strategyId);
      const request = walkForwardRequestOf(config);
      const jobs = windowJobs(request, { profile }, userId);
      if (windowRunner) return walkForwardReport(request, await windowRunner(jobs, progress, signal));
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
