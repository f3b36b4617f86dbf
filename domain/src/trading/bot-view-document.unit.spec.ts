/**
 * The trading-bots document from a user's first event: a bot started before any subscription event
 * belongs to a FREE, ACTIVE subscription and is not premium (the worker does not trade for it); a
 * subscription event alone leaves the bot STOPPED; a FREE subscription is never premium, whatever its
 * status; stopping a bot clears its start; an event without a user names no document.
 */
import { expect } from 'chai';
import type { DomainEvent } from '../shared/decider';
import { evolveTradingBotView, tradingBotDocumentId, type TradingBotView } from './bot-view';

const userId = '6f1c2a3b-0000-4000-8000-000000000004';
const fold = (events: DomainEvent[]) => events.reduce<TradingBotView | null>((doc, e) => evolveTradingBotView(doc, e), null);
const sub = (tier: string, status: string, at: string): DomainEvent => ({
  type: 'SubscriptionChangedByAdmin',
  data: { userId, tier, status, previousTier: 'FREE', previousStatus: 'ACTIVE', changedBy: 'admin', changedAt: at },
});

describe('trading-bots document', function () {
  it('starts a bot of a user with no subscription event as FREE, ACTIVE and not premium', function () {
    expect(fold([{ type: 'BotStarted', data: { userId, startedAt: 't1' } }])).to.deep.equal({
      userId,
      status: 'ACTIVE',
      premium: false,
      tier: 'FREE',
      subscriptionStatus: 'ACTIVE',
      startedAt: 't1',
      updatedAt: 't1',
    });
  });

  it('leaves the bot STOPPED when a subscription event comes first, and a FREE ACTIVE subscription is not premium', function () {
    expect(fold([sub('FREE', 'ACTIVE', 't1')])).to.deep.equal({
      userId,
      status: 'STOPPED',
      premium: false,
      tier: 'FREE',
      subscriptionStatus: 'ACTIVE',
      startedAt: null,
      updatedAt: 't1',
    });
    expect(fold([sub('PREMIUM', 'ACTIVE', 't1'), sub('FREE', 'ACTIVE', 't2')])).to.deep.include({ premium: false, tier: 'FREE' });
  });

  it('stops a started bot: STOPPED, no start time, updated at the stop', function () {
    const doc = fold([sub('PREMIUM', 'ACTIVE', 't1'), { type: 'BotStarted', data: { userId, startedAt: 't2' } }, { type: 'BotStopped', data: { userId, stoppedAt: 't3' } }]);
    expect(doc).to.deep.include({ status: 'STOPPED', startedAt: null, updatedAt: 't3', premium: true });
  });

  it('names no document for a bot event without a user id', function () {
    expect(tradingBotDocumentId({ type: 'BotStarted', data: { userId: 42, startedAt: 't' } })).to.equal(null);
    expect(tradingBotDocumentId({ type: 'BotStarted', data: { startedAt: 't' } })).to.equal(null);
  });
});
