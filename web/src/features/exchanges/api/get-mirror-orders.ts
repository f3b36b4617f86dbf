/** GET /api/exchanges/mirror-orders (premium), polled every 30 s: the testnet's fills beside the paper fills. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { mirrorOrdersResponseSchema, type MirrorOrdersResponse } from '@papertrade/domain/exchanges/contracts';
import { getJson } from '../../../lib/api-client';

export const MIRROR_ORDERS_PATH = '/api/exchanges/mirror-orders';
export const MIRROR_ORDERS_REFETCH_MS = 30_000;

export function getMirrorOrders(signal?: AbortSignal): Promise<MirrorOrdersResponse> {
  return getJson(MIRROR_ORDERS_PATH, mirrorOrdersResponseSchema, { signal });
}

export function mirrorOrdersQueryOptions() {
  return queryOptions({ queryKey: [MIRROR_ORDERS_PATH] as const, queryFn: ({ signal }) => getMirrorOrders(signal), refetchInterval: MIRROR_ORDERS_REFETCH_MS });
}

export function useMirrorOrders({ enabled }: { enabled: boolean }) {
  return useQuery({ ...mirrorOrdersQueryOptions(), enabled });
}
