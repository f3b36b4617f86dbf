/** The backtest stream (request, trade pages, one end) and the user's slot (one run at a time). */
import { expect } from 'chai';
import { specFor } from '../shared/decider-specification';
import { IllegalStateError, NotFoundError, ValidationError } from '../shared/errors';
import { MAX_STORED_DIFFERENCES, SLOT_EXPIRY_MS, TRADE_PAGE_SIZE, type BacktestConfig, type BacktestEvent, type BacktestSlotEvent, type WalkForwardConfig } from './backtest';
import { backtestDecider, backtestSlotDecider, tradePagesOf } from './backtest.decider';
import { DEFAULT_RISK_PROFILE } from '../trading/contracts';
import type { BacktestResult, BacktestTrade, ComparePaperReport, WalkForwardReport } from './contracts';

const spec = specFor(backtestDecider);
const slots = specFor(backtestSlotDecider);
const NOW = '2026-03-04T10:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(NOW) + ms).toISOString();
const config: BacktestConfig = { strategyId: 'rsi-mean-reversion', symbol: 'ETH', startDate: '2025-09-01T00:00:00.000Z', endDate: '2026-03-01T00:00:00.000Z', initialCapital: 10_000, parameters: { rsiPeriod: 14, oversold: 30, overbought: 70 } };
const wfConfig: WalkForwardConfig = { strategyId: 'ma-crossover', symbol: 'BTC', startDate: config.startDate, endDate: config.endDate, initialCapital: 10_000, windows: 4, inSampleFraction: 0.75, objective: 'sharpeRatio', parameterSets: 10 };
const base = { backtestId: 'b1', userId: 'u1', jobId: 'j1', configId: 'c1', profile: DEFAULT_RISK_PROFILE };
const request = { type: 'RequestBacktest' as const, data: { ...base, mode: 'backtest' as const, config }, metadata: { now: NOW } };
const requested: BacktestEvent = { type: 'BacktestRequested', data: { ...base, mode: 'backtest', config, requestedAt: NOW } };
const wfRequested: BacktestEvent = { type: 'BacktestRequested', data: { ...base, mode: 'walk-forward', config: wfConfig, requestedAt: NOW } };

const trade = (i: number): BacktestTrade => ({
  tradeId: `t${i}`, time: later(i * 1000), side: i % 2 ? 'SELL' : 'BUY', symbol: 'ETH', amount: 1, price: 3000 + i, fee: 3, pnl: i % 2 ? 10 : null, reason: 'SIGNAL',
  execution: { mid: 3000, halfSpread: 0.0005, impact: 0, filledAt: later(i * 1000), intendedAt: null, delayMs: null, level: null },
});
const figures = { totalReturn: 0.01, winRate: 0.5, maxDrawdown: 0.02, totalTrades: 2, finalBalance: 10_100, sharpeRatio: 1.2, performanceMetrics: { winningTrades: 1, losingTrades: 1, averageWin: 150, averageLoss: -50, profitFactor: 3, volatility: 0.4 } };
const result: BacktestResult = { ...figures, fills: 4, signals: 5, refusedSignals: 1, equityCurve: [{ time: NOW, equity: 10_000 }], drawdownCurve: [{ time: NOW, drawdown: 0 }] };
const report: WalkForwardReport = { strategyId: 'ma-crossover', symbol: 'BTC', objective: 'sharpeRatio', windows: [], stitchedEquity: [], inSampleSummary: figures, outOfSampleSummary: figures, efficiency: null };
const page = (n: number, count = TRADE_PAGE_SIZE) => ({ page: n, trades: Array.from({ length: count }, (_, i) => trade(n * TRADE_PAGE_SIZE + i)) });
const recorded = (n: number, count = TRADE_PAGE_SIZE): BacktestEvent => ({ type: 'BacktestTradesRecorded', data: { backtestId: 'b1', userId: 'u1', ...page(n, count) } });
const record = (...pages: Array<{ page: number; trades: BacktestTrade[] }>) => ({ type: 'RecordBacktestTrades' as const, data: { backtestId: 'b1', pages }, metadata: { now: NOW } });
const complete = (tradeCount: number, comparison: ComparePaperReport | null = null) => ({ type: 'CompleteBacktest' as const, data: { backtestId: 'b1', jobId: 'j1', result, tradeCount, comparison }, metadata: { now: later(5000) } });
const completed = (tradeCount: number): BacktestEvent => ({ type: 'BacktestCompleted', data: { backtestId: 'b1', userId: 'u1', jobId: 'j1', result, tradeCount, completedAt: later(5000) } });
const fail = { type: 'FailBacktest' as const, data: { backtestId: 'b1', jobId: 'j1', reason: 'no candles' }, metadata: { now: later(1000) } };
const failed: BacktestEvent = { type: 'BacktestFailed', data: { backtestId: 'b1', userId: 'u1', jobId: 'j1', reason: 'no candles', failedAt: later(1000) } };

