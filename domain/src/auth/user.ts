/** The `user-{id}` stream: registration, profile edits, admin flag, auditor role. */
import type { DomainEvent } from '../shared/decider';

export type UserRegistered = DomainEvent<
  'UserRegistered',
  {
    userId: string;
    email: string;
    username: string;
    firstName: string | null;
    lastName: string | null;
    /** scrypt hash only; never the password. */
    passwordHash: string;
    registeredAt: string;
  }
>;

export interface ProfileChanges {
  email?: string;
  username?: string;
  firstName?: string | null;
  lastName?: string | null;
}

export type UserProfileUpdated = DomainEvent<'UserProfileUpdated', { userId: string; changes: ProfileChanges; updatedBy: string; updatedAt: string }>;

export type UserPromotedToAdmin = DomainEvent<'UserPromotedToAdmin', { userId: string; promotedBy: string; promotedAt: string }>;

/** The auditor role: read-only access to the user list, the stats and the audit endpoints. */
export type AuditorRoleGranted = DomainEvent<'AuditorRoleGranted', { userId: string; grantedBy: string; grantedAt: string }>;
export type AuditorRoleRevoked = DomainEvent<'AuditorRoleRevoked', { userId: string; revokedBy: string; revokedAt: string }>;

export type UserEvent = UserRegistered | UserProfileUpdated | UserPromotedToAdmin | AuditorRoleGranted | AuditorRoleRevoked;

export type UserState =
  | { status: 'unregistered' }
  | {
      status: 'registered';
      userId: string;
      email: string;
      username: string;
      firstName: string | null;
      lastName: string | null;
      isAdmin: boolean;
      isAuditor: boolean;
    };

export const initialUserState = (): UserState => ({ status: 'unregistered' });

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered': {
      const { userId, email, username, firstName, lastName } = event.data;
      return { status: 'registered', userId, email, username, firstName, lastName, isAdmin: false, isAuditor: false };
    }
    case 'UserProfileUpdated':
      return state.status === 'registered' ? { ...state, ...event.data.changes } : state;
    case 'UserPromotedToAdmin':
      return state.status === 'registered' ? { ...state, isAdmin: true } : state;
    case 'AuditorRoleGranted':
      return state.status === 'registered' ? { ...state, isAuditor: true } : state;
    case 'AuditorRoleRevoked':
      return state.status === 'registered' ? { ...state, isAuditor: false } : state;
  }
}

export const userStreamId = (userId: string) => `user-${userId}`;

/** Emails and usernames are unique case-insensitively; this is the form that is compared. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();
export const normaliseUsername = (username: string) => username.trim().toLowerCase();
