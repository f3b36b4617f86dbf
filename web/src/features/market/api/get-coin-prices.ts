/** GET /api/coins/prices: every supported coin's price and 24 h change, polled every 30 s (spec section 7). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { coinPricesResponseSchema, type CoinPricesResponse } from '@papertrade/domain/market/contracts';
import { getJson } from '../../../lib/api-client';

export const COIN_PRICES_PATH = '/api/coins/prices';
export const COIN_PRICES_REFETCH_MS = 30_000;
export const COIN_PRICES_ERROR = 'Failed to fetch coin prices';

export function getCoinPrices(signal?: AbortSignal): Promise<CoinPricesResponse> {
  return getJson(COIN_PRICES_PATH, coinPricesResponseSchema, { signal });
}

export function coinPricesQueryOptions() {
  return queryOptions({
    queryKey: [COIN_PRICES_PATH] as const,
    queryFn: ({ signal }) => getCoinPrices(signal),
    refetchInterval: COIN_PRICES_REFETCH_MS,
  });
}

export function useCoinPrices({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...coinPricesQueryOptions(), enabled });
}
