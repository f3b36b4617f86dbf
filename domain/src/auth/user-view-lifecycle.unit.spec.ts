/** The users read model before registration, and the stream names of the auth slice. */
import { expect } from 'chai';
import { USERS_PROJECTION, evolveUserView, type UserView } from './user-view';
import { evolveUser, initialUserState, normaliseEmail, normaliseUsername, userStreamId, type UserEvent } from './user';
import { reservationDecider, reservationStreamId } from './reservation';
import { subscriptionStreamId } from './subscription';
import { fold } from '../shared/decider';

const at = '2026-11-02T10:00:00.000Z';
const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId: 'u1', email: ' Ann@Example.COM ', username: ' Ann_1 ', firstName: 'Ann', lastName: 'Lee', passwordHash: 'scrypt$h', registeredAt: at },
};
const updated: UserEvent = { type: 'UserProfileUpdated', data: { userId: 'u1', changes: { username: 'Bob' }, updatedBy: 'a', updatedAt: at } };
const promoted: UserEvent = { type: 'UserPromotedToAdmin', data: { userId: 'u1', promotedBy: 's', promotedAt: at } };
const premium = {
  type: 'SubscriptionChangedByAdmin' as const,
  data: { userId: 'u1', tier: 'PREMIUM' as const, status: 'ACTIVE' as const, previousTier: 'FREE' as const, previousStatus: 'ACTIVE' as const, changedBy: 'a', changedAt: at },
};

describe('users read model lifecycle', function () {
  it('registers a free, active, non-admin user with normalised keys and the month of registration', function () {
    expect(evolveUserView(null, registered)).to.deep.equal({
      id: 'u1',
      email: ' Ann@Example.COM ',
      username: ' Ann_1 ',
      firstName: 'Ann',
      lastName: 'Lee',
      subscriptionTier: 'FREE',
      subscriptionStatus: 'ACTIVE',
      isAdmin: false,
      isAuditor: false,
      createdAt: at,
      emailNormalised: 'ann@example.com',
      usernameNormalised: 'ann_1',
      fullNameNormalised: 'ann lee',
      lastNameNormalised: 'lee',
      createdMonth: '2026-11',
      premium: false,
    });
  });

  it('keeps a document it already holds when the registration is applied to it again', function () {
    const doc = evolveUserView(evolveUserView(evolveUserView(null, registered), premium), promoted)!;
    expect(evolveUserView(doc, registered)).to.deep.include({ subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE', isAdmin: true, premium: true });
  });

  it('ignores profile, admin and subscription events for a user it has not seen', function () {
    for (const event of [updated, promoted, premium]) expect(evolveUserView(null, event), event.type).to.equal(null);
  });

  it('re-normalises after a profile change', function () {
    const doc = evolveUserView(evolveUserView(null, registered), updated) as UserView;
    expect(doc).to.include({ username: 'Bob', usernameNormalised: 'bob', emailNormalised: 'ann@example.com' });
  });

  it('names the projection, and keeps no password hash in it', function () {
    expect(USERS_PROJECTION).to.equal('users');
    expect(JSON.stringify(evolveUserView(null, registered))).to.not.include('scrypt$h');
  });
});

describe('user stream state', function () {
  it('ignores profile changes and promotions before registration', function () {
    expect(evolveUser(initialUserState(), updated)).to.deep.equal({ status: 'unregistered' });
    expect(evolveUser(initialUserState(), promoted)).to.deep.equal({ status: 'unregistered' });
  });

  it('compares emails and usernames trimmed and case-insensitively', function () {
    expect(normaliseEmail('  Ann@Example.COM ')).to.equal('ann@example.com');
    expect(normaliseUsername(' Ann_1 ')).to.equal('ann_1');
  });

  it('names the streams of the slice', function () {
    expect(userStreamId('u1')).to.equal('user-u1');
    expect(subscriptionStreamId('u1')).to.equal('subscription-u1');
    expect(reservationStreamId('email', 'ab12')).to.equal('email-reservation-ab12');
  });
});

describe('reservation stream state', function () {
  const reserved = (ownerId: string) => ({ type: 'NameReserved' as const, data: { ownerId, reservedAt: at } });
  const released = (ownerId: string) => ({ type: 'ReservationReleased' as const, data: { ownerId, reason: 'released' as const, releasedAt: at } });

  it('is freed only by a release of its current holder', function () {
    expect(fold(reservationDecider, [reserved('u1'), released('u2')])).to.deep.equal({ status: 'held', ownerId: 'u1', reservedAt: at });
    expect(fold(reservationDecider, [reserved('u1'), released('u1')])).to.deep.equal({ status: 'free' });
    expect(fold(reservationDecider, [released('u1')])).to.deep.equal({ status: 'free' });
  });
});
