/**
 * The backtest stream's state and the user's slot at their edges: events out of order or on a run
 * never requested, the job kind and stream names, oversized trade pages, the message naming pages
 * missing at completion, a walk-forward that ends once, and the 409 naming the slot's holder.
 */
import { expect } from 'chai';
import { IllegalStateError, ValidationError } from '../shared/errors';
import { DEFAULT_RISK_PROFILE } from '../trading/contracts';
import {
  BACKTEST_JOB_KIND,
  TRADE_PAGE_SIZE,
  WALK_FORWARD_JOB_KIND,
  backtestStreamId,
  backtesterStreamId,
  evolveBacktest,
  evolveBacktestSlot,
  initialBacktestSlotState,
  initialBacktestState,
  jobKindOf,
  type BacktestEvent,
  type BacktestRequestedData,
  type BacktestRunState,
  type BacktestSlotEvent,
  type BacktestSlotState,
} from './backtest';
import { backtestDecider, backtestSlotDecider, type BacktestCommand } from './backtest.decider';
import type { BacktestResult, BacktestTrade, ComparePaperReport, WalkForwardReport } from './contracts';

const NOW = '2026-03-04T10:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(NOW) + ms).toISOString();

function trade(i: number): BacktestTrade {
  return { tradeId: `t${i}`, time: later(i * 1000), side: 'BUY', symbol: 'ETH', amount: 1, price: 3000, fee: 3, pnl: null, reason: 'SIGNAL', execution: { mid: 3000, halfSpread: 0, impact: 0, filledAt: later(i * 1000), intendedAt: null, delayMs: null, level: null } };
}

