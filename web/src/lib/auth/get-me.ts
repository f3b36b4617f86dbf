/**
 * GET /api/auth/me: the signed-in user, or null when logged out. A 401 means "logged out" (and the
 * API client has already dropped the token); it is not retried and stays cached for 5 minutes.
 * Without a stored token there is nobody to ask about (auth is bearer-only, DESIGN.md section 2),
 * so the answer is null at once and visitors never wait for a spinner.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Me } from '@papertrade/domain/auth/contracts';
import { ApiError, apiRequest, readJson } from '../api-client';
import { getAuthToken } from './auth-token';

export const ME_PATH = '/api/auth/me';
export const ME_STALE_TIME_MS = 5 * 60_000;
/** After a failed (non-401) `me`, ask again this often until one succeeds. */
export const ME_ERROR_RETRY_INTERVAL_MS = 30_000;

export async function getMe(signal?: AbortSignal): Promise<Me | null> {
  if (!getAuthToken()) return null;
  try {
    // The contract loads beside the request (not in the initial bundle: visitors never need it).
    const [{ meSchema }, res] = await Promise.all([
      import('@papertrade/domain/auth/contracts'),
      apiRequest('GET', ME_PATH, undefined, { signal }),
    ]);
    return await readJson(res, meSchema, ME_PATH);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function meQueryOptions() {
  return queryOptions({
    queryKey: [ME_PATH] as const,
    queryFn: ({ signal }) => getMe(signal),
    initialData: () => (getAuthToken() ? undefined : null),
    retry: false,
    staleTime: ME_STALE_TIME_MS,
    gcTime: ME_STALE_TIME_MS,
    // A 5xx keeps the token and shows the logged-out shell until the next successful `me`.
    refetchInterval: (query) => (query.state.status === 'error' ? ME_ERROR_RETRY_INTERVAL_MS : false),
  });
}

export function useMe() {
  return useQuery(meQueryOptions());
}
