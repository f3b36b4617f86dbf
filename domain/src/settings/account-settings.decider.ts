/**
 * ChangeNotificationPreferences and ChangeTradingMode on `settings-{userId}` (account-settings.ts).
 * Both take some of the fields; an unchanged set appends nothing. Real trading switched on needs
 * `confirmRealTrading: true`, the person's explicit confirmation (the screen's dialog), or it is a 400.
 */
import { assertNever, type Decider } from '../shared/decider';
import { ValidationError } from '../shared/errors';
import {
  evolveAccountSettings,
  initialAccountSettings,
  notificationKinds,
  type AccountSettingsEvent,
  type AccountSettingsState,
  type NotificationPreferences,
  type TradingMode,
} from './account-settings';

type Meta = { metadata: { now: string } };

export type ChangeNotificationPreferences = { type: 'ChangeNotificationPreferences'; data: { userId: string; changes: Partial<NotificationPreferences> } } & Meta;
export type ChangeTradingMode = { type: 'ChangeTradingMode'; data: { userId: string; changes: Partial<TradingMode>; confirmRealTrading: boolean } } & Meta;
export type AccountSettingsCommand = ChangeNotificationPreferences | ChangeTradingMode;

export const REAL_TRADING_NEEDS_CONFIRMATION = 'enableRealTrading: turning real trading on needs an explicit confirmation (confirmRealTrading: true)';

export function changeNotificationPreferences(command: ChangeNotificationPreferences, state: AccountSettingsState): AccountSettingsEvent[] {
  const preferences = { ...state.notifications, ...command.data.changes };
  if (notificationKinds.every((k) => preferences[k] === state.notifications[k])) return [];
  return [{ type: 'NotificationPreferencesChanged', data: { userId: command.data.userId, preferences, changedAt: command.metadata.now } }];
}

export function changeTradingMode(command: ChangeTradingMode, state: AccountSettingsState): AccountSettingsEvent[] {
  const mode = { ...state.tradingMode, ...command.data.changes };
  if (mode.realTrading && !state.tradingMode.realTrading && !command.data.confirmRealTrading) {
    throw new ValidationError(REAL_TRADING_NEEDS_CONFIRMATION, { fields: ['enableRealTrading', 'confirmRealTrading'] });
  }
  if (mode.paperTrading === state.tradingMode.paperTrading && mode.realTrading === state.tradingMode.realTrading) return [];
  return [{ type: 'TradingModeChanged', data: { userId: command.data.userId, mode, changedAt: command.metadata.now } }];
}

export const accountSettingsDecider: Decider<AccountSettingsState, AccountSettingsCommand, AccountSettingsEvent> = {
  name: 'account-settings',
  schemaVersion: 1,
  initialState: initialAccountSettings,
  evolve: evolveAccountSettings,
  decide(command, state) {
    switch (command.type) {
      case 'ChangeNotificationPreferences':
        return changeNotificationPreferences(command, state);
      case 'ChangeTradingMode':
        return changeTradingMode(command, state);
      default:
        return assertNever(command);
    }
  },
};
