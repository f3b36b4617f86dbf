/**
 * The `risk-{userId}` stream: the bot settings (what the dashboard's risk card shows and the trading
 * bot sizes and stops its trades by), the full risk parameter set of the Risk Management screen,
 * and the risk alerts the risk monitor raises.
 *
 * Alerts fire once per condition: each names a `conditionKey` chosen by the risk monitor (e.g.
 * `DAILY_LOSS_80@2026-03-04`, `DRAWDOWN`, `POSITION_SIZE:ETH`); while an alert with that key has not
 * been cleared, raising it again appends nothing, so a condition that holds for a thousand ticks is
 * one alert. Acknowledging keeps it (dimmed); clearing the acknowledged ones ends them, and the same
 * condition may then fire again. Put the day into a key to fire it at most once per day.
 */
import type { DomainEvent } from '../shared/decider';
import { DEFAULT_BOT_SETTINGS, DEFAULT_RISK_PARAMETERS, type AlertSeverity, type BotSettings, type RiskParameters } from './contracts';

export const riskAlertKinds = ['DAILY_LOSS', 'DRAWDOWN', 'POSITION_SIZE', 'CONCURRENT_TRADES', 'VOLATILITY'] as const;
export type RiskAlertKind = (typeof riskAlertKinds)[number];

export interface RiskAlert {
  alertId: string;
  conditionKey: string;
  kind: RiskAlertKind;
  severity: AlertSeverity;
  symbol: string | null;
  message: string;
  value: number;
  threshold: number;
  raisedAt: string;
  acknowledged: boolean;
  acknowledgedAt: string | null;
}

export type BotSettingsChanged = DomainEvent<'BotSettingsChanged', { userId: string; changes: Partial<BotSettings>; settings: BotSettings; changedAt: string }>;
export type BotSettingsReset = DomainEvent<'BotSettingsReset', { userId: string; settings: BotSettings; resetAt: string }>;
export type RiskParametersChanged = DomainEvent<'RiskParametersChanged', { userId: string; parameters: RiskParameters; previous: RiskParameters; changedAt: string }>;
export type RiskAlertRaised = DomainEvent<
  'RiskAlertRaised',
  Omit<RiskAlert, 'acknowledged' | 'acknowledgedAt'> & { userId: string }
>;
export type RiskAlertAcknowledged = DomainEvent<'RiskAlertAcknowledged', { userId: string; alertId: string; acknowledgedAt: string }>;
export type AcknowledgedRiskAlertsCleared = DomainEvent<'AcknowledgedRiskAlertsCleared', { userId: string; alertIds: string[]; clearedAt: string }>;

export type RiskEvent = BotSettingsChanged | BotSettingsReset | RiskParametersChanged | RiskAlertRaised | RiskAlertAcknowledged | AcknowledgedRiskAlertsCleared;

export interface RiskState {
  settings: BotSettings;
  parameters: RiskParameters;
  /** Raised and not yet cleared, oldest first. */
  alerts: RiskAlert[];
}

export const initialRiskState = (): RiskState => ({ settings: { ...DEFAULT_BOT_SETTINGS }, parameters: { ...DEFAULT_RISK_PARAMETERS }, alerts: [] });

export function evolveRisk(state: RiskState, event: RiskEvent): RiskState {
  switch (event.type) {
    case 'BotSettingsChanged':
    case 'BotSettingsReset':
      return { ...state, settings: { ...event.data.settings } };
    case 'RiskParametersChanged':
      return { ...state, parameters: { ...event.data.parameters } };
    case 'RiskAlertRaised': {
      const { userId: _userId, ...alert } = event.data;
      return { ...state, alerts: [...state.alerts, { ...alert, acknowledged: false, acknowledgedAt: null }] };
    }
    case 'RiskAlertAcknowledged':
      return {
        ...state,
        alerts: state.alerts.map((a) => (a.alertId === event.data.alertId ? { ...a, acknowledged: true, acknowledgedAt: event.data.acknowledgedAt } : a)),
      };
    case 'AcknowledgedRiskAlertsCleared': {
      const cleared = new Set(event.data.alertIds);
      return { ...state, alerts: state.alerts.filter((a) => !cleared.has(a.alertId)) };
    }
  }
}

export const riskStreamId = (userId: string) => `risk-${userId}`;
