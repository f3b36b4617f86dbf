/**
 * The strategy stream and its read models at their edges, by hand: the state of a stream with no
 * events and after a deactivation (the configuration and the latest backtest kept), a configuration
 * rejected for several reasons at once, the configuration ids, a first event that is not an
 * activation, events of other streams, and how many activation periods a document keeps.
 */
import { expect } from 'chai';
import { v5 as uuidv5 } from 'uuid';
import type { DomainEvent } from '../shared/decider';
import { ValidationError } from '../shared/errors';
import { evolveStrategy, initialStrategyState, type StrategyEvent } from './strategy';
import { CONFIG_ID_NAMESPACE, configIdOf, configKey, defaultConfiguration, type StrategyConfiguration } from './strategy-catalogue';
import { strategyDecider } from './strategy.decider';
import { evolveActiveEvaluations, evolveStrategyView, type ActiveEvaluationsView, type StrategyView } from './strategy-view';

const tech = defaultConfiguration('technical');
const tuned = { ...tech, rsiPeriod: 21 };
const T0 = Date.UTC(2026, 0, 1);
const at = (m: number) => new Date(T0 + m * 60_000).toISOString();
const base = { userId: 'u1', strategyId: 'rsi-technical' as const, strategyType: 'technical' as const };
const activated = (m: number, configuration: StrategyConfiguration = tech): StrategyEvent => ({ type: 'StrategyActivated', data: { ...base, configuration, activatedAt: at(m) } });
const deactivated = (m: number, configuration: StrategyConfiguration = tech): StrategyEvent => ({ type: 'StrategyDeactivated', data: { ...base, configuration, deactivatedAt: at(m) } });
const configured = (m: number, configuration: StrategyConfiguration, previous: StrategyConfiguration, active: boolean): StrategyEvent => ({
  type: 'StrategyConfigured', data: { ...base, configuration, previous, active, configuredAt: at(m) },
});
const backtestRequested = (m: number, backtestId: string): StrategyEvent => ({
  type: 'StrategyBacktestRequested', data: { ...base, backtestId, configuration: tech, startDate: '2025-01-01', endDate: '2025-02-01', initialCapital: 10_000, requestedAt: at(m) },
});
const other: DomainEvent = { type: 'PortfolioOpened', data: { userId: 'u1' } };
const meta = { metadata: { now: at(100) } };

describe('strategy stream and read models at their edges', function () {
  describe('the stream', function () {
    it('a stream with no events is the strategy inactive, never configured, with no backtest', function () {
      expect(initialStrategyState()).to.deep.equal({ status: 'inactive', configuration: null, lastBacktestId: null });
      expect(strategyDecider.initialState()).to.deep.equal({ status: 'inactive', configuration: null, lastBacktestId: null });
    });

    it('a deactivated strategy keeps its configuration and latest backtest', function () {
      const state = [configured(1, tuned, tech, false), backtestRequested(2, 'b1'), activated(3, tuned), deactivated(4, tuned)].reduce(evolveStrategy, initialStrategyState());
      expect(state).to.deep.equal({ status: 'inactive', configuration: tuned, lastBacktestId: 'b1' });
    });

    it('activated again after a deactivation, it runs the configuration it had, not the defaults', function () {
      const state = [configured(1, tuned, tech, false), activated(3, tuned), deactivated(4, tuned)].reduce(evolveStrategy, initialStrategyState());
      const events = strategyDecider.decide({ type: 'ToggleStrategy', data: { userId: 'u1', strategyId: 'rsi-technical', active: true }, ...meta }, state);
      expect(events).to.deep.equal([{ type: 'StrategyActivated', data: { ...base, configuration: tuned, activatedAt: at(100) } }]);
    });

    it('a configuration wrong in two ways is refused naming both problems, one after the other', function () {
      const command = { type: 'ConfigureStrategy' as const, data: { userId: 'u1', strategyId: 'rsi-technical' as const, configuration: { ...tech, rsiPeriod: 1, rsiOverbought: 200 } }, ...meta };
      let error: unknown;
      try {
        strategyDecider.decide(command, initialStrategyState());
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(ValidationError);
      expect((error as Error).message).to.equal('Not a technical configuration: rsiPeriod must be from 2 to 100; rsiOverbought must be from 51 to 95');
    });
  });

  it('a configuration\'s id is the UUID v5 of its key in the configuration namespace: equal keys, equal ids', function () {
    const key = configKey('technical', tech);
    const id = configIdOf(key);
    expect(id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(id).to.equal(uuidv5(key, CONFIG_ID_NAMESPACE));
    expect(configIdOf(configKey('technical', { ...tech }))).to.equal(id);
    expect(configIdOf(configKey('technical', tuned))).to.not.equal(id);
  });

  describe('the strategies\' documents', function () {
    it('a strategy configured before it was ever activated is inactive, with no period', function () {
      const doc = evolveStrategyView(null, configured(5, tuned, tech, false));
      expect(doc).to.deep.equal({ ...base, active: false, configuration: tuned, configKey: configKey('technical', tuned), activatedAt: null, periods: [], updatedAt: at(5) });
    });

    it('another stream\'s event changes no document and creates none', function () {
      expect(evolveStrategyView(null, other)).to.equal(null);
      const doc = evolveStrategyView(null, activated(0)) as StrategyView;
      expect(evolveStrategyView(doc, other)).to.equal(doc);
      expect(evolveActiveEvaluations(null, other)).to.equal(null);
      const evaluations = evolveActiveEvaluations(null, activated(0)) as ActiveEvaluationsView;
      expect(evolveActiveEvaluations(evaluations, other)).to.equal(evaluations);
    });

    it('a document keeps the latest 50 activation periods, the oldest dropping out', function () {
      // 51 activations a minute apart, each closing the one before.
      const doc = Array.from({ length: 51 }, (_, m) => activated(m)).reduce<StrategyView | null>(evolveStrategyView, null)!;
      const k = configKey('technical', tech);
      const expected = Array.from({ length: 50 }, (_, j) => ({ configKey: k, fromMs: T0 + (j + 1) * 60_000, toMs: j === 49 ? null : T0 + (j + 2) * 60_000 }));
      expect(doc.periods).to.deep.equal(expected);
    });
  });
});
