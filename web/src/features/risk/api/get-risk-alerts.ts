/**
 * GET /api/risk/alerts (premium only): the alerts not yet cleared, newest first, and how many are
 * unacknowledged. Each screen polls it at its own spec's interval (section 7 of each): the
 * dashboard's Risk Overview every 10 s, the Risk Management screen every 5 s. One key for both, so
 * an acknowledgement refreshes either; the two are never mounted together (react-query would poll
 * at the shorter of the two).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { riskAlertsResponseSchema, type RiskAlertsResponse } from '@papertrade/domain/trading/read-contracts';
import { getJson } from '../../../lib/api-client';

export const RISK_ALERTS_PATH = '/api/risk/alerts';
export const RISK_ALERTS_REFETCH_MS = { dashboard: 10_000, riskManagement: 5_000 } as const;

export function getRiskAlerts(signal?: AbortSignal): Promise<RiskAlertsResponse> {
  return getJson(RISK_ALERTS_PATH, riskAlertsResponseSchema, { signal });
}

/** `refetchInterval`: the screen's (RISK_ALERTS_REFETCH_MS); none for a key alone (invalidation). */
export function riskAlertsQueryOptions(refetchInterval: number | false = false) {
  return queryOptions({
    queryKey: [RISK_ALERTS_PATH] as const,
    queryFn: ({ signal }) => getRiskAlerts(signal),
    refetchInterval,
  });
}

export function useRiskAlerts({ enabled, refetchInterval }: { enabled: boolean; refetchInterval: number }) {
  return useQuery({ ...riskAlertsQueryOptions(refetchInterval), enabled });
}
