/**
 * comparePaper on small hand-made trade lists: which fills count (the period, the coin, the
 * end-of-test sale), how fills are paired (by id, then by side, reason and tick), when a pair agrees
 * (sameFill, to the cent), and each difference's words, in time order.
 */
import { expect } from 'chai';
import type { Execution } from '../trading/engine/fills';
import type { PortfolioEvent, PositionClosed, SimulatedTradePlaced } from '../trading/portfolio';
import { comparePaper, sameFill } from './compare-paper';
import type { BacktestTrade, ComparePaperReport, ComparisonDifference } from './contracts';

const START = Date.UTC(2025, 0, 6);
const END = START + 86_400_000;
const at = (minutes: number) => new Date(START + minutes * 60_000).toISOString();

type TradeFields = Partial<BacktestTrade> & Pick<BacktestTrade, 'tradeId' | 'time'>;

/** A SIGNAL fill of 1 ETH at $100 with a $0.10 fee, its signal `sig-<id>`, unless told otherwise. */
function trade(fields: TradeFields): BacktestTrade {
  const price = fields.price ?? 100;
  return {
    side: 'BUY',
    symbol: 'ETH',
    amount: 1,
    price,
    fee: 0.1,
    pnl: null,
    reason: 'SIGNAL',
    signalId: `sig-${fields.tradeId}`,
    execution: { mid: price, halfSpread: 0, impact: 0, filledAt: fields.time, intendedAt: null, delayMs: null, level: null },
    ...fields,
  };
}

function withoutSignal(t: BacktestTrade): BacktestTrade {
  const { signalId: _, ...rest } = t;
  return rest;
}

/** The bot's event for a SIGNAL (or, without signalId, manual) fill `t`. */
function placed(t: BacktestTrade, execution?: Execution): SimulatedTradePlaced {
  return {
    type: 'SimulatedTradePlaced',
    data: {
      userId: 'user-1',
      tradeId: t.tradeId,
      coinId: t.symbol === 'ETH' ? 'ethereum' : 'bitcoin',
      symbol: t.symbol,
      side: t.side,
      quantity: t.amount,
      price: t.price,
      notionalMicros: Math.round(t.amount * t.price * 1e6),
      feeMicros: Math.round(t.fee * 1e6),
      costBasisClosedMicros: 0,
      entryNotionalClosedMicros: 0,
      realisedPnlMicros: Math.round((t.pnl ?? 0) * 1e6),
      source: t.signalId ? { kind: 'SIGNAL', eventId: `event-${t.signalId}`, signalId: t.signalId, signalType: t.side, candleTime: t.time } : { kind: 'MANUAL' },
      closedTradeIds: [],
      lotRule: 'FIFO',
      lots: [],
      placedAt: t.time,
      ...(execution ? { execution } : {}),
    },
  };
}

/** The bot's stop-loss or take-profit close of position `positionId` (its trade is `close:<positionId>`). */
function closed(positionId: string, reason: 'STOP_LOSS' | 'TAKE_PROFIT', time: string, figures: { amount: number; price: number; fee: number; pnl: number }): PositionClosed {
  return {
    type: 'PositionClosed',
    data: {
      userId: 'user-1',
      positionId,
      coinId: 'ethereum',
      symbol: 'ETH',
      reason,
      quantity: figures.amount,
      price: figures.price,
      notionalMicros: Math.round(figures.amount * figures.price * 1e6),
      feeMicros: Math.round(figures.fee * 1e6),
      costBasisClosedMicros: 0,
      realisedPnlMicros: Math.round(figures.pnl * 1e6),
      closedTradeIds: [positionId],
      lotRule: 'FIFO',
      lots: [],
      closedAt: time,
    },
  };
}

function compare(backtestTrades: BacktestTrade[], paperEvents: PortfolioEvent[]): ComparePaperReport {
  return comparePaper({ backtestTrades, paperEvents, refusals: [], startMs: START, endMs: END, symbol: 'ETH', trailing: false });
}

function report(counts: { backtestTrades: number; paperTrades: number; matched: number }, differences: ComparisonDifference[]): ComparePaperReport {
  return { start: new Date(START).toISOString(), end: new Date(END).toISOString(), ...counts, differences, agree: differences.length === 0 };
}

