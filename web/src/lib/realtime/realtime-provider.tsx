/**
 * One real-time connection for the screens inside the shell (mounted by app/shell/app-shell.tsx, so
 * /login and /landing neither open a socket nor load its code). Which cached queries a message makes
 * stale is given by the app (`invalidation`), since lib/ does not know the features' query keys.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useAuth } from '../auth/auth-context';
import { getAuthToken } from '../auth/auth-token';
import { browserSocket, RealtimeClient } from './realtime-client';
import { RealtimeContext } from './realtime-hooks';
import { realtimeUrl, type InvalidationGroup } from './realtime-machine';

export type RealtimeInvalidation = Record<InvalidationGroup, readonly QueryKey[]>;

export function RealtimeProvider({ invalidation, children }: { invalidation: RealtimeInvalidation; children: ReactNode }) {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const [client] = useState(
    () =>
      new RealtimeClient({
        url: realtimeUrl(window.location),
        createSocket: browserSocket,
        getToken: getAuthToken,
        invalidate: (group) => {
          for (const queryKey of invalidation[group]) void queryClient.invalidateQueries({ queryKey });
        },
        // Spec section 8: real-time parse and connection errors are only logged.
        log: (message, detail) => console.warn(message, detail ?? ''),
      }),
  );

  useEffect(() => {
    client.start();
    return () => client.stop();
  }, [client]);

  // Sign-in and sign-out change the cached user: the open socket follows the stored token.
  const userId = user?.id ?? null;
  useEffect(() => {
    client.setSession(userId === null ? null : getAuthToken());
  }, [client, userId]);

  return <RealtimeContext.Provider value={client}>{children}</RealtimeContext.Provider>;
}
