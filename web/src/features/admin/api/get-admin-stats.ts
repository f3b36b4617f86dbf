/** GET /api/admin/stats (admins and auditors): the four stat cards, from the admin-stats projection. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminStatsSchema } from '@papertrade/domain/admin/contracts';
import { getJson } from '../../../lib/api-client';

export const ADMIN_STATS_PATH = '/api/admin/stats';
export const ADMIN_STATS_QUERY_ROOT = [ADMIN_STATS_PATH] as const;

export function adminStatsQueryOptions(enabled: boolean) {
  return queryOptions({
    queryKey: ADMIN_STATS_QUERY_ROOT,
    queryFn: ({ signal }) => getJson(ADMIN_STATS_PATH, adminStatsSchema, { signal }),
    enabled,
  });
}

export function useAdminStats(enabled: boolean) {
  return useQuery(adminStatsQueryOptions(enabled));
}
