/**
 * The backtester's read models at their edges: which document each event goes to (and which events
 * go to none), the first document an event makes, what a later or foreign event leaves unchanged.
 */
import { expect } from 'chai';
import type { DomainEvent } from '../shared/decider';
import { DEFAULT_RISK_PROFILE } from '../trading/contracts';
import type { BacktestEvent } from './backtest';
import {
  backtestComparisonDocumentId,
  backtestDetail,
  backtestDocumentId,
  backtestResultDocumentId,
  backtestTradesDocumentId,
  evolveBacktestComparisonView,
  evolveBacktestResultView,
  evolveBacktestTradesView,
  evolveBacktestView,
  type BacktestComparisonView,
  type BacktestResultView,
  type BacktestView,
} from './backtest-views';
import type { BacktestResult, ComparePaperReport, WalkForwardReport } from './contracts';

const AT = '2026-03-04T10:00:00.000Z';
const LATER = '2026-03-04T11:00:00.000Z';

describe('backtest read models: routing and first documents', function () {
  let requested: BacktestEvent;
  let completed: BacktestEvent;
  let walkForward: BacktestEvent;
  let compared: BacktestEvent;
  let tradesPage: BacktestEvent;
  let failed: BacktestEvent;
  let result: BacktestResult;
  let report: WalkForwardReport;
  let comparison: ComparePaperReport;
  let queued: BacktestView;
  const other: DomainEvent = { type: 'JobRequested', data: { backtestId: 'b1', userId: 'u1', page: 1 } };

  before(function () {
    const config = { strategyId: 'ma-crossover' as const, symbol: 'BTC' as const, startDate: '2026-01-01T00:00:00.000Z', endDate: '2026-03-01T00:00:00.000Z', initialCapital: 5000, parameters: { fastPeriod: 10, slowPeriod: 30 } };
    const figures = { totalReturn: 0.05, winRate: 0.6, maxDrawdown: 0.03, totalTrades: 10, finalBalance: 5250, sharpeRatio: 1.1, performanceMetrics: { winningTrades: 6, losingTrades: 4, averageWin: 70, averageLoss: -42.5, profitFactor: 2.47, volatility: 0.3 } };
    result = { ...figures, fills: 20, signals: 25, refusedSignals: 2, equityCurve: [{ time: AT, equity: 5000 }], drawdownCurve: [{ time: AT, drawdown: 0 }] };
    report = { strategyId: 'ma-crossover', symbol: 'BTC', objective: 'sharpeRatio', windows: [], stitchedEquity: [], inSampleSummary: figures, outOfSampleSummary: { ...figures, totalTrades: 7 }, efficiency: null };
    comparison = { start: '2026-01-01T00:00:00.000Z', end: '2026-03-01T00:00:00.000Z', backtestTrades: 3, paperTrades: 3, matched: 3, differences: [], agree: true };
    requested = { type: 'BacktestRequested', data: { backtestId: 'b1', userId: 'u1', jobId: 'j1', configId: 'c1', profile: DEFAULT_RISK_PROFILE, mode: 'backtest', config, requestedAt: AT } };
    completed = { type: 'BacktestCompleted', data: { backtestId: 'b1', userId: 'u1', jobId: 'j1', result, tradeCount: 20, completedAt: LATER } };
    walkForward = { type: 'WalkForwardCompleted', data: { backtestId: 'b1', userId: 'u1', jobId: 'j1', report, completedAt: LATER } };
    compared = { type: 'BacktestPaperCompared', data: { backtestId: 'b1', userId: 'u1', report: comparison, differencesTotal: 0 } };
    tradesPage = { type: 'BacktestTradesRecorded', data: { backtestId: 'b1', userId: 'u1', page: 2, trades: [] } };
    failed = { type: 'BacktestFailed', data: { backtestId: 'b1', userId: 'u1', jobId: 'j1', reason: 'no ticks', failedAt: LATER } };
    queued = { id: 'b1', userId: 'u1', mode: 'backtest', jobId: 'j1', configId: 'c1', config, status: 'QUEUED', createdAt: AT, createdAtMs: Date.parse(AT), completedAt: null, totalTrades: null, winRate: null, totalReturn: null, tradeCount: null, error: null };
  });

  it('sends only the request, completion and failure to the run document, and nothing without a text backtest id', function () {
    const ids = [requested, completed, walkForward, failed, compared, tradesPage, other].map((e) => backtestDocumentId(e));
    expect(ids).to.deep.equal(['b1', 'b1', 'b1', 'b1', null, null, null]);
    expect([backtestDocumentId({ type: 'BacktestRequested', data: {} }), backtestDocumentId({ type: 'BacktestRequested', data: { backtestId: 7 } })]).to.deep.equal([null, null]);
  });

  it('sends a completed backtest or walk-forward to the result document, nothing else', function () {
    expect([requested, completed, walkForward, failed, compared, tradesPage].map((e) => backtestResultDocumentId(e))).to.deep.equal([null, 'b1', 'b1', null, null, null]);
  });

  it('sends a trade page to its page document only when it names the run and the page', function () {
    expect(backtestTradesDocumentId(tradesPage)).to.equal('b1:2');
    expect(backtestTradesDocumentId({ type: 'BacktestCompleted', data: { backtestId: 'b1', page: 2 } })).to.equal(null);
    expect(backtestTradesDocumentId({ type: 'BacktestTradesRecorded', data: { backtestId: 'b1' } })).to.equal(null);
    expect(backtestTradesDocumentId({ type: 'BacktestTradesRecorded', data: { page: 2 } })).to.equal(null);
  });

  it('sends only the paper comparison to the comparison document', function () {
    expect([requested, completed, compared].map((e) => backtestComparisonDocumentId(e))).to.deep.equal([null, null, 'b1']);
  });

  it('keeps the run document as it was on the first request, on a trade page, on a comparison and on another stream\'s event', function () {
    const again: BacktestEvent = { ...requested, data: { ...requested.data, requestedAt: LATER, jobId: 'j2' } } as BacktestEvent;
    expect([evolveBacktestView(queued, again), evolveBacktestView(queued, tradesPage), evolveBacktestView(queued, compared), evolveBacktestView(queued, other)]).to.deep.equal([queued, queued, queued, queued]);
  });

  it('has no run document for a completion, failure, trade page or comparison without its request', function () {
    expect([completed, walkForward, failed, tradesPage, compared].map((e) => evolveBacktestView(null, e))).to.deep.equal([null, null, null, null, null]);
  });

  it('makes the result document of a completed backtest and of a completed walk-forward, and keeps the first', function () {
    const backtestDoc: BacktestResultView = { id: 'b1', userId: 'u1', mode: 'backtest', result, report: null };
    const walkForwardDoc: BacktestResultView = { id: 'b1', userId: 'u1', mode: 'walk-forward', result: null, report };
    expect(evolveBacktestResultView(null, completed)).to.deep.equal(backtestDoc);
    expect(evolveBacktestResultView(null, walkForward)).to.deep.equal(walkForwardDoc);
    expect(evolveBacktestResultView(backtestDoc, walkForward)).to.equal(backtestDoc);
    expect([requested, failed, tradesPage, compared].map((e) => evolveBacktestResultView(null, e))).to.deep.equal([null, null, null, null]);
  });

  it('makes a trade page document only from a trade page', function () {
    expect([requested, completed, compared].map((e) => evolveBacktestTradesView(null, e))).to.deep.equal([null, null, null]);
  });

  it('makes the comparison document from the comparison only, and keeps the first', function () {
    const doc: BacktestComparisonView = { id: 'b1', userId: 'u1', report: comparison, differencesTotal: 0 };
    expect(evolveBacktestComparisonView(null, compared)).to.deep.equal(doc);
    expect([requested, completed, tradesPage].map((e) => evolveBacktestComparisonView(null, e))).to.deep.equal([null, null, null]);
    const kept: BacktestComparisonView = { ...doc, differencesTotal: 9 };
    expect(evolveBacktestComparisonView(kept, compared)).to.equal(kept);
  });

  it("answers a completed backtest's detail with its stored result", function () {
    const done: BacktestView = { ...queued, status: 'COMPLETED', completedAt: LATER, totalTrades: 10, winRate: 0.6, totalReturn: 0.05, tradeCount: 20 };
    const stored: BacktestResultView = { id: 'b1', userId: 'u1', mode: 'backtest', result, report: null };
    expect(backtestDetail(done, 'COMPLETED', 4, stored)).to.deep.equal({
      id: 'b1',
      mode: 'backtest',
      status: 'COMPLETED',
      queuePosition: null,
      jobId: 'j1',
      configId: 'c1',
      config: queued.config,
      createdAt: AT,
      completedAt: LATER,
      error: null,
      result,
      report: null,
      tradeCount: 20,
    });
  });
});
