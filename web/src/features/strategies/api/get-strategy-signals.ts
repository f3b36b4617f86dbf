/** GET /api/strategies/signals (Premium): the live signals of the caller's active strategies, polled every 10 s like the dashboard's signals. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { strategySignalsResponseSchema, type StrategySignalsResponse } from '@papertrade/domain/strategies/contracts';
import { getJson } from '../../../lib/api-client';

export const STRATEGY_SIGNALS_PATH = '/api/strategies/signals';
export const STRATEGY_SIGNALS_REFETCH_MS = 10_000;

export function getStrategySignals(signal?: AbortSignal): Promise<StrategySignalsResponse> {
  return getJson(STRATEGY_SIGNALS_PATH, strategySignalsResponseSchema, { signal });
}

export function strategySignalsQueryOptions() {
  return queryOptions({ queryKey: [STRATEGY_SIGNALS_PATH] as const, queryFn: ({ signal }) => getStrategySignals(signal) });
}

export function useStrategySignals({ enabled }: { enabled: boolean }) {
  return useQuery({ ...strategySignalsQueryOptions(), enabled, refetchInterval: STRATEGY_SIGNALS_REFETCH_MS });
}
