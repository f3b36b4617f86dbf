/**
 * The account a sign-in checks does not move with the auditor role: granting or revoking it leaves
 * the email the account signs in with, its hash and its admin flag exactly as they were.
 */
import { expect } from 'chai';
import { fold } from '../shared/decider';
import { accountFold, signsInWith } from './account';
import type { UserEvent } from './user';

const at = '2026-03-04T05:06:07.000Z';
const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId: 'u1', email: 'Ann@Example.com', username: 'ann', firstName: 'Ann', lastName: null, passwordHash: 'scrypt$x', registeredAt: at },
};
const granted: UserEvent = { type: 'AuditorRoleGranted', data: { userId: 'u1', grantedBy: 'admin', grantedAt: at } };
const revoked: UserEvent = { type: 'AuditorRoleRevoked', data: { userId: 'u1', revokedBy: 'admin', revokedAt: at } };
const account = { status: 'registered', userId: 'u1', emailNormalised: 'ann@example.com', passwordHash: 'scrypt$x', isAdmin: false };

describe('account fold and the auditor role', function () {
  it('still signs in with the same email and hash after the role is granted', function () {
    const state = fold(accountFold, [registered, granted]);
    expect(state).to.deep.equal(account);
    expect(signsInWith(state, 'ann@example.com')).to.equal(true);
  });

  it('still signs in with the same email and hash after the role is revoked', function () {
    const state = fold(accountFold, [registered, granted, revoked]);
    expect(state).to.deep.equal(account);
    expect(signsInWith(state, 'ann@example.com')).to.equal(true);
  });

  it('is still no account when role events arrive before a registration', function () {
    expect(fold(accountFold, [granted, revoked])).to.deep.equal({ status: 'none' });
  });
});
