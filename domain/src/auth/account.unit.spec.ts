/** The account fold a sign-in checks: registration, email changes, promotion; nothing else moves it. */
import { expect } from 'chai';
import { fold } from '../shared/decider';
import { accountFold, signsInWith } from './account';
import type { UserEvent } from './user';

const at = '2026-03-04T05:06:07.000Z';
const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId: 'u1', email: 'Ann@Example.com', username: 'ann', firstName: 'Ann', lastName: null, passwordHash: 'scrypt$x', registeredAt: at },
};
const moved = (email: string): UserEvent => ({ type: 'UserProfileUpdated', data: { userId: 'u1', changes: { email }, updatedBy: 'admin', updatedAt: at } });

describe('account fold', function () {
  it('is no account before the registration', function () {
    expect(fold(accountFold, [])).to.deep.equal({ status: 'none' });
    expect(signsInWith(fold(accountFold, []), 'ann@example.com')).to.equal(false);
  });

  it('holds the hash and the normalised email of a registration', function () {
    const state = fold(accountFold, [registered]);
    expect(state).to.deep.equal({ status: 'registered', userId: 'u1', emailNormalised: 'ann@example.com', passwordHash: 'scrypt$x', isAdmin: false });
    expect(signsInWith(state, ' ANN@example.com ')).to.equal(true);
  });

  it('signs in with the email an admin moved it to, not the old one', function () {
    const state = fold(accountFold, [registered, moved('New@Example.com')]);
    expect(signsInWith(state, 'new@example.com')).to.equal(true);
    expect(signsInWith(state, 'ann@example.com')).to.equal(false);
  });

  it('keeps the email when a profile edit leaves it alone, and records a promotion', function () {
    const renamed: UserEvent = { type: 'UserProfileUpdated', data: { userId: 'u1', changes: { firstName: 'Anna' }, updatedBy: 'admin', updatedAt: at } };
    const promoted: UserEvent = { type: 'UserPromotedToAdmin', data: { userId: 'u1', promotedBy: 'system', promotedAt: at } };
    const state = fold(accountFold, [registered, renamed, promoted]);
    expect(state).to.include({ emailNormalised: 'ann@example.com', isAdmin: true });
  });

  it('ignores edits and promotions of an account that was never registered', function () {
    const promoted: UserEvent = { type: 'UserPromotedToAdmin', data: { userId: 'u1', promotedBy: 'system', promotedAt: at } };
    expect(fold(accountFold, [moved('x@example.com'), promoted])).to.deep.equal({ status: 'none' });
  });
});
