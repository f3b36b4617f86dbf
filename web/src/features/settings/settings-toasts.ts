/** The Settings screen's toasts (spec section 8): the success titles, and the save failures shown with the server's reason. */
import { ApiError } from '../../lib/api-client';

export const SETTINGS_SAVED = { title: 'Settings Saved', description: 'Your settings have been updated', variant: 'success' as const };
export const API_SETTINGS_SAVED = { title: 'API Settings Saved', description: 'Your API configuration has been updated', variant: 'success' as const };

/** 'Failed to save settings' / 'Failed to save API settings', with the server's reason when it gave one. */
export function saveFailedToast(what: 'settings' | 'API settings', error: unknown) {
  const detail = error instanceof ApiError ? error.problem?.detail : undefined;
  return { title: 'Error', description: `Failed to save ${what}${detail ? `: ${detail}` : ''}`, variant: 'destructive' as const };
}
