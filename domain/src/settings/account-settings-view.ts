/**
 * The `account-settings` read model: one document per user (notification switches, trading mode),
 * from `settings-{userId}`; GET /api/settings answers it (the defaults for a user who changed nothing).
 */
import type { DomainEvent } from '../shared/decider';
import { DEFAULT_NOTIFICATIONS, DEFAULT_TRADING_MODE, type AccountSettingsEvent, type NotificationPreferences, type TradingMode } from './account-settings';
import type { AccountSettingsResponse } from './contracts';

export const ACCOUNT_SETTINGS_PROJECTION = 'account-settings';

export type AccountSettingsView = { userId: string; notifications: NotificationPreferences; tradingMode: TradingMode };

const isSettingsEvent = (event: DomainEvent): event is AccountSettingsEvent => event.type === 'NotificationPreferencesChanged' || event.type === 'TradingModeChanged';

export function accountSettingsDocumentIds(event: DomainEvent): string[] {
  return isSettingsEvent(event) ? [event.data.userId] : [];
}

export function evolveAccountSettingsView(doc: AccountSettingsView | null, event: DomainEvent): AccountSettingsView | null {
  if (!isSettingsEvent(event)) return doc;
  const base: AccountSettingsView = doc ?? { userId: event.data.userId, notifications: { ...DEFAULT_NOTIFICATIONS }, tradingMode: { ...DEFAULT_TRADING_MODE } };
  return event.type === 'NotificationPreferencesChanged' ? { ...base, notifications: { ...event.data.preferences } } : { ...base, tradingMode: { ...event.data.mode } };
}

export function accountSettingsResponse(doc: AccountSettingsView | null): AccountSettingsResponse {
  return { notifications: { ...DEFAULT_NOTIFICATIONS, ...doc?.notifications }, tradingMode: { ...DEFAULT_TRADING_MODE, ...doc?.tradingMode } };
}
