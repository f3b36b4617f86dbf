import { createContext, useContext } from 'react';
import type { Me } from '@papertrade/domain/auth/contracts';

export interface AuthState {
  /** The signed-in user, or null for a visitor (also while `me` fails with a 5xx). */
  user: Me | null;
  /** True only while the first `me` of a stored token is pending. */
  isLoading: boolean;
  /** Convenience only: the server enforces roles. Premium is `isPremium(user)` from the auth contract. */
  isAdmin: boolean;
}

export const AuthContext = createContext<AuthState | null>(null);

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth must be used within an AuthProvider');
  return state;
}
