/**
 * An account found by email on the write side: the email's reservation names the user, and the
 * user's stream holds the password hash (UserRegistered). Sign-in reads it here rather than from the
 * projections, so a sign-up that answered 2xx can sign in at once whatever their lag.
 */
import { evolveUser, initialUserState, normaliseEmail, userStreamId } from '@papertrade/domain/auth/user';
import { userDecider } from '@papertrade/domain/auth/user.decider';
import { evolveCredentials, type CredentialsView } from '@papertrade/domain/auth/user-view';
import { toDomainEvent } from '@papertrade/platform/commands/command-handler';
import type { Position } from '@papertrade/platform/event-store/position';
import { reservationOwner, type RegistrationDeps } from './register-account';

export interface Account {
  userId: string;
  passwordHash: string;
  isAdmin: boolean;
  /** Who registered it: 'anonymous' for a sign-up, 'system' for the bootstrap and the demo seed. */
  registeredBy: string;
  /** Position of the last event of the user's stream (what the users projection must reach). */
  position: Position;
}

export async function findAccountByEmail(deps: Pick<RegistrationDeps, 'eventStore' | 'handler'>, email: string): Promise<Account | null> {
  const userId = await reservationOwner(deps, 'email', email);
  if (!userId) return null;
  const recorded = await deps.eventStore.readStream(userStreamId(userId));
  const first = recorded[0];
  const last = recorded[recorded.length - 1];
  if (!first || !last) return null; // a sign-up still in flight (or one that died): no account yet
  const events = recorded.map((r) => toDomainEvent(userDecider, r));
  const state = events.reduce(evolveUser, initialUserState());
  const credentials = events.reduce<CredentialsView | null>(evolveCredentials, null);
  // While an admin moves the account to another email, both reservations name it for a moment:
  // only the email it has now signs in.
  if (state.status !== 'registered' || !credentials || normaliseEmail(state.email) !== normaliseEmail(email)) return null;
  return { userId, passwordHash: credentials.passwordHash, isAdmin: state.isAdmin, registeredBy: String(first.metadata.userId), position: last.position };
}
