/**
 * Commands on `risk-{userId}`: ChangeBotSettings (POST /api/settings/bot), ResetBotSettings (with
 * POST /api/bot/reset), ChangeRiskParameters (PUT /api/risk/parameters, the full set), and the
 * alerts: RaiseRiskAlert (the risk monitor), AcknowledgeRiskAlert, ClearAcknowledgedRiskAlerts,
 * ResolveRiskAlerts (POST /api/bot/reset, once the portfolio is reset: risk.ts says which).
 *
 * The bounds are those of contracts.ts, checked again here because workers and scripts issue
 * commands too; a value out of bounds is a ValidationError naming the field. A change that changes
 * nothing appends nothing.
 */
import { assertNever, type Decider } from '../shared/decider';
import { NotFoundError, ValidationError } from '../shared/errors';
import {
  alertSeverities,
  botSettingsBounds,
  boundsMessage,
  DEFAULT_BOT_SETTINGS,
  riskParameterBounds,
  stopLossTypes,
  type AlertSeverity,
  type BotSettings,
  type NumberBounds,
  type RiskParameters,
} from './contracts';
import {
  ALERT_KINDS_RESOLVED_BY_RESET,
  evolveRisk,
  initialRiskState,
  isStanding,
  riskAlertKinds,
  riskAlertResolutions,
  type RiskAlertKind,
  type RiskAlertResolution,
  type RiskEvent,
  type RiskState,
} from './risk';

export type ChangeBotSettings = { type: 'ChangeBotSettings'; data: { userId: string; changes: Partial<BotSettings> }; metadata: { now: string } };
export type ResetBotSettings = { type: 'ResetBotSettings'; data: { userId: string }; metadata: { now: string } };
export type ChangeRiskParameters = { type: 'ChangeRiskParameters'; data: { userId: string; parameters: RiskParameters }; metadata: { now: string } };
export type RaiseRiskAlert = {
  type: 'RaiseRiskAlert';
  data: {
    userId: string;
    /** Derived by the risk monitor from the condition and the tick, so a replayed command is the same alert. */
    alertId: string;
    conditionKey: string;
    kind: RiskAlertKind;
    severity: AlertSeverity;
    symbol: string | null;
    message: string;
    value: number;
    threshold: number;
  };
  metadata: { now: string };
};
export type AcknowledgeRiskAlert = { type: 'AcknowledgeRiskAlert'; data: { userId: string; alertId: string }; metadata: { now: string } };
export type ClearAcknowledgedRiskAlerts = { type: 'ClearAcknowledgedRiskAlerts'; data: { userId: string }; metadata: { now: string } };
export type ResolveRiskAlerts = { type: 'ResolveRiskAlerts'; data: { userId: string; reason: RiskAlertResolution }; metadata: { now: string } };

export type RiskCommand = ChangeBotSettings | ResetBotSettings | ChangeRiskParameters | RaiseRiskAlert | AcknowledgeRiskAlert | ClearAcknowledgedRiskAlerts | ResolveRiskAlerts;

function requireBounded(field: string, value: unknown, bounds: NumberBounds): number {
  const ok = typeof value === 'number' && Number.isFinite(value) && value >= bounds.min && value <= bounds.max && (!bounds.integer || Number.isInteger(value));
  if (!ok) throw new ValidationError(`${field} ${boundsMessage(bounds)}, got ${JSON.stringify(value)}`, { field });
  return value;
}

function requireBoolean(field: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new ValidationError(`${field} must be true or false, got ${JSON.stringify(value)}`, { field });
  return value;
}

function requireText(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ValidationError(`${field} is required`, { field });
  return value;
}

function requireFinite(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ValidationError(`${field} must be a finite number, got ${JSON.stringify(value)}`, { field });
  return value;
}

function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) throw new ValidationError(`${field} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`, { field });
  return value as T;
}

