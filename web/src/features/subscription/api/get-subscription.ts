/**
 * GET /api/subscription: tier, status, whether cancelled with its end date and days remaining, the
 * usage against the plan's limits, and the catalogue plan of the tier. Upgrade, cancel and
 * reactivate answer the same shape, so they write it into this query's cache.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { subscriptionResponseSchema, type SubscriptionResponse } from '@papertrade/domain/subscription/contracts';
import { getJson } from '../../../lib/api-client';

export const SUBSCRIPTION_PATH = '/api/subscription';

export function getSubscription(signal?: AbortSignal): Promise<SubscriptionResponse> {
  return getJson(SUBSCRIPTION_PATH, subscriptionResponseSchema, { signal });
}

export function subscriptionQueryOptions() {
  return queryOptions({
    queryKey: [SUBSCRIPTION_PATH] as const,
    queryFn: ({ signal }) => getSubscription(signal),
  });
}

export function useSubscription({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...subscriptionQueryOptions(), enabled });
}
