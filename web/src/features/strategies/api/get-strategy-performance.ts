/** GET /api/strategies/{id}/performance: the summary and the cumulative return series of one strategy's round trips. */
import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { strategyPerformanceResponseSchema, type StrategyPerformanceResponse } from '@papertrade/domain/strategies/contracts';
import type { StrategyId } from '@papertrade/domain/strategies/strategy-catalogue';
import { getJson } from '../../../lib/api-client';

export const strategyPerformancePath = (id: StrategyId) => `/api/strategies/${id}/performance`;

export function getStrategyPerformance(id: StrategyId, signal?: AbortSignal): Promise<StrategyPerformanceResponse> {
  return getJson(strategyPerformancePath(id), strategyPerformanceResponseSchema, { signal });
}

export function strategyPerformanceQueryOptions(id: StrategyId) {
  return queryOptions({ queryKey: [strategyPerformancePath(id)] as const, queryFn: ({ signal }) => getStrategyPerformance(id, signal) });
}

export function useStrategyPerformance(id: StrategyId | null) {
  return useQuery({ ...strategyPerformanceQueryOptions(id ?? 'rsi-technical'), enabled: id !== null });
}

/** Every strategy's performance at once (the Analytics tab compares them). */
export function useStrategiesPerformance(ids: readonly StrategyId[], enabled: boolean) {
  return useQueries({ queries: ids.map((id) => ({ ...strategyPerformanceQueryOptions(id), enabled })) });
}
