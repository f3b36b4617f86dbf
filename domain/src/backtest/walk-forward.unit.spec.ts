/**
 * Walk-forward: the windows tile the period's end; the parameter sets are the defaults then a
 * deterministic spread within the bounds and the order rules; each window keeps the set with the best
 * in-sample objective (checked against separate runs of every set) and tests it out of sample; the
 * report chains the out-of-sample parts.
 */
import { expect } from 'chai';
import { MarketSimulation } from '../market/simulation';
import { DEFAULT_RISK_PROFILE } from '../trading/contracts';
import { findStrategy, strategyIds, validateWalkForwardRequest, walkForwardReportSchema } from './contracts';
import { simulationMarket } from './market';
import { runBacktestDetail } from './run-backtest';
import { evaluateWindow, objectiveOf, parameterSets, runWalkForward, walkForwardReport, walkForwardWindows, windowJobs, type WindowOutcome } from './walk-forward';
import type { BacktestFigures } from './contracts';

const DAY = 86_400_000;

describe('walk-forward', function () {
  this.timeout(300_000);

  it('cuts rolling windows whose out-of-sample parts tile the end of the period', function () {
    const s = Date.UTC(2025, 0, 1);
    const e = s + 360 * DAY;
    const w = walkForwardWindows(s, e, 12, 0.75);
    expect(w).to.have.length(12);
    expect(w[0]!.inSampleStartMs).to.equal(s);
    expect(w[11]!.outOfSampleEndMs).to.equal(e);
    for (const x of w) {
      expect(x.inSampleEndMs).to.equal(x.outOfSampleStartMs);
      expect((x.inSampleEndMs - x.inSampleStartMs) / (x.outOfSampleEndMs - x.outOfSampleStartMs)).to.be.closeTo(3, 0.01);
    }
    for (let k = 1; k < 12; k++) expect(w[k]!.outOfSampleStartMs).to.equal(w[k - 1]!.outOfSampleEndMs);
  });

  it('draws up to 100 distinct sets: the defaults first, every value within bounds and steps, fast < slow; the same each time', function () {
    for (const id of strategyIds) {
      const strategy = findStrategy(id)!;
      const sets = parameterSets(id, 100);
      expect(sets.length, id).to.equal(100);
      expect(sets[0]).to.deep.equal(Object.fromEntries(Object.entries(strategy.parameters).map(([k, v]) => [k, v.default])));
      expect(new Set(sets.map((x) => JSON.stringify(x))).size).to.equal(100);
      for (const set of sets) {
        for (const [name, b] of Object.entries(strategy.parameters)) {
          expect(set[name]).to.be.within(b.min, b.max);
          if (b.step === 1) expect(Number.isInteger(set[name])).to.equal(true);
        }
        if ('fastPeriod' in set) expect(set.fastPeriod!).to.be.lessThan(set.slowPeriod!);
      }
      expect(parameterSets(id, 100)).to.deep.equal(sets);
    }
  });

  it('draws the sets from a Halton sequence (bases 2, 3, 5 per parameter), each value rounded to its step, skipping a set out of order', function () {
    // RSI period 2..50, oversold 5..45, overbought 55..95: the n-th set is min + halton(n, base) x range.
    // n = 1: 2 + 0.5 x 48 = 26, 5 + 40 / 3 = 18.3, 55 + 0.2 x 40 = 63; n = 2: 14, 31.7, 71; n = 3: 38, 9.4, 79; n = 4: 8, 22.8, 87.
    expect(parameterSets('rsi-mean-reversion', 5)).to.deep.equal([
      { rsiPeriod: 14, oversold: 30, overbought: 70 },
      { rsiPeriod: 26, oversold: 18, overbought: 63 },
      { rsiPeriod: 14, oversold: 32, overbought: 71 },
      { rsiPeriod: 38, oversold: 9, overbought: 79 },
      { rsiPeriod: 8, oversold: 23, overbought: 87 },
    ]);
    // MACD fast 2..50, slow 5..100, signal 2..50: n = 3 gives fast 38, slow 16, not fast < slow, so it is skipped.
    expect(parameterSets('macd-momentum', 4)).to.deep.equal([
      { fastPeriod: 12, slowPeriod: 26, signalPeriod: 9 },
      { fastPeriod: 26, slowPeriod: 37, signalPeriod: 12 },
      { fastPeriod: 14, slowPeriod: 68, signalPeriod: 21 },
      { fastPeriod: 8, slowPeriod: 47, signalPeriod: 40 },
    ]);
  });

  it('keeps the best in-sample set by the objective and tests it out of sample; the report chains the parts', function () {
    const sim = new MarketSimulation(Uint32Array.from([18, 5, 2, 3, 4, 5, 6, 7]));
    const market = simulationMarket(sim);
    const rules = { profile: DEFAULT_RISK_PROFILE };
    const request = validateWalkForwardRequest({ strategyId: 'rsi-mean-reversion', startDate: '2025-04-01', endDate: '2025-04-09', windows: 2, parameterSets: 4, objective: 'totalReturn' }, Date.UTC(2026, 0, 1));
    const jobs = windowJobs(request, rules);
    const outcomes = jobs.map((job) => evaluateWindow(job, market));
    for (const [k, job] of jobs.entries()) {
      const values = job.sets.map((parameters) => objectiveOf(runBacktestDetail({ strategyId: job.strategyId, symbol: job.symbol, initialCapital: job.initialCapital, parameters, startMs: job.window.inSampleStartMs, endMs: job.window.inSampleEndMs }, market, { rules }).result, 'totalReturn')!);
      const best = values.indexOf(Math.max(...values));
      expect(outcomes[k]!.window.inSample.parameters, `window ${k}`).to.deep.equal(job.sets[best]);
      expect(outcomes[k]!.window.inSample.objectiveValue).to.equal(values[best]);
      const oos = runBacktestDetail({ strategyId: job.strategyId, symbol: job.symbol, initialCapital: job.initialCapital, parameters: job.sets[best]!, startMs: job.window.outOfSampleStartMs, endMs: job.window.outOfSampleEndMs }, market, { rules });
      expect(outcomes[k]!.window.outOfSample.figures.totalReturn).to.equal(oos.result.totalReturn);
      expect(outcomes[k]!.window.outOfSample.objectiveValue).to.equal(oos.result.totalReturn);
    }
    const report = walkForwardReportSchema.parse(walkForwardReport(request, outcomes));
    const chained = (1 + outcomes[0]!.window.outOfSample.figures.totalReturn) * (1 + outcomes[1]!.window.outOfSample.figures.totalReturn) - 1;
    expect(report.outOfSampleSummary.totalReturn).to.be.closeTo(chained, 1e-6);
    expect(report.stitchedEquity.at(-1)!.equity).to.be.closeTo(10_000 * (1 + chained), 0.01);
  });

  describe('the report from the windows\' outcomes', function () {
    const request = validateWalkForwardRequest({ strategyId: 'rsi-mean-reversion', startDate: '2025-04-01', endDate: '2025-04-09', windows: 2, parameterSets: 4, objective: 'totalReturn' }, Date.UTC(2026, 0, 1));
    const figures = (f: Partial<BacktestFigures> & { metrics?: Partial<BacktestFigures['performanceMetrics']> }): BacktestFigures => ({
      totalReturn: f.totalReturn ?? 0,
      winRate: f.winRate ?? 0,
      maxDrawdown: f.maxDrawdown ?? 0,
      totalTrades: f.totalTrades ?? 0,
      finalBalance: f.finalBalance ?? 10_000,
      sharpeRatio: f.sharpeRatio ?? null,
      performanceMetrics: { winningTrades: 0, losingTrades: 0, averageWin: 0, averageLoss: 0, profitFactor: null, volatility: 0, ...f.metrics },
    });
    const T = Date.UTC(2025, 3, 5);
    const outcome = (index: number, inSample: BacktestFigures, isObjective: number | null, oosObjective: number | null, time: number[], equity: number[], pnl: number[]): WindowOutcome => ({
      window: {
        index,
        inSample: { start: '2025-04-01T00:00:00.000Z', end: '2025-04-05T00:00:00.000Z', figures: inSample, parameters: { period: index }, objectiveValue: isObjective, setsTried: 4 },
        outOfSample: { start: '2025-04-05T00:00:00.000Z', end: '2025-04-09T00:00:00.000Z', figures: figures({}), objectiveValue: oosObjective },
      },
      oosTime: Float64Array.from(time),
      oosEquity: Float64Array.from(equity),
      oosClosedPnl: pnl,
    });
    const first = outcome(0, figures({ totalReturn: 0.1, winRate: 0.5, maxDrawdown: 0.02, totalTrades: 3, sharpeRatio: 1.5, metrics: { winningTrades: 2, losingTrades: 1, averageWin: 10.005, averageLoss: -5, profitFactor: null, volatility: 0.3 } }), 0.5, 0.25, [T, T + 3_600_000], [10_000, 11_000], [1_000]);
    const second = outcome(1, figures({ totalReturn: 0.3, winRate: 0.25, maxDrawdown: 0.04, totalTrades: 5, sharpeRatio: null, metrics: { winningTrades: 3, losingTrades: 2, averageWin: 20, averageLoss: -7.5, profitFactor: 2, volatility: 0.5 } }), null, 0.1, [T + 7_200_000, T + 10_800_000], [10_000, 9_000], [-1_000]);

    it('chains the out-of-sample parts in window order, each scaled to start where the one before ended', function () {
      const report = walkForwardReport(request, [second, first]);
      expect(report.windows.map((w) => w.index)).to.deep.equal([0, 1]);
      expect(report.stitchedEquity.map((p) => p.equity)).to.deep.equal([10_000, 11_000, 11_000, 9_900]);
      // -1,000 scaled by 1.1: the closed trades are 1,000 and -1,100.
      expect(report.outOfSampleSummary).to.deep.include({ totalReturn: -0.01, finalBalance: 9_900, totalTrades: 2 });
      expect(report.outOfSampleSummary.performanceMetrics).to.deep.include({ winningTrades: 1, losingTrades: 1, averageWin: 1_000, averageLoss: -1_100 });
      // A window without out-of-sample samples leaves the level where it was.
      const empty = outcome(2, figures({}), null, null, [], [], []);
      const third = outcome(3, figures({}), null, null, [T + 14_400_000], [10_000], []);
      expect(walkForwardReport(request, [first, empty, third]).outOfSampleSummary).to.deep.include({ finalBalance: 11_000, totalReturn: 0.1 });
    });

    it('averages the in-sample figures (trades and wins summed, undefined ratios left out) and divides the objectives\' means for the efficiency', function () {
      const report = walkForwardReport(request, [first, second]);
      expect(report.inSampleSummary).to.deep.equal({
        totalReturn: 0.2,
        winRate: 0.375,
        maxDrawdown: 0.03,
        totalTrades: 8,
        finalBalance: 12_000,
        sharpeRatio: 1.5,
        performanceMetrics: { winningTrades: 5, losingTrades: 3, averageWin: 15, averageLoss: -6.25, profitFactor: 2, volatility: 0.4 },
      });
      // In-sample objective 0.5 (the other window had none); out of sample 0.25 and 0.1: 0.175 / 0.5.
      expect(report.efficiency).to.equal(0.35);
      expect(report).to.deep.include({ strategyId: 'rsi-mean-reversion', symbol: request.symbol, objective: 'totalReturn' });
      const none = outcome(0, figures({ totalReturn: -0.2 }), null, null, [T], [10_000], []);
      expect(walkForwardReport(request, [none]).inSampleSummary).to.deep.include({ sharpeRatio: null, totalReturn: -0.2, finalBalance: 8_000 });
      expect(walkForwardReport(request, [none]).inSampleSummary.performanceMetrics.profitFactor).to.equal(null);
      expect(walkForwardReport(request, [none]).efficiency, 'no objective in-sample').to.equal(null);
      expect(walkForwardReport(request, [outcome(0, figures({}), 0.5, null, [T], [10_000], [])]).efficiency, 'none out of sample').to.equal(null);
      expect(walkForwardReport(request, [outcome(0, figures({}), 0, 0.3, [T], [10_000], [])]).efficiency, 'an in-sample mean of 0').to.equal(null);
      expect(walkForwardReport(request, []).inSampleSummary).to.deep.include({ totalReturn: 0, totalTrades: 0, finalBalance: 10_000 });
    });

    it('reads each objective off the figures; a profit factor with wins and no loss is the largest value, with neither none', function () {
      const f = figures({ totalReturn: 0.12, sharpeRatio: 0.8, metrics: { profitFactor: 1.7, winningTrades: 2 } });
      expect(objectiveOf(f, 'totalReturn')).to.equal(0.12);
      expect(objectiveOf(f, 'sharpeRatio')).to.equal(0.8);
      expect(objectiveOf(f, 'profitFactor')).to.equal(1.7);
      expect(objectiveOf(figures({ metrics: { winningTrades: 1 } }), 'profitFactor')).to.equal(Number.MAX_VALUE);
      expect(objectiveOf(figures({}), 'profitFactor')).to.equal(null);
    });

    it('the last window ends at the period\'s end, the others on a candle boundary', function () {
      const s = Date.UTC(2025, 0, 1);
      const e = s + 10 * DAY + 7 * 60_000 + 123;
      const w = walkForwardWindows(s, e, 3, 0.5);
      expect(w[2]!.outOfSampleEndMs).to.equal(e);
      expect(w[1]!.outOfSampleEndMs).to.not.equal(e);
      expect(w[0]!.outOfSampleEndMs % 60_000).to.equal(0);
    });
  });

  it("reports its progress as it goes: a window's sets done day by day up to all of them, the whole run from 0 up to exactly 1", function () {
    const market = simulationMarket(new MarketSimulation(Uint32Array.from([18, 5, 2, 3, 4, 5, 6, 7])));
    const rules = { profile: DEFAULT_RISK_PROFILE };
    const request = validateWalkForwardRequest({ strategyId: 'macd-momentum', startDate: '2025-04-01', endDate: '2025-04-17', windows: 2, parameterSets: 5, objective: 'sharpeRatio' }, Date.UTC(2026, 0, 1));
    const [job] = windowJobs(request, rules);
    const done: number[] = [];
    evaluateWindow(job!, market, (n) => done.push(n));
    expect(done.length, 'a report per day of candles at least').to.be.greaterThan(5);
    expect(done.every((n, k) => Number.isInteger(n) && n >= 0 && n <= 5 && (k === 0 || n >= done[k - 1]!))).to.equal(true);
    expect(done.at(-1)).to.equal(5);
    expect(done[0]).to.be.below(5);

    const fractions: number[] = [];
    runWalkForward(request, market, rules, (f) => fractions.push(f));
    expect(fractions.length).to.be.greaterThan(10);
    expect(fractions.every((f, k) => f >= 0 && f <= 1 && (k === 0 || f >= fractions[k - 1]!))).to.equal(true);
    expect(fractions.at(-1)).to.equal(1);
    expect(fractions.filter((f) => f === 0.5).length, 'the first window done is half of the run').to.be.greaterThan(0);
  });
});
