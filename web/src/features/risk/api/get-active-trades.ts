/**
 * GET /api/risk/active-trades, polled every 10 s (spec section 7; premium only, 403 for free users):
 * each open position with its stop loss, take profit and the money at risk.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { activeRiskTradesResponseSchema, type ActiveRiskTradesResponse } from '@papertrade/domain/trading/read-contracts';
import { getJson } from '../../../lib/api-client';

export const ACTIVE_TRADES_PATH = '/api/risk/active-trades';
export const ACTIVE_TRADES_REFETCH_MS = 10_000;

export function getActiveTrades(signal?: AbortSignal): Promise<ActiveRiskTradesResponse> {
  return getJson(ACTIVE_TRADES_PATH, activeRiskTradesResponseSchema, { signal });
}

export function activeTradesQueryOptions() {
  return queryOptions({
    queryKey: [ACTIVE_TRADES_PATH] as const,
    queryFn: ({ signal }) => getActiveTrades(signal),
    refetchInterval: ACTIVE_TRADES_REFETCH_MS,
  });
}

export function useActiveTrades({ enabled }: { enabled: boolean }) {
  return useQuery({ ...activeTradesQueryOptions(), enabled });
}
