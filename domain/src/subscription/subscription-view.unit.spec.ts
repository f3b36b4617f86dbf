import { expect } from 'chai';
import { evolveUserView, type UserView } from '../auth/user-view';
import { evolveTradingBotView, tradingBotDocumentId, type TradingBotView } from '../trading/bot-view';
import type { SubscriptionEvent } from '../auth/subscription';
import { billingHistoryResponseSchema, subscriptionResponseSchema } from './contracts';
import { expiredAfter, paidLifecycle } from './subscription-events.fixtures';
import { daysRemaining, endsAtParts, evolveSubscriptionView, toSubscriptionResponse, type SubscriptionView } from './subscription-view';

const userId = '6f1c2a3b-0000-4000-8000-000000000001';
const foldView = (events: SubscriptionEvent[]) => events.reduce<SubscriptionView | null>((d, e) => evolveSubscriptionView(d, e), null);

describe('subscriptions read model', function () {
  it('follows checkout, payment, activation and cancellation; the history holds only the real payment', function () {
    const doc = foldView(paidLifecycle(userId));
    expect(doc).to.deep.include({ userId, tier: 'PREMIUM', subscriptionStatus: 'ACTIVE', isCancelled: true, endsAt: '2026-02-01T00:00:00.000Z', endsAtMs: Date.parse('2026-02-01T00:00:00.000Z') });
    expect(billingHistoryResponseSchema.parse(doc!.billing)).to.deep.equal([
      { id: 'cs_1', date: '2026-01-01T00:01:00.000Z', description: 'Premium Pro - monthly', amountUsd: 29, status: 'PAID', invoiceId: null, source: 'test' },
    ]);
  });

  it('expiry downgrades to FREE / EXPIRED and clears the end date; a failed payment is listed first', function () {
    let doc = foldView([...paidLifecycle(userId), expiredAfter(userId)]);
    expect(doc).to.deep.include({ tier: 'FREE', subscriptionStatus: 'EXPIRED', isCancelled: false, endsAt: null, endsAtMs: null });
    doc = evolveSubscriptionView(doc, {
      type: 'PaymentFailed',
      data: { userId, failureId: 'evt_9', invoiceId: 'in_9', amountUsd: 29, description: 'Premium Pro - monthly', reason: 'card_declined', failedAt: '2026-03-01T00:00:00.000Z' },
    });
    expect(doc!.billing.map((b) => [b.id, b.status])).to.deep.equal([['evt_9', 'FAILED'], ['cs_1', 'PAID']]);
  });

  it('answers GET /api/subscription with the end date in parts, days left rounded up, and the plan limits', function () {
    const doc = foldView(paidLifecycle(userId));
    const answer = subscriptionResponseSchema.parse(toSubscriptionResponse(doc, { trades: 7 }, new Date('2026-01-30T12:00:00.000Z')));
    expect(answer).to.deep.include({ tier: 'PREMIUM', isCancelled: true, daysRemaining: 2 });
    expect(answer.endsAt).to.deep.equal({ day: 1, month: 2, year: 2026, formatted: 'February 1, 2026', iso: '2026-02-01T00:00:00.000Z' });
    expect(answer.usage.trades).to.deep.equal({ used: 7, limit: null, tracked: true });
    expect(answer.usage.tradingStrategies).to.deep.equal({ used: 0, limit: null, tracked: false });
    const free = toSubscriptionResponse(null, { trades: 0 }, new Date());
    expect(free).to.deep.include({ tier: 'FREE', subscriptionStatus: 'ACTIVE', isCancelled: false, endsAt: null, daysRemaining: null });
    expect(free.usage.tradingStrategies.limit).to.equal(3);
    expect(daysRemaining('2026-02-01T00:00:00.000Z', new Date('2026-03-01T00:00:00.000Z'))).to.equal(0);
    expect(endsAtParts('2026-12-22T23:59:00.000Z').formatted).to.equal('December 22, 2026');
  });

  it("reports this month's API calls when counted, against the limit in effect (an inactive Premium is limited like Free)", function () {
    const now = new Date('2026-01-30T12:00:00.000Z');
    expect(toSubscriptionResponse(null, { trades: 0 }, now).usage.apiCalls).to.deep.equal({ used: 0, limit: 1000, tracked: false });
    expect(toSubscriptionResponse(null, { trades: 0, apiCalls: 12 }, now).usage.apiCalls).to.deep.equal({ used: 12, limit: 1000, tracked: true });
    const premium = { tier: 'PREMIUM' as const, subscriptionStatus: 'ACTIVE' as const, endsAt: null };
    expect(toSubscriptionResponse(premium, { trades: 0, apiCalls: 5000 }, now).usage.apiCalls).to.deep.equal({ used: 5000, limit: null, tracked: true });
    expect(toSubscriptionResponse({ ...premium, subscriptionStatus: 'INACTIVE' }, { trades: 0, apiCalls: 5 }, now).usage.apiCalls.limit).to.equal(1000);
  });

  it('shows every limit in effect: an inactive Premium gets the Free limits on each line, not only API calls', function () {
    const now = new Date('2026-01-30T12:00:00.000Z');
    const limits = (status: 'ACTIVE' | 'INACTIVE' | 'CANCELLED' | 'EXPIRED') => {
      const { usage } = toSubscriptionResponse({ tier: 'PREMIUM', subscriptionStatus: status, endsAt: null }, { trades: 0, apiCalls: 5 }, now);
      return Object.values(usage).map((u) => u.limit);
    };
    expect(limits('ACTIVE')).to.deep.equal([null, null, null, null]);
    for (const status of ['INACTIVE', 'CANCELLED', 'EXPIRED'] as const) expect(limits(status), status).to.deep.equal([3, 1, 1000, null]);
  });
});

