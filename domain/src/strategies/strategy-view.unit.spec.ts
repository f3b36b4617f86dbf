/** The read models' evolves: a strategy's periods, and the shared evaluations' user counts. */
import { expect } from 'chai';
import type { DomainEvent } from '../shared/decider';
import { configKey, defaultConfiguration } from './strategy-catalogue';
import type { StrategyEvent } from './strategy';
import { evolveActiveEvaluations, evolveStrategyView, type ActiveEvaluationsView, type StrategyView } from './strategy-view';

const tech = defaultConfiguration('technical');
const tuned = { ...tech, rsiPeriod: 21 };
const at = (m: number) => new Date(Date.UTC(2026, 0, 1) + m * 60_000).toISOString();
const activated = (userId: string, configuration = tech, m = 0): StrategyEvent => ({ type: 'StrategyActivated', data: { userId, strategyId: 'rsi-technical', strategyType: 'technical', configuration, activatedAt: at(m) } });
const deactivated = (userId: string, configuration = tech, m = 10): StrategyEvent => ({ type: 'StrategyDeactivated', data: { userId, strategyId: 'rsi-technical', strategyType: 'technical', configuration, deactivatedAt: at(m) } });
const configured = (userId: string, configuration: typeof tech, previous: typeof tech, active: boolean, m = 5): StrategyEvent => ({
  type: 'StrategyConfigured', data: { userId, strategyId: 'rsi-technical', strategyType: 'technical', configuration, previous, active, configuredAt: at(m) },
});

describe('strategy read models', function () {
  it('the active evaluations count users per configuration, growing with configurations only', function () {
    const events: DomainEvent[] = [
      ...Array.from({ length: 100 }, (_, i) => activated(`u${i}`)),
      configured('u0', tuned, tech, true),
      configured('u200', tuned, tech, false), // not active: counts nothing
      deactivated('u1'),
      { type: 'SomethingElse', data: {} },
    ];
    const doc = events.reduce<ActiveEvaluationsView | null>(evolveActiveEvaluations, null)!;
    expect(Object.keys(doc.configs)).to.have.length(2);
    expect(doc.configs[configKey('technical', tech)]!.users).to.equal(98);
    expect(doc.configs[configKey('technical', tuned)]!.users).to.equal(1);
    const gone = [deactivated('u0', tuned)].reduce<ActiveEvaluationsView | null>(evolveActiveEvaluations, doc)!;
    expect(gone.configs[configKey('technical', tuned)]).to.equal(undefined);
  });

  it('a strategy\'s periods: one per activation and configuration while active, closed on deactivation', function () {
    const doc = [activated('u'), configured('u', tuned, tech, true, 5), deactivated('u', tuned, 10)].reduce<StrategyView | null>(evolveStrategyView, null)!;
    expect(doc.active).to.equal(false);
    expect(doc.periods).to.deep.equal([
      { configKey: configKey('technical', tech), fromMs: Date.parse(at(0)), toMs: Date.parse(at(5)) },
      { configKey: configKey('technical', tuned), fromMs: Date.parse(at(5)), toMs: Date.parse(at(10)) },
    ]);
  });
});
