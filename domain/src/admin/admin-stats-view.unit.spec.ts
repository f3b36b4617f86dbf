import { expect } from 'chai';
import type { SubscriptionEvent } from '../auth/subscription';
import type { UserEvent } from '../auth/user';
import { adminStatsAt, evolveAdminStats, type AdminStatsView } from './admin-stats-view';

const registered = (userId: string, registeredAt: string): UserEvent => ({
  type: 'UserRegistered',
  data: { userId, email: `${userId}@x.co`, username: userId, firstName: null, lastName: null, passwordHash: 'h', registeredAt },
});
const change = (userId: string, from: [string, string], to: [string, string]): SubscriptionEvent =>
  ({
    type: 'SubscriptionChangedByAdmin',
    data: { userId, previousTier: from[0], previousStatus: from[1], tier: to[0], status: to[1], changedBy: 'a', changedAt: '2026-11-03T00:00:00.000Z' },
  }) as SubscriptionEvent;

describe('admin stats counters', function () {
  it('counts sign-ups, premium (PREMIUM and ACTIVE), active and new this month by the spec rules', function () {
    let doc: AdminStatsView | null = null;
    for (const e of [
      registered('a', '2026-10-31T23:59:59.999Z'),
      registered('b', '2026-11-01T00:00:00.000Z'),
      registered('c', '2026-11-20T00:00:00.000Z'),
      registered('d', '2025-11-20T00:00:00.000Z'), // same month, another year
      change('a', ['FREE', 'ACTIVE'], ['PREMIUM', 'ACTIVE']),
      change('b', ['FREE', 'ACTIVE'], ['PREMIUM', 'CANCELLED']),
      change('c', ['FREE', 'ACTIVE'], ['FREE', 'INACTIVE']),
    ]) {
      doc = evolveAdminStats(doc, e);
    }
    expect(adminStatsAt(doc, new Date('2026-11-22T12:00:00.000Z'))).to.deep.equal({ totalUsers: 4, premiumUsers: 1, activeSubscriptions: 2, newThisMonth: 2 });
    expect(adminStatsAt(doc, new Date('2026-10-01T00:00:00.000Z')).newThisMonth).to.equal(1);
    expect(adminStatsAt(doc, new Date('2026-12-01T00:00:00.000Z')).newThisMonth).to.equal(0);
  });

  it('moves each counter by exactly the difference of one change', function () {
    let doc: AdminStatsView | null = evolveAdminStats(null, registered('a', '2026-11-01T00:00:00.000Z'));
    doc = evolveAdminStats(doc, change('a', ['FREE', 'ACTIVE'], ['PREMIUM', 'ACTIVE']));
    expect(doc).to.include({ premiumUsers: 1, activeSubscriptions: 1 });
    doc = evolveAdminStats(doc, change('a', ['PREMIUM', 'ACTIVE'], ['PREMIUM', 'EXPIRED']));
    expect(doc).to.include({ premiumUsers: 0, activeSubscriptions: 0 });
    doc = evolveAdminStats(doc, change('a', ['PREMIUM', 'EXPIRED'], ['FREE', 'ACTIVE']));
    expect(doc).to.include({ premiumUsers: 0, activeSubscriptions: 1, totalUsers: 1 });
  });

  it('counts a paid checkout, a plan change and an expiry like an admin edit', function () {
    let doc: AdminStatsView | null = evolveAdminStats(null, registered('a', '2026-11-01T00:00:00.000Z'));
    doc = evolveAdminStats(doc, {
      type: 'SubscriptionActivated',
      data: { userId: 'a', sessionId: 's', planId: 'premium', tier: 'PREMIUM', status: 'ACTIVE', previousTier: 'FREE', previousStatus: 'ACTIVE', stripeSubscriptionId: null, stripeCustomerId: null, via: 'success', activatedAt: '2026-11-02T00:00:00.000Z' },
    });
    expect(doc).to.include({ premiumUsers: 1, activeSubscriptions: 1 });
    doc = evolveAdminStats(doc, {
      type: 'SubscriptionExpired',
      data: { userId: 'a', tier: 'FREE', status: 'EXPIRED', previousTier: 'PREMIUM', previousStatus: 'ACTIVE', endsAt: '2026-12-02T00:00:00.000Z', reason: 'cancellation-ended', expiredAt: '2026-12-02T00:00:01.000Z' },
    });
    expect(doc).to.include({ premiumUsers: 0, activeSubscriptions: 0 });
    doc = evolveAdminStats(doc, {
      type: 'SubscriptionPlanChanged',
      data: { userId: 'a', tier: 'FREE', status: 'ACTIVE', previousTier: 'FREE', previousStatus: 'EXPIRED', changedAt: '2026-12-03T00:00:00.000Z' },
    });
    expect(doc).to.include({ premiumUsers: 0, activeSubscriptions: 1, totalUsers: 1 });
  });

  it('answers zeros before any sign-up', function () {
    expect(adminStatsAt(null, new Date())).to.deep.equal({ totalUsers: 0, premiumUsers: 0, activeSubscriptions: 0, newThisMonth: 0 });
  });
});
