/**
 * The account a sign-in checks, folded from the `user-{id}` stream on the write side: whether it is
 * registered, the email it signs in with now, and its password hash. A sign-in reads this instead of
 * the projections, so an account that a 2xx sign-up created can sign in at once, whatever their lag.
 * A read-only fold with its own snapshots ('account'); the user decider's state keeps no hash.
 */
import type { Fold } from '../shared/decider';
import { normaliseEmail, type UserEvent } from './user';

export type AccountState =
  | { status: 'none' }
  | { status: 'registered'; userId: string; emailNormalised: string; passwordHash: string; isAdmin: boolean };

export const accountFold: Fold<AccountState, UserEvent> = {
  name: 'account',
  schemaVersion: 1,
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered': {
        const { userId, email, passwordHash } = event.data;
        return { status: 'registered', userId, emailNormalised: normaliseEmail(email), passwordHash, isAdmin: false };
      }
      case 'UserProfileUpdated': {
        const { email } = event.data.changes;
        return state.status === 'registered' && email !== undefined ? { ...state, emailNormalised: normaliseEmail(email) } : state;
      }
      case 'UserPromotedToAdmin':
        return state.status === 'registered' ? { ...state, isAdmin: true } : state;
      case 'AuditorRoleGranted':
      case 'AuditorRoleRevoked':
        // Roles are read from the users view; a sign-in only needs the email and hash.
        return state;
    }
  },
};

/** Whether this account signs in with `email` now (an admin may have moved it to another one). */
export const signsInWith = (state: AccountState, email: string): state is Extract<AccountState, { status: 'registered' }> =>
  state.status === 'registered' && state.emailNormalised === normaliseEmail(email);
