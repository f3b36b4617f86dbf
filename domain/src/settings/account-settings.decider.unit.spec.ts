/** Notification switches and the trading mode on settings-{userId}: defaults, no-ops, real trading's confirmation. */
import { specFor } from '../shared/decider-specification';
import { ValidationError } from '../shared/errors';
import { accountSettingsDecider } from './account-settings.decider';
import type { AccountSettingsEvent } from './account-settings';

const spec = specFor(accountSettingsDecider);
const NOW = '2026-03-04T05:06:07.000Z';
const meta = { metadata: { now: NOW } };
const mode = (changes: { paperTrading?: boolean; realTrading?: boolean }, confirmRealTrading = false) => ({
  type: 'ChangeTradingMode' as const,
  data: { userId: 'u1', changes, confirmRealTrading },
  ...meta,
});

describe('account settings decider', function () {
  it('switches a notification off (the others keep their defaults), and appends nothing when unchanged', function () {
    const off: AccountSettingsEvent = { type: 'NotificationPreferencesChanged', data: { userId: 'u1', preferences: { botTrades: false, botStatus: true, riskAlerts: true, mirrorFills: true }, changedAt: NOW } };
    spec.given([]).when({ type: 'ChangeNotificationPreferences', data: { userId: 'u1', changes: { botTrades: false } }, ...meta }).then([off]);
    spec.given([off]).when({ type: 'ChangeNotificationPreferences', data: { userId: 'u1', changes: { botTrades: false } }, ...meta }).then([]);
    spec.given([]).when({ type: 'ChangeNotificationPreferences', data: { userId: 'u1', changes: { riskAlerts: true } }, ...meta }).then([]);
  });

  it('paper on and real off by default; real trading on needs the explicit confirmation', function () {
    spec.given([]).when(mode({ paperTrading: true, realTrading: false })).then([]);
    spec.given([]).when(mode({ realTrading: true })).thenThrows(ValidationError, /explicit confirmation/);
    spec.given([]).when(mode({ realTrading: true }, true)).then([{ type: 'TradingModeChanged', data: { userId: 'u1', mode: { paperTrading: true, realTrading: true }, changedAt: NOW } }]);
  });

  it('real trading off needs no confirmation; once on, other changes do not ask again', function () {
    const on: AccountSettingsEvent = { type: 'TradingModeChanged', data: { userId: 'u1', mode: { paperTrading: true, realTrading: true }, changedAt: NOW } };
    spec.given([on]).when(mode({ realTrading: false })).then([{ type: 'TradingModeChanged', data: { userId: 'u1', mode: { paperTrading: true, realTrading: false }, changedAt: NOW } }]);
    spec.given([on]).when(mode({ paperTrading: false, realTrading: true })).then([{ type: 'TradingModeChanged', data: { userId: 'u1', mode: { paperTrading: false, realTrading: true }, changedAt: NOW } }]);
  });
});
