/** POST /api/strategies/{id}/backtest {startDate, endDate, initialCapital}: a backtest job (202); its result comes later (GET /api/backtest/{backtestId}). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { strategyBacktestResponseSchema, type StrategyBacktestRequest, type StrategyBacktestResponse } from '@papertrade/domain/strategies/contracts';
import type { StrategyId } from '@papertrade/domain/strategies/strategy-catalogue';
import { sendJson } from '../../../lib/api-client';
import { strategiesQueryOptions } from './get-strategies';

export const backtestStrategyPath = (id: StrategyId) => `/api/strategies/${id}/backtest`;

export function backtestStrategy({ id, request }: { id: StrategyId; request: StrategyBacktestRequest }): Promise<StrategyBacktestResponse> {
  return sendJson('POST', backtestStrategyPath(id), request, strategyBacktestResponseSchema);
}

export function useBacktestStrategy() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: backtestStrategy, onSuccess: () => queryClient.invalidateQueries({ queryKey: strategiesQueryOptions().queryKey }) });
}
