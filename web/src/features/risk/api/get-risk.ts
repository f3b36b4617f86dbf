/**
 * GET /api/risk, polled every 60 s (spec section 7): the bot settings, today's loss against the daily
 * limit and the portfolio's risk, for the dashboard's Risk Management and Risk Overview cards.
 * Signed-in users only (visitors get 401), so callers pass `enabled: false` for visitors.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { riskResponseSchema, type RiskResponse } from '@papertrade/domain/trading/read-contracts';
import { getJson } from '../../../lib/api-client';

export const RISK_PATH = '/api/risk';
export const RISK_REFETCH_MS = 60_000;

export function getRisk(signal?: AbortSignal): Promise<RiskResponse> {
  return getJson(RISK_PATH, riskResponseSchema, { signal });
}

export function riskQueryOptions() {
  return queryOptions({
    queryKey: [RISK_PATH] as const,
    queryFn: ({ signal }) => getRisk(signal),
    refetchInterval: RISK_REFETCH_MS,
  });
}

export function useRisk({ enabled }: { enabled: boolean }) {
  return useQuery({ ...riskQueryOptions(), enabled });
}
