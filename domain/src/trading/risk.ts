/**
 * The `risk-{userId}` stream: the user's one risk profile (risk-profile.ts: the risk parameter set of
 * the Risk Management screen and the bot settings are two views of it; the dashboard's risk card, the
 * trading bot and the risk monitor all read it), the risk alerts the risk monitor raises, and the
 * trading bot's refusals (BotSignalRefused: which rule refused a BUY signal, with its figures).
 *
 * Schema version 3 (RISK_SCHEMA_VERSION, issue 17): the state is the profile (it was two sets), and
 * the profile events record the profile fields they changed (`changes`). Events of versions 1 and 2
 * are brought to that shape by `upcastRiskEvent` (risk-profile.ts says how, field by field); older
 * snapshots are refolded. (Version 2 is issue 16's, whose alerts a reset resolves: it left the
 * profile events in their version 1 shape, so 3 is the first version whose events carry `changes`.)
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
import type { DomainEvent, StoredEventShape } from '../shared/decider';
import { DEFAULT_RISK_PROFILE, type AlertSeverity, type BotDecision, type BotSettings, type RiskParameters, type RiskProfile } from './contracts';
import { applyProfileChanges, changedFields, profileChangesFromV1BotSettings } from './risk-profile';

/** The schema version of the risk stream's events and state: 3 since the one risk profile (see the module comment). */
export const RISK_SCHEMA_VERSION = 3;

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

/** A change through Bot Settings: the profile fields it changed, and the bot settings as they now read. */
export type BotSettingsChanged = DomainEvent<'BotSettingsChanged', { userId: string; changes: Partial<RiskProfile>; settings: BotSettings; changedAt: string }>;
/** The bot settings' fields back to the defaults (with POST /api/bot/reset); the other profile fields stay. */
export type BotSettingsReset = DomainEvent<'BotSettingsReset', { userId: string; changes: Partial<RiskProfile>; settings: BotSettings; resetAt: string }>;
/** The full parameter set sent, the set before it, and the profile fields it changed. */
export type RiskParametersChanged = DomainEvent<
  'RiskParametersChanged',
  { userId: string; parameters: RiskParameters; previous: RiskParameters; changes: Partial<RiskProfile>; changedAt: string }
>;
/** The signals a refusal names: a BUY or SELL, or an arbitrage strategy's pair (issue 19). */
export const refusedSignalTypes = ['BUY', 'SELL', 'ARBITRAGE'] as const;
export type RefusedSignalType = (typeof refusedSignalTypes)[number];

/**
 * The trading bot did not trade a BUY signal (or an arbitrage pair) for this user: the rule that
 * refused it and its figures (one event per signal and user, its id derived from both, so a replayed
 * signal records it once).
 */
export type BotSignalRefused = DomainEvent<
  'BotSignalRefused',
  { userId: string; signalId: string; signalEventId: string; symbol: string; signalType: RefusedSignalType; candleTime: string; decision: BotDecision; refusedAt: string }
>;
export type RiskAlertRaised = DomainEvent<
  'RiskAlertRaised',
  Omit<RiskAlert, 'acknowledged' | 'acknowledgedAt' | 'resolvedAt' | 'resolution'> & { userId: string }
>;
export type RiskAlertAcknowledged = DomainEvent<'RiskAlertAcknowledged', { userId: string; alertId: string; acknowledgedAt: string }>;
/** Clears the acknowledged alerts, and the resolved ones (they need no acknowledgement). */
export type AcknowledgedRiskAlertsCleared = DomainEvent<'AcknowledgedRiskAlertsCleared', { userId: string; alertIds: string[]; clearedAt: string }>;
export type RiskAlertsResolved = DomainEvent<'RiskAlertsResolved', { userId: string; alertIds: string[]; reason: RiskAlertResolution; resolvedAt: string }>;

export type RiskEvent =
  | BotSettingsChanged
  | BotSettingsReset
  | RiskParametersChanged
  | RiskAlertRaised
  | RiskAlertAcknowledged
  | AcknowledgedRiskAlertsCleared
  | RiskAlertsResolved
  | BotSignalRefused;

/** The type of every risk event (the read models that follow the stream list it). */
export const RISK_EVENT_TYPES: ReadonlySet<string> = new Set<RiskEvent['type']>([
  'BotSettingsChanged',
  'BotSettingsReset',
  'RiskParametersChanged',
  'RiskAlertRaised',
  'RiskAlertAcknowledged',
  'AcknowledgedRiskAlertsCleared',
  'RiskAlertsResolved',
  'BotSignalRefused',
]);
/** The events that change the profile. */
export const PROFILE_EVENT_TYPES: ReadonlySet<string> = new Set<RiskEvent['type']>(['BotSettingsChanged', 'BotSettingsReset', 'RiskParametersChanged']);

/** Standing: raised, not cleared, not resolved (what still asks for attention, acknowledged or not). */
export const isStanding = (alert: Pick<RiskAlert, 'resolvedAt'>) => alert.resolvedAt === null || alert.resolvedAt === undefined;

export interface RiskState {
  profile: RiskProfile;
  /** Raised and not yet cleared, oldest first. */
  alerts: RiskAlert[];
}

export const initialRiskState = (): RiskState => ({ profile: { ...DEFAULT_RISK_PROFILE }, alerts: [] });

export function evolveRisk(state: RiskState, event: RiskEvent): RiskState {
  switch (event.type) {
    case 'BotSettingsChanged':
    case 'BotSettingsReset':
    case 'RiskParametersChanged':
      return { ...state, profile: applyProfileChanges(state.profile, event.data.changes) };
    case 'BotSignalRefused':
      return state;
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

/**
 * Stored risk events in the current shape. Profile events before version 3 carried the bot settings
 * and the parameter set apart; they gain `changes`, the profile fields each changed (risk-profile.ts
 * says how), and BotSettingsChanged's own older `changes` (bot setting names) become those.
 */
export function upcastRiskEvent(event: StoredEventShape): RiskEvent {
  const current = { type: event.type, data: event.data } as RiskEvent;
  if (event.schemaVersion >= RISK_SCHEMA_VERSION) return current;
  const d = event.data as Record<string, unknown>;
  switch (current.type) {
    case 'BotSettingsChanged':
      return { ...current, data: { ...current.data, changes: profileChangesFromV1BotSettings(d.changes as Partial<BotSettings>, d.settings as BotSettings) } };
    case 'BotSettingsReset':
      return { ...current, data: { ...current.data, changes: profileChangesFromV1BotSettings(d.settings as BotSettings, d.settings as BotSettings) } };
    case 'RiskParametersChanged':
      return { ...current, data: { ...current.data, changes: changedFields(d.parameters as RiskParameters, d.previous as RiskParameters) } };
    default:
      return current;
  }
}
