/**
 * Renders a screen to HTML in the shell's frame with the app's providers, answers already in the
 * query cache if given, and records every query its components mount (for ./screen-polls.ts, which
 * imports this module only after preparing Node for the components; see there).
 */
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { QueryClient, QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import { Provider as ReduxProvider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { Me } from '@papertrade/domain/auth/contracts';
import { ShellFrame } from '../app/shell/app-shell';
import { createStore } from '../app/store';
import { AuthContext } from '../lib/auth/auth-context';
import { createQueryClient } from '../lib/query-client';
import { RealtimeClient } from '../lib/realtime/realtime-client';
import { RealtimeContext } from '../lib/realtime/realtime-hooks';
import type { MountedQuery } from './screen-polls';

/** A QueryClient like the app's (same defaults) that keeps the options of every query a component mounts. */
function recordingClient(): { client: QueryClient; mounted: MountedQuery[] } {
  const client = new QueryClient({ defaultOptions: createQueryClient().getDefaultOptions() });
  const mounted: MountedQuery[] = [];
  const defaults = client.defaultQueryOptions.bind(client);
  client.defaultQueryOptions = ((options: Parameters<typeof defaults>[0]) => {
    const defaulted = defaults(options);
    // useQuery passes its raw options (with the query function) once per component; the observer
    // then passes the defaulted ones again, and cache reads pass a bare key: neither is a new mount.
    if (!options._defaulted && options.queryFn !== undefined) {
      mounted.push({
        queryHash: defaulted.queryHash,
        queryKey: defaulted.queryKey,
        queryFn: defaulted.queryFn,
        enabled: defaulted.enabled,
        refetchInterval: defaulted.refetchInterval,
      });
    }
    return defaulted;
  }) as typeof client.defaultQueryOptions;
  return { client, mounted };
}

export function renderScreen(Screen: ComponentType, { path, viewer, inShell }: { path: string; viewer: Me | null; inShell: boolean }, cached: ReadonlyArray<readonly [QueryKey, unknown]> = []): { html: string; mounted: MountedQuery[] } {
  const { client, mounted } = recordingClient();
  for (const [queryKey, data] of cached) client.setQueryData(queryKey, data);
  // A real client that is never started: no socket, no ticks; the hooks read its initial state.
  const realtime = new RealtimeClient({ url: 'ws://app.test/ws', createSocket: () => ({ readyState: 3, send() {}, close() {} }), getToken: () => null, invalidate() {}, log() {} });
  const html = renderToString(
    <ReduxProvider store={createStore()}>
      <QueryClientProvider client={client}>
        <AuthContext.Provider value={{ user: viewer, isLoading: false, isAdmin: viewer?.isAdmin === true }}>
          <RealtimeContext.Provider value={realtime}>
            <MemoryRouter initialEntries={[path]}>
              <Routes>
                {inShell ? (
                  <Route element={<ShellFrame />}>
                    <Route path="*" element={<Screen />} />
                  </Route>
                ) : (
                  <Route path="*" element={<Screen />} />
                )}
              </Routes>
            </MemoryRouter>
          </RealtimeContext.Provider>
        </AuthContext.Provider>
      </QueryClientProvider>
    </ReduxProvider>,
  );
  return { html, mounted };
}
