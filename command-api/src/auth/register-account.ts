/**
 * Registration across three streams: the email reservation, the username reservation, then the user.
 * Each append is optimistic; a failure after a reservation releases what was reserved. A crash
 * between appends leaves an orphaned reservation, which the reservation decider lets a later sign-up
 * reclaim once its grace period is over; the user decider refuses a registration that came so late
 * its reservations could have been reclaimed.
 *
 * The password is hashed first, before any name is looked at: the reservations are held only for
 * the appends, and a sign-up refused for a taken email costs as much scrypt as a sign-in attempt
 * (it tells as much).
 */
import { createHash, randomUUID } from 'node:crypto';
import { normaliseEmail, normaliseUsername, userStreamId } from '@papertrade/domain/auth/user';
import { userDecider } from '@papertrade/domain/auth/user.decider';
import { reservationDecider, reservationStreamId, type ReservationKind, type ReservationState, type Reserve } from '@papertrade/domain/auth/reservation';
import { IdempotencyConflictError } from '@papertrade/domain/shared/errors';
import { idempotentId, type CommandHandler, type CommandMeta } from '@papertrade/platform/commands/command-handler';
import type { EventStore } from '@papertrade/platform/event-store/event-store';
import { comparePositions, type Position } from '@papertrade/platform/event-store/position';
import { hashPassword } from '@papertrade/platform/auth/passwords';

export interface AccountInput {
  email: string;
  username: string;
  firstName?: string | undefined;
  lastName?: string | undefined;
  password: string;
}

export interface RegistrationDeps {
  eventStore: EventStore;
  handler: CommandHandler;
  orphanAfterMs: number;
}

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export function reservationStream(kind: ReservationKind, value: string): string {
  return reservationStreamId(kind, sha256(kind === 'email' ? normaliseEmail(value) : normaliseUsername(value)));
}

export function latest(...positions: Array<Position | undefined>): Position | undefined {
  return positions.reduce<Position | undefined>((a, b) => (comparePositions(a, b) >= 0 ? a : b), undefined);
}

/** Whether the user's stream exists, i.e. the registration completed. */
export async function isRegistered(deps: Pick<RegistrationDeps, 'handler'>, userId: string): Promise<boolean> {
  // Snapshot + tail: the cost does not grow with the user's stream.
  return (await deps.handler.load(userDecider, userStreamId(userId))).revision !== undefined;
}

/** Whether the user is registered and its profile has this email or username now. */
async function usesName(deps: Pick<RegistrationDeps, 'handler'>, userId: string, kind: ReservationKind, value: string): Promise<boolean> {
  const { state } = await deps.handler.load(userDecider, userStreamId(userId));
  if (state.status !== 'registered') return false;
  return kind === 'email' ? normaliseEmail(state.email) === normaliseEmail(value) : normaliseUsername(state.username) === normaliseUsername(value);
}

/** The Reserve command for a reservation in `state`, with the facts the decider needs about its holder. */
async function reserveCommand(deps: RegistrationDeps, kind: ReservationKind, ownerId: string, state: ReservationState): Promise<Reserve> {
  return {
    type: 'Reserve',
    data: {
      kind,
      ownerId,
      holderRegistered: state.status === 'held' && state.ownerId !== ownerId ? await isRegistered(deps, state.ownerId) : false,
      orphanAfterMs: deps.orphanAfterMs,
    },
    metadata: { now: deps.handler.now() },
  };
}

export async function reserveName(deps: RegistrationDeps, kind: ReservationKind, value: string, ownerId: string, meta: CommandMeta) {
  return deps.handler.handle(reservationDecider, reservationStream(kind, value), (state) => reserveCommand(deps, kind, ownerId, state), meta);
}

/**
 * Refuses (409) a name the reservation decider would refuse now, before anything is appended: held
 * by another owner who is registered, or by an unfinished sign-up still within its grace. The
 * decider itself decides, on the stream as it is, so this check and the append cannot disagree
 * except by a race, which the append's expected revision settles (one wins, the other is refused
 * and gives back what it reserved). A command that reserves two names checks both first, so one
 * refused for its second name does not reserve and release its first (issue 16 item 19).
 */
export async function refuseUnavailableName(deps: RegistrationDeps, kind: ReservationKind, value: string, ownerId: string): Promise<void> {
  const { state } = await deps.handler.load(reservationDecider, reservationStream(kind, value));
  reservationDecider.decide(await reserveCommand(deps, kind, ownerId, state), state);
}

export async function releaseName(deps: RegistrationDeps, kind: ReservationKind, value: string, ownerId: string, meta: CommandMeta) {
  return deps.handler.handle(
    reservationDecider,
    reservationStream(kind, value),
    async (state) => ({
      type: 'Release' as const,
      data: { ownerId, holderUsesName: state.status === 'held' && state.ownerId === ownerId ? await usesName(deps, ownerId, kind, value) : false },
      metadata: { now: deps.handler.now() },
    }),
    { actor: meta.actor, correlationId: meta.correlationId },
  );
}

/** The owner of a reservation, if any (used to find an account by email on the write side). */
export async function reservationOwner(deps: Pick<RegistrationDeps, 'handler'>, kind: ReservationKind, value: string): Promise<string | null> {
  const { state } = await deps.handler.load(reservationDecider, reservationStream(kind, value));
  return state.status === 'held' ? state.ownerId : null;
}

/**
 * Fails fast, before anything is appended, when the email or username cannot be reserved (a
 * registered user's, or an unfinished sign-up's within its grace). The reservations below remain the
 * real guard against races.
 */
async function refuseTakenNames(deps: RegistrationDeps, input: AccountInput, userId: string): Promise<void> {
  await refuseUnavailableName(deps, 'email', input.email, userId);
  await refuseUnavailableName(deps, 'username', input.username, userId);
}

export async function registerAccount(deps: RegistrationDeps, input: AccountInput, meta: CommandMeta): Promise<{ userId: string; position: Position | undefined }> {
  const userId = meta.idempotency ? idempotentId(meta.idempotency, 'user-id') : randomUUID();
  if (meta.idempotency) {
    // A replayed key answers from the user stream before anything else is touched.
    const previous = await deps.eventStore.readStream(userStreamId(userId));
    const last = previous[previous.length - 1];
    if (last) {
      if (previous[0]!.metadata.requestHash !== meta.idempotency.requestHash) {
        throw new IdempotencyConflictError('This Idempotency-Key was already used with a different request body');
      }
      return { userId, position: last.position };
    }
  }
  const passwordHash = await hashPassword(input.password);
  await refuseTakenNames(deps, input, userId);
  const reservedSince = deps.handler.now();
  const email = await reserveName(deps, 'email', input.email, userId, meta);
  let username;
  try {
    username = await reserveName(deps, 'username', input.username, userId, meta);
  } catch (error) {
    await releaseName(deps, 'email', input.email, userId, meta).catch(() => {});
    throw error;
  }
  try {
    const user = await deps.handler.handle(
      userDecider,
      userStreamId(userId),
      {
        type: 'RegisterUser',
        data: {
          userId,
          email: input.email.trim(),
          username: input.username.trim(),
          firstName: input.firstName ?? null,
          lastName: input.lastName ?? null,
          passwordHash,
          reservedSince,
          orphanAfterMs: deps.orphanAfterMs,
        },
        metadata: { now: deps.handler.now() },
      },
      meta,
    );
    return { userId, position: latest(email.position, username.position, user.position) };
  } catch (error) {
    await releaseName(deps, 'email', input.email, userId, meta).catch(() => {});
    await releaseName(deps, 'username', input.username, userId, meta).catch(() => {});
    throw error;
  }
}
