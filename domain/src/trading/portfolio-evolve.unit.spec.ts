/**
 * evolvePortfolio: a portfolio's events before it opened change nothing, and each state is a new
 * object with the event's changes, the state before it left as it was (the engine, the replays and
 * the command handler's snapshots all keep earlier states).
 */
import { expect } from 'chai';
import { evolvePortfolio, exitsOf, initialPortfolioState, portfolioStreamId, rememberedTradeIds, type PortfolioEvent, type PortfolioState } from './portfolio';
import { portfolioDecider } from './portfolio.decider';

const NOW = '2026-03-04T10:00:00.000Z';
const opened: PortfolioEvent = { type: 'PortfolioOpened', data: { userId: 'u1', startingCashMicros: 10_000_000_000, openedAt: NOW } };

describe('portfolio evolution', function () {
  it('leaves a portfolio that never opened as it is, whatever closes, resets or peaks come before its opening', function () {
    const none = initialPortfolioState();
    const early: PortfolioEvent[] = [
      { type: 'PortfolioReset', data: { userId: 'u1', startingCashMicros: 5_000_000_000, resetAt: NOW } } as PortfolioEvent,
      { type: 'PortfolioPeakRecorded', data: { userId: 'u1', valueMicros: 20_000_000_000 } } as PortfolioEvent,
      { type: 'PositionClosed', data: { userId: 'u1', positionId: 'p', coinId: 'ethereum', symbol: 'ETH', reason: 'STOP_LOSS', quantity: 1, price: 2000, notionalMicros: 2_000_000_000, feeMicros: 2_000_000, costBasisClosedMicros: 1_900_000_000, entryNotionalClosedMicros: 1_898_000_000, realisedPnlMicros: 98_000_000, closedTradeIds: ['t'], lotRule: 'FIFO', lots: [], closedAt: NOW } } as PortfolioEvent,
      { type: 'SimulatedTradePlaced', data: { userId: 'u1', tradeId: 't', coinId: 'ethereum', symbol: 'ETH', side: 'BUY', quantity: 1, price: 2000, notionalMicros: 2_000_000_000, feeMicros: 2_000_000, source: { kind: 'MANUAL' }, placedAt: NOW, costBasisClosedMicros: 0, entryNotionalClosedMicros: 0, realisedPnlMicros: 0, closedTradeIds: [], lotRule: 'FIFO', lots: [] } } as PortfolioEvent,
    ];
    for (const e of early) expect(evolvePortfolio(none, e), e.type).to.equal(none);
  });

  it('opens remembering no trade id and no signal traded; its stream is named after the user', function () {
    const state = evolvePortfolio(initialPortfolioState(), opened);
    expect(state).to.deep.include({ recentTradeIds: [], newTradeIds: [], lastSignalTraded: {}, positions: {} });
    expect(rememberedTradeIds(state as Extract<PortfolioState, { status: 'open' }>)).to.deep.equal([]);
    expect(portfolioStreamId('u1')).to.equal('portfolio-u1');
  });

  it('a position without an exit plan (stored before plans) follows the profile', function () {
    expect(exitsOf({})).to.deep.equal({ kind: 'PROFILE', atr: null, sigma: null });
    expect(exitsOf({ exits: { kind: 'NONE' } })).to.deep.equal({ kind: 'NONE' });
  });

  it('makes a new state for each event and leaves the one before as it was (a BUY, a SELL, a peak, a reset)', function () {
    let state: PortfolioState = evolvePortfolio(initialPortfolioState(), opened);
    const decide = (side: 'BUY' | 'SELL', tradeId: string, amount: number) =>
      portfolioDecider.decide({ type: 'PlaceSimulatedTrade', data: { userId: 'u1', tradeId, symbol: 'ETH', side, amount, price: 2000, source: { kind: 'MANUAL' } }, metadata: { now: NOW } }, state);
    const events: PortfolioEvent[] = [
      ...decide('BUY', 't1', 1),
      { type: 'PortfolioPeakRecorded', data: { userId: 'u1', valueMicros: 12_000_000_000 } } as PortfolioEvent,
    ];
    for (const e of events) {
      const before = structuredClone(state);
      const next = evolvePortfolio(state, e);
      expect(next, e.type).to.not.equal(state);
      expect(state, `${e.type}: the state before`).to.deep.equal(before);
      state = next;
    }
    for (const e of [...decide('SELL', 't2', 0.5), { type: 'PortfolioReset', data: { userId: 'u1', startingCashMicros: 10_000_000_000, resetAt: NOW } } as PortfolioEvent]) {
      const before = structuredClone(state);
      const next = evolvePortfolio(state, e);
      expect(state, `${e.type}: the state before`).to.deep.equal(before);
      state = next;
    }
    if (state.status !== 'open') throw new Error('not open');
    expect(state.cashMicros).to.equal(10_000_000_000);
    expect(state.positions).to.deep.equal({});
    expect(state.closedTrades.closes).to.equal(1);
  });
});
