/**
 * The `settings-{userId}` stream: a person's own settings that are neither the risk profile
 * (`risk-{userId}`, the Bot Settings tab) nor an exchange connection (`exchange-{userId}-{id}`):
 *
 * - NotificationPreferencesChanged: which events reach the person as toasts (the Notifications tab).
 *   Each switch names a kind of toast the web app shows from the server's events: the bot's trades,
 *   the bot's status (new entries paused by the drawdown rule, and resumed), risk alerts, and the
 *   testnet mirror's fills. The risk profile's `enableNotifications` (Bot Settings) is the master switch
 *   over the bot's two kinds; these decide per kind. Nothing is sent anywhere else (no e-mail).
 * - TradingModeChanged: paper trading on or off, real trading on or off (Trading Settings and the API
 *   Configuration tab). Paper is on and real off by default; real on needs the person's explicit
 *   confirmation (the command carries it). This version places no real-money order: the switch is
 *   recorded and shown, and the screen says so.
 */
import type { DomainEvent } from '../shared/decider';

export const notificationKinds = ['botTrades', 'botStatus', 'riskAlerts', 'mirrorFills'] as const;
export type NotificationKind = (typeof notificationKinds)[number];
export type NotificationPreferences = Record<NotificationKind, boolean>;

export const DEFAULT_NOTIFICATIONS: Readonly<NotificationPreferences> = Object.freeze({ botTrades: true, botStatus: true, riskAlerts: true, mirrorFills: true });

export interface TradingMode {
  paperTrading: boolean;
  realTrading: boolean;
}

/** premium-and-account.md section 9: paper trading on, real trading off by default. */
export const DEFAULT_TRADING_MODE: Readonly<TradingMode> = Object.freeze({ paperTrading: true, realTrading: false });

export type NotificationPreferencesChanged = DomainEvent<'NotificationPreferencesChanged', { userId: string; preferences: NotificationPreferences; changedAt: string }>;
export type TradingModeChanged = DomainEvent<'TradingModeChanged', { userId: string; mode: TradingMode; changedAt: string }>;

export type AccountSettingsEvent = NotificationPreferencesChanged | TradingModeChanged;

export interface AccountSettingsState {
  notifications: NotificationPreferences;
  tradingMode: TradingMode;
}

export const initialAccountSettings = (): AccountSettingsState => ({ notifications: { ...DEFAULT_NOTIFICATIONS }, tradingMode: { ...DEFAULT_TRADING_MODE } });

export function evolveAccountSettings(state: AccountSettingsState, event: AccountSettingsEvent): AccountSettingsState {
  switch (event.type) {
    case 'NotificationPreferencesChanged':
      return { ...state, notifications: { ...event.data.preferences } };
    case 'TradingModeChanged':
      return { ...state, tradingMode: { ...event.data.mode } };
  }
}

export const accountSettingsStreamId = (userId: string) => `settings-${userId}`;
