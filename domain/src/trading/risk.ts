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
 *
 * A portfolio reset resolves the standing alerts it makes moot (RiskAlertsResolved, reason
 * PORTFOLIO_RESET; events are never deleted): those about the positions and the portfolio's value
 * (position size, concurrent trades, drawdown from the starting cash, a held coin's volatility),
 * which the reset's fresh portfolio no longer has. A day's loss alerts stay: the day's realised loss
 * survives a reset (portfolio.ts), so the daily limit still stands. A resolved alert stays listed,
 * dimmed with its reason, no longer needs acknowledging, is cleared with the acknowledged ones, and
 * its condition may fire again (a new position, a new drawdown).
 */
import type { DomainEvent } from '../shared/decider';
import { DEFAULT_BOT_SETTINGS, DEFAULT_RISK_PARAMETERS, type AlertSeverity, type BotSettings, type RiskParameters } from './contracts';

export const riskAlertKinds = ['DAILY_LOSS', 'DRAWDOWN', 'POSITION_SIZE', 'CONCURRENT_TRADES', 'VOLATILITY'] as const;
export type RiskAlertKind = (typeof riskAlertKinds)[number];

/** Why alerts were resolved without anyone acknowledging them. */
export const riskAlertResolutions = ['PORTFOLIO_RESET'] as const;
export type RiskAlertResolution = (typeof riskAlertResolutions)[number];

/** The alert kinds a portfolio reset makes moot (see the module comment; DAILY_LOSS is not one). */
export const ALERT_KINDS_RESOLVED_BY_RESET: ReadonlySet<RiskAlertKind> = new Set(['DRAWDOWN', 'POSITION_SIZE', 'CONCURRENT_TRADES', 'VOLATILITY']);

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
  /** When and why the alert was resolved (its condition made moot); null while it stands. */
  resolvedAt: string | null;
  resolution: RiskAlertResolution | null;
}

export type BotSettingsChanged = DomainEvent<'BotSettingsChanged', { userId: string; changes: Partial<BotSettings>; settings: BotSettings; changedAt: string }>;
export type BotSettingsReset = DomainEvent<'BotSettingsReset', { userId: string; settings: BotSettings; resetAt: string }>;
export type RiskParametersChanged = DomainEvent<'RiskParametersChanged', { userId: string; parameters: RiskParameters; previous: RiskParameters; changedAt: string }>;
export type RiskAlertRaised = DomainEvent<
  'RiskAlertRaised',
  Omit<RiskAlert, 'acknowledged' | 'acknowledgedAt' | 'resolvedAt' | 'resolution'> & { userId: string }
>;
export type RiskAlertAcknowledged = DomainEvent<'RiskAlertAcknowledged', { userId: string; alertId: string; acknowledgedAt: string }>;
/** Clears the acknowledged alerts, and the resolved ones (they need no acknowledgement). */
export type AcknowledgedRiskAlertsCleared = DomainEvent<'AcknowledgedRiskAlertsCleared', { userId: string; alertIds: string[]; clearedAt: string }>;
export type RiskAlertsResolved = DomainEvent<'RiskAlertsResolved', { userId: string; alertIds: string[]; reason: RiskAlertResolution; resolvedAt: string }>;

export type RiskEvent = BotSettingsChanged | BotSettingsReset | RiskParametersChanged | RiskAlertRaised | RiskAlertAcknowledged | AcknowledgedRiskAlertsCleared | RiskAlertsResolved;

/** The type of every risk event (the read models that follow the stream list it). */
export const RISK_EVENT_TYPES: ReadonlySet<RiskEvent['type']> = new Set<RiskEvent['type']>([
  'BotSettingsChanged',
  'BotSettingsReset',
  'RiskParametersChanged',
  'RiskAlertRaised',
  'RiskAlertAcknowledged',
  'AcknowledgedRiskAlertsCleared',
  'RiskAlertsResolved',
]);

/** Standing: raised, not cleared, not resolved (what still asks for attention, acknowledged or not). */
export const isStanding = (alert: Pick<RiskAlert, 'resolvedAt'>) => alert.resolvedAt === null || alert.resolvedAt === undefined;

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
      return { ...state, alerts: [...state.alerts, { ...alert, acknowledged: false, acknowledgedAt: null, resolvedAt: null, resolution: null }] };
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
    case 'RiskAlertsResolved': {
      const resolved = new Set(event.data.alertIds);
      return {
        ...state,
        alerts: state.alerts.map((a) => (resolved.has(a.alertId) ? { ...a, resolvedAt: event.data.resolvedAt, resolution: event.data.reason } : a)),
      };
    }
  }
}

export const riskStreamId = (userId: string) => `risk-${userId}`;
