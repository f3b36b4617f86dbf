import { expect } from 'chai';
import { evolveUserView, toMe, type UserView } from './user-view';
import { meSchema } from './contracts';

const at = '2026-11-02T10:00:00.000Z';

describe('users read model', function () {
  it('builds the me shape from registration, profile, admin and subscription events', function () {
    let doc: UserView | null = null;
    doc = evolveUserView(doc, {
      type: 'UserRegistered',
      data: { userId: 'u1', email: 'Ann@Example.com', username: 'Ann_1', firstName: 'Ann', lastName: null, passwordHash: 'x', registeredAt: at },
    });
    doc = evolveUserView(doc, { type: 'UserProfileUpdated', data: { userId: 'u1', changes: { email: 'NEW@example.com' }, updatedBy: 'a', updatedAt: at } });
    doc = evolveUserView(doc, { type: 'UserPromotedToAdmin', data: { userId: 'u1', promotedBy: 's', promotedAt: at } });
    doc = evolveUserView(doc, {
      type: 'SubscriptionChangedByAdmin',
      data: { userId: 'u1', tier: 'PREMIUM', status: 'ACTIVE', previousTier: 'FREE', previousStatus: 'ACTIVE', changedBy: 'a', changedAt: at },
    });
    expect(doc).to.include({ emailNormalised: 'new@example.com', usernameNormalised: 'ann_1', createdMonth: '2026-11', premium: true });
    const me = toMe(doc!);
    expect(meSchema.parse(me)).to.deep.equal({
      id: 'u1',
      email: 'NEW@example.com',
      username: 'Ann_1',
      firstName: 'Ann',
      lastName: null,
      subscriptionTier: 'PREMIUM',
      subscriptionStatus: 'ACTIVE',
      isAdmin: true,
      isAuditor: false,
      createdAt: at,
    });
  });

  it('counts premium only when the tier is PREMIUM and the status ACTIVE', function () {
    const base = evolveUserView(null, {
      type: 'UserRegistered',
      data: { userId: 'u1', email: 'a@b.co', username: 'abc', firstName: null, lastName: null, passwordHash: 'x', registeredAt: at },
    });
    const cancelled = evolveUserView(base, {
      type: 'SubscriptionChangedByAdmin',
      data: { userId: 'u1', tier: 'PREMIUM', status: 'CANCELLED', previousTier: 'FREE', previousStatus: 'ACTIVE', changedBy: 'a', changedAt: at },
    });
    expect(cancelled?.premium).to.equal(false);
  });

  it('carries the auditor role and the name search keys', function () {
    let doc = evolveUserView(null, {
      type: 'UserRegistered',
      data: { userId: 'u1', email: 'a@b.co', username: 'abc', firstName: 'Ann', lastName: 'Van  Dyke', passwordHash: 'x', registeredAt: at },
    });
    expect(doc).to.include({ isAuditor: false, fullNameNormalised: 'ann van dyke', lastNameNormalised: 'van dyke' });
    doc = evolveUserView(doc, { type: 'AuditorRoleGranted', data: { userId: 'u1', grantedBy: 'a', grantedAt: at } });
    expect(toMe(doc!).isAuditor).to.equal(true);
    doc = evolveUserView(doc, { type: 'UserProfileUpdated', data: { userId: 'u1', changes: { firstName: null }, updatedBy: 'a', updatedAt: at } });
    expect(doc).to.include({ fullNameNormalised: 'van dyke' });
    doc = evolveUserView(doc, { type: 'AuditorRoleRevoked', data: { userId: 'u1', revokedBy: 'a', revokedAt: at } });
    expect(toMe(doc!).isAuditor).to.equal(false);
  });
});
