/**
 * GET /api/risk/active-trades (premium only, 403 for free users): each open position with its stop
 * loss, take profit, the money at risk and its unrealised P&L. Each screen polls it at its own
 * spec's interval (section 7 of each): the dashboard's Risk Overview every 30 s, the Risk Management
 * screen's Active Trades every 10 s (never mounted together; one key, so a trade refreshes either).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { activeRiskTradesResponseSchema, type ActiveRiskTradesResponse } from '@papertrade/domain/trading/read-contracts';
import { getJson } from '../../../lib/api-client';

export const ACTIVE_TRADES_PATH = '/api/risk/active-trades';
export const ACTIVE_TRADES_REFETCH_MS = { dashboard: 30_000, riskManagement: 10_000 } as const;

export function getActiveTrades(signal?: AbortSignal): Promise<ActiveRiskTradesResponse> {
  return getJson(ACTIVE_TRADES_PATH, activeRiskTradesResponseSchema, { signal });
}

/** `refetchInterval`: the screen's (ACTIVE_TRADES_REFETCH_MS); none for a key alone (invalidation). */
export function activeTradesQueryOptions(refetchInterval: number | false = false) {
  return queryOptions({
    queryKey: [ACTIVE_TRADES_PATH] as const,
    queryFn: ({ signal }) => getActiveTrades(signal),
    refetchInterval,
  });
}

export function useActiveTrades({ enabled, refetchInterval }: { enabled: boolean; refetchInterval: number }) {
  return useQuery({ ...activeTradesQueryOptions(refetchInterval), enabled });
}
