/** valuePortfolio on known portfolios: figures to the cent, parts adding up, unpriced coins flagged. */
import { expect } from 'chai';
import { fold } from '../shared/decider';
import type { PortfolioEvent } from './portfolio';
import { portfolioDecider, type PlaceSimulatedTrade } from './portfolio.decider';
import { portfolioTotalValue, valuePortfolio } from './portfolio-valuation';

const NOW = '2026-03-04T05:06:07.000Z';
const place = (tradeId: string, symbol: string, side: 'BUY' | 'SELL', amount: number, price: number): PlaceSimulatedTrade => ({
  type: 'PlaceSimulatedTrade',
  data: { userId: 'u1', tradeId, symbol, side, amount, price, source: { kind: 'MANUAL' } },
  metadata: { now: NOW },
});
function stateAfter(...commands: PlaceSimulatedTrade[]) {
  const events: PortfolioEvent[] = [];
  for (const c of commands) events.push(...portfolioDecider.decide(c, fold(portfolioDecider, events)));
  return fold(portfolioDecider, events);
}

describe('portfolio valuation', function () {
  it('a portfolio never used is the starting cash', function () {
    expect(valuePortfolio(portfolioDecider.initialState(), {})).to.deep.equal({
      startingCash: 10000,
      cash: 10000,
      positionsValue: 0,
      totalValue: 10000,
      realisedPnl: 0,
      unrealisedPnl: 0,
      totalPnl: 0,
      totalPnlPercent: 0,
      positions: [],
    });
  });

  it('values positions at the prices given, with realised and unrealised P&L net of fees', function () {
    // BUY 0.5 ETH @ 3,000 (basis 1,501.50), SELL 0.25 @ 3,200 (realised 48.45), BUY 100 ADA @ 0.45 (basis 45.045)
    const state = stateAfter(place('t1', 'ETH', 'BUY', 0.5, 3000), place('s1', 'ETH', 'SELL', 0.25, 3200), place('t2', 'ADA', 'BUY', 100, 0.45));
    const v = valuePortfolio(state, { ETH: 3300, ADA: 0.5 });
    // cash 10,000 - 1,501.50 + 799.20 - 45.045 = 9,252.655 -> 9,252.66 (half away from zero)
    expect(v.cash).to.equal(9252.66);
    expect(v.positions.map((p) => [p.symbol, p.quantity, p.avgEntryPrice, p.currentPrice, p.costBasis, p.marketValue, p.unrealisedPnl])).to.deep.equal([
      ['ETH', 0.25, 3000, 3300, 750.75, 825, 74.25],
      ['ADA', 100, 0.45, 0.5, 45.05, 50, 4.95],
    ]);
    expect(v.positionsValue).to.equal(875);
    expect(v.totalValue).to.equal(10127.66);
    expect(v.realisedPnl).to.equal(48.45);
    // The open BUYs' pnl: 825 - 750.75 and 50 - 45.05 (45.045 to the cent); totalPnl is realised +
    // unrealised as the trades show them, 127.65, while totalValue - startingCash rounds the cash once:
    // 127.66 (the half cent of the ADA cost, rounded up in its lot and not in the cash).
    expect(v.unrealisedPnl).to.equal(79.2);
    expect(v.totalPnl).to.equal(127.65);
    // From the exact micros: 127.655 / 10,000.
    expect(v.totalPnlPercent).to.equal(1.28);
  });

  it('a coin without a price is valued at its average entry price and flagged', function () {
    const state = stateAfter(place('t1', 'ETH', 'BUY', 0.5, 3000));
    const [eth] = valuePortfolio(state, {}).positions;
    expect(eth).to.deep.include({ currentPrice: 3000, priceKnown: false, marketValue: 1500, unrealisedPnl: -1.5 });
    // A price that cannot value it (zero, negative, not finite) counts as none, in the total alone too.
    for (const bad of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(valuePortfolio(state, { ETH: bad }).positions[0], String(bad)).to.deep.include({ currentPrice: 3000, priceKnown: false, marketValue: 1500 });
      expect(portfolioTotalValue(state, { ETH: bad }), String(bad)).to.equal(valuePortfolio(state, {}).totalValue);
    }
  });
});

describe('portfolioTotalValue', function () {
  it('is valuePortfolio(...).totalValue: unopened, lots at several prices, sold in part, unpriced, zero, NaN and negative prices', function () {
    const states = [
      portfolioDecider.initialState(),
      stateAfter(place('t1', 'ETH', 'BUY', 0.5, 3000), place('s1', 'ETH', 'SELL', 0.25, 3200), place('t2', 'ADA', 'BUY', 100, 0.45)),
      stateAfter(place('t1', 'ETH', 'BUY', 0.123457, 3001.17), place('t2', 'ETH', 'BUY', 0.3, 2950.5), place('t3', 'BTC', 'BUY', 0.011, 64_000.33), place('s1', 'ETH', 'SELL', 0.2, 3100)),
      stateAfter(place('t1', 'MATIC', 'BUY', 1234.5, 0.3567), place('t2', 'ADA', 'BUY', 777, 0.4444), place('t3', 'MATIC', 'BUY', 10, 0.41)),
    ];
    const priceSets = [{}, { ETH: 3300, ADA: 0.5 }, { ETH: 2999.99, BTC: 61_000.01, ADA: 0.45 }, { MATIC: 0.33333, ADA: Number.NaN }, { ETH: 0, BTC: -5, MATIC: Number.POSITIVE_INFINITY }];
    let nonTrivial = 0;
    for (const state of states) {
      for (const prices of priceSets) {
        const expected = valuePortfolio(state, prices).totalValue;
        expect(portfolioTotalValue(state, prices), JSON.stringify(prices)).to.equal(expected);
        if (expected !== 10_000) nonTrivial++;
      }
    }
    expect(nonTrivial).to.be.greaterThan(10);
  });
});
