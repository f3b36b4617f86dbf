/**
 * An account found by email on the write side: the email's reservation names the user, and the
 * account fold of the user's stream (snapshot + tail) holds the password hash. Sign-in reads it here
 * rather than from the projections, so a sign-up that answered 2xx can sign in at once whatever
 * their lag, and the cost does not grow with the user's stream.
 */
import { accountFold, signsInWith } from '@papertrade/domain/auth/account';
import { userStreamId } from '@papertrade/domain/auth/user';
import { reservationOwner, type RegistrationDeps } from './register-account';

export interface Account {
  userId: string;
  passwordHash: string;
  isAdmin: boolean;
}

export async function findAccountByEmail(deps: Pick<RegistrationDeps, 'handler'>, email: string): Promise<Account | null> {
  const userId = await reservationOwner(deps, 'email', email);
  if (!userId) return null;
  const { state } = await deps.handler.load(accountFold, userStreamId(userId));
  // A sign-up still in flight (or one that died) has no account yet. While an admin moves the account
  // to another email, both reservations name it for a moment: only the email it has now signs in.
  if (!signsInWith(state, email)) return null;
  return { userId, passwordHash: state.passwordHash, isAdmin: state.isAdmin };
}

/** Who appended the account's first event: 'anonymous' for a sign-up, 'system' for the bootstrap and the demo seed. */
export async function registeredBy(deps: Pick<RegistrationDeps, 'eventStore'>, userId: string): Promise<string | undefined> {
  // Startup only (the admin bootstrap), so reading the stream is fine here.
  const [first] = await deps.eventStore.readStream(userStreamId(userId));
  return first ? String(first.metadata.userId) : undefined;
}
