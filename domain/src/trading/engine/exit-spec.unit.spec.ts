/**
 * A position's exit levels for the scan (the bot settings' percents of its average entry), where a
 * scan of it starts (its opening fill's tick), and the ClosePosition a crossing becomes (the tick's
 * price and time, the level, the minute's volume).
 */
import { expect } from 'chai';
import { tickAt, tickTime } from '../../market/market-path';
import { DEFAULT_BOT_SETTINGS } from '../contracts';
import type { PortfolioState, Position } from '../portfolio';
import { portfolioDecider, type PlaceSimulatedTrade } from '../portfolio.decider';
import { STOP_LOSS, TAKE_PROFIT } from './exit-scan';
import { closeCommandFor, cursorAtOpening, exitSpecOf } from './exit-spec';

const OPENED = '2026-01-05T10:00:07.000Z';
const buy = (tradeId: string, price: number, now = OPENED): PlaceSimulatedTrade => ({
  type: 'PlaceSimulatedTrade',
  data: { userId: 'u1', tradeId, symbol: 'ETH', side: 'BUY', amount: 0.25, price, source: { kind: 'MANUAL' } },
  metadata: { now },
});

function positionAfter(...commands: PlaceSimulatedTrade[]): Position {
  let state: PortfolioState = portfolioDecider.initialState();
  for (const c of commands) for (const e of portfolioDecider.decide(c, state)) state = portfolioDecider.evolve(state, e);
  if (state.status !== 'open') throw new Error('not open');
  return state.positions.ETH!;
}

describe('engine: exit levels and the close of a crossing', function () {
  it('sets the stop loss and take profit at the bot settings\' percents of the average entry, no trailing', function () {
    const spec = exitSpecOf(positionAfter(buy('t1', 2000)), DEFAULT_BOT_SETTINGS);
    expect(spec).to.deep.equal({ stopLoss: 2000 * 0.98, trail: 0, entry: 2000, takeProfit: 2000 * 1.05 });
    const added = exitSpecOf(positionAfter(buy('t1', 2000), buy('t2', 2200, '2026-01-05T11:00:00.000Z')), { stopLossPercent: 1, takeProfitPercent: 10 });
    expect(added.entry).to.be.closeTo(2100, 1e-9);
    expect(added.stopLoss).to.be.closeTo(2079, 1e-9);
    expect(added.takeProfit).to.be.closeTo(2310, 1e-9);
  });

  it('starts a scan after the opening fill\'s tick, with no highest yet', function () {
    expect(cursorAtOpening({ openedAt: OPENED })).to.deep.equal({ tick: tickAt(Date.parse('2026-01-05T10:00:05.000Z')), highest: Number.NaN });
  });

  it('closes at the crossing tick\'s price and time, naming the level, the position and the minute\'s volume', function () {
    const tick = tickAt(Date.parse('2026-01-05T12:34:55.000Z'));
    const stop = closeCommandFor('u1', { positionId: 't1', symbol: 'ETH' }, { tick, price: 1955.5, reason: STOP_LOSS, level: 1960 }, 2.5e6);
    expect(stop).to.deep.equal({
      type: 'ClosePosition',
      data: { userId: 'u1', positionId: 't1', symbol: 'ETH', reason: 'STOP_LOSS', price: 1955.5, market: { filledAt: '2026-01-05T12:34:55.000Z', minuteVolumeUsd: 2.5e6, level: 1960 } },
      metadata: { now: '2026-01-05T12:34:55.000Z' },
    });
    expect(tickTime(tick)).to.equal(Date.parse(stop.metadata.now));
    const target = closeCommandFor('u1', { positionId: 't1', symbol: 'ETH' }, { tick: -1, price: 2101, reason: TAKE_PROFIT, level: 2100 }, 1e6, Date.parse('2026-01-05T12:35:01.250Z'));
    expect(target.data).to.include({ reason: 'TAKE_PROFIT', price: 2101 });
    expect(target.metadata.now, 'a live price\'s own time').to.equal('2026-01-05T12:35:01.250Z');
  });
});
