/**
 * GET /api/strategies (Premium): the caller's three strategies with their configuration and measured
 * figures, polled every 30 s (spec section 7), only for Premium users (the upsell page asks nothing).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { strategiesResponseSchema, type StrategiesResponse } from '@papertrade/domain/strategies/contracts';
import { getJson } from '../../../lib/api-client';

export const STRATEGIES_PATH = '/api/strategies';
export const STRATEGIES_REFETCH_MS = 30_000;

export function getStrategies(signal?: AbortSignal): Promise<StrategiesResponse> {
  return getJson(STRATEGIES_PATH, strategiesResponseSchema, { signal });
}

export function strategiesQueryOptions() {
  return queryOptions({ queryKey: [STRATEGIES_PATH] as const, queryFn: ({ signal }) => getStrategies(signal) });
}

export function useStrategies({ enabled }: { enabled: boolean }) {
  return useQuery({ ...strategiesQueryOptions(), enabled, refetchInterval: STRATEGIES_REFETCH_MS });
}
