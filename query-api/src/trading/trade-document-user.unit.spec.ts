/**
 * The read cache keeps a user's pages of trades under the user's id and drops them by the ids a
 * trades change notice names (trading-routes.ts tradeDocumentUser): every id the trades projection
 * writes for a user's events (trading-view.ts tradeViewIds, its documentIds) must map back to that
 * user, or a bot's trade would not drop the page.
 */
import { expect } from 'chai';
import { portfolioDecider, type PortfolioCommand } from '@papertrade/domain/trading/portfolio.decider';
import type { PortfolioEvent } from '@papertrade/domain/trading/portfolio';
import { tradeViewIds } from '@papertrade/domain/trading/trading-view';
import { tradeDocumentUser } from './trading-routes';

const userId = '5f0c2a44-93c6-4a57-9f0e-2d8d3b1f7a10';
const now = '2026-03-02T10:00:00.000Z';

function history(): PortfolioEvent[] {
  const commands: PortfolioCommand[] = [
    { type: 'PlaceSimulatedTrade', data: { userId, tradeId: 't1', symbol: 'ETH', side: 'BUY', amount: 1, price: 3000, source: { kind: 'MANUAL' } }, metadata: { now } },
    { type: 'PlaceSimulatedTrade', data: { userId, tradeId: 't2', symbol: 'ETH', side: 'SELL', amount: 1, price: 3100, source: { kind: 'MANUAL' } }, metadata: { now } },
    { type: 'PlaceSimulatedTrade', data: { userId, tradeId: 't3', symbol: 'BTC', side: 'BUY', amount: 0.01, price: 60_000, source: { kind: 'MANUAL' } }, metadata: { now } },
    { type: 'ClosePosition', data: { userId, positionId: 't3', symbol: 'BTC', reason: 'STOP_LOSS', price: 58_000 }, metadata: { now } },
    { type: 'PlaceSimulatedTrade', data: { userId, tradeId: 't4', symbol: 'SOL', side: 'BUY', amount: 1, price: 150, source: { kind: 'MANUAL' } }, metadata: { now } },
    { type: 'ResetPortfolio', data: { userId }, metadata: { now } },
  ];
  let state = portfolioDecider.initialState();
  const events: PortfolioEvent[] = [];
  for (const command of commands) {
    for (const event of portfolioDecider.decide(command, state)) {
      state = portfolioDecider.evolve(state, event);
      events.push(event);
    }
  }
  return events;
}

describe('trades documents belong to their user (read cache groups)', function () {
  it("maps every trades document id of a user's buys, sells, stop closes and reset to the user", function () {
    const events = history();
    expect(events.map((e) => e.type)).to.include.members(['SimulatedTradePlaced', 'PositionClosed', 'PortfolioReset']);
    let ids = 0;
    for (const event of events) {
      for (const id of tradeViewIds(event)) {
        ids++;
        expect(tradeDocumentUser(id), id).to.equal(userId);
      }
    }
    expect(ids).to.be.greaterThan(5);
  });

  it('cannot place an id of another form (the notice then drops every kept page)', function () {
    expect(tradeDocumentUser('no-user-part')).to.equal(undefined);
    expect(tradeDocumentUser(':t1')).to.equal(undefined);
  });
});
