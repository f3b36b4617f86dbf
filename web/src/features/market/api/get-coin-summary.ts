/**
 * GET /api/coins/{coinId}/summary: the 24 h figures of one coin (change, high, low, volume, source)
 * for the 24h Performance card. The spec gives no interval for this per-coin data hook; it is
 * polled like the coin's price (10 s), and a real-time tick refreshes it too.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { coinSummaryResponseSchema, type CoinSummaryResponse } from '@papertrade/domain/market/contracts';
import { getJson } from '../../../lib/api-client';

export const COIN_SUMMARY_QUERY_ROOT = ['/api/coins/{coinId}/summary'] as const;
export const COIN_SUMMARY_REFETCH_MS = 10_000;
export const COIN_SUMMARY_ERROR = 'Failed to fetch market summary';

export function getCoinSummary(coinId: string, signal?: AbortSignal): Promise<CoinSummaryResponse> {
  return getJson(`/api/coins/${encodeURIComponent(coinId)}/summary`, coinSummaryResponseSchema, { signal });
}

export function coinSummaryQueryOptions(coinId: string) {
  return queryOptions({
    queryKey: [...COIN_SUMMARY_QUERY_ROOT, coinId] as const,
    queryFn: ({ signal }) => getCoinSummary(coinId, signal),
    refetchInterval: COIN_SUMMARY_REFETCH_MS,
  });
}

export function useCoinSummary(coinId: string) {
  return useQuery(coinSummaryQueryOptions(coinId));
}
