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
});
