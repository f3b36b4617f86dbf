/** The `user-{id}` stream: registration, profile edits, admin flag. */
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

export type UserEvent = UserRegistered | UserProfileUpdated | UserPromotedToAdmin;

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
    };

export const initialUserState = (): UserState => ({ status: 'unregistered' });

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered': {
      const { userId, email, username, firstName, lastName } = event.data;
      return { status: 'registered', userId, email, username, firstName, lastName, isAdmin: false };
    }
    case 'UserProfileUpdated':
      return state.status === 'registered' ? { ...state, ...event.data.changes } : state;
    case 'UserPromotedToAdmin':
      return state.status === 'registered' ? { ...state, isAdmin: true } : state;
  }
}

export const userStreamId = (userId: string) => `user-${userId}`;

/** Emails and usernames are unique case-insensitively; this is the form that is compared. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();
export const normaliseUsername = (username: string) => username.trim().toLowerCase();
