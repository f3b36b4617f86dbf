import { useEffect, useMemo, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { onUnauthorized } from '../api-client';
import { AuthContext, type AuthState } from './auth-context';
import { meQueryOptions, useMe } from './get-me';

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const me = useMe();

  // A 401 on any request: the API client dropped the token; the UI is logged out at once.
  useEffect(() => onUnauthorized(() => queryClient.setQueryData(meQueryOptions().queryKey, null)), [queryClient]);

  const user = me.data ?? null;
  const value = useMemo<AuthState>(
    () => ({ user, isLoading: me.isLoading, isAdmin: user?.isAdmin === true }),
    [user, me.isLoading],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
