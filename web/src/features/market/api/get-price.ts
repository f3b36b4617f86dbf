/** GET /api/price?symbol={SYMBOL}: the price card's coin, polled every 5 s (spec section 7). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { coinPriceResponseSchema, type CoinPriceResponse } from '@papertrade/domain/market/contracts';
import { getJson } from '../../../lib/api-client';

export const PRICE_PATH = '/api/price';
export const PRICE_QUERY_ROOT = [PRICE_PATH] as const;
export const PRICE_REFETCH_MS = 5_000;
export const PRICE_ERROR = 'Failed to fetch price';

export function getPrice(symbol: string, signal?: AbortSignal): Promise<CoinPriceResponse> {
  return getJson(`${PRICE_PATH}?${new URLSearchParams({ symbol })}`, coinPriceResponseSchema, { signal });
}

export function priceQueryOptions(symbol: string) {
  return queryOptions({
    queryKey: [...PRICE_QUERY_ROOT, symbol] as const,
    queryFn: ({ signal }) => getPrice(symbol, signal),
    refetchInterval: PRICE_REFETCH_MS,
  });
}

export function usePrice(symbol: string) {
  return useQuery(priceQueryOptions(symbol));
}
