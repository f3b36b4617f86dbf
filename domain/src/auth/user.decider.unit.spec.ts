import { specFor } from '../shared/decider-specification';
import { IllegalStateError, NotFoundError, ServiceUnavailableError } from '../shared/errors';
import type { UserEvent } from './user';
import { REGISTRATION_TOO_SLOW, userDecider, type RegisterUser } from './user.decider';

const spec = specFor(userDecider);
const now = '2026-03-04T05:06:07.000Z';
const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId: 'u1', email: 'Ann@Example.com', username: 'ann', firstName: 'Ann', lastName: null, passwordHash: 'scrypt$x', registeredAt: now },
};

const register = (reservedSince: string, at = now): RegisterUser => {
  const { registeredAt: _at, ...data } = registered.data;
  return { type: 'RegisterUser', data: { ...data, reservedSince, orphanAfterMs: 60_000 }, metadata: { now: at } };
};

describe('user decider', function () {
  it('registers a new user with the time of the command (the reservation facts stay out of the event)', function () {
    spec.given([]).when(register('2026-03-04T05:06:06.000Z')).then([registered]);
  });

  it('refuses to register twice', function () {
    spec.given([registered]).when(register(now)).thenThrows(IllegalStateError, 'User already registered');
  });

  it('refuses a registration whose reservations are half their orphan grace old (another sign-up may reclaim them)', function () {
    spec.given([]).when(register('2026-03-04T05:05:37.001Z')).then([registered]); // 29.999 s
    spec.given([]).when(register('2026-03-04T05:05:37.000Z')).thenThrows(ServiceUnavailableError, REGISTRATION_TOO_SLOW); // 30 s
  });

  it('records only the profile fields that change', function () {
    spec
      .given([registered])
      .when({ type: 'UpdateUserProfile', data: { userId: 'u1', changes: { firstName: 'Anna', username: 'ann', lastName: null }, updatedBy: 'admin' }, metadata: { now } })
      .then([{ type: 'UserProfileUpdated', data: { userId: 'u1', changes: { firstName: 'Anna' }, updatedBy: 'admin', updatedAt: now } }]);
  });

  it('appends nothing when nothing changes', function () {
    spec.given([registered]).when({ type: 'UpdateUserProfile', data: { userId: 'u1', changes: { firstName: 'Ann' }, updatedBy: 'admin' }, metadata: { now } }).then([]);
  });

  it('cannot update an unknown user', function () {
    spec.given([]).when({ type: 'UpdateUserProfile', data: { userId: 'u1', changes: { firstName: 'X' }, updatedBy: 'a' }, metadata: { now } }).thenThrows(NotFoundError, 'User not found');
  });

  it('promotes once', function () {
    const promoted: UserEvent = { type: 'UserPromotedToAdmin', data: { userId: 'u1', promotedBy: 'system', promotedAt: now } };
    spec.given([registered]).when({ type: 'PromoteToAdmin', data: { userId: 'u1', promotedBy: 'system' }, metadata: { now } }).then([promoted]);
    spec.given([registered, promoted]).when({ type: 'PromoteToAdmin', data: { userId: 'u1', promotedBy: 'system' }, metadata: { now } }).then([]);
    spec.given([]).when({ type: 'PromoteToAdmin', data: { userId: 'u1', promotedBy: 'system' }, metadata: { now } }).thenThrows(NotFoundError);
  });

  describe('auditor role', function () {
    const granted: UserEvent = { type: 'AuditorRoleGranted', data: { userId: 'u1', grantedBy: 'admin', grantedAt: now } };
    const revoked: UserEvent = { type: 'AuditorRoleRevoked', data: { userId: 'u1', revokedBy: 'admin', revokedAt: now } };
    const grant = { type: 'GrantAuditorRole', data: { userId: 'u1', grantedBy: 'admin' }, metadata: { now } } as const;
    const revoke = { type: 'RevokeAuditorRole', data: { userId: 'u1', revokedBy: 'admin' }, metadata: { now } } as const;

    it('grants the role once; a second grant appends nothing', function () {
      spec.given([registered]).when(grant).then([granted]);
      spec.given([registered, granted]).when(grant).then([]);
    });

    it('revokes a held role once; revoking a role not held appends nothing', function () {
      spec.given([registered, granted]).when(revoke).then([revoked]);
      spec.given([registered]).when(revoke).then([]);
      spec.given([registered, granted, revoked]).when(revoke).then([]);
    });

    it('grants again after a revoke', function () {
      spec.given([registered, granted, revoked]).when(grant).then([granted]);
    });

    it('cannot grant or revoke for an unknown user', function () {
      spec.given([]).when(grant).thenThrows(NotFoundError, 'User not found');
      spec.given([]).when(revoke).thenThrows(NotFoundError, 'User not found');
    });
  });
});
