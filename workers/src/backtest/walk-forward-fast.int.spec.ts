/**
 * The walk-forward's fast path changes no number: its report, on the pool's two threads and in one
 * thread, equals the report of the plain path, built here from full backtests of every set (curves,
 * trades, outcomes kept), every coin quoted at each signal as the live bot does, over the market
 * without the backtest caches (the path's own ticks, the simulation's own charts, botMarketAt at each
 * fill): the fast path has quoteHeldOnly, figures-only in-sample runs taken together a day at a time
 * (runBacktestsTogether), the month columns and markets kept per fill time, and the pool's window blocks.
 */
import { expect } from 'chai';
import { validateWalkForwardRequest, type BacktestFigures, type StrategyId } from '@papertrade/domain/backtest/contracts';
import { simulationMarket } from '@papertrade/domain/backtest/market';
import { runBacktestDetail, type BacktestMarket } from '@papertrade/domain/backtest/run-backtest';
import { objectiveOf, runWalkForward, walkForwardReport, windowJobs, type WindowOutcome } from '@papertrade/domain/backtest/walk-forward';
import { MarketSimulation } from '@papertrade/domain/market/simulation';
import { DEFAULT_RISK_PROFILE } from '@papertrade/domain/trading/contracts';
import { pathTicks } from '@papertrade/domain/trading/engine/price-ticks';
import { WalkForwardPool } from './walk-forward-pool';

const KEY = Uint32Array.from([18, 11, 2, 3, 4, 5, 6, 7]);
const NOW = Date.UTC(2026, 0, 1);
const rules = { profile: DEFAULT_RISK_PROFILE };

function figuresOf(result: ReturnType<typeof runBacktestDetail>['result']): BacktestFigures {
  const { equityCurve: _e, drawdownCurve: _d, fills: _f, signals: _s, refusedSignals: _r, ...figures } = result;
  return figures;
}

/** The walk-forward the plain way: every set a full run over the uncached market, the best by the objective (the first of equals), out of sample. */
function plainWalkForward(request: ReturnType<typeof validateWalkForwardRequest>, sim: MarketSimulation) {
  const market: BacktestMarket = { ticks: pathTicks(sim.path), charts: (coinId, days, endMs) => sim.chart(coinId, days, endMs) };
  const outcomes: WindowOutcome[] = windowJobs(request, rules).map((job) => {
    const w = job.window;
    const base = { strategyId: job.strategyId, symbol: job.symbol, initialCapital: job.initialCapital };
    let best = 0;
    let bestValue: number | null = null;
    let bestFigures: BacktestFigures | null = null;
    job.sets.forEach((parameters, i) => {
      const run = runBacktestDetail({ ...base, parameters, startMs: w.inSampleStartMs, endMs: w.inSampleEndMs }, market, { rules, quoteEveryCoin: true });
      expect(run.trades.length).to.equal(run.result.fills);
      const figures = figuresOf(run.result);
      const value = objectiveOf(figures, job.objective);
      if (bestFigures === null || (value !== null && (bestValue === null || value > bestValue))) {
        best = i;
        bestValue = value;
        bestFigures = figures;
      }
    });
    const parameters = job.sets[best]!;
    const oos = runBacktestDetail({ ...base, parameters, startMs: w.outOfSampleStartMs, endMs: w.outOfSampleEndMs }, market, { rules, quoteEveryCoin: true });
    const oosFigures = figuresOf(oos.result);
    const finite = (x: number | null) => (x === null || !Number.isFinite(x) || x === Number.MAX_VALUE ? null : x);
    return {
      window: {
        index: w.index,
        inSample: { start: new Date(w.inSampleStartMs).toISOString(), end: new Date(w.inSampleEndMs).toISOString(), figures: bestFigures!, parameters, objectiveValue: bestValue === Number.MAX_VALUE ? null : bestValue, setsTried: job.sets.length },
        outOfSample: { start: new Date(w.outOfSampleStartMs).toISOString(), end: new Date(w.outOfSampleEndMs).toISOString(), figures: oosFigures, objectiveValue: finite(objectiveOf(oosFigures, job.objective)) },
      },
      oosTime: oos.equity.time.slice(0, oos.equity.length),
      oosEquity: oos.equity.equity.slice(0, oos.equity.length),
      oosClosedPnl: oos.closedPnl,
    };
  });
  return walkForwardReport(request, outcomes);
}

describe('walk-forward fast path', function () {
  this.timeout(600_000);
  let pool: WalkForwardPool;
  before(() => {
    pool = new WalkForwardPool(2);
  });
  after(async () => {
    await pool?.close();
  });

  for (const [strategyId, objective] of [
    ['macd-momentum', 'sharpeRatio'],
    ['rsi-mean-reversion', 'totalReturn'],
  ] as Array<[StrategyId, 'sharpeRatio' | 'totalReturn']>) {
    it(`${strategyId}: the pool's and the one-thread report equal the plain path's, number for number`, async function () {
      const request = validateWalkForwardRequest({ strategyId, symbol: 'ETH', startDate: '2025-05-01', endDate: '2025-05-13', windows: 3, parameterSets: 5, objective }, NOW);
      const plain = plainWalkForward(request, new MarketSimulation(KEY));
      expect(plain.inSampleSummary.totalTrades, 'the in-sample runs trade').to.be.greaterThan(0);
      expect(plain.outOfSampleSummary.totalTrades, 'the out-of-sample runs trade').to.be.greaterThan(0);
      expect(runWalkForward(request, simulationMarket(new MarketSimulation(KEY)), rules)).to.deep.equal(plain);
      expect(await pool.run(request, rules, KEY)).to.deep.equal(plain);
    });
  }
});