describe('comparePaper: periods, pairing and explanations', function () {
  describe('which fills are compared', function () {
    it('takes the fills from the period start included to its end excluded, of the backtested coin only, without the end-of-test sale', function () {
      const before = trade({ tradeId: 'bt-before', time: new Date(START - 60_000).toISOString() });
      const first = trade({ tradeId: 'bt-first', time: at(0) });
      const atEnd = trade({ tradeId: 'bt-end', time: new Date(END).toISOString() });
      const endOfTest = trade({ tradeId: 'end-of-test:bt-first', time: at(30), side: 'SELL', reason: 'END_OF_TEST', pnl: 1 });
      const paper = [
        placed(trade({ tradeId: 'paper-before', time: new Date(START - 120_000).toISOString() })),
        placed(trade({ tradeId: 'bt-first', time: at(0) })),
        placed(trade({ tradeId: 'paper-btc', time: at(5), symbol: 'BTC', price: 60_000 })),
        placed(trade({ tradeId: 'paper-end', time: new Date(END).toISOString() })),
      ];
      expect(compare([before, first, atEnd, endOfTest], paper)).to.deep.equal(report({ backtestTrades: 1, paperTrades: 1, matched: 1 }, []));
    });
  });

  describe('pairing fills', function () {
    it('pairs a bot fill of another id that has the same side, reason and tick, and counts it as agreeing', function () {
      const b = trade({ tradeId: 'bt-1', time: at(10) });
      const p = trade({ tradeId: 'paper-1', time: at(10), signalId: 'sig-bt-1' });
      expect(compare([b], [placed(p)])).to.deep.equal(report({ backtestTrades: 1, paperTrades: 1, matched: 1 }, []));
    });

    it('does not pair fills of another side at the same tick: each is missing on the other side', function () {
      const b = trade({ tradeId: 'bt-1', time: at(10), amount: 1.5, price: 2000 });
      const p = trade({ tradeId: 'paper-1', time: at(10), side: 'SELL', pnl: 0, amount: 1.5, price: 2000 });
      expect(compare([b], [placed(p)])).to.deep.equal(
        report({ backtestTrades: 1, paperTrades: 1, matched: 0 }, [
          {
            kind: 'missing-in-paper',
            backtestTrade: b,
            explanation: `The backtest BUY 1.5 ETH at $2000.00 (signal, ${at(10)}) on signal sig-bt-1; the bot has no trade and no refusal for it (it was not running, or its portfolio differed then: its cash or a position it held)`,
          },
          { kind: 'missing-in-backtest', paperTrade: p, explanation: `The bot SELL 1.5 ETH at $2000.00 (signal, ${at(10)}); the backtest did not: the strategy gave no such signal (sig-paper-1) or the backtest's portfolio refused it` },
        ]),
      );
    });

    it('does not pair fills of another reason at the same tick: a stop-loss close is not a signal sale', function () {
      const b = withoutSignal(trade({ tradeId: 'close:pos-1', time: at(20), side: 'SELL', reason: 'STOP_LOSS', pnl: -2, price: 98 }));
      const p = trade({ tradeId: 'paper-2', time: at(20), side: 'SELL', pnl: -2, price: 98 });
      expect(compare([b], [placed(p)])).to.deep.equal(
        report({ backtestTrades: 1, paperTrades: 1, matched: 0 }, [
          { kind: 'missing-in-paper', backtestTrade: b, explanation: `The backtest closed a position (SELL 1 ETH at $98.00 (stop loss, ${at(20)})) the bot did not hold then` },
          { kind: 'missing-in-backtest', paperTrade: p, explanation: `The bot SELL 1 ETH at $98.00 (signal, ${at(20)}); the backtest did not: the strategy gave no such signal (sig-paper-2) or the backtest's portfolio refused it` },
        ]),
      );
    });

    it('explains a fill paired by side, reason and tick that differs in its fee', function () {
      const b = trade({ tradeId: 'bt-1', time: at(10) });
      const p = trade({ tradeId: 'paper-1', time: at(10), fee: 0.4 });
      expect(compare([b], [placed(p)])).to.deep.equal(
        report({ backtestTrades: 1, paperTrades: 1, matched: 0 }, [{ kind: 'different-fill', backtestTrade: b, paperTrade: p, explanation: 'The same trade filled at another fee ($0.40 against $0.10)' }]),
      );
    });
  });

  describe('what is missing on either side, in time order', function () {
    it('explains a signal trade and a close on each side, listed by fill time', function () {
      const backtestSignal = trade({ tradeId: 'bt-sig', time: at(50), amount: 1.5, price: 2000 });
      const backtestClose = withoutSignal(trade({ tradeId: 'close:pos-9', time: at(40), side: 'SELL', reason: 'STOP_LOSS', price: 1950.5, pnl: -50 }));
      const paperSignal = trade({ tradeId: 'paper-sig', time: at(20), amount: 2, price: 1990 });
      const manual = withoutSignal(trade({ tradeId: 'manual-1', time: at(10), amount: 0.25, price: 1980.125 }));
      const paperClose = withoutSignal(trade({ tradeId: 'close:pos-7', time: at(30), side: 'SELL', reason: 'STOP_LOSS', amount: 0.5, price: 2100, fee: 0.2, pnl: -3 }));
      const events = [placed(paperSignal), placed(manual), closed('pos-7', 'STOP_LOSS', at(30), { amount: 0.5, price: 2100, fee: 0.2, pnl: -3 })];
      expect(compare([backtestSignal, backtestClose], events)).to.deep.equal(
        report({ backtestTrades: 2, paperTrades: 3, matched: 0 }, [
          { kind: 'missing-in-backtest', paperTrade: manual, explanation: `The bot BUY 0.25 ETH at $1980.13 (signal, ${at(10)}); the backtest did not: a manual trade` },
          { kind: 'missing-in-backtest', paperTrade: paperSignal, explanation: `The bot BUY 2 ETH at $1990.00 (signal, ${at(20)}); the backtest did not: the strategy gave no such signal (sig-paper-sig) or the backtest's portfolio refused it` },
          { kind: 'missing-in-backtest', paperTrade: paperClose, explanation: `The bot SELL 0.5 ETH at $2100.00 (stop loss, ${at(30)}); the backtest did not: the bot closed a position the backtest did not hold` },
          { kind: 'missing-in-paper', backtestTrade: backtestClose, explanation: `The backtest closed a position (SELL 1 ETH at $1950.50 (stop loss, ${at(40)})) the bot did not hold then` },
          {
            kind: 'missing-in-paper',
            backtestTrade: backtestSignal,
            explanation: `The backtest BUY 1.5 ETH at $2000.00 (signal, ${at(50)}) on signal sig-bt-sig; the bot has no trade and no refusal for it (it was not running, or its portfolio differed then: its cash or a position it held)`,
          },
        ]),
      );
    });
  });

  describe('how a paired fill differs', function () {
    /** Backtest fill `b` and the bot's fill of the same id `p` (as its event `event`): the one difference expected. */
    const differs = (b: BacktestTrade, p: BacktestTrade, event: PortfolioEvent, explanation: string) =>
      expect(compare([b], [event])).to.deep.equal(report({ backtestTrades: 1, paperTrades: 1, matched: 0 }, [{ kind: 'different-fill', backtestTrade: b, paperTrade: p, explanation }]));

    it('names another tick when the bot filled on time (no delay) at another tick', function () {
      const b = trade({ tradeId: 't-1', time: at(10) });
      const p = trade({ tradeId: 't-1', time: at(11) });
      differs(b, p, placed(p), `The same trade filled at another tick (${at(11)} against ${at(10)})`);
    });

    it('names only the fee of a late bot order that still filled at the backtest tick', function () {
      const b = trade({ tradeId: 't-1', time: at(10), amount: 2, fee: 0.2 });
      const execution: Execution = { mid: 100, halfSpread: 0, impact: 0, filledAt: at(10), intendedAt: at(9), delayMs: 5_000 };
      const p = trade({ tradeId: 't-1', time: at(10), amount: 2, fee: 0.3, execution: { mid: 100, halfSpread: 0, impact: 0, filledAt: at(10), intendedAt: at(9), delayMs: 5_000, level: null } });
      differs(b, p, placed(p, execution), 'The same trade filled at another fee ($0.30 against $0.20)');
    });

    it('names another amount and another price together', function () {
      const b = trade({ tradeId: 't-1', time: at(10) });
      const p = trade({ tradeId: 't-1', time: at(10), amount: 1.5, price: 101 });
      differs(b, p, placed(p), "The same trade filled at another amount (1.5 against 1: the portfolio or the rules' figures differed), another price ($101.00 against $100.00)");
    });

    it('names another P&L when both sales have one and they differ', function () {
      const b = trade({ tradeId: 't-1', time: at(10), side: 'SELL', pnl: 4 });
      const p = trade({ tradeId: 't-1', time: at(10), side: 'SELL', pnl: 3 });
      differs(b, p, placed(p), 'The same trade filled at another P&L ($3.00 against $4.00: the lots sold differed)');
    });

    it('does not name the P&L of two sales with the same P&L', function () {
      const b = trade({ tradeId: 't-1', time: at(10), side: 'SELL', pnl: 4 });
      const p = trade({ tradeId: 't-1', time: at(10), side: 'SELL', pnl: 4, fee: 0.2 });
      differs(b, p, placed(p), 'The same trade filled at another fee ($0.20 against $0.10)');
    });

    it('names a P&L the bot has none of as none', function () {
      const b = trade({ tradeId: 't-1', time: at(10), pnl: 5 });
      const p = trade({ tradeId: 't-1', time: at(10) });
      differs(b, p, placed(p), 'The same trade filled at another P&L (none against $5.00: the lots sold differed)');
    });

    it('names a P&L the backtest has none of as none', function () {
      const b = trade({ tradeId: 't-1', time: at(10), side: 'SELL' });
      const p = trade({ tradeId: 't-1', time: at(10), side: 'SELL', pnl: 3 });
      differs(b, p, placed(p), 'The same trade filled at another P&L ($3.00 against none: the lots sold differed)');
    });

    it('names a P&L of $0.00 against none: a zero P&L is not none', function () {
      const b = trade({ tradeId: 't-1', time: at(10), side: 'SELL' });
      const p = trade({ tradeId: 't-1', time: at(10), side: 'SELL', pnl: 0.001 });
      differs(b, p, placed(p), 'The same trade filled at another P&L ($0.00 against none: the lots sold differed)');
    });

    it('names another close reason', function () {
      const b = withoutSignal(trade({ tradeId: 'close:pos-1', time: at(10), side: 'SELL', reason: 'TAKE_PROFIT', pnl: 2 }));
      const p = withoutSignal(trade({ tradeId: 'close:pos-1', time: at(10), side: 'SELL', reason: 'STOP_LOSS', pnl: 2 }));
      differs(b, p, closed('pos-1', 'STOP_LOSS', at(10), { amount: 1, price: 100, fee: 0.1, pnl: 2 }), 'The same trade filled at another reason (STOP_LOSS against TAKE_PROFIT)');
    });

    it('says only "another fill" when nothing it names differs (the side)', function () {
      const b = trade({ tradeId: 't-1', time: at(10), side: 'SELL' });
      const p = trade({ tradeId: 't-1', time: at(10) });
      differs(b, p, placed(p), 'The same trade filled at another fill');
    });
  });
});