describe('backtest decider', function () {
  it('a request is recorded once (the same request again appends nothing)', function () {
    spec.given([]).when(request).then([requested]);
    spec.given([requested]).when(request).then([]);
  });

  it('trade pages are recorded once each, in any order; an empty or oversized page is refused', function () {
    spec.given([requested]).when(record(page(1), page(0))).then([recorded(1), recorded(0)]);
    spec.given([requested, recorded(0)]).when(record(page(0), page(1, 3))).then([recorded(1, 3)]);
    spec.given([requested]).when(record({ page: 0, trades: [] })).thenThrows(ValidationError, /1 to 200 trades/);
    spec.given([requested]).when(record({ page: -1, trades: [trade(0)] })).thenThrows(ValidationError, /whole number from 0/);
  });

  it('completes only with every trade page recorded; pages count up to the last partial one', function () {
    expect(tradePagesOf(0)).to.equal(0);
    expect(tradePagesOf(TRADE_PAGE_SIZE)).to.equal(1);
    expect(tradePagesOf(TRADE_PAGE_SIZE + 1)).to.equal(2);
    spec.given([requested]).when(complete(0)).then([completed(0)]);
    spec.given([requested, recorded(0)]).when(complete(TRADE_PAGE_SIZE + 3)).thenThrows(IllegalStateError, /trade pages 1 are not recorded/);
    spec.given([requested, recorded(0), recorded(1, 3)]).when(complete(TRADE_PAGE_SIZE + 3)).then([completed(TRADE_PAGE_SIZE + 3)]);
  });

  it('the comparison with paper is recorded with the completion, its differences capped (the total kept)', function () {
    const diff = (i: number) => ({ kind: 'missing-in-paper' as const, backtestTrade: trade(i), explanation: `d${i}` });
    const report: ComparePaperReport = { start: NOW, end: later(1), backtestTrades: 300, paperTrades: 0, matched: 0, differences: Array.from({ length: MAX_STORED_DIFFERENCES + 5 }, (_, i) => diff(i)), agree: false };
    const events = backtestDecider.decide(complete(0, report), { status: 'REQUESTED', request: requested.data as never, pages: [] });
    expect(events.map((e) => e.type)).to.deep.equal(['BacktestPaperCompared', 'BacktestCompleted']);
    const compared = events[0]!.data as { report: ComparePaperReport; differencesTotal: number };
    expect(compared.differencesTotal).to.equal(MAX_STORED_DIFFERENCES + 5);
    expect(compared.report.differences).to.have.length(MAX_STORED_DIFFERENCES);
    expect(compared.report.differences[0]).to.deep.equal(diff(0));
    expect(compared.report).to.include({ backtestTrades: 300, matched: 0, agree: false });
  });

  it('a run ends once: a second completion or failure, or late pages, append nothing', function () {
    spec.given([requested, completed(0)]).when(complete(0)).then([]);
    spec.given([requested, completed(0)]).when(fail).then([]);
    spec.given([requested, failed]).when(complete(0)).then([]);
    spec.given([requested, failed]).when(record(page(0))).then([]);
    spec.given([requested]).when(fail).then([failed]);
  });

  it('a walk-forward completes with its report; backtest commands are refused on it and the reverse', function () {
    const wf = { type: 'CompleteWalkForward' as const, data: { backtestId: 'b1', jobId: 'j1', report }, metadata: { now: later(5000) } };
    spec.given([wfRequested]).when(wf).then([{ type: 'WalkForwardCompleted', data: { backtestId: 'b1', userId: 'u1', jobId: 'j1', report, completedAt: later(5000) } }]);
    spec.given([wfRequested]).when(complete(0)).thenThrows(IllegalStateError, /is a walk-forward, not a backtest/);
    spec.given([wfRequested]).when(record(page(0))).thenThrows(IllegalStateError, /is a walk-forward/);
    spec.given([requested]).when(wf).thenThrows(IllegalStateError, /is a backtest, not a walk-forward/);
  });

  it('commands on a backtest never requested are a 404', function () {
    spec.given([]).when(complete(0)).thenThrows(NotFoundError, /never requested/);
    spec.given([]).when(fail).thenThrows(NotFoundError);
  });
});

describe('backtest slot decider (one run per user)', function () {
  const take = (backtestId: string, now = NOW) => ({ type: 'TakeBacktestSlot' as const, data: { userId: 'u1', backtestId, jobId: `j-${backtestId}`, mode: 'backtest' as const }, metadata: { now } });
  const taken = (backtestId: string, at = NOW): BacktestSlotEvent => ({ type: 'BacktestSlotTaken', data: { userId: 'u1', backtestId, jobId: `j-${backtestId}`, mode: 'backtest', takenAt: at } });
  const release = (backtestId: string) => ({ type: 'ReleaseBacktestSlot' as const, data: { userId: 'u1', backtestId }, metadata: { now: later(1) } });
  const released = (backtestId: string): BacktestSlotEvent => ({ type: 'BacktestSlotReleased', data: { userId: 'u1', backtestId, releasedAt: later(1) } });

  it('a free slot is taken; the same backtest again appends nothing; another is a 409 naming the holder', function () {
    slots.given([]).when(take('a')).then([taken('a')]);
    slots.given([taken('a')]).when(take('a')).then([]);
    slots.given([taken('a')]).when(take('b')).thenThrows(IllegalStateError, /already have a backtest queued or running.*\(backtest a\)/);
  });

  it('released by its holder only; then free again', function () {
    slots.given([taken('a')]).when(release('b')).then([]);
    slots.given([taken('a')]).when(release('a')).then([released('a')]);
    slots.given([taken('a'), released('a')]).when(take('b')).then([taken('b')]);
    slots.given([taken('a'), released('a')]).when(release('a')).then([]);
  });

  it('a slot held past the expiry (its run lost) no longer blocks', function () {
    slots.given([taken('a')]).when(take('b', later(SLOT_EXPIRY_MS - 1))).thenThrows(IllegalStateError);
    slots.given([taken('a')]).when(take('b', later(SLOT_EXPIRY_MS))).then([taken('b', later(SLOT_EXPIRY_MS))]);
  });
});
