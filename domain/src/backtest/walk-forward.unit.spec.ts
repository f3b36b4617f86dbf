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
import { evaluateWindow, objectiveOf, parameterSets, runWalkForward, walkForwardReport, walkForwardWindows, windowJobs } from './walk-forward';

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
    }
    const report = walkForwardReportSchema.parse(walkForwardReport(request, outcomes));
    const chained = (1 + outcomes[0]!.window.outOfSample.figures.totalReturn) * (1 + outcomes[1]!.window.outOfSample.figures.totalReturn) - 1;
    expect(report.outOfSampleSummary.totalReturn).to.be.closeTo(chained, 1e-6);
    expect(report.stitchedEquity.at(-1)!.equity).to.be.closeTo(10_000 * (1 + chained), 0.01);
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
