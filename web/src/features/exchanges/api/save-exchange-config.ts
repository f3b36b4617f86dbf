/** POST /api/exchanges/{id}/config: the keys, stored encrypted; the answer has only their last four characters. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { exchangeConfigResponseSchema, type ExchangeConfigRequest, type ExchangeConfigResponse, type ExchangeId } from '@papertrade/domain/exchanges/contracts';
import { sendJson } from '../../../lib/api-client';
import { exchangesQueryOptions } from './get-exchanges';

export function saveExchangeConfig(exchangeId: ExchangeId, config: ExchangeConfigRequest): Promise<ExchangeConfigResponse> {
  return sendJson('POST', `/api/exchanges/${exchangeId}/config`, config, exchangeConfigResponseSchema);
}

export function useSaveExchangeConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ exchangeId, config }: { exchangeId: ExchangeId; config: ExchangeConfigRequest }) => saveExchangeConfig(exchangeId, config),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: exchangesQueryOptions().queryKey }),
  });
}
