/**
 * The `strategy-{userId}-{strategyId}` stream (DESIGN.md section 5): one user's strategy, configured,
 * activated and deactivated. A stream with no events is the strategy at its defaults, inactive.
 *
 * StrategyActivated and StrategyConfigured carry the whole configuration in force from then, so the
 * read model (strategy-view.ts) knows which evaluation an active strategy follows, and over which
 * periods its paper trades count, without looking anything up.
 */
import type { DomainEvent } from '../shared/decider';
import { defaultConfiguration, strategyInfo, type StrategyConfiguration, type StrategyId, type StrategyType } from './strategy-catalogue';

type Base = { userId: string; strategyId: StrategyId; strategyType: StrategyType };

/** `previous` is the configuration in force before, and `active` whether the strategy was running: the shared evaluations' counts (strategy-view.ts) move from one to the other. */
export type StrategyConfigured = DomainEvent<'StrategyConfigured', Base & { configuration: StrategyConfiguration; previous: StrategyConfiguration; active: boolean; configuredAt: string }>;
export type StrategyActivated = DomainEvent<'StrategyActivated', Base & { configuration: StrategyConfiguration; activatedAt: string }>;
export type StrategyDeactivated = DomainEvent<'StrategyDeactivated', Base & { configuration: StrategyConfiguration; deactivatedAt: string }>;

/** A backtest of the strategy was asked for (the backtest's own stream, `backtest-{id}`, holds its run and result): its latest is the figures' fallback. */
export type StrategyBacktestRequested = DomainEvent<'StrategyBacktestRequested', Base & { backtestId: string; configuration: StrategyConfiguration; startDate: string; endDate: string; initialCapital: number; requestedAt: string }>;

export type StrategyEvent = StrategyConfigured | StrategyActivated | StrategyDeactivated | StrategyBacktestRequested;
export const STRATEGY_EVENT_TYPES: ReadonlySet<string> = new Set(['StrategyConfigured', 'StrategyActivated', 'StrategyDeactivated', 'StrategyBacktestRequested']);
export const isStrategyEvent = (event: { type: string }): event is StrategyEvent => STRATEGY_EVENT_TYPES.has(event.type);

export type StrategyState =
  | { status: 'inactive'; configuration: StrategyConfiguration | null; lastBacktestId: string | null }
  | { status: 'active'; configuration: StrategyConfiguration | null; activatedAt: string; lastBacktestId: string | null };

export const initialStrategyState = (): StrategyState => ({ status: 'inactive', configuration: null, lastBacktestId: null });

export function evolveStrategy(state: StrategyState, event: StrategyEvent): StrategyState {
  switch (event.type) {
    case 'StrategyConfigured':
      return { ...state, configuration: event.data.configuration };
    case 'StrategyActivated':
      return { status: 'active', configuration: event.data.configuration, activatedAt: event.data.activatedAt, lastBacktestId: state.lastBacktestId };
    case 'StrategyDeactivated':
      return { status: 'inactive', configuration: state.configuration, lastBacktestId: state.lastBacktestId };
    case 'StrategyBacktestRequested':
      return { ...state, lastBacktestId: event.data.backtestId };
  }
}

/** The configuration in force: the one recorded, else the type's defaults. */
export function configurationOf(state: StrategyState, strategyId: StrategyId): StrategyConfiguration {
  return state.configuration ?? defaultConfiguration(strategyInfo(strategyId).type);
}

export const strategyStreamId = (userId: string, strategyId: StrategyId) => `strategy-${userId}-${strategyId}`;
