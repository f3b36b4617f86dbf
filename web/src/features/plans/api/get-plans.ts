/** GET /api/plans: the one price list (DESIGN.md section 6), read by the landing and subscription pages. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { plansResponseSchema, type Plan } from '@papertrade/domain/plans/contracts';
import { getJson } from '../../../lib/api-client';

export const PLANS_PATH = '/api/plans';

export function getPlans(signal?: AbortSignal): Promise<Plan[]> {
  return getJson(PLANS_PATH, plansResponseSchema, { signal });
}

export function plansQueryOptions() {
  return queryOptions({
    queryKey: [PLANS_PATH] as const,
    queryFn: ({ signal }) => getPlans(signal),
  });
}

export function usePlans() {
  return useQuery(plansQueryOptions());
}
