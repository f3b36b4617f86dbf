/** The backtester's read models: a run's document through its events, the status a reader sees, the history row, and which trade pages hold a reader's page. */
import { expect } from 'chai';
import { DEFAULT_RISK_PROFILE } from '../trading/contracts';
import type { BacktestEvent } from './backtest';
import {
  backtestComparisonDocumentId,
  backtestDetail,
  backtestDocumentId,
  backtestHistoryItem,
  backtestResultDocumentId,
  backtestStatusOf,
  backtestTradesDocumentId,
  evolveBacktestResultView,
  evolveBacktestTradesView,
  evolveBacktestView,
  tradePagesFor,
  type BacktestView,
} from './backtest-views';
import type { BacktestResult, WalkForwardReport } from './contracts';

const AT = '2026-03-04T10:00:00.000Z';
const config = { strategyId: 'ma-crossover' as const, symbol: 'BTC' as const, startDate: '2026-01-01T00:00:00.000Z', endDate: '2026-03-01T00:00:00.000Z', initialCapital: 5000, parameters: { fastPeriod: 10, slowPeriod: 30 } };
const requested: BacktestEvent = { type: 'BacktestRequested', data: { backtestId: 'b1', userId: 'u1', jobId: 'j1', configId: 'c1', profile: DEFAULT_RISK_PROFILE, mode: 'backtest', config, requestedAt: AT } };
const figures = { totalReturn: 0.05, winRate: 0.6, maxDrawdown: 0.03, totalTrades: 10, finalBalance: 5250, sharpeRatio: 1.1, performanceMetrics: { winningTrades: 6, losingTrades: 4, averageWin: 70, averageLoss: -42.5, profitFactor: 2.47, volatility: 0.3 } };
const result: BacktestResult = { ...figures, fills: 20, signals: 25, refusedSignals: 2, equityCurve: [{ time: AT, equity: 5000 }], drawdownCurve: [{ time: AT, drawdown: 0 }] };
const fold = (events: BacktestEvent[]) => events.reduce<BacktestView | null>((doc, e) => evolveBacktestView(doc, e), null);

describe('backtest read models', function () {
  it('a run: QUEUED when asked, then COMPLETED with the history figures; a second request event changes nothing', function () {
    const queued = fold([requested, requested])!;
    expect(queued).to.include({ id: 'b1', userId: 'u1', mode: 'backtest', status: 'QUEUED', createdAt: AT, createdAtMs: Date.parse(AT), totalTrades: null, tradeCount: null });
    const done = fold([requested, { type: 'BacktestCompleted', data: { backtestId: 'b1', userId: 'u1', jobId: 'j1', result, tradeCount: 20, completedAt: AT } }])!;
    expect(done).to.include({ status: 'COMPLETED', totalTrades: 10, winRate: 0.6, totalReturn: 0.05, tradeCount: 20, completedAt: AT });
    expect(backtestHistoryItem(done, 'COMPLETED')).to.deep.equal({ id: 'b1', configId: 'c1', totalTrades: 10, winRate: 0.6, totalReturn: 0.05, status: 'COMPLETED', strategyId: 'ma-crossover', symbol: 'BTC', startDate: config.startDate, endDate: config.endDate, initialCapital: 5000, createdAt: AT });
  });

  it('a failure keeps its reason; a walk-forward\'s history figures are its stitched out-of-sample run\'s', function () {
    expect(fold([requested, { type: 'BacktestFailed', data: { backtestId: 'b1', userId: 'u1', jobId: 'j1', reason: 'no ticks', failedAt: AT } }])).to.include({ status: 'FAILED', error: 'no ticks' });
    const report: WalkForwardReport = { strategyId: 'ma-crossover', symbol: 'BTC', objective: 'sharpeRatio', windows: [], stitchedEquity: [], inSampleSummary: { ...figures, totalReturn: 0.4 }, outOfSampleSummary: { ...figures, totalReturn: -0.02, totalTrades: 7 }, efficiency: null };
    const wf = fold([{ ...requested, data: { ...requested.data, mode: 'walk-forward', config: { ...config, windows: 4, inSampleFraction: 0.75, objective: 'sharpeRatio', parameterSets: 10 } } } as BacktestEvent, { type: 'WalkForwardCompleted', data: { backtestId: 'b1', userId: 'u1', jobId: 'j1', report, completedAt: AT } }])!;
    expect(wf).to.include({ mode: 'walk-forward', status: 'COMPLETED', totalReturn: -0.02, totalTrades: 7, tradeCount: null });
    const stored = evolveBacktestResultView(null, { type: 'WalkForwardCompleted', data: { backtestId: 'b1', userId: 'u1', jobId: 'j1', report, completedAt: AT } });
    expect(backtestDetail(wf, 'COMPLETED', null, stored)).to.include({ result: null, report, queuePosition: null });
  });

  it('RUNNING is the job\'s claim; an ended run is its own status', function () {
    const queued = fold([requested])!;
    expect(backtestStatusOf(queued, 'QUEUED')).to.equal('QUEUED');
    expect(backtestStatusOf(queued, null)).to.equal('QUEUED');
    expect(backtestStatusOf(queued, 'RUNNING')).to.equal('RUNNING');
    expect(backtestStatusOf({ ...queued, status: 'FAILED' }, 'RUNNING')).to.equal('FAILED');
    expect(backtestDetail(queued, 'QUEUED', 3, null).queuePosition).to.equal(3);
    expect(backtestDetail(queued, 'RUNNING', 3, null).queuePosition).to.equal(null);
  });

  it('each event goes to its documents: the run, its result, its trade page, its comparison', function () {
    const page: BacktestEvent = { type: 'BacktestTradesRecorded', data: { backtestId: 'b1', userId: 'u1', page: 3, trades: [] } };
    expect([backtestDocumentId(requested), backtestDocumentId(page), backtestTradesDocumentId(page), backtestResultDocumentId(requested)]).to.deep.equal(['b1', null, 'b1:3', null]);
    expect(evolveBacktestTradesView(null, page)).to.deep.equal({ backtestId: 'b1', userId: 'u1', page: 3, trades: [] });
    expect(backtestComparisonDocumentId({ type: 'BacktestPaperCompared', data: { backtestId: 'b1' } })).to.equal('b1');
    expect(backtestDocumentId({ type: 'JobRequested', data: { backtestId: 'b1' } })).to.equal(null);
  });

  it("a reader's page from the stored pages of 200: the first and last stored page and the offset in the first", function () {
    expect(tradePagesFor(1, 50, 200)).to.deep.equal({ first: 0, last: 0, offset: 0, from: 0, to: 50 });
    expect(tradePagesFor(4, 50, 200)).to.deep.equal({ first: 0, last: 0, offset: 150, from: 150, to: 200 });
    expect(tradePagesFor(5, 50, 200)).to.deep.equal({ first: 1, last: 1, offset: 0, from: 200, to: 250 });
    expect(tradePagesFor(2, 150, 200)).to.deep.equal({ first: 0, last: 1, offset: 150, from: 150, to: 300 });
    expect(tradePagesFor(1, 500, 200)).to.deep.equal({ first: 0, last: 2, offset: 0, from: 0, to: 500 });
  });
});
