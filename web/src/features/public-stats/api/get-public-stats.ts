/** GET /api/public/stats: measured figures only (registered traders, model accuracy, simulated trades). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicStatsSchema, type PublicStats } from '@papertrade/domain/public-stats/contracts';
import { getJson } from '../../../lib/api-client';

export const PUBLIC_STATS_PATH = '/api/public/stats';

export function getPublicStats(signal?: AbortSignal): Promise<PublicStats> {
  return getJson(PUBLIC_STATS_PATH, publicStatsSchema, { signal });
}

export function publicStatsQueryOptions() {
  return queryOptions({
    queryKey: [PUBLIC_STATS_PATH] as const,
    queryFn: ({ signal }) => getPublicStats(signal),
  });
}

export function usePublicStats() {
  return useQuery(publicStatsQueryOptions());
}
