/** POST /api/settings/notifications (signed in): some of the notification switches. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notificationSettingsResponseSchema, type NotificationPreferences, type NotificationSettingsResponse } from '@papertrade/domain/settings/contracts';
import type { AccountSettingsResponse } from '@papertrade/domain/settings/contracts';
import { sendJson } from '../../../lib/api-client';
import { accountSettingsQueryOptions } from './get-account-settings';

export function saveNotificationSettings(changes: Partial<NotificationPreferences>): Promise<NotificationSettingsResponse> {
  return sendJson('POST', '/api/settings/notifications', changes, notificationSettingsResponseSchema);
}

export function useSaveNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: Partial<NotificationPreferences>) => saveNotificationSettings(changes),
    onSuccess: ({ notifications }) => {
      // The answer is the set now in force: the toasts follow it at once.
      queryClient.setQueryData<AccountSettingsResponse>(accountSettingsQueryOptions().queryKey, (old) => (old ? { ...old, notifications } : old));
      void queryClient.invalidateQueries({ queryKey: accountSettingsQueryOptions().queryKey });
    },
  });
}
