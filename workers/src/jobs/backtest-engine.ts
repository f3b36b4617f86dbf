/**
 * The engine the backtest jobs run (backtest-jobs.ts `BacktestEngine`), over this process's simulated
 * market: the path's ticks up to now (SimulatedMarketData.ticks never reads past the clock) and its
 * charts, the same the paper bot trades on. A backtest runs here, in the job's process; a walk-forward
 * (many backtests per window) on the worker-thread pool when one is given.
 *
 * A backtest is one synchronous pass (seconds for six months): the job runner's lease renewals and
 * the progress messages wait for it, so the job's lease (JOB_LEASE_MS, 30 s) must outlast the longest
 * run (a year of 5-minute candles takes well under that here).
 */
import { runBacktest } from '@papertrade/domain/backtest/run-backtest';
import type { MarketData } from '@papertrade/platform/market/market-data';
import { SimulatedMarketData } from '@papertrade/platform/market/simulated-market-data';
import type { BacktestEngine } from './backtest-jobs';

export const SIMULATED_MARKET_REQUIRED = 'Backtests replay the simulated market\'s price path; this deployment reads another market (MARKET_DATA=simulated is needed)';

/** Yields to the event loop (so a renewal or progress message due goes out before a long pass). */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

export function inProcessBacktestEngine(marketData: MarketData, walkForward?: BacktestEngine['walkForward']): BacktestEngine {
  const simulated = marketData instanceof SimulatedMarketData ? marketData : null;
  return {
    async backtest({ userId, config, profile }, progress, signal) {
      if (!simulated) throw new Error(SIMULATED_MARKET_REQUIRED);
      await breathe();
      if (signal.aborted) throw signal.reason as Error;
      const sim = simulated.simulation;
      return runBacktest(
        { ...config, startMs: Date.parse(config.startDate), endMs: Date.parse(config.endDate) },
        { ticks: simulated.ticks, charts: (coinId, days, endMs) => sim.chart(coinId, days, endMs) },
        { rules: { profile }, userId, onProgress: progress },
      );
    },
    async walkForward(input, progress, signal) {
      if (!simulated) throw new Error(SIMULATED_MARKET_REQUIRED);
      if (!walkForward) throw new Error('Walk-forward runs are not available in this process');
      return walkForward(input, progress, signal);
    },
  };
}
