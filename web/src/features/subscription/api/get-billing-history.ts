/** GET /api/subscription/billing: the user's real payments (Stripe invoices or test checkouts), newest first. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { billingHistoryResponseSchema, type BillingHistoryResponse } from '@papertrade/domain/subscription/contracts';
import { getJson } from '../../../lib/api-client';

export const BILLING_HISTORY_PATH = '/api/subscription/billing';

export function getBillingHistory(signal?: AbortSignal): Promise<BillingHistoryResponse> {
  return getJson(BILLING_HISTORY_PATH, billingHistoryResponseSchema, { signal });
}

export function billingHistoryQueryOptions() {
  return queryOptions({
    queryKey: [BILLING_HISTORY_PATH] as const,
    queryFn: ({ signal }) => getBillingHistory(signal),
  });
}

export function useBillingHistory({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...billingHistoryQueryOptions(), enabled });
}
