/**
 * GET /api/backtest/strategies: the strategy catalogue with each parameter's min, max and default
 * (spec section 7). Public: free users see the list and the form too (section 6). Loaded once: the
 * catalogue changes only with a deployment.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { strategiesResponseSchema, type StrategiesResponse } from '@papertrade/domain/backtest/contracts';
import { getJson } from '../../../lib/api-client';

export const BACKTEST_STRATEGIES_PATH = '/api/backtest/strategies';

export function getBacktestStrategies(signal?: AbortSignal): Promise<StrategiesResponse> {
  return getJson(BACKTEST_STRATEGIES_PATH, strategiesResponseSchema, { signal });
}

export function backtestStrategiesQueryOptions() {
  return queryOptions({ queryKey: [BACKTEST_STRATEGIES_PATH] as const, queryFn: ({ signal }) => getBacktestStrategies(signal) });
}

export function useBacktestStrategies({ enabled }: { enabled: boolean }) {
  return useQuery({ ...backtestStrategiesQueryOptions(), enabled });
}
