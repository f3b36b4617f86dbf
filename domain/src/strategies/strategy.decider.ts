/**
 * ToggleStrategy and ConfigureStrategy on `strategy-{userId}-{strategyId}` (strategy.ts).
 *
 * - Toggling to the state the strategy is in appends nothing (a double click, a retried request).
 * - A configuration equal to the one in force appends nothing. The configuration is the full object
 *   of the strategy's type, already validated at the edge (contracts.ts); the decider checks the type
 *   again so a command built elsewhere cannot store a technical configuration on the neural strategy.
 * - A strategy may be configured while active: its evaluation changes from the next candle, and its
 *   paper figures count the trades of each configuration while it was in force.
 */
import { assertNever, type Decider } from '../shared/decider';
import { ValidationError } from '../shared/errors';
import { configKey, configurationSchemas, strategyInfo, type StrategyConfiguration, type StrategyId } from './strategy-catalogue';
import { configurationOf, evolveStrategy, initialStrategyState, type StrategyEvent, type StrategyState } from './strategy';

type Meta = { metadata: { now: string } };
export type ToggleStrategy = { type: 'ToggleStrategy'; data: { userId: string; strategyId: StrategyId; active: boolean } } & Meta;
export type ConfigureStrategy = { type: 'ConfigureStrategy'; data: { userId: string; strategyId: StrategyId; configuration: StrategyConfiguration } } & Meta;
export type RecordStrategyBacktest = {
  type: 'RecordStrategyBacktest';
  data: { userId: string; strategyId: StrategyId; backtestId: string; startDate: string; endDate: string; initialCapital: number };
} & Meta;
export type StrategyCommand = ToggleStrategy | ConfigureStrategy | RecordStrategyBacktest;

export function toggleStrategy(command: ToggleStrategy, state: StrategyState): StrategyEvent[] {
  const { userId, strategyId, active } = command.data;
  const strategyType = strategyInfo(strategyId).type;
  if (active === (state.status === 'active')) return [];
  if (active) return [{ type: 'StrategyActivated', data: { userId, strategyId, strategyType, configuration: configurationOf(state, strategyId), activatedAt: command.metadata.now } }];
  return [{ type: 'StrategyDeactivated', data: { userId, strategyId, strategyType, configuration: configurationOf(state, strategyId), deactivatedAt: command.metadata.now } }];
}

export function configureStrategy(command: ConfigureStrategy, state: StrategyState): StrategyEvent[] {
  const { userId, strategyId, configuration } = command.data;
  const strategyType = strategyInfo(strategyId).type;
  const parsed = configurationSchemas[strategyType].safeParse(configuration);
  if (!parsed.success) throw new ValidationError(`Not a ${strategyType} configuration: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  const previous = configurationOf(state, strategyId);
  if (configKey(strategyType, parsed.data) === configKey(strategyType, previous)) return [];
  return [{ type: 'StrategyConfigured', data: { userId, strategyId, strategyType, configuration: parsed.data, previous, active: state.status === 'active', configuredAt: command.metadata.now } }];
}

/** Records the backtest asked for, with the configuration it tests (the one in force); the same backtest twice appends nothing. */
export function recordStrategyBacktest(command: RecordStrategyBacktest, state: StrategyState): StrategyEvent[] {
  const { userId, strategyId, backtestId, startDate, endDate, initialCapital } = command.data;
  if (state.lastBacktestId === backtestId) return [];
  return [
    {
      type: 'StrategyBacktestRequested',
      data: { userId, strategyId, strategyType: strategyInfo(strategyId).type, backtestId, configuration: configurationOf(state, strategyId), startDate, endDate, initialCapital, requestedAt: command.metadata.now },
    },
  ];
}

export const strategyDecider: Decider<StrategyState, StrategyCommand, StrategyEvent> = {
  name: 'strategy',
  schemaVersion: 1,
  initialState: initialStrategyState,
  evolve: evolveStrategy,
  decide(command, state) {
    switch (command.type) {
      case 'ToggleStrategy':
        return toggleStrategy(command, state);
      case 'ConfigureStrategy':
        return configureStrategy(command, state);
      case 'RecordStrategyBacktest':
        return recordStrategyBacktest(command, state);
      default:
        return assertNever(command);
    }
  },
};
