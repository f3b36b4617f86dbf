/** POST /api/exchanges/{id}/test: the balance fetched with the stored keys; connected with the balance, or error with the exchange's message. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { exchangeTestResponseSchema, type ExchangeId, type ExchangeTestResponse } from '@papertrade/domain/exchanges/contracts';
import { sendJson } from '../../../lib/api-client';
import { exchangesQueryOptions } from './get-exchanges';

export function testExchangeConnection(exchangeId: ExchangeId): Promise<ExchangeTestResponse> {
  return sendJson('POST', `/api/exchanges/${exchangeId}/test`, undefined, exchangeTestResponseSchema);
}

export function useTestExchangeConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (exchangeId: ExchangeId) => testExchangeConnection(exchangeId),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: exchangesQueryOptions().queryKey }),
  });
}
