import { assertNever, type Decider } from '../shared/decider';
import { IllegalStateError, NotFoundError, ServiceUnavailableError } from '../shared/errors';
import { evolveUser, initialUserState, type ProfileChanges, type UserEvent, type UserState } from './user';

export type RegisterUser = {
  type: 'RegisterUser';
  data: {
    userId: string;
    email: string;
    username: string;
    firstName: string | null;
    lastName: string | null;
    passwordHash: string;
    /** When the sign-up started reserving its email and username (facts for the deadline below). */
    reservedSince: string;
    /** The reservations' orphan grace (RESERVATION_ORPHAN_AFTER_MS). */
    orphanAfterMs: number;
  };
  metadata: { now: string };
};
export type UpdateUserProfile = {
  type: 'UpdateUserProfile';
  data: { userId: string; changes: ProfileChanges; updatedBy: string };
  metadata: { now: string };
};
export type PromoteToAdmin = { type: 'PromoteToAdmin'; data: { userId: string; promotedBy: string }; metadata: { now: string } };

export type UserCommand = RegisterUser | UpdateUserProfile | PromoteToAdmin;

/**
 * A sign-up whose reservations are older than half their orphan grace may already have lost them to
 * another sign-up's reclaim; registering then would give two accounts one email. It is refused
 * instead (its reservations are released, and a retry starts afresh). The other half of the grace
 * absorbs clock skew between processes and the time the append itself takes.
 */
export const REGISTRATION_TOO_SLOW = 'The sign-up took too long to complete; please try again';

export function registerUser(command: RegisterUser, state: UserState): UserEvent[] {
  if (state.status === 'registered') throw new IllegalStateError('User already registered');
  const { reservedSince, orphanAfterMs, ...user } = command.data;
  const now = command.metadata.now;
  if (Date.parse(now) - Date.parse(reservedSince) >= orphanAfterMs / 2) throw new ServiceUnavailableError(REGISTRATION_TOO_SLOW);
  return [{ type: 'UserRegistered', data: { ...user, registeredAt: now } }];
}

export function updateUserProfile(command: UpdateUserProfile, state: UserState): UserEvent[] {
  if (state.status !== 'registered') throw new NotFoundError('User not found');
  const changes: ProfileChanges = {};
  for (const key of ['email', 'username', 'firstName', 'lastName'] as const) {
    const value = command.data.changes[key];
    if (value !== undefined && value !== state[key]) Object.assign(changes, { [key]: value });
  }
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'UserProfileUpdated', data: { userId: state.userId, changes, updatedBy: command.data.updatedBy, updatedAt: command.metadata.now } }];
}

export function promoteToAdmin(command: PromoteToAdmin, state: UserState): UserEvent[] {
  if (state.status !== 'registered') throw new NotFoundError('User not found');
  if (state.isAdmin) return [];
  return [{ type: 'UserPromotedToAdmin', data: { userId: state.userId, promotedBy: command.data.promotedBy, promotedAt: command.metadata.now } }];
}

export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  schemaVersion: 1,
  name: 'user',
  initialState: initialUserState,
  evolve: evolveUser,
  decide(command, state) {
    switch (command.type) {
      case 'RegisterUser':
        return registerUser(command, state);
      case 'UpdateUserProfile':
        return updateUserProfile(command, state);
      case 'PromoteToAdmin':
        return promoteToAdmin(command, state);
      default:
        return assertNever(command);
    }
  },
};
