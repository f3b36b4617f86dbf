import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './api-client';

/** Spec section 9: no retries, no refetch on window focus, data never stale, cache kept 5 minutes. */
export const QUERY_GC_TIME_MS = 5 * 60_000;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        retry: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        gcTime: QUERY_GC_TIME_MS,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
