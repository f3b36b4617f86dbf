/** POST /api/exchanges/{id}/mirror: Mirror to testnet on or off (409 without a connected testnet account). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { exchangeMirrorResponseSchema, type ExchangeId, type ExchangeMirrorResponse } from '@papertrade/domain/exchanges/contracts';
import { sendJson } from '../../../lib/api-client';
import { exchangesQueryOptions } from './get-exchanges';

export function setExchangeMirror(exchangeId: ExchangeId, mirrorToTestnet: boolean): Promise<ExchangeMirrorResponse> {
  return sendJson('POST', `/api/exchanges/${exchangeId}/mirror`, { mirrorToTestnet }, exchangeMirrorResponseSchema);
}

export function useSetExchangeMirror() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ exchangeId, mirrorToTestnet }: { exchangeId: ExchangeId; mirrorToTestnet: boolean }) => setExchangeMirror(exchangeId, mirrorToTestnet),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: exchangesQueryOptions().queryKey }),
  });
}
