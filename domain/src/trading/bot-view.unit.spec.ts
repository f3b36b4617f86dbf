import { expect } from 'chai';
import type { DomainEvent } from '../shared/decider';
import { evolveTradingBotView, tradingBotDocumentId, type TradingBotView } from './bot-view';

const userId = '6f1c2a3b-0000-4000-8000-000000000001';
const fold = (events: DomainEvent[]) => events.reduce<TradingBotView | null>((doc, e) => evolveTradingBotView(doc, e), null);
const sub = (tier: string, status: string, at: string): DomainEvent => ({
  type: 'SubscriptionChangedByAdmin',
  data: { userId, tier, status, previousTier: 'FREE', previousStatus: 'ACTIVE', changedBy: 'admin', changedAt: at },
});

describe('trading-bots view', function () {
  it('is premium only with tier PREMIUM and status ACTIVE, and follows the bot status', function () {
    const doc = fold([sub('PREMIUM', 'ACTIVE', 't1'), { type: 'BotStarted', data: { userId, startedAt: 't2' } }]);
    expect(doc).to.deep.include({ userId, status: 'ACTIVE', premium: true, startedAt: 't2', updatedAt: 't2' });
    const lapsed = evolveTradingBotView(doc, sub('PREMIUM', 'CANCELLED', 't3'));
    expect(lapsed).to.deep.include({ status: 'ACTIVE', premium: false, subscriptionStatus: 'CANCELLED' });
    expect(evolveTradingBotView(lapsed, { type: 'BotReset', data: { userId, wasActive: true, resetAt: 't4' } })).to.deep.include({ status: 'STOPPED', startedAt: null });
  });

  it('names the user of bot and subscription events and ignores every other event', function () {
    expect(tradingBotDocumentId({ type: 'BotStopped', data: { userId, stoppedAt: 't' } })).to.equal(userId);
    expect(tradingBotDocumentId(sub('FREE', 'ACTIVE', 't'))).to.equal(userId);
    expect(tradingBotDocumentId({ type: 'SimulatedTradePlaced', data: { userId } })).to.equal(null);
    expect(evolveTradingBotView(null, { type: 'SimulatedTradePlaced', data: { userId } })).to.equal(null);
  });

  it('follows a checkout paid, a plan changed and a subscription expired as it follows an admin change', function () {
    const base = { userId, previousTier: 'FREE', previousStatus: 'ACTIVE' };
    const paid = fold([{ type: 'SubscriptionActivated', data: { ...base, tier: 'PREMIUM', status: 'ACTIVE', activatedAt: 't1' } }]);
    expect(paid).to.deep.include({ tier: 'PREMIUM', subscriptionStatus: 'ACTIVE', premium: true, updatedAt: 't1' });
    const changed = evolveTradingBotView(paid, { type: 'SubscriptionPlanChanged', data: { ...base, tier: 'FREE', status: 'ACTIVE', changedAt: 't2' } });
    expect(changed).to.deep.include({ tier: 'FREE', premium: false, updatedAt: 't2' });
    const expired = evolveTradingBotView(paid, { type: 'SubscriptionExpired', data: { ...base, tier: 'PREMIUM', status: 'EXPIRED', expiredAt: 't3' } });
    expect(expired).to.deep.include({ subscriptionStatus: 'EXPIRED', premium: false, updatedAt: 't3' });
  });
});
