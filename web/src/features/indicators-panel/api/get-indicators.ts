/** GET /api/indicators?symbol={SYMBOL}: the latest RSI, MACD, moving averages and volume level, polled every 30 s (spec section 7). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { indicatorsResponseSchema, type IndicatorsResponse } from '@papertrade/domain/signals/contracts';
import { getJson } from '../../../lib/api-client';

export const INDICATORS_PATH = '/api/indicators';
export const INDICATORS_QUERY_ROOT = [INDICATORS_PATH] as const;
export const INDICATORS_REFETCH_MS = 30_000;
export const INDICATORS_ERROR = 'Failed to fetch indicators';

export function getIndicators(symbol: string, signal?: AbortSignal): Promise<IndicatorsResponse> {
  return getJson(`${INDICATORS_PATH}?${new URLSearchParams({ symbol })}`, indicatorsResponseSchema, { signal });
}

export function indicatorsQueryOptions(symbol: string) {
  return queryOptions({
    queryKey: [...INDICATORS_QUERY_ROOT, symbol] as const,
    queryFn: ({ signal }) => getIndicators(symbol, signal),
    refetchInterval: INDICATORS_REFETCH_MS,
  });
}

export function useIndicators(symbol: string) {
  return useQuery(indicatorsQueryOptions(symbol));
}
