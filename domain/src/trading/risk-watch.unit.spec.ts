/** The risk monitor's position-size rule (risk-watch.ts): above the maximum by more than its tolerance. */
import { expect } from 'chai';
import { fold } from '../shared/decider';
import { DEFAULT_RISK_PROFILE } from './contracts';
import type { OpenPositionsView } from './open-positions-view';
import { evolvePortfolio, initialPortfolioState, type PortfolioEvent } from './portfolio';
import { portfolioDecider } from './portfolio.decider';
import { POSITION_SIZE_TOLERANCE, alertsRaised } from './risk-watch';

const NOW = '2026-03-04T10:00:00.000Z';

/** A fresh portfolio of 10,000 USD that bought `usd` worth of ETH at 2,000. */
function holding(usd: number): OpenPositionsView {
  const opened: PortfolioEvent = { type: 'PortfolioOpened', data: { userId: 'u1', startingCashMicros: 10_000_000_000, openedAt: NOW } };
  const state = fold({ initialState: initialPortfolioState, evolve: evolvePortfolio }, [opened]);
  const bought = portfolioDecider.decide(
    { type: 'PlaceSimulatedTrade', data: { userId: 'u1', tradeId: 't1', symbol: 'ETH', side: 'BUY', amount: usd / 2000, price: 2000, source: { kind: 'MANUAL' } }, metadata: { now: NOW } },
    state,
  );
  return {
    userId: 'u1',
    portfolio: bought.reduce(evolvePortfolio, state),
    profile: { ...DEFAULT_RISK_PROFILE, maxPositionSize: 5 },
    alertKeys: {},
    updatedAt: NOW,
  };
}

const sizeAlerts = (view: OpenPositionsView, price: number) =>
  alertsRaised(view, { symbol: 'ETH', price, at: NOW }, { ETH: price }).filter((a) => a.data.kind === 'POSITION_SIZE');

describe('risk monitor rules: position size', function () {
  it('leaves a position opened at the maximum alone while it drifts within the tolerance', function () {
    const atMax = holding(500); // 5 % of 10,000, as the bot sizes its trades
    expect(POSITION_SIZE_TOLERANCE).to.equal(0.1);
    expect(sizeAlerts(atMax, 2000)).to.deep.equal([]);
    expect(sizeAlerts(atMax, 2100), 'an uptick of 5 %: the position is about 5.2 % of the portfolio').to.deep.equal([]);
  });

  it('raises one alert for a position past the maximum by more than the tolerance, naming value and threshold', function () {
    const [alert, ...more] = sizeAlerts(holding(1000), 2000); // 10 %
    expect(more).to.deep.equal([]);
    expect(alert!.data).to.include({ kind: 'POSITION_SIZE', severity: 'medium', symbol: 'ETH', threshold: 5 });
    expect(alert!.data.value).to.be.closeTo(10, 0.05);
    expect(sizeAlerts(holding(500), 2300), 'grown 15 %: about 5.7 % of the portfolio').to.have.length(1);
  });
});