describe('backtest stream and slot: edges', function () {
  let request: BacktestRequestedData;
  let wfRequest: BacktestRequestedData;
  let result: BacktestResult;
  let report: WalkForwardReport;
  let comparison: ComparePaperReport;
  const fold = (events: BacktestEvent[]) => events.reduce<BacktestRunState>((s, e) => evolveBacktest(s, e), initialBacktestState());

  before(function () {
    const config = { strategyId: 'rsi-mean-reversion' as const, symbol: 'ETH' as const, startDate: '2025-09-01T00:00:00.000Z', endDate: '2026-03-01T00:00:00.000Z', initialCapital: 10_000, parameters: { rsiPeriod: 14, oversold: 30, overbought: 70 } };
    const base = { backtestId: 'b1', userId: 'u1', jobId: 'j1', configId: 'c1', profile: DEFAULT_RISK_PROFILE, requestedAt: NOW };
    request = { ...base, mode: 'backtest', config };
    wfRequest = { ...base, mode: 'walk-forward', config: { strategyId: 'ma-crossover', symbol: 'BTC', startDate: config.startDate, endDate: config.endDate, initialCapital: 10_000, windows: 4, inSampleFraction: 0.75, objective: 'sharpeRatio', parameterSets: 10 } };
    const figures = { totalReturn: 0.01, winRate: 0.5, maxDrawdown: 0.02, totalTrades: 2, finalBalance: 10_100, sharpeRatio: 1.2, performanceMetrics: { winningTrades: 1, losingTrades: 1, averageWin: 150, averageLoss: -50, profitFactor: 3, volatility: 0.4 } };
    result = { ...figures, fills: 4, signals: 5, refusedSignals: 1, equityCurve: [], drawdownCurve: [] };
    report = { strategyId: 'ma-crossover', symbol: 'BTC', objective: 'sharpeRatio', windows: [], stitchedEquity: [], inSampleSummary: figures, outOfSampleSummary: figures, efficiency: null };
    comparison = { start: NOW, end: later(1), backtestTrades: 0, paperTrades: 0, matched: 0, differences: [], agree: true };
  });

  describe('names', function () {
    it('runs a backtest as a backtest job and a walk-forward as a walk-forward job', function () {
      expect([jobKindOf('backtest'), jobKindOf('walk-forward')]).to.deep.equal([BACKTEST_JOB_KIND, WALK_FORWARD_JOB_KIND]);
      expect([BACKTEST_JOB_KIND, WALK_FORWARD_JOB_KIND]).to.deep.equal(['backtest', 'walk-forward']);
    });

    it('names a run\'s stream backtest-{id} and a user\'s slot stream backtester-{userId}', function () {
      expect([backtestStreamId('b1'), backtesterStreamId('u1')]).to.deep.equal(['backtest-b1', 'backtester-u1']);
    });
  });

  describe('the run state', function () {
    it('is requested with no pages, and a second request keeps the first one and its pages', function () {
      const page0: BacktestEvent = { type: 'BacktestTradesRecorded', data: { backtestId: 'b1', userId: 'u1', page: 0, trades: [trade(0)] } };
      expect(fold([{ type: 'BacktestRequested', data: request }])).to.deep.equal({ status: 'REQUESTED', request, pages: [] });
      expect(fold([{ type: 'BacktestRequested', data: request }, page0, { type: 'BacktestRequested', data: { ...request, jobId: 'j2' } }])).to.deep.equal({ status: 'REQUESTED', request, pages: [0] });
    });

    it('counts each trade page once and is not changed by the paper comparison', function () {
      const page = (n: number): BacktestEvent => ({ type: 'BacktestTradesRecorded', data: { backtestId: 'b1', userId: 'u1', page: n, trades: [trade(n)] } });
      const compared: BacktestEvent = { type: 'BacktestPaperCompared', data: { backtestId: 'b1', userId: 'u1', report: comparison, differencesTotal: 0 } };
      expect(fold([{ type: 'BacktestRequested', data: request }, page(1), page(0), page(1), compared])).to.deep.equal({ status: 'REQUESTED', request, pages: [1, 0] });
    });

    it('ends a walk-forward as completed with its pages', function () {
      expect(fold([{ type: 'BacktestRequested', data: wfRequest }, { type: 'WalkForwardCompleted', data: { backtestId: 'b1', userId: 'u1', jobId: 'j1', report, completedAt: later(5) } }])).to.deep.equal({ status: 'COMPLETED', request: wfRequest, pages: [] });
    });

    it('ignores pages, a comparison, a completion and a failure of a run never requested', function () {
      const events: BacktestEvent[] = [
        { type: 'BacktestTradesRecorded', data: { backtestId: 'b1', userId: 'u1', page: 0, trades: [trade(0)] } },
        { type: 'BacktestPaperCompared', data: { backtestId: 'b1', userId: 'u1', report: comparison, differencesTotal: 0 } },
        { type: 'BacktestCompleted', data: { backtestId: 'b1', userId: 'u1', jobId: 'j1', result, tradeCount: 0, completedAt: later(5) } },
        { type: 'WalkForwardCompleted', data: { backtestId: 'b1', userId: 'u1', jobId: 'j1', report, completedAt: later(5) } },
        { type: 'BacktestFailed', data: { backtestId: 'b1', userId: 'u1', jobId: 'j1', reason: 'lost', failedAt: later(5) } },
      ];
      expect(events.map((e) => evolveBacktest(initialBacktestState(), e))).to.deep.equal(events.map(() => ({ status: 'NONE' })));
    });

    it('fails a requested run with its reason', function () {
      expect(fold([{ type: 'BacktestRequested', data: request }, { type: 'BacktestFailed', data: { backtestId: 'b1', userId: 'u1', jobId: 'j1', reason: 'lost', failedAt: later(5) } }])).to.deep.equal({ status: 'FAILED', request, pages: [], reason: 'lost' });
    });
  });

  describe('the run decider', function () {
    const decide = (events: BacktestEvent[], command: BacktestCommand) => backtestDecider.decide(command, fold(events));
    const thrownBy = (run: () => unknown): unknown => {
      try {
        run();
      } catch (error) {
        return error;
      }
      return undefined;
    };

    it('refuses a trade page of more than TRADE_PAGE_SIZE trades', function () {
      const trades = Array.from({ length: TRADE_PAGE_SIZE + 1 }, (_, i) => trade(i));
      const error = thrownBy(() => decide([{ type: 'BacktestRequested', data: request }], { type: 'RecordBacktestTrades', data: { backtestId: 'b1', pages: [{ page: 0, trades }] }, metadata: { now: NOW } }));
      expect(error).to.be.instanceOf(ValidationError);
      expect((error as Error).message).to.equal(`A trade page holds 1 to ${TRADE_PAGE_SIZE} trades, got ${TRADE_PAGE_SIZE + 1}`);
    });

    it('names the first five missing pages at completion, and adds "..." only when more are missing', function () {
      const complete = (tradeCount: number): BacktestCommand => ({ type: 'CompleteBacktest', data: { backtestId: 'b1', jobId: 'j1', result, tradeCount, comparison: null }, metadata: { now: later(5) } });
      const five = thrownBy(() => decide([{ type: 'BacktestRequested', data: request }], complete(5 * TRADE_PAGE_SIZE)));
      const seven = thrownBy(() => decide([{ type: 'BacktestRequested', data: request }], complete(7 * TRADE_PAGE_SIZE)));
      expect([five, seven].map((e) => (e instanceof IllegalStateError ? e.message : e))).to.deep.equal([
        'Backtest b1 cannot complete: trade pages 0, 1, 2, 3, 4 are not recorded',
        'Backtest b1 cannot complete: trade pages 0, 1, 2, 3, 4, ... are not recorded',
      ]);
    });

    it('completes a walk-forward once: a second completion or one after a failure appends nothing', function () {
      const wf: BacktestCommand = { type: 'CompleteWalkForward', data: { backtestId: 'b1', jobId: 'j1', report }, metadata: { now: later(5) } };
      const requested: BacktestEvent = { type: 'BacktestRequested', data: wfRequest };
      const done: BacktestEvent = { type: 'WalkForwardCompleted', data: { backtestId: 'b1', userId: 'u1', jobId: 'j1', report, completedAt: later(5) } };
      const failed: BacktestEvent = { type: 'BacktestFailed', data: { backtestId: 'b1', userId: 'u1', jobId: 'j1', reason: 'lost', failedAt: later(5) } };
      expect([decide([requested, done], wf), decide([requested, failed], wf)]).to.deep.equal([[], []]);
    });
  });

  describe('the slot', function () {
    const taken = (backtestId: string): BacktestSlotEvent => ({ type: 'BacktestSlotTaken', data: { userId: 'u1', backtestId, jobId: `j-${backtestId}`, mode: 'backtest', takenAt: NOW } });
    const released = (backtestId: string): BacktestSlotEvent => ({ type: 'BacktestSlotReleased', data: { userId: 'u1', backtestId, releasedAt: later(1) } });
    const foldSlot = (events: BacktestSlotEvent[]) => events.reduce<BacktestSlotState>((s, e) => evolveBacktestSlot(s, e), initialBacktestSlotState());

    it('starts free, is freed by its holder\'s release only, and a release of a free slot leaves it free', function () {
      const held: BacktestSlotState = { held: { backtestId: 'a', jobId: 'j-a', mode: 'backtest', takenAt: NOW } };
      expect([foldSlot([]), foldSlot([taken('a')]), foldSlot([taken('a'), released('b')]), foldSlot([taken('a'), released('a')]), foldSlot([released('a')])]).to.deep.equal([{ held: null }, held, held, { held: null }, { held: null }]);
    });

    it('refuses a second run with a 409 whose body names the backtest holding the slot', function () {
      let error: unknown;
      try {
        backtestSlotDecider.decide({ type: 'TakeBacktestSlot', data: { userId: 'u1', backtestId: 'b', jobId: 'j-b', mode: 'backtest' }, metadata: { now: later(1000) } }, foldSlot([taken('a')]));
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(IllegalStateError);
      expect((error as IllegalStateError).extra).to.deep.equal({ backtestId: 'a' });
    });
  });
});
