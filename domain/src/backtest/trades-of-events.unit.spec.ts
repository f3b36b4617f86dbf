/**
 * tradesOfEvents: a portfolio's fills as a backtest's trades (the backtest's own, and the paper bot's
 * for the comparison): each BUY and SELL with its price, fee, P&L and the signal and bot rule behind
 * it, each close named by its position and reason, where a stop of a position that follows a trailing
 * profile reads TRAILING_STOP and a person's own stop STOP_LOSS.
 */
import { expect } from 'chai';
import { eventsOf } from '../shared/decider-specification';
import type { PortfolioCommand, ExitRequest } from '../trading/portfolio.decider';
import { portfolioDecider } from '../trading/portfolio.decider';
import type { PortfolioEvent, TradeSource } from '../trading/portfolio';
import { tradesOfEvents } from './run-backtest';

const T1 = '2026-03-04T05:00:02.000Z';
const T2 = '2026-03-04T06:00:02.000Z';
const SIGNAL: TradeSource = { kind: 'SIGNAL', eventId: 'e1', signalId: 'sig-1', signalType: 'BUY', candleTime: '2026-03-04T05:00:00.000Z' };

const run = (...commands: PortfolioCommand[]): PortfolioEvent[] => eventsOf(portfolioDecider, ...commands);
const buy = (tradeId: string, symbol: string, amount: number, price: number, source: TradeSource, exits?: ExitRequest, rule?: 'FIXED_SIZE'): PortfolioCommand => ({
  type: 'PlaceSimulatedTrade',
  data: { userId: 'u1', tradeId, symbol, side: 'BUY', amount, price, source, ...(exits ? { exits } : {}), ...(rule ? { decision: { rule, text: 'bought', figures: {} } } : {}) },
  metadata: { now: T1 },
});
const close = (positionId: string, symbol: string, reason: 'STOP_LOSS' | 'TAKE_PROFIT', price: number): PortfolioCommand => ({
  type: 'ClosePosition',
  data: { userId: 'u1', positionId, symbol, reason, price },
  metadata: { now: T2 },
});
const PROFILE: ExitRequest = { kind: 'PROFILE', atr: 12, sigma: 0.002 };
const MANUAL: ExitRequest = { kind: 'MANUAL', stopLossPercent: 3, takeProfitPercent: null };

describe('trades of portfolio events', function () {
  const events = () =>
    run(
      buy('b1', 'ETH', 0.5, 3000, SIGNAL, PROFILE, 'FIXED_SIZE'),
      buy('b2', 'BTC', 0.01, 60_000, { kind: 'MANUAL' }, MANUAL),
      buy('b3', 'SOL', 1, 150, { kind: 'MANUAL' }),
      close('b1', 'ETH', 'STOP_LOSS', 2940),
      close('b2', 'BTC', 'STOP_LOSS', 58_200),
      close('b3', 'SOL', 'TAKE_PROFIT', 160),
      { type: 'PlaceSimulatedTrade', data: { userId: 'u1', tradeId: 'end-of-test:x', symbol: 'ETH', side: 'BUY', amount: 0.1, price: 3000, source: { kind: 'MANUAL' } }, metadata: { now: T2 } },
    );

  it('lists each fill with its side, amount, price, fee and P&L, a signal\'s id and the bot\'s rule', function () {
    const trades = tradesOfEvents(events(), false);
    expect(trades.map((t) => t.tradeId)).to.deep.equal(['b1', 'b2', 'b3', 'close:b1', 'close:b2', 'close:b3', 'end-of-test:x']);
    expect(trades[0]).to.deep.include({ side: 'BUY', symbol: 'ETH', amount: 0.5, price: 3000, fee: 1.5, pnl: null, reason: 'SIGNAL', signalId: 'sig-1', rule: 'FIXED_SIZE', time: T1 });
    expect(trades[1]).to.not.have.property('signalId');
    expect(trades[1]).to.not.have.property('rule');
    // 0.5 x 2,940 = 1,470 - 1.47 fee - 1,501.50 cost.
    expect(trades[3]).to.deep.include({ side: 'SELL', symbol: 'ETH', amount: 0.5, price: 2940, fee: 1.47, pnl: -32.97, time: T2 });
    expect(trades[3]!.execution).to.deep.equal({ mid: 2940, halfSpread: 0, impact: 0, filledAt: T2, intendedAt: null, delayMs: null, level: null });
    expect(trades[6]).to.deep.include({ reason: 'END_OF_TEST' });
  });

  it("names each close's reason: a take profit, a stop; with a trailing profile the stop of a position on the profile is TRAILING_STOP", function () {
    const reasons = (trailing: boolean) => tradesOfEvents(events(), trailing).filter((t) => t.tradeId.startsWith('close:')).map((t) => [t.tradeId, t.reason]);
    expect(reasons(false)).to.deep.equal([
      ['close:b1', 'STOP_LOSS'],
      ['close:b2', 'STOP_LOSS'],
      ['close:b3', 'TAKE_PROFIT'],
    ]);
    // b2's stop is the person's own (MANUAL), b3 had no plan: neither trails.
    expect(reasons(true)).to.deep.equal([
      ['close:b1', 'TRAILING_STOP'],
      ['close:b2', 'STOP_LOSS'],
      ['close:b3', 'TAKE_PROFIT'],
    ]);
  });

  it('a close of a position opened by a BUY it never saw (the events start later) is a plain stop', function () {
    const all = events();
    const closes = all.filter((e) => e.type === 'PositionClosed');
    expect(tradesOfEvents(closes, true).map((t) => t.reason)).to.deep.equal(['STOP_LOSS', 'STOP_LOSS', 'TAKE_PROFIT']);
  });
});
