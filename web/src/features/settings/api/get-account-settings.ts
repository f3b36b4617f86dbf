/** GET /api/settings (signed in): the notification switches and the trading mode (the defaults until changed). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { accountSettingsResponseSchema, type AccountSettingsResponse } from '@papertrade/domain/settings/contracts';
import { getJson } from '../../../lib/api-client';

export const ACCOUNT_SETTINGS_PATH = '/api/settings';
export const ACCOUNT_SETTINGS_REFETCH_MS = 60_000;

export function getAccountSettings(signal?: AbortSignal): Promise<AccountSettingsResponse> {
  return getJson(ACCOUNT_SETTINGS_PATH, accountSettingsResponseSchema, { signal });
}

export function accountSettingsQueryOptions() {
  return queryOptions({ queryKey: [ACCOUNT_SETTINGS_PATH] as const, queryFn: ({ signal }) => getAccountSettings(signal), refetchInterval: ACCOUNT_SETTINGS_REFETCH_MS });
}

export function useAccountSettings({ enabled }: { enabled: boolean }) {
  return useQuery({ ...accountSettingsQueryOptions(), enabled });
}
