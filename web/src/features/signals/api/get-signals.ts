/**
 * GET /api/signals?symbol={SYMBOL}: the latest signals of one coin (newest first, each with its
 * reasons) and the counts the Active Signals card shows, polled every 10 s (spec section 7).
 * Without a symbol (`null`) every coin's signals are listed (the export reads those).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { signalsResponseSchema, type SignalsResponse } from '@papertrade/domain/signals/contracts';
import { getJson } from '../../../lib/api-client';

export const SIGNALS_PATH = '/api/signals';
export const SIGNALS_QUERY_ROOT = [SIGNALS_PATH] as const;
export const SIGNALS_REFETCH_MS = 10_000;
export const SIGNALS_ERROR = 'Failed to fetch signals';

export function getSignals(symbol: string | null, signal?: AbortSignal): Promise<SignalsResponse> {
  const path = symbol === null ? SIGNALS_PATH : `${SIGNALS_PATH}?${new URLSearchParams({ symbol })}`;
  return getJson(path, signalsResponseSchema, { signal });
}

export function signalsQueryOptions(symbol: string | null) {
  return queryOptions({
    queryKey: [...SIGNALS_QUERY_ROOT, symbol ?? 'ALL'] as const,
    queryFn: ({ signal }) => getSignals(symbol, signal),
    refetchInterval: SIGNALS_REFETCH_MS,
  });
}

export function useSignals(symbol: string | null) {
  return useQuery(signalsQueryOptions(symbol));
}
