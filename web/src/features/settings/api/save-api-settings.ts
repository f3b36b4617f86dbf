/**
 * POST /api/settings/api (premium): the spec's API settings; keys are stored as the exchange
 * connections (encrypted), the switches as the trading mode. Real trading on needs confirmRealTrading.
 * A non-ok answer throws 'Failed to save API settings' with the server's reason (spec section 8), which
 * the screen shows.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSettingsResponseSchema, type ApiSettingsRequest, type ApiSettingsResponse } from '@papertrade/domain/settings/contracts';
import { sendJson } from '../../../lib/api-client';
import { accountSettingsQueryOptions } from './get-account-settings';

export function saveApiSettings(settings: ApiSettingsRequest): Promise<ApiSettingsResponse> {
  return sendJson('POST', '/api/settings/api', settings, apiSettingsResponseSchema);
}

export function useSaveApiSettings({ onSaved }: { onSaved?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: ApiSettingsRequest) => saveApiSettings(settings),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: accountSettingsQueryOptions().queryKey });
      onSaved?.();
    },
  });
}
