/**
 * GET /api/risk/alerts, polled every 5 s (spec section 7; premium only): the alerts not yet cleared,
 * newest first, and how many are unacknowledged.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { riskAlertsResponseSchema, type RiskAlertsResponse } from '@papertrade/domain/trading/read-contracts';
import { getJson } from '../../../lib/api-client';

export const RISK_ALERTS_PATH = '/api/risk/alerts';
export const RISK_ALERTS_REFETCH_MS = 5_000;

export function getRiskAlerts(signal?: AbortSignal): Promise<RiskAlertsResponse> {
  return getJson(RISK_ALERTS_PATH, riskAlertsResponseSchema, { signal });
}

export function riskAlertsQueryOptions() {
  return queryOptions({
    queryKey: [RISK_ALERTS_PATH] as const,
    queryFn: ({ signal }) => getRiskAlerts(signal),
    refetchInterval: RISK_ALERTS_REFETCH_MS,
  });
}

export function useRiskAlerts({ enabled }: { enabled: boolean }) {
  return useQuery({ ...riskAlertsQueryOptions(), enabled });
}
