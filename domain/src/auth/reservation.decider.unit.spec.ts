import { specFor } from '../shared/decider-specification';
import { IllegalStateError } from '../shared/errors';
import { reservationDecider, type ReservationEvent, type Reserve } from './reservation';

const spec = specFor(reservationDecider);
const t0 = '2026-01-01T00:00:00.000Z';
const reserved = (ownerId: string, at = t0): ReservationEvent => ({ type: 'NameReserved', data: { ownerId, reservedAt: at } });
const reserve = (ownerId: string, now: string, holderRegistered = false, kind: 'email' | 'username' = 'email'): Reserve => ({
  type: 'Reserve',
  data: { kind, ownerId, holderRegistered, orphanAfterMs: 60_000 },
  metadata: { now },
});

describe('reservation decider', function () {
  it('reserves a free name', function () {
    spec.given([]).when(reserve('u1', t0)).then([reserved('u1')]);
  });

  it('is idempotent for the same owner', function () {
    spec.given([reserved('u1')]).when(reserve('u1', '2026-01-01T00:00:01.000Z')).then([]);
  });

  it('refuses an email held by a registered user', function () {
    spec.given([reserved('u1')]).when(reserve('u2', '2026-02-01T00:00:00.000Z', true)).thenThrows(IllegalStateError, 'Email already registered');
  });

  it('refuses a username held by a registered user', function () {
    spec.given([reserved('u1')]).when(reserve('u2', t0, true, 'username')).thenThrows(IllegalStateError, 'Username already taken');
  });

  it('refuses a fresh reservation whose user is still being registered', function () {
    spec.given([reserved('u1')]).when(reserve('u2', '2026-01-01T00:00:59.000Z', false)).thenThrows(IllegalStateError, 'Email already registered');
  });

  it('reclaims an orphaned reservation (no user after the grace period)', function () {
    const now = '2026-01-01T00:01:00.000Z';
    spec
      .given([reserved('u1')])
      .when(reserve('u2', now, false))
      .then([
        { type: 'ReservationReleased', data: { ownerId: 'u1', reason: 'orphaned', releasedAt: now } },
        { type: 'NameReserved', data: { ownerId: 'u2', reservedAt: now } },
      ]);
  });

  it('reserves again after a release', function () {
    const now = '2026-01-02T00:00:00.000Z';
    spec
      .given([reserved('u1'), { type: 'ReservationReleased', data: { ownerId: 'u1', reason: 'released', releasedAt: t0 } }])
      .when(reserve('u2', now, false))
      .then([reserved('u2', now)]);
  });

  it('never reclaims a registered holder\'s reservation, however old', function () {
    for (const kind of ['email', 'username'] as const) {
      spec
        .given([reserved('u1')])
        .when(reserve('u2', '2030-01-01T00:00:00.000Z', true, kind))
        .thenThrows(IllegalStateError, kind === 'email' ? 'Email already registered' : 'Username already taken');
    }
  });

  it('never reclaims a registered holder\'s reservation made again after a release (an admin moved the holder back)', function () {
    const back = '2026-01-05T00:00:00.000Z';
    spec
      .given([reserved('u1'), { type: 'ReservationReleased', data: { ownerId: 'u1', reason: 'released', releasedAt: t0 } }, reserved('u1', back)])
      .when(reserve('u2', '2026-03-01T00:00:00.000Z', true))
      .thenThrows(IllegalStateError, 'Email already registered');
  });

  const release = (ownerId: string, holderUsesName = false) => ({ type: 'Release' as const, data: { ownerId, holderUsesName }, metadata: { now: t0 } });

  it('releases only for the holder', function () {
    spec
      .given([reserved('u1')])
      .when(release('u1'))
      .then([{ type: 'ReservationReleased', data: { ownerId: 'u1', reason: 'released', releasedAt: t0 } }]);
    spec.given([reserved('u1')]).when(release('u2')).then([]);
    spec.given([]).when(release('u1')).then([]);
  });

  it('never releases a name its registered holder uses now (a late clean-up of a replayed or concurrent edit)', function () {
    spec.given([reserved('u1')]).when(release('u1', true)).then([]);
  });
});
