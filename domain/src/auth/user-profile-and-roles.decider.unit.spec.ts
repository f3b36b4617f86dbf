/**
 * What the user stream remembers between commands: a profile edit is the profile the next edit is
 * compared with (and grants no admin flag), roles granted or revoked before a registration leave the
 * stream unregistered, and a command the decider does not know is refused rather than answered with
 * nothing.
 */
import { expect } from 'chai';
import { fold } from '../shared/decider';
import { specFor } from '../shared/decider-specification';
import { NotFoundError } from '../shared/errors';
import type { UserEvent } from './user';
import { userDecider, type UserCommand } from './user.decider';

const spec = specFor(userDecider);
const now = '2026-03-04T05:06:07.000Z';
const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId: 'u1', email: 'ann@example.com', username: 'ann', firstName: 'Ann', lastName: 'Lee', passwordHash: 'scrypt$x', registeredAt: now },
};
const edited = (changes: { email?: string; firstName?: string | null; lastName?: string | null }): UserEvent => ({
  type: 'UserProfileUpdated',
  data: { userId: 'u1', changes, updatedBy: 'admin', updatedAt: now },
});
const edit = (changes: { email?: string; firstName?: string | null; lastName?: string | null }): UserCommand => ({
  type: 'UpdateUserProfile',
  data: { userId: 'u1', changes, updatedBy: 'admin' },
  metadata: { now },
});
const granted: UserEvent = { type: 'AuditorRoleGranted', data: { userId: 'u1', grantedBy: 'admin', grantedAt: now } };
const revoked: UserEvent = { type: 'AuditorRoleRevoked', data: { userId: 'u1', revokedBy: 'admin', revokedAt: now } };

describe('user stream: profile edits and roles as the next command sees them', function () {
  it('compares an edit with the profile as last edited, not as registered', function () {
    // Anna is the name now: asking for Anna again changes nothing, asking for Ann changes it back.
    spec.given([registered, edited({ firstName: 'Anna' })]).when(edit({ firstName: 'Anna' })).then([]);
    spec.given([registered, edited({ firstName: 'Anna' })]).when(edit({ firstName: 'Ann' })).then([edited({ firstName: 'Ann' })]);
    spec.given([registered, edited({ email: 'new@example.com', lastName: null })]).when(edit({ email: 'new@example.com', lastName: null })).then([]);
  });

  it('keeps the rest of the profile and the flags through an edit', function () {
    expect(fold(userDecider, [registered, edited({ lastName: 'Smith' })])).to.deep.equal({
      status: 'registered',
      userId: 'u1',
      email: 'ann@example.com',
      username: 'ann',
      firstName: 'Ann',
      lastName: 'Smith',
      isAdmin: false,
      isAuditor: false,
    });
  });

  it('makes nobody an admin by editing their profile: a promotion after an edit is still recorded', function () {
    spec
      .given([registered, edited({ firstName: 'Anna' })])
      .when({ type: 'PromoteToAdmin', data: { userId: 'u1', promotedBy: 'system' }, metadata: { now } })
      .then([{ type: 'UserPromotedToAdmin', data: { userId: 'u1', promotedBy: 'system', promotedAt: now } }]);
  });

  it('stays unregistered whatever role events came before the registration', function () {
    expect(fold(userDecider, [granted])).to.deep.equal({ status: 'unregistered' });
    expect(fold(userDecider, [revoked])).to.deep.equal({ status: 'unregistered' });
    expect(fold(userDecider, [edited({ firstName: 'X' })])).to.deep.equal({ status: 'unregistered' });
  });

  it('says the user is not found when promoting someone who never registered', function () {
    spec.given([]).when({ type: 'PromoteToAdmin', data: { userId: 'u1', promotedBy: 'system' }, metadata: { now } }).thenThrows(NotFoundError, 'User not found');
  });

  it('refuses a command it does not know instead of appending nothing', function () {
    const unknown = { type: 'DeleteUser', data: { userId: 'u1' }, metadata: { now } } as unknown as UserCommand;
    expect(() => userDecider.decide(unknown, fold(userDecider, [registered]))).to.throw(Error, 'unexpected value');
  });
});
