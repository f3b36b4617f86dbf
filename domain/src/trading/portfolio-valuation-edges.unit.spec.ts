/**
 * valuePortfolio at its edges: lots bought at one price average to that price exactly, a percent of
 * nothing is 0 and a loss too small to show is 0 % (never "-0.00 %"), a portfolio opened with other
 * starting cash (a backtest's initial capital) is measured from it, and a coin entry left undefined
 * holds nothing.
 */
import { expect } from 'chai';
import { fold } from '../shared/decider';
import { evolvePortfolio, initialPortfolioState, type PortfolioEvent, type PortfolioState } from './portfolio';
import { portfolioDecider, type PlaceSimulatedTrade } from './portfolio.decider';
import { averagePrice, exactPercent, portfolioTotalValue, roundPercent, valuePortfolio } from './portfolio-valuation';

const NOW = '2026-03-04T05:06:07.000Z';
const place = (tradeId: string, symbol: string, side: 'BUY' | 'SELL', amount: number, price: number): PlaceSimulatedTrade => ({
  type: 'PlaceSimulatedTrade',
  data: { userId: 'u1', tradeId, symbol, side, amount, price, source: { kind: 'MANUAL' } },
  metadata: { now: NOW },
});
function stateAfter(...commands: PlaceSimulatedTrade[]): PortfolioState {
  const events: PortfolioEvent[] = [];
  for (const c of commands) events.push(...portfolioDecider.decide(c, fold(portfolioDecider, events)));
  return fold(portfolioDecider, events);
}
function tradedFrom(state: PortfolioState, ...commands: PlaceSimulatedTrade[]): PortfolioState {
  let s = state;
  for (const c of commands) for (const e of portfolioDecider.decide(c, s)) s = evolvePortfolio(s, e);
  return s;
}

describe('portfolio valuation at its edges', function () {
  it('shows lots bought at one price with that price as the average entry, exactly', function () {
    // 0.1 and 0.2 ETH at 2,999.99: weighting the price by the units in floating point would give 2,999.9899999999993.
    const state = stateAfter(place('t1', 'ETH', 'BUY', 0.1, 2999.99), place('t2', 'ETH', 'BUY', 0.2, 2999.99));
    const [eth] = valuePortfolio(state, {}).positions;
    expect(eth!.avgEntryPrice).to.equal(2999.99);
    expect(eth!.currentPrice, 'valued at the average entry when unpriced').to.equal(2999.99);
    expect(averagePrice([{ units: 3, price: 0.1 }]), 'one lot: its price').to.equal(0.1);
  });

  it('averages nothing to 0, and weights different prices by their units', function () {
    expect(averagePrice([])).to.equal(0);
    expect(averagePrice([{ units: 1, price: 100 }, { units: 3, price: 200 }])).to.equal(175);
  });

  it('takes a percent of nothing as 0', function () {
    expect(exactPercent(12, 0)).to.equal(0);
    expect(exactPercent(0, 0)).to.equal(0);
    expect(exactPercent(1, 4)).to.equal(25);
  });

  it('rounds a loss too small to show to 0 %, never -0 (which a number format writes "-0.00")', function () {
    expect(Object.is(roundPercent(-0.004), 0), 'roundPercent(-0.004) is +0').to.equal(true);
    expect(roundPercent(-0.006)).to.equal(-0.01);
    // 0.01 ETH at 3,000 valued at 3,000: the 0.03 fee is -0.0003 % of 10,000.
    const v = valuePortfolio(stateAfter(place('t1', 'ETH', 'BUY', 0.01, 3000)), { ETH: 3000 });
    expect(v.totalPnl).to.equal(-0.03);
    expect(Object.is(v.totalPnlPercent, 0), `totalPnlPercent ${v.totalPnlPercent} is +0`).to.equal(true);
  });

  it('measures a portfolio opened with other starting cash (a backtest\'s initial capital) from it', function () {
    const opened = evolvePortfolio(initialPortfolioState(), { type: 'PortfolioOpened', data: { userId: 'u1', startingCashMicros: 50_000_000_000, openedAt: NOW } });
    // BUY 1 ETH at 3,000 (fee 3): cash 46,997; at 3,300 the P&L is 300 - 3 = 297, 0.594 % of 50,000.
    const state = tradedFrom(opened, place('t1', 'ETH', 'BUY', 1, 3000));
    expect(valuePortfolio(state, { ETH: 3300 })).to.deep.include({
      startingCash: 50_000,
      cash: 46_997,
      positionsValue: 3300,
      totalValue: 50_297,
      totalPnl: 297,
      totalPnlPercent: 0.59,
    });
    expect(valuePortfolio(opened, {})).to.deep.include({ startingCash: 50_000, totalValue: 50_000, totalPnlPercent: 0 });
  });

  it('counts a coin entry left undefined in the positions as nothing held, in the total alone too', function () {
    const state = stateAfter(place('t1', 'ETH', 'BUY', 0.5, 3000));
    if (state.status !== 'open') throw new Error('the BUY opened the portfolio');
    const withEmpty: PortfolioState = { ...state, positions: { ...state.positions, BTC: undefined } };
    const v = valuePortfolio(withEmpty, { ETH: 3100, BTC: 60_000 });
    expect(v.positions.map((p) => p.symbol)).to.deep.equal(['ETH']);
    // cash 10,000 - 1,501.50 = 8,498.50; the ETH 0.5 x 3,100 = 1,550.
    expect(v.totalValue).to.equal(10_048.5);
    expect(portfolioTotalValue(withEmpty, { ETH: 3100, BTC: 60_000 })).to.equal(10_048.5);
  });
});
