/**
 * GET /api/risk/parameters, polled every 30 s (spec section 7): the user's risk parameter set (the
 * defaults of section 9 until changed). Any signed-in user may read it; only premium users may change it.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { riskParametersResponseSchema, type RiskParametersResponse } from '@papertrade/domain/trading/read-contracts';
import { getJson } from '../../../lib/api-client';

export const RISK_PARAMETERS_PATH = '/api/risk/parameters';
export const RISK_PARAMETERS_REFETCH_MS = 30_000;

export function getRiskParameters(signal?: AbortSignal): Promise<RiskParametersResponse> {
  return getJson(RISK_PARAMETERS_PATH, riskParametersResponseSchema, { signal });
}

export function riskParametersQueryOptions() {
  return queryOptions({
    queryKey: [RISK_PARAMETERS_PATH] as const,
    queryFn: ({ signal }) => getRiskParameters(signal),
    refetchInterval: RISK_PARAMETERS_REFETCH_MS,
  });
}

export function useRiskParameters({ enabled }: { enabled: boolean }) {
  return useQuery({ ...riskParametersQueryOptions(), enabled });
}
