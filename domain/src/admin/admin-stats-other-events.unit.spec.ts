/**
 * The admin counters under events that are not a sign-up or a tier/status change: profile edits,
 * roles, checkouts, cancellations and payments move no counter; an expiry written before expiries
 * recorded the status they replaced counts as replacing an ACTIVE subscription.
 */
import { expect } from 'chai';
import type { SubscriptionEvent } from '../auth/subscription';
import type { UserEvent } from '../auth/user';
import { adminStatsAt, evolveAdminStats, type AdminStatsView } from './admin-stats-view';

const at = '2026-11-02T00:00:00.000Z';
const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId: 'a', email: 'a@x.co', username: 'a', firstName: null, lastName: null, passwordHash: 'h', registeredAt: at },
};
const toPremium: SubscriptionEvent = {
  type: 'SubscriptionChangedByAdmin',
  data: { userId: 'a', tier: 'PREMIUM', status: 'ACTIVE', previousTier: 'FREE', previousStatus: 'ACTIVE', changedBy: 'admin', changedAt: at },
};
const premiumUser = (): AdminStatsView => evolveAdminStats(evolveAdminStats(null, registered), toPremium);

describe('admin stats counters: other events', function () {
  it('counts an old expiry without the replaced status as the end of an active Premium', function () {
    const doc = evolveAdminStats(premiumUser(), {
      type: 'SubscriptionExpired',
      data: { userId: 'a', tier: 'FREE', status: 'EXPIRED', previousTier: 'PREMIUM', endsAt: null, reason: 'stripe-subscription-deleted', expiredAt: at },
    });
    expect(adminStatsAt(doc, new Date(at))).to.deep.equal({ totalUsers: 1, premiumUsers: 0, activeSubscriptions: 0, newThisMonth: 1 });
  });

  it('moves no counter on profile edits, roles, checkouts, cancellations and payments', function () {
    const doc = premiumUser();
    expect(doc).to.deep.equal({ totalUsers: 1, premiumUsers: 1, activeSubscriptions: 1, createdByMonth: { '2026-11': 1 } });
    const others: Array<UserEvent | SubscriptionEvent> = [
      { type: 'UserProfileUpdated', data: { userId: 'a', changes: { firstName: 'Ann' }, updatedBy: 'admin', updatedAt: at } },
      { type: 'UserPromotedToAdmin', data: { userId: 'a', promotedBy: 'system', promotedAt: at } },
      { type: 'AuditorRoleGranted', data: { userId: 'a', grantedBy: 'admin', grantedAt: at } },
      { type: 'CheckoutStarted', data: { userId: 'a', sessionId: 's1', planId: 'premium', tier: 'PREMIUM', amountUsd: 29, source: 'test', startedAt: at } },
      { type: 'SubscriptionCancelled', data: { userId: 'a', tier: 'PREMIUM', endsAt: '2026-12-02T00:00:00.000Z', cancelledAt: at } },
      { type: 'PaymentRecorded', data: { userId: 'a', paymentId: 'p1', invoiceId: null, sessionId: 's1', amountUsd: 29, description: 'Premium Pro', source: 'test', paidAt: at } },
    ];
    for (const event of others) expect(evolveAdminStats(doc, event), event.type).to.deep.equal({ totalUsers: 1, premiumUsers: 1, activeSubscriptions: 1, createdByMonth: { '2026-11': 1 } });
    expect(evolveAdminStats(null, others[0]!)).to.deep.equal({ totalUsers: 0, premiumUsers: 0, activeSubscriptions: 0, createdByMonth: {} });
  });
});
