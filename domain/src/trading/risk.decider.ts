/**
 * Commands on `risk-{userId}`, all on the one risk profile (risk-profile.ts): ChangeBotSettings
 * (POST /api/settings/bot: the bot settings' view of the profile), ResetBotSettings (with POST
 * /api/bot/reset: the bot settings' fields back to the defaults), ChangeRiskParameters (PUT
 * /api/risk/parameters, the full set); the alerts: RaiseRiskAlert (the risk monitor),
 * AcknowledgeRiskAlert, ClearAcknowledgedRiskAlerts, ResolveRiskAlerts (POST /api/bot/reset, once the
 * portfolio is reset: risk.ts says which); and RecordBotRefusal (the trading bot: a BUY signal it
 * refused, with the deciding rule).
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
  DEFAULT_RISK_PROFILE,
  riskParameterBounds,
  stopLossTypes,
  type AlertSeverity,
  type BotDecision,
  type BotSettings,
  type NumberBounds,
  type RiskParameters,
} from './contracts';
import {
  ALERT_KINDS_RESOLVED_BY_RESET,
  evolveRisk,
  initialRiskState,
  isStanding,
  RISK_SCHEMA_VERSION,
  riskAlertKinds,
  riskAlertResolutions,
  refusedSignalTypes,
  upcastRiskEvent,
  type RefusedSignalType,
  type RiskAlertKind,
  type RiskAlertResolution,
  type RiskEvent,
  type RiskState,
} from './risk';
import { applyProfileChanges, botSettingsOf, changedFields, parametersOf, profileChangesFromBotSettings } from './risk-profile';
import { requireBotDecision } from './bot-decision-check';

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

export type RecordBotRefusal = {
  type: 'RecordBotRefusal';
  data: { userId: string; signalId: string; signalEventId: string; symbol: string; signalType: RefusedSignalType; candleTime: string; decision: BotDecision };
  metadata: { now: string };
};

export type RiskCommand =
  | ChangeBotSettings
  | ResetBotSettings
  | ChangeRiskParameters
  | RaiseRiskAlert
  | AcknowledgeRiskAlert
  | ClearAcknowledgedRiskAlerts
  | ResolveRiskAlerts
  | RecordBotRefusal;

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
  // Stryker disable next-line ConditionalExpression: equivalent, Number.isFinite is false for anything but a number (the check narrows the type)
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ValidationError(`${field} must be a finite number, got ${JSON.stringify(value)}`, { field });
  return value;
}

function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) throw new ValidationError(`${field} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`, { field });
  return value as T;
}

export function changeBotSettings(command: ChangeBotSettings, state: RiskState): RiskEvent[] {
  const given = command.data.changes as Record<string, unknown>;
  const known = new Set(Object.keys(DEFAULT_BOT_SETTINGS));
  for (const field of Object.keys(given)) if (!known.has(field)) throw new ValidationError(`unknown bot setting ${field}`, { field });
  const requested: Partial<BotSettings> = {};
  for (const [field, bounds] of Object.entries(botSettingsBounds)) {
    if (given[field] !== undefined) Object.assign(requested, { [field]: requireBounded(field, given[field], bounds) });
  }
  for (const field of ['enableNotifications', 'autoRetrain'] as const) {
    if (given[field] !== undefined) requested[field] = requireBoolean(field, given[field]);
  }
  const profile = applyProfileChanges(state.profile, profileChangesFromBotSettings(requested, state.profile));
  const changes = changedFields(profile, state.profile);
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'BotSettingsChanged', data: { userId: command.data.userId, changes, settings: botSettingsOf(profile), changedAt: command.metadata.now } }];
}

/** The bot settings' fields of the default profile (what a bot reset restores). */
const BOT_SETTING_FIELDS = ['maxPositionSize', 'stopLossValue', 'takeProfitRatio', 'maxDailyLoss', 'enableNotifications', 'autoRetrain'] as const;

export function resetBotSettings(command: ResetBotSettings, state: RiskState): RiskEvent[] {
  const defaults: Partial<typeof DEFAULT_RISK_PROFILE> = {};
  for (const field of BOT_SETTING_FIELDS) Object.assign(defaults, { [field]: DEFAULT_RISK_PROFILE[field] });
  const profile = applyProfileChanges(state.profile, defaults);
  const changes = changedFields(profile, state.profile);
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'BotSettingsReset', data: { userId: command.data.userId, changes, settings: botSettingsOf(profile), resetAt: command.metadata.now } }];
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
  const previous = parametersOf(state.profile);
  const changes = changedFields(parameters, previous);
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'RiskParametersChanged', data: { userId: command.data.userId, parameters, previous, changes, changedAt: command.metadata.now } }];
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

/**
 * A BUY signal the trading bot refused for this user, with the rule and its figures. The event's id
 * derives from the signal and the user (the bot's idempotency key), so the same refusal is recorded
 * once; the state does not keep refusals (the `bot-decisions` read model lists the recent ones).
 */
export function recordBotRefusal(command: RecordBotRefusal, _state: RiskState): RiskEvent[] {
  const d = command.data;
  const decision = requireBotDecision(d.decision);
  if (!refusedSignalTypes.includes(d.signalType)) throw new ValidationError(`signalType must be one of ${refusedSignalTypes.join(', ')}`, { field: 'signalType' });
  return [
    {
      type: 'BotSignalRefused',
      data: {
        userId: d.userId,
        signalId: requireText('signalId', d.signalId),
        signalEventId: requireText('signalEventId', d.signalEventId),
        symbol: requireText('symbol', d.symbol),
        signalType: d.signalType,
        candleTime: requireText('candleTime', d.candleTime),
        decision,
        refusedAt: command.metadata.now,
      },
    },
  ];
}

export const riskDecider: Decider<RiskState, RiskCommand, RiskEvent> = {
  name: 'risk',
  // 3: the one risk profile (risk.ts); 2 was issue 16's alerts resolved by a reset. A state of an
  // older version in a snapshot is folded again.
  schemaVersion: RISK_SCHEMA_VERSION,
  initialState: initialRiskState,
  evolve: evolveRisk,
  upcast: upcastRiskEvent,
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
      case 'RecordBotRefusal':
        return recordBotRefusal(command, state);
      default:
        return assertNever(command);
    }
  },
};
