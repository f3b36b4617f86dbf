/** POST /api/strategies/{id}/toggle {active}: success refreshes the strategies (and the live signals, which follow the active ones). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { strategyCommandResponseSchema, type StrategyCommandResponse, type ToggleStrategyRequest } from '@papertrade/domain/strategies/contracts';
import type { StrategyId } from '@papertrade/domain/strategies/strategy-catalogue';
import { sendJson } from '../../../lib/api-client';
import { strategiesQueryOptions } from './get-strategies';
import { strategySignalsQueryOptions } from './get-strategy-signals';

export const toggleStrategyPath = (id: StrategyId) => `/api/strategies/${id}/toggle`;

export function toggleStrategy({ id, active }: { id: StrategyId; active: boolean }): Promise<StrategyCommandResponse> {
  const body: ToggleStrategyRequest = { active };
  return sendJson('POST', toggleStrategyPath(id), body, strategyCommandResponseSchema);
}

export function useToggleStrategy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleStrategy,
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: strategiesQueryOptions().queryKey }), queryClient.invalidateQueries({ queryKey: strategySignalsQueryOptions().queryKey })]),
  });
}
