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

export type GrantAuditorRole = { type: 'GrantAuditorRole'; data: { userId: string; grantedBy: string }; metadata: { now: string } };
export type RevokeAuditorRole = { type: 'RevokeAuditorRole'; data: { userId: string; revokedBy: string }; metadata: { now: string } };

export type UserCommand = RegisterUser | UpdateUserProfile | PromoteToAdmin | GrantAuditorRole | RevokeAuditorRole;

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

/**
 * Granting a role the user holds (or revoking one they lack) appends nothing, so a repeated click or
 * a retried request leaves one event in the history. An admin already sees everything an auditor
 * does, but may still hold the role: revoking their admin flag is not a thing here, and the role
 * says what they keep if it ever is.
 */
export function grantAuditorRole(command: GrantAuditorRole, state: UserState): UserEvent[] {
  if (state.status !== 'registered') throw new NotFoundError('User not found');
  if (state.isAuditor) return [];
  return [{ type: 'AuditorRoleGranted', data: { userId: state.userId, grantedBy: command.data.grantedBy, grantedAt: command.metadata.now } }];
}

export function revokeAuditorRole(command: RevokeAuditorRole, state: UserState): UserEvent[] {
  if (state.status !== 'registered') throw new NotFoundError('User not found');
  if (!state.isAuditor) return [];
  return [{ type: 'AuditorRoleRevoked', data: { userId: state.userId, revokedBy: command.data.revokedBy, revokedAt: command.metadata.now } }];
}

export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  // 2: the state gained isAuditor; snapshots of version 1 lack it and are folded again.
  schemaVersion: 2,
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
      case 'GrantAuditorRole':
        return grantAuditorRole(command, state);
      case 'RevokeAuditorRole':
        return revokeAuditorRole(command, state);
      default:
        return assertNever(command);
    }
  },
};
