/**
 * The strategies' read models (issue 19):
 * - `strategies`: one document per user and strategy (`{userId}:{strategyId}`), with its configuration,
 *   whether it is active, and the periods it was active with each configuration (`periods`): the trades
 *   of a configuration count for the user only while they followed it.
 * - `strategy-signals`: one document per StrategySignalGenerated (its signal id), with the key of the
 *   configuration that made it (`strategyKey`: the configuration's key, without the neural model), so
 *   a user's live signals and paper round trips are one indexed query per period.
 * A never-configured strategy has no document: it reads the defaults, inactive.
 */
import type { DomainEvent } from '../shared/decider';
import { SIGNAL_CANDLE_MINUTES } from '../signals/contracts';
import { configKey, type StrategyConfiguration, type StrategyId, type StrategyType } from './strategy-catalogue';
import { isStrategyEvent } from './strategy';
import type { StrategySignalGenerated } from './strategy-signals';

export const STRATEGIES_PROJECTION = 'strategies';
export const STRATEGY_SIGNALS_PROJECTION = 'strategy-signals';

export type StrategyPeriod = { configKey: string; fromMs: number; toMs: number | null };

export type StrategyView = {
  userId: string;
  strategyId: StrategyId;
  strategyType: StrategyType;
  active: boolean;
  configuration: StrategyConfiguration | null;
  /** The key of the configuration in force (null: the defaults, never configured). */
  configKey: string | null;
  activatedAt: string | null;
  periods: StrategyPeriod[];
  /** The latest backtest asked for from the strategy's card (its result: the backtest read models). */
  lastBacktestId?: string | null;
  updatedAt: string;
};

/**
 * `closedAtMs`: when the signal was decided, its candle's close (candleTime is the candle's open, as
 * for the house signals): a signal belongs to an activation period when its candle closed inside it, so
 * the first candle to close after a user activates counts for them.
 */
export type StrategySignalView = StrategySignalGenerated['data'] & { strategyKey: string; candleTimeMs: number; closedAtMs: number; hasTrade: boolean };

/** The strategies' candle width: the signal engine's (they are evaluated on its closed candles). */
export const STRATEGY_CANDLE_MS = SIGNAL_CANDLE_MINUTES * 60_000;

/** How many activation periods a document keeps (older ones drop out of the paper figures). */
export const PERIODS_KEPT = 50;

export const strategyViewId = (userId: string, strategyId: string) => `${userId}:${strategyId}`;

export function strategyViewIds(event: DomainEvent): string[] {
  return isStrategyEvent(event) ? [strategyViewId(event.data.userId, event.data.strategyId)] : [];
}

/** The neural strategy's signals add the model to their key; the configuration's own key is before it. */
export const MODEL_KEY_SEPARATOR = '|model=';
export const strategyKeyOf = (signalConfigKey: string) => signalConfigKey.split(MODEL_KEY_SEPARATOR)[0]!;

export function evolveStrategyView(doc: StrategyView | null, event: DomainEvent): StrategyView | null {
  if (!isStrategyEvent(event)) return doc;
  const { userId, strategyId, strategyType } = event.data;
  const base: StrategyView = doc ?? { userId, strategyId, strategyType, active: false, configuration: null, configKey: null, activatedAt: null, periods: [], updatedAt: '' };
  const close = (periods: StrategyPeriod[], atMs: number) => periods.map((p) => (p.toMs === null ? { ...p, toMs: atMs } : p));
  const open = (periods: StrategyPeriod[], key: string, atMs: number) => [...close(periods, atMs), { configKey: key, fromMs: atMs, toMs: null }].slice(-PERIODS_KEPT);
  switch (event.type) {
    case 'StrategyConfigured': {
      const key = configKey(strategyType, event.data.configuration);
      const at = Date.parse(event.data.configuredAt);
      return { ...base, configuration: event.data.configuration, configKey: key, periods: base.active ? open(base.periods, key, at) : base.periods, updatedAt: event.data.configuredAt };
    }
    case 'StrategyActivated': {
      const key = configKey(strategyType, event.data.configuration);
      const at = Date.parse(event.data.activatedAt);
      return { ...base, active: true, configuration: event.data.configuration, configKey: key, activatedAt: event.data.activatedAt, periods: open(base.periods, key, at), updatedAt: event.data.activatedAt };
    }
    case 'StrategyDeactivated':
      return { ...base, active: false, periods: close(base.periods, Date.parse(event.data.deactivatedAt)), updatedAt: event.data.deactivatedAt };
    case 'StrategyBacktestRequested':
      return { ...base, lastBacktestId: event.data.backtestId, updatedAt: event.data.requestedAt };
  }
}

export function strategySignalViewIds(event: DomainEvent): string[] {
  return event.type === 'StrategySignalGenerated' ? [(event as StrategySignalGenerated).data.signalId] : [];
}

export function evolveStrategySignalView(doc: StrategySignalView | null, event: DomainEvent): StrategySignalView | null {
  if (event.type !== 'StrategySignalGenerated') return doc;
  const data = (event as StrategySignalGenerated).data;
  const candleTimeMs = Date.parse(data.candleTime);
  return { ...data, strategyKey: strategyKeyOf(data.configKey), candleTimeMs, closedAtMs: candleTimeMs + STRATEGY_CANDLE_MS, hasTrade: data.trade !== null };
}

// ---------------------------------------------------------------------------------------------
// strategy-evaluations: the distinct configurations of the active strategies, with how many users
// have each. One document (ACTIVE_EVALUATIONS_ID), whose size grows with the distinct
// configurations, never with the users: the strategy engine reads it once per candle, so 10,000 users
// on the defaults cost it what one does.

export const STRATEGY_EVALUATIONS_PROJECTION = 'strategy-evaluations';
export const ACTIVE_EVALUATIONS_ID = 'active';

export type ActiveEvaluationsView = {
  configs: Record<string, { strategyType: StrategyType; configuration: StrategyConfiguration; users: number }>;
};

export function activeEvaluationsIds(event: DomainEvent): string[] {
  return isStrategyEvent(event) ? [ACTIVE_EVALUATIONS_ID] : [];
}

export function evolveActiveEvaluations(doc: ActiveEvaluationsView | null, event: DomainEvent): ActiveEvaluationsView | null {
  if (!isStrategyEvent(event)) return doc;
  const configs = { ...(doc?.configs ?? {}) };
  const type = event.data.strategyType;
  const add = (configuration: StrategyConfiguration, delta: number) => {
    const key = configKey(type, configuration);
    const users = (configs[key]?.users ?? 0) + delta;
    if (users > 0) configs[key] = { strategyType: type, configuration, users };
    else delete configs[key];
  };
  switch (event.type) {
    case 'StrategyActivated':
      add(event.data.configuration, 1);
      break;
    case 'StrategyDeactivated':
      add(event.data.configuration, -1);
      break;
    case 'StrategyConfigured':
      if (event.data.active) {
        add(event.data.previous, -1);
        add(event.data.configuration, 1);
      }
      break;
  }
  return { configs };
}