describe('sameFill', function () {
  it('agrees on equal fills and on figures equal to the cent, and disagrees on any other side, reason, tick, amount, value, fee or P&L', function () {
    const base = trade({ tradeId: 't-1', time: at(10), side: 'SELL', amount: 2, price: 100, fee: 0.2, pnl: 5 });
    const cases: Record<string, BacktestTrade> = {
      same: { ...base },
      valueWithinACent: { ...base, price: 100.001 },
      pnlWithinACent: { ...base, pnl: 5.004 },
      otherSide: { ...base, side: 'BUY' },
      otherReason: { ...base, reason: 'TAKE_PROFIT' },
      otherTick: { ...base, time: at(11) },
      otherAmountSameValue: { ...base, amount: 2.5, price: 80 },
      valueThirtyCentsMore: { ...base, price: 100.15 },
      feeThirtyCentsMore: { ...base, fee: 0.5 },
      otherPnl: { ...base, pnl: 6 },
      noPnl: { ...base, pnl: null },
    };
    const results = Object.fromEntries(Object.entries(cases).map(([name, other]) => [name, sameFill(base, other)]));
    expect(results).to.deep.equal({
      same: true,
      valueWithinACent: true,
      pnlWithinACent: true,
      otherSide: false,
      otherReason: false,
      otherTick: false,
      otherAmountSameValue: false,
      valueThirtyCentsMore: false,
      feeThirtyCentsMore: false,
      otherPnl: false,
      noPnl: false,
    });
  });

  it('compares a fill without P&L only with a fill without P&L, and a zero P&L is not none', function () {
    const buy = trade({ tradeId: 't-1', time: at(10) });
    expect([sameFill(buy, { ...buy }), sameFill(buy, { ...buy, pnl: 5 }), sameFill({ ...buy, pnl: 0 }, buy), sameFill({ ...buy, pnl: 5 }, { ...buy, pnl: 6 })]).to.deep.equal([true, false, false, false]);
  });
});