const sameSettings = (a: BotSettings, b: BotSettings) => (Object.keys(DEFAULT_BOT_SETTINGS) as Array<keyof BotSettings>).every((k) => a[k] === b[k]);
const sameParameters = (a: RiskParameters, b: RiskParameters) => (Object.keys(a) as Array<keyof RiskParameters>).every((k) => a[k] === b[k]);

export function changeBotSettings(command: ChangeBotSettings, state: RiskState): RiskEvent[] {
  const given = command.data.changes as Record<string, unknown>;
  const known = new Set(Object.keys(DEFAULT_BOT_SETTINGS));
  for (const field of Object.keys(given)) if (!known.has(field)) throw new ValidationError(`unknown bot setting ${field}`, { field });
  const changes: Partial<BotSettings> = {};
  for (const [field, bounds] of Object.entries(botSettingsBounds)) {
    if (given[field] !== undefined) Object.assign(changes, { [field]: requireBounded(field, given[field], bounds) });
  }
  for (const field of ['enableNotifications', 'autoRetrain'] as const) {
    if (given[field] !== undefined) changes[field] = requireBoolean(field, given[field]);
  }
  const settings: BotSettings = { ...state.settings, ...changes };
  if (sameSettings(settings, state.settings)) return [];
  const changed: Partial<BotSettings> = {};
  for (const key of Object.keys(changes) as Array<keyof BotSettings>) if (changes[key] !== state.settings[key]) Object.assign(changed, { [key]: changes[key] });
  return [{ type: 'BotSettingsChanged', data: { userId: command.data.userId, changes: changed, settings, changedAt: command.metadata.now } }];
}

export function resetBotSettings(command: ResetBotSettings, state: RiskState): RiskEvent[] {
  if (sameSettings(state.settings, DEFAULT_BOT_SETTINGS)) return [];
  return [{ type: 'BotSettingsReset', data: { userId: command.data.userId, settings: { ...DEFAULT_BOT_SETTINGS }, resetAt: command.metadata.now } }];
}

export function changeRiskParameters(command: ChangeRiskParameters, state: RiskState): RiskEvent[] {
  const p = command.data.parameters;
  const parameters: RiskParameters = {
    maxPositionSize: requireBounded('maxPositionSize', p.maxPositionSize, riskParameterBounds.maxPositionSize),
    maxConcurrentTrades: requireBounded('maxConcurrentTrades', p.maxConcurrentTrades, riskParameterBounds.maxConcurrentTrades),
    maxDailyLoss: requireBounded('maxDailyLoss', p.maxDailyLoss, riskParameterBounds.maxDailyLoss),
    maxDrawdown: requireBounded('maxDrawdown', p.maxDrawdown, riskParameterBounds.maxDrawdown),
    stopLossType: oneOf('stopLossType', p.stopLossType, stopLossTypes),
    stopLossValue: requireBounded('stopLossValue', p.stopLossValue, riskParameterBounds.stopLossValue),
    takeProfitRatio: requireBounded('takeProfitRatio', p.takeProfitRatio, riskParameterBounds.takeProfitRatio),
    riskRewardRatio: requireBounded('riskRewardRatio', p.riskRewardRatio, riskParameterBounds.riskRewardRatio),
    kellyCriterionEnabled: requireBoolean('kellyCriterionEnabled', p.kellyCriterionEnabled),
    dynamicPositionSizing: requireBoolean('dynamicPositionSizing', p.dynamicPositionSizing),
    correlationLimit: requireBounded('correlationLimit', p.correlationLimit, riskParameterBounds.correlationLimit),
    volatilityThreshold: requireBounded('volatilityThreshold', p.volatilityThreshold, riskParameterBounds.volatilityThreshold),
  };
  if (sameParameters(parameters, state.parameters)) return [];
  return [{ type: 'RiskParametersChanged', data: { userId: command.data.userId, parameters, previous: state.parameters, changedAt: command.metadata.now } }];
}

