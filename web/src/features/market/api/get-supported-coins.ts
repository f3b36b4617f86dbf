/** GET /api/coins/supported: the ten coins (name, symbol, icon, colour), keyed by coin id. Not polled: the list is fixed. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { supportedCoinsResponseSchema, type SupportedCoinsResponse } from '@papertrade/domain/market/contracts';
import { getJson } from '../../../lib/api-client';

export const SUPPORTED_COINS_PATH = '/api/coins/supported';
export const SUPPORTED_COINS_ERROR = 'Failed to fetch supported coins';

export function getSupportedCoins(signal?: AbortSignal): Promise<SupportedCoinsResponse> {
  return getJson(SUPPORTED_COINS_PATH, supportedCoinsResponseSchema, { signal });
}

export function supportedCoinsQueryOptions() {
  return queryOptions({
    queryKey: [SUPPORTED_COINS_PATH] as const,
    queryFn: ({ signal }) => getSupportedCoins(signal),
  });
}

export function useSupportedCoins() {
  return useQuery(supportedCoinsQueryOptions());
}
