/** GET /api/coins/{coinId}/price: one coin's price now, polled every 10 s (spec section 7). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { coinPriceResponseSchema, type CoinPriceResponse } from '@papertrade/domain/market/contracts';
import { getJson } from '../../../lib/api-client';

/** Every coin's price query starts with this key segment (a real-time tick refreshes them all). */
export const COIN_PRICE_QUERY_ROOT = ['/api/coins/{coinId}/price'] as const;
export const COIN_PRICE_REFETCH_MS = 10_000;
export const COIN_PRICE_ERROR = 'Failed to fetch current price';

export function getCoinPrice(coinId: string, signal?: AbortSignal): Promise<CoinPriceResponse> {
  return getJson(`/api/coins/${encodeURIComponent(coinId)}/price`, coinPriceResponseSchema, { signal });
}

export function coinPriceQueryOptions(coinId: string) {
  return queryOptions({
    queryKey: [...COIN_PRICE_QUERY_ROOT, coinId] as const,
    queryFn: ({ signal }) => getCoinPrice(coinId, signal),
    refetchInterval: COIN_PRICE_REFETCH_MS,
  });
}

export function useCoinPrice(coinId: string) {
  return useQuery(coinPriceQueryOptions(coinId));
}
