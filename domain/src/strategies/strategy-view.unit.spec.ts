/** The read models' evolves: a strategy's periods, and the shared evaluations' user counts. */
import { expect } from 'chai';
import type { DomainEvent } from '../shared/decider';
import { configKey, defaultConfiguration } from './strategy-catalogue';
import type { StrategyEvent } from './strategy';
import type { StrategySignalGenerated } from './strategy-signals';
import {
  ACTIVE_EVALUATIONS_ID,
  activeEvaluationsIds,
  evolveActiveEvaluations,
  evolveStrategySignalView,
  evolveStrategyView,
  MODEL_KEY_SEPARATOR,
  STRATEGY_CANDLE_MS,
  strategySignalViewIds,
  strategyViewId,
  strategyViewIds,
  type ActiveEvaluationsView,
  type StrategyView,
} from './strategy-view';

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

describe('strategy read models: documents, ids and the signals', function () {
  const backtest = (m: number, backtestId: string): StrategyEvent => ({
    type: 'StrategyBacktestRequested',
    data: { userId: 'u', strategyId: 'rsi-technical', strategyType: 'technical', backtestId, configuration: tech, startDate: '2025-01-01', endDate: '2025-02-01', initialCapital: 10_000, requestedAt: at(m) },
  });
  const other: DomainEvent = { type: 'PortfolioOpened', data: { userId: 'u' } };

  it("a strategy's document is named by user and strategy; a backtest asked for is its latest, the rest kept", function () {
    expect(strategyViewId('u', 'rsi-technical')).to.equal('u:rsi-technical');
    expect(strategyViewIds(activated('u'))).to.deep.equal(['u:rsi-technical']);
    expect(strategyViewIds(other)).to.deep.equal([]);
    const active = [activated('u')].reduce<StrategyView | null>(evolveStrategyView, null)!;
    const after = evolveStrategyView(active, backtest(7, 'bt-1'))!;
    expect(after).to.deep.equal({ ...active, lastBacktestId: 'bt-1', updatedAt: at(7) });
    expect(evolveStrategyView(active, other)).to.equal(active);
    expect(activeEvaluationsIds(activated('u'))).to.deep.equal([ACTIVE_EVALUATIONS_ID]);
    expect(activeEvaluationsIds(other)).to.deep.equal([]);
  });

  it("a signal's document is named by its id: its configuration's key without the model, when its candle closed, whether it traded", function () {
    const data: StrategySignalGenerated['data'] = {
      signalId: 'sig-1', configId: 'c1', configKey: `rsi:14${MODEL_KEY_SEPARATOR}m7`, strategyType: 'technical', symbol: 'ETH', type: 'BUY', price: 3000, confidence: 70,
      candleTime: at(0), reasons: ['RSI 25 < 30'], trade: null, arbitrage: null,
    };
    const signal: StrategySignalGenerated = { type: 'StrategySignalGenerated', data };
    expect(strategySignalViewIds(signal)).to.deep.equal(['sig-1']);
    expect(strategySignalViewIds(other)).to.deep.equal([]);
    expect(evolveStrategySignalView(null, signal)).to.deep.equal({ ...data, strategyKey: 'rsi:14', candleTimeMs: Date.parse(at(0)), closedAtMs: Date.parse(at(0)) + STRATEGY_CANDLE_MS, hasTrade: false });
    expect(STRATEGY_CANDLE_MS).to.equal(5 * 60_000);
    const traded = { ...data, trade: { entryPrice: 2900, entryTime: at(-60), exitPrice: 3000, exitTime: at(0), grossReturn: 0.0345, netReturn: 0.0325 } };
    expect(evolveStrategySignalView(null, { type: 'StrategySignalGenerated', data: traded })!.hasTrade).to.equal(true);
    const doc = evolveStrategySignalView(null, signal);
    expect(evolveStrategySignalView(doc, other)).to.equal(doc);
  });
});
