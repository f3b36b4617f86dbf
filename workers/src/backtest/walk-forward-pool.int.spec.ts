/**
 * The walk-forward pool: the windows on two threads give, number for number, the report of the same
 * walk-forward run in this thread; each window picked the best in-sample set by its objective; the
 * out-of-sample parts tile the period's end and chain into the stitched curve. Progress reaches 1.
 */
import { expect } from 'chai';
import { walkForwardReportSchema, validateWalkForwardRequest } from '@papertrade/domain/backtest/contracts';
import { simulationMarket } from '@papertrade/domain/backtest/market';
import { runWalkForward, walkForwardWindows } from '@papertrade/domain/backtest/walk-forward';
import { MarketSimulation } from '@papertrade/domain/market/simulation';
import { DEFAULT_RISK_PROFILE } from '@papertrade/domain/trading/contracts';
import { WalkForwardPool } from './walk-forward-pool';

const KEY = Uint32Array.from([18, 3, 2, 3, 4, 5, 6, 7]);
const NOW = Date.UTC(2026, 0, 1);

describe('walk-forward on worker threads', function () {
  this.timeout(300_000);
  let pool: WalkForwardPool;
  before(() => {
    pool = new WalkForwardPool(2);
  });
  after(async () => {
    await pool?.close();
  });

  it('is ready once both threads have loaded', async function () {
    await pool.ready();
    await pool.ready(); // and stays so
  });

  it('gives the one-thread report, window for window, with progress to 1', async function () {
    const request = validateWalkForwardRequest({ strategyId: 'ma-crossover', symbol: 'ETH', startDate: '2025-03-01', endDate: '2025-03-21', windows: 3, parameterSets: 6, objective: 'totalReturn' }, NOW);
    const rules = { profile: DEFAULT_RISK_PROFILE };
    const progress: number[] = [];
    const threaded = await pool.run(request, rules, KEY, (f) => progress.push(f));
    const local = runWalkForward(request, simulationMarket(new MarketSimulation(KEY)), rules);
    walkForwardReportSchema.parse(threaded);
    expect(threaded).to.deep.equal(local);
    expect(progress.at(-1)).to.equal(1);
    expect(threaded.windows).to.have.length(3);
    const bounds = walkForwardWindows(request.startMs, request.endMs, 3, 0.75);
    expect(bounds.at(-1)!.outOfSampleEndMs).to.equal(request.endMs);
    for (let k = 1; k < 3; k++) expect(bounds[k]!.outOfSampleStartMs).to.equal(bounds[k - 1]!.outOfSampleEndMs);
    for (const w of threaded.windows) {
      expect(w.inSample.setsTried).to.equal(6);
      expect(w.inSample.end).to.equal(w.outOfSample.start);
    }
    expect(threaded.stitchedEquity[0]!.time >= threaded.windows[0]!.outOfSample.start).to.equal(true);
    expect(threaded.stitchedEquity.at(-1)!.equity).to.equal(threaded.outOfSampleSummary.finalBalance);
  });

  it('starts each thread on its own block\'s first window (each thread computes the path of one stretch of the period)', async function () {
    const takes: Array<[number, number]> = [];
    const traced = new WalkForwardPool(2, 64, (slot, window) => takes.push([slot, window]));
    try {
      await traced.ready();
      const request = validateWalkForwardRequest({ strategyId: 'ma-crossover', symbol: 'ETH', startDate: '2025-03-01', endDate: '2025-03-21', windows: 6, parameterSets: 2, objective: 'totalReturn' }, NOW);
      await traced.run(request, { profile: DEFAULT_RISK_PROFILE }, KEY);
      expect(takes).to.have.length(6);
      // Windows 0-2 are the first thread's block, 3-5 the second's: each starts at its block's first.
      expect(takes.slice(0, 2).sort((a, b) => a[0] - b[0])).to.deep.equal([[0, 0], [1, 3]]);
      for (const slot of [0, 1]) {
        const mine = takes.filter(([s]) => s === slot).map(([, w]) => w);
        const own = mine.filter((w) => Math.floor(w / 3) === slot);
        expect(own, `slot ${slot}: its own block in order`).to.deep.equal([...own].sort((a, b) => a - b));
        expect(mine.slice(0, own.length), `slot ${slot}: its own block before any other`).to.deep.equal(own);
      }
    } finally {
      await traced.close();
    }
  });

  it('reports a failing window as a rejection, and keeps serving', async function () {
    const request = validateWalkForwardRequest({ strategyId: 'rsi-mean-reversion', startDate: '2025-03-01', endDate: '2025-03-09', windows: 2, parameterSets: 2 }, NOW);
    const broken = { ...request, symbol: 'XYZ' } as unknown as typeof request;
    await pool.run(broken, { profile: DEFAULT_RISK_PROFILE }, KEY).then(
      () => expect.fail('resolved'),
      (e: Error) => expect(e.message).to.match(/XYZ/),
    );
    const ok = await pool.run(request, { profile: DEFAULT_RISK_PROFILE }, KEY);
    expect(ok.windows).to.have.length(2);
  });
});
