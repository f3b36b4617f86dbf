/** POST /api/strategies/{id}/configure: the type's configuration object; success refreshes the strategies. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { strategyCommandResponseSchema, type StrategyCommandResponse } from '@papertrade/domain/strategies/contracts';
import type { StrategyId } from '@papertrade/domain/strategies/strategy-catalogue';
import { sendJson } from '../../../lib/api-client';
import { strategiesQueryOptions } from './get-strategies';

export const configureStrategyPath = (id: StrategyId) => `/api/strategies/${id}/configure`;

export function configureStrategy({ id, configuration }: { id: StrategyId; configuration: Record<string, number> }): Promise<StrategyCommandResponse> {
  return sendJson('POST', configureStrategyPath(id), configuration, strategyCommandResponseSchema);
}

export function useConfigureStrategy() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: configureStrategy, onSuccess: () => queryClient.invalidateQueries({ queryKey: strategiesQueryOptions().queryKey }) });
}