export function raiseRiskAlert(command: RaiseRiskAlert, state: RiskState): RiskEvent[] {
  const d = command.data;
  const alertId = requireText('alertId', d.alertId);
  const conditionKey = requireText('conditionKey', d.conditionKey);
  const kind = oneOf('kind', d.kind, riskAlertKinds);
  const severity = oneOf('severity', d.severity, alertSeverities);
  const message = requireText('message', d.message);
  const value = requireFinite('value', d.value);
  const threshold = requireFinite('threshold', d.threshold);
  if (d.symbol !== null && typeof d.symbol !== 'string') throw new ValidationError('symbol must be a string or null', { field: 'symbol' });
  // Once per condition: the same alert, or any alert on the same condition not yet cleared or resolved.
  if (state.alerts.some((a) => a.alertId === alertId || (a.conditionKey === conditionKey && isStanding(a)))) return [];
  return [
    {
      type: 'RiskAlertRaised',
      data: { userId: d.userId, alertId, conditionKey, kind, severity, symbol: d.symbol, message, value, threshold, raisedAt: command.metadata.now },
    },
  ];
}

export function acknowledgeRiskAlert(command: AcknowledgeRiskAlert, state: RiskState): RiskEvent[] {
  const alert = state.alerts.find((a) => a.alertId === command.data.alertId);
  if (!alert) throw new NotFoundError(`Risk alert ${command.data.alertId} not found`);
  // A resolved alert asks for nothing more (an Acknowledge from a list shown before the reset).
  if (alert.acknowledged || !isStanding(alert)) return [];
  return [{ type: 'RiskAlertAcknowledged', data: { userId: command.data.userId, alertId: alert.alertId, acknowledgedAt: command.metadata.now } }];
}

export function clearAcknowledgedRiskAlerts(command: ClearAcknowledgedRiskAlerts, state: RiskState): RiskEvent[] {
  const alertIds = state.alerts.filter((a) => a.acknowledged || !isStanding(a)).map((a) => a.alertId);
  if (alertIds.length === 0) return [];
  return [{ type: 'AcknowledgedRiskAlertsCleared', data: { userId: command.data.userId, alertIds, clearedAt: command.metadata.now } }];
}

/** A portfolio reset: the standing alerts of the kinds it makes moot are resolved, acknowledged or not. */
export function resolveRiskAlerts(command: ResolveRiskAlerts, state: RiskState): RiskEvent[] {
  const reason = oneOf('reason', command.data.reason, riskAlertResolutions);
  const alertIds = state.alerts.filter((a) => isStanding(a) && ALERT_KINDS_RESOLVED_BY_RESET.has(a.kind)).map((a) => a.alertId);
  if (alertIds.length === 0) return [];
  return [{ type: 'RiskAlertsResolved', data: { userId: command.data.userId, alertIds, reason, resolvedAt: command.metadata.now } }];
}

export const riskDecider: Decider<RiskState, RiskCommand, RiskEvent> = {
  name: 'risk',
  // 2: alerts carry resolvedAt and resolution (a state of version 1 in a snapshot is folded again).
  // The events of version 1 read as they are: none of them changed shape.
  schemaVersion: 2,
  initialState: initialRiskState,
  evolve: evolveRisk,
  decide(command, state) {
    switch (command.type) {
      case 'ChangeBotSettings':
        return changeBotSettings(command, state);
      case 'ResetBotSettings':
        return resetBotSettings(command, state);
      case 'ChangeRiskParameters':
        return changeRiskParameters(command, state);
      case 'RaiseRiskAlert':
        return raiseRiskAlert(command, state);
      case 'AcknowledgeRiskAlert':
        return acknowledgeRiskAlert(command, state);
      case 'ClearAcknowledgedRiskAlerts':
        return clearAcknowledgedRiskAlerts(command, state);
      case 'ResolveRiskAlerts':
        return resolveRiskAlerts(command, state);
      default:
        return assertNever(command);
    }
  },
};
