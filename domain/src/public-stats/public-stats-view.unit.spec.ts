import { expect } from 'chai';
import { emptyPublicStats, evolvePublicStats } from './public-stats-view';
import { publicStatsSchema } from './contracts';
import { HOUSE_DEMO_USER_ID } from '../trading/house-demo';

const registered = { type: 'UserRegistered', data: { userId: 'u1' } };

describe('public stats read model', function () {
  it('starts from nothing measured and counts each registered trader', function () {
    expect(emptyPublicStats()).to.deep.equal({ traders: 0, simulatedTrades: 0, modelAccuracy: null });
    const one = evolvePublicStats(null, registered);
    expect(one).to.deep.equal({ traders: 1, simulatedTrades: 0, modelAccuracy: null });
    expect(evolvePublicStats(one, registered).traders).to.equal(2);
  });

  it('counts every simulated trade: manual and bot trades, the house demo bot\'s, and stop-loss or take-profit closes; not a reset', function () {
    const placed = (userId: string) => ({ type: 'SimulatedTradePlaced', data: { userId, tradeId: 't', side: 'BUY' } });
    const closed = { type: 'PositionClosed', data: { userId: 'u1', positionId: 't', reason: 'STOP_LOSS' } };
    const events = [placed('u1'), placed(HOUSE_DEMO_USER_ID), closed, { type: 'PortfolioReset', data: { userId: 'u1' } }, { type: 'PortfolioOpened', data: { userId: 'u1' } }];
    const doc = events.reduce<ReturnType<typeof evolvePublicStats> | null>((d, e) => evolvePublicStats(d, e), null);
    expect(doc).to.deep.equal({ traders: 0, simulatedTrades: 3, modelAccuracy: null });
  });

  it('ignores other events, keeping what it had', function () {
    const doc = { traders: 5, simulatedTrades: 3, modelAccuracy: 61.5 };
    expect(evolvePublicStats(doc, { type: 'UserPromotedToAdmin', data: {} })).to.deep.equal(doc);
    expect(evolvePublicStats(null, { type: 'UserPromotedToAdmin', data: {} })).to.deep.equal(emptyPublicStats());
  });

  it('serves counts as whole non-negative numbers and accuracy as a percentage or null', function () {
    expect(publicStatsSchema.safeParse({ traders: 0, simulatedTrades: 0, modelAccuracy: null }).success).to.equal(true);
    expect(publicStatsSchema.safeParse({ traders: 1, simulatedTrades: 2, modelAccuracy: 100 }).success).to.equal(true);
    for (const bad of [{ traders: -1 }, { traders: 1.5 }, { simulatedTrades: -1 }, { modelAccuracy: 100.1 }, { modelAccuracy: -0.1 }]) {
      expect(publicStatsSchema.safeParse({ traders: 0, simulatedTrades: 0, modelAccuracy: 50, ...bad }).success, JSON.stringify(bad)).to.equal(false);
    }
  });
});
