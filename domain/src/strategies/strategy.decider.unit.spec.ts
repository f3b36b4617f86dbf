/** The strategy stream: toggles and configurations, each appending only a change. */
import { specFor } from '../shared/decider-specification';
import { ValidationError } from '../shared/errors';
import type { StrategyEvent } from './strategy';
import { defaultConfiguration, type StrategyConfiguration } from './strategy-catalogue';
import { strategyDecider } from './strategy.decider';

const spec = specFor(strategyDecider);
const NOW = '2026-03-04T10:00:00.000Z';
const LATER = '2026-03-04T11:00:00.000Z';
const tech = defaultConfiguration('technical');
const tuned = { ...tech, rsiPeriod: 21, stopLoss: 3 };

const toggle = (active: boolean, now = NOW) => ({ type: 'ToggleStrategy' as const, data: { userId: 'u1', strategyId: 'rsi-technical' as const, active }, metadata: { now } });
const configure = (configuration: StrategyConfiguration, strategyId: 'rsi-technical' | 'neural-network' = 'rsi-technical') => ({
  type: 'ConfigureStrategy' as const,
  data: { userId: 'u1', strategyId, configuration },
  metadata: { now: NOW },
});
const activated = (configuration: StrategyConfiguration, at = NOW): StrategyEvent => ({
  type: 'StrategyActivated',
  data: { userId: 'u1', strategyId: 'rsi-technical', strategyType: 'technical', configuration, activatedAt: at },
});
const deactivated = (at = LATER, configuration: StrategyConfiguration = tech): StrategyEvent => ({ type: 'StrategyDeactivated', data: { userId: 'u1', strategyId: 'rsi-technical', strategyType: 'technical', configuration, deactivatedAt: at } });
const configured = (configuration: StrategyConfiguration, previous: StrategyConfiguration = tech, active = false): StrategyEvent => ({
  type: 'StrategyConfigured',
  data: { userId: 'u1', strategyId: 'rsi-technical', strategyType: 'technical', configuration, previous, active, configuredAt: NOW },
});

describe('strategy decider', function () {
  it('activating a never-configured strategy records its defaults (spec section 5) as the configuration in force', function () {
    spec.given([]).when(toggle(true)).then([activated(tech)]);
  });

  it('activating after a configuration records that configuration', function () {
    spec.given([configured(tuned)]).when(toggle(true)).then([activated(tuned)]);
  });

  it('toggling to the state it is in appends nothing (inactive to inactive, active to active)', function () {
    spec.given([]).when(toggle(false)).then([]);
    spec.given([activated(tech)]).when(toggle(true)).then([]);
  });

  it('deactivating an active strategy, then activating it again', function () {
    spec.given([activated(tech)]).when(toggle(false, LATER)).then([deactivated()]);
    spec.given([activated(tech), deactivated()]).when(toggle(true, LATER)).then([activated(tech, LATER)]);
  });

  it('a new configuration is recorded; the same one again appends nothing; the defaults on a fresh stream append nothing', function () {
    spec.given([]).when(configure(tuned)).then([configured(tuned)]);
    spec.given([configured(tuned)]).when(configure({ ...tuned })).then([]);
    // While active, the event says so and names the configuration it replaces (the shared evaluations' counts move).
    spec.given([configured(tuned), activated(tuned)]).when(configure(tech)).then([configured(tech, tuned, true)]);
    spec.given([configured(tuned), activated(tuned)]).when(toggle(false, LATER)).then([deactivated(LATER, tuned)]);
    spec.given([]).when(configure(tech)).then([]);
  });

  it('a configuration of another type is refused (400)', function () {
    spec.given([]).when(configure(defaultConfiguration('neural'))).thenThrows(ValidationError, /Not a technical configuration/);
    spec.given([]).when(configure({ ...tech, rsiPeriod: 1 })).thenThrows(ValidationError, /rsiPeriod must be from 2 to 100/);
  });

  describe('a backtest asked for', function () {
    const record = (backtestId: string) => ({
      type: 'RecordStrategyBacktest' as const,
      data: { userId: 'u1', strategyId: 'rsi-technical' as const, backtestId, startDate: '2025-01-01', endDate: '2025-02-01', initialCapital: 10_000 },
      metadata: { now: LATER },
    });
    const requested = (backtestId: string, configuration: StrategyConfiguration): StrategyEvent => ({
      type: 'StrategyBacktestRequested',
      data: { userId: 'u1', strategyId: 'rsi-technical', strategyType: 'technical', backtestId, configuration, startDate: '2025-01-01', endDate: '2025-02-01', initialCapital: 10_000, requestedAt: LATER },
    });

    it('is recorded with the configuration in force (the defaults, or the one configured)', function () {
      spec.given([]).when(record('bt-1')).then([requested('bt-1', tech)]);
      spec.given([configured(tuned)]).when(record('bt-1')).then([requested('bt-1', tuned)]);
    });

    it('the same backtest again appends nothing; another one is recorded', function () {
      spec.given([requested('bt-1', tech)]).when(record('bt-1')).then([]);
      spec.given([requested('bt-1', tech)]).when(record('bt-2')).then([requested('bt-2', tech)]);
    });
  });
});
