/**
 * Uniqueness of emails and usernames: one reservation stream per normalised value, named by its hash
 * (no personal data in stream names), appended with optimistic concurrency. A reservation whose user
 * never got registered (the process died between the two appends) is an orphan: after a grace period
 * another sign-up may reclaim it, so an address is never locked forever.
 *
 * The rules are here, whatever path asks (sign-up, admin edit, bootstrap, an idempotent replay):
 * a reservation whose holder is registered is never reclaimed, and a name its registered holder
 * uses now is never released. The handler supplies those facts from the holder's user stream.
 */
import { assertNever, type Decider, type DomainEvent } from '../shared/decider';
import { IllegalStateError } from '../shared/errors';

export type ReservationKind = 'email' | 'username';

export type NameReserved = DomainEvent<'NameReserved', { ownerId: string; reservedAt: string }>;
export type ReservationReleased = DomainEvent<'ReservationReleased', { ownerId: string; reason: 'released' | 'orphaned'; releasedAt: string }>;
export type ReservationEvent = NameReserved | ReservationReleased;

export type ReservationState = { status: 'free' } | { status: 'held'; ownerId: string; reservedAt: string };

export type Reserve = {
  type: 'Reserve';
  data: {
    kind: ReservationKind;
    ownerId: string;
    /** Whether the current holder's user stream exists (looked up by the handler). */
    holderRegistered: boolean;
    /** A holder that never registered may be displaced after this long. */
    orphanAfterMs: number;
  };
  metadata: { now: string };
};
export type Release = {
  type: 'Release';
  data: {
    ownerId: string;
    /** Whether the owner is registered and its profile has this name now (looked up by the handler). */
    holderUsesName: boolean;
  };
  metadata: { now: string };
};
export type ReservationCommand = Reserve | Release;

export const RESERVATION_TAKEN: Record<ReservationKind, string> = {
  email: 'Email already registered',
  username: 'Username already taken',
};

export function reserve(command: Reserve, state: ReservationState): ReservationEvent[] {
  const { ownerId, kind, holderRegistered, orphanAfterMs } = command.data;
  const now = command.metadata.now;
  if (state.status === 'free') return [{ type: 'NameReserved', data: { ownerId, reservedAt: now } }];
  if (state.ownerId === ownerId) return [];
  const age = Date.parse(now) - Date.parse(state.reservedAt);
  if (holderRegistered || age < orphanAfterMs) throw new IllegalStateError(RESERVATION_TAKEN[kind]);
  return [
    { type: 'ReservationReleased', data: { ownerId: state.ownerId, reason: 'orphaned', releasedAt: now } },
    { type: 'NameReserved', data: { ownerId, reservedAt: now } },
  ];
}

export function release(command: Release, state: ReservationState): ReservationEvent[] {
  if (state.status !== 'held' || state.ownerId !== command.data.ownerId) return [];
  // A clean-up that comes late (a replayed request, two edits of one user at once) must not free a
  // name its holder uses: another account could then take it.
  if (command.data.holderUsesName) return [];
  return [{ type: 'ReservationReleased', data: { ownerId: state.ownerId, reason: 'released', releasedAt: command.metadata.now } }];
}

export const reservationDecider: Decider<ReservationState, ReservationCommand, ReservationEvent> = {
  schemaVersion: 1,
  name: 'reservation',
  initialState: () => ({ status: 'free' }),
  evolve(state, event) {
    switch (event.type) {
      case 'NameReserved':
        return { status: 'held', ownerId: event.data.ownerId, reservedAt: event.data.reservedAt };
      case 'ReservationReleased':
        return state.status === 'held' && state.ownerId === event.data.ownerId ? { status: 'free' } : state;
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'Reserve':
        return reserve(command, state);
      case 'Release':
        return release(command, state);
      default:
        return assertNever(command);
    }
  },
};

/** Stream name from the sha-256 hex of the normalised value (hashing is done by the caller). */
export const reservationStreamId = (kind: ReservationKind, hashHex: string) => `${kind}-reservation-${hashHex}`;