describe('tier-changing subscription events in the users and trading-bots read models', function () {
  it('switch premium on at activation, keep it while cancelled, and off at expiry', function () {
    const registered = evolveUserView(null, {
      type: 'UserRegistered',
      data: { userId, email: 'a@b.co', username: 'abc', firstName: null, lastName: null, passwordHash: 'x', registeredAt: '2025-12-01T00:00:00.000Z' },
    });
    const events = paidLifecycle(userId);
    const user = events.reduce<UserView | null>((d, e) => evolveUserView(d, e), registered);
    expect(user).to.deep.include({ subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE', premium: true });
    expect(evolveUserView(user, expiredAfter(userId))).to.deep.include({ subscriptionTier: 'FREE', subscriptionStatus: 'EXPIRED', premium: false });

    const bot = events.reduce<TradingBotView | null>((d, e) => evolveTradingBotView(d, e), null);
    expect(bot).to.deep.include({ premium: true, tier: 'PREMIUM', updatedAt: '2026-01-01T00:02:00.000Z' });
    expect(evolveTradingBotView(bot, expiredAfter(userId))).to.deep.include({ premium: false, tier: 'FREE', subscriptionStatus: 'EXPIRED' });
    const planChanged: SubscriptionEvent = {
      type: 'SubscriptionPlanChanged',
      data: { userId, tier: 'FREE', status: 'ACTIVE', previousTier: 'PREMIUM', previousStatus: 'ACTIVE', changedAt: '2026-01-03T00:00:00.000Z' },
    };
    expect(evolveUserView(user, planChanged)).to.deep.include({ subscriptionTier: 'FREE', premium: false });
    expect(evolveTradingBotView(bot, planChanged)).to.deep.include({ premium: false });
  });

  it('the trading-bots projection names the user of activation and expiry, not of payments or checkout', function () {
    const [checkout, payment, activation, cancellation] = paidLifecycle(userId);
    expect(tradingBotDocumentId(activation!)).to.equal(userId);
    expect(tradingBotDocumentId(expiredAfter(userId))).to.equal(userId);
    for (const e of [checkout!, payment!, cancellation!]) expect(tradingBotDocumentId(e), e.type).to.equal(null);
  });
});
