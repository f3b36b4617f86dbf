/**
 * A strategy's backtest run end to end on the simulated market, over short periods: the neural walk-
 * forward with a model trained halfway (what it decided, under which key, which trades followed, and
 * what the notes tell the user), the neural run's preconditions (the stored models, a plan over the
 * same candles), the technical run's notes in the configuration's own figures, and arbitrage from the
 * very first candle of the history and over a period with round trips.
 */
import { expect } from 'chai';
import { simulationMarket } from '../backtest/market';
import { MarketSimulation } from '../market/simulation';
import { DEFAULT_RISK_PROFILE } from '../trading/contracts';
import { planStrategyBacktest, runPlannedStrategyBacktest, runStrategyBacktest, type StrategyBacktestConfig, type StrategyModel, type StrategyModelPort } from './strategy-backtest';

const sim = new MarketSimulation(Uint32Array.from([19, 2, 2, 3, 4, 5, 6, 7]));
const market = simulationMarket(sim);
const rules = { profile: { ...DEFAULT_RISK_PROFILE, correlationLimit: 1, riskRewardRatio: 0.5 } };
const FIVE_MIN = 300_000;
const START = Date.parse('2025-06-02T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** Two hours: 24 five-minute candles, the last closing at the period's end. */
const neuralConfig: StrategyBacktestConfig = {
  strategyId: 'neural-network',
  symbol: 'ETH',
  startDate: iso(START),
  endDate: iso(START + 24 * FIVE_MIN),
  initialCapital: 10_000,
  parameters: { learningRate: 0.001, epochs: 100, confidenceThreshold: 60 },
};
const KEY = 'neural|confidenceThreshold=60|epochs=100|learningRate=0.001';
const signalIds = (_configId: string, _symbol: string, candleTime: string) => ({ signalId: `sig:${candleTime}`, eventId: `evt:${candleTime}` });

/** A port of one stored model whose scorer says up (0.9), down (0.1), up, ... by row; it records whose models were asked for. */
function portOf(models: StrategyModel[]): StrategyModelPort & { users: string[] } {
  const users: string[] = [];
  return {
    users,
    models: async (userId) => {
      users.push(userId);
      return models;
    },
    score: async (_digest, _x, rows) => Float64Array.from({ length: rows }, (_, r) => (r % 2 === 0 ? 0.9 : 0.1)),
  };
}

describe('strategy backtest runs over short periods', function () {
  this.timeout(20_000);

  describe('neural: walk-forward with a model trained halfway through the period', function () {
    // Trained at 01:00 on data to 00:55: it decides the candles closing at 01:00 or later, the 13 from
    // the one opening at 00:55 to the one opening at 01:55; the 11 before it have no model.
    const halfway: StrategyModel = { digest: 'abcdef0123456789', owner: 'own', modelType: 'neural_network', trainedAt: '2025-06-02T01:00:00.000Z', asOf: '2025-06-02T00:55:00.000Z' };

    it('decides only the candles after the model, under the model\'s own key, and the bot follows them', async function () {
      const port = portOf([halfway]);
      const run = await runStrategyBacktest(neuralConfig, market, { rules, models: port, userId: 'u-7', signalIds });
      expect(port.users, 'the user\'s models are read').to.deep.equal(['u-7']);
      // Up, down, up, ...: flat it buys, long it sells, one signal a candle.
      const expected = Array.from({ length: 13 }, (_, k) => {
        const candleTime = iso(START + (11 + k) * FIVE_MIN);
        return { type: k % 2 === 0 ? 'BUY' : 'SELL', candleTime, signalId: `sig:${candleTime}`, configKey: `${KEY}|model=abcdef0123456789` };
      });
      expect(run.signals.map((s) => ({ type: s.data.type, candleTime: s.data.candleTime, signalId: s.data.signalId, configKey: s.data.configKey }))).to.deep.equal(expected);
      expect(run.signals[0]!.data.reasons[0]).to.equal('Your model abcdef01 gives an up candle 90.0% (threshold 60.0%)');

      // Each fill of a signal is on the signal's side and carries its id.
      const typeOf = new Map(run.signals.map((s) => [s.data.signalId, s.data.type]));
      const bySignal = run.trades.filter((t) => t.reason === 'SIGNAL');
      expect(bySignal.length).to.be.greaterThan(0);
      for (const t of bySignal) expect(t.side, t.signalId).to.equal(typeOf.get(t.signalId!));
      expect(bySignal.some((t) => t.side === 'SELL'), 'a SELL signal closes the position').to.equal(true);
      expect(run.trades.every((t) => Date.parse(t.time) >= Date.parse('2025-06-02T01:00:00.000Z')), 'nothing before the model').to.equal(true);
    });

    it('the notes say how it walked forward, what the model decided and how many candles came before it', async function () {
      const run = await runStrategyBacktest(neuralConfig, market, { rules, models: portOf([halfway]) });
      expect(run.result.notes).to.deep.equal([
        'Walk-forward over the models as they were: each candle is decided by the model the live strategy read at its close (your latest model trained by then, else the house model\'s), never by one trained later; BUY at P(up) ≥ 60%, SELL at P(down) ≥ 60%, filled through the paper engine under your risk profile.',
        'Your model abcdef01 (neural_network, trained 2025-06-02 01:00 UTC on data to 2025-06-02 00:55) decided 13 candles.',
        '11 of 24 candles came before any model was trained and were not traded.',
      ]);
    });

    it('with a model trained before the period every candle is decided and no candle is said to be without one', async function () {
      const house: StrategyModel = { digest: '9876543210fedcba', owner: 'house', modelType: 'logistic_regression', trainedAt: '2025-06-01T00:00:00.000Z', asOf: '2025-05-31T23:55:00.000Z' };
      const port = portOf([house]);
      const run = await runStrategyBacktest(neuralConfig, market, { rules, models: port });
      expect(port.users, 'no user: the backtest\'s own').to.deep.equal(['backtest']);
      expect(run.result.notes!.slice(1)).to.deep.equal(['House model 98765432 (logistic_regression, trained 2025-06-01 00:00 UTC on data to 2025-05-31 23:55) decided 24 candles.']);
      expect(run.signals).to.have.length(24);
      expect(run.signals[0]!.data.configKey).to.equal(`${KEY}|model=9876543210fedcba`);
    });

    it('needs the stored models, and a plan made over the same candles', async function () {
      let error: unknown;
      try {
        await runStrategyBacktest(neuralConfig, market, { rules });
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(Error);
      expect((error as Error).message).to.match(/needs the stored models/);

      expect(() => runPlannedStrategyBacktest(neuralConfig, market, { rules }, {})).to.throw(Error, /needs its plan over these candles/);
      const shorter = await planStrategyBacktest({ ...neuralConfig, endDate: iso(START + 12 * FIVE_MIN) }, market.ticks, { models: portOf([halfway]) });
      expect(() => runPlannedStrategyBacktest(neuralConfig, market, { rules }, shorter)).to.throw(Error, /needs its plan over these candles/);
    });
  });

  it('technical: the notes state the configuration\'s own rule (oversold is 100 − overbought) and that the bot fills it', function () {
    const run = runPlannedStrategyBacktest({ ...neuralConfig, strategyId: 'rsi-technical', parameters: { rsiPeriod: 10, rsiOverbought: 80, stopLoss: 1.5, takeProfit: 3 } }, market, { rules }, {});
    expect(run.result.notes).to.deep.equal([
      'The strategy\'s own signals, as live: BUY when RSI(10) enters oversold (below 20); SELL when it enters overbought (above 80), at the stop loss (1.5% below the entry close) or at the take profit (3% above it), checked at candle closes.',
      'The orders fill through the paper engine as the bot fills the strategy’s signals, under your risk profile (its sizing, entry rules and the stops it attaches to each BUY).',
    ]);
  });

  describe('arbitrage', function () {
    it('runs from the very first candle of the history (which has no quotes yet: one close, no return)', function () {
      const run = runPlannedStrategyBacktest({ strategyId: 'cross-exchange-arbitrage', symbol: 'ETH', startDate: '2020-01-01T00:00:00.000Z', endDate: '2020-01-01T01:00:00.000Z', initialCapital: 10_000, parameters: { minSpread: 0, maxPositionSize: 1000 } }, market, { rules }, {});
      expect(run.result.equityCurve[0]!.time).to.equal('2020-01-01T00:05:00.000Z');
      expect(run.result.finalBalance).to.be.closeTo(10_000 + run.trades.reduce((a, t) => a + (t.pnl ?? 0), 0), 0.01);
    });

    it('the run\'s signals are the strategy\'s ARBITRAGE signals, each a round trip named by it', function () {
      const run = runPlannedStrategyBacktest({ strategyId: 'cross-exchange-arbitrage', symbol: 'ETH', startDate: '2025-06-02T06:00:00.000Z', endDate: '2025-06-02T07:00:00.000Z', initialCapital: 10_000, parameters: { minSpread: 0, maxPositionSize: 1000 } }, market, { rules, signalIds }, {});
      expect(run.signals.length).to.be.greaterThan(0);
      expect(run.result.signals).to.equal(run.signals.length);
      for (const s of run.signals) {
        expect(s.type).to.equal('StrategySignalGenerated');
        expect(s.data.type).to.equal('ARBITRAGE');
        expect(s.data.signalId).to.equal(`sig:${s.data.candleTime}`);
      }
      expect(run.trades.map((t) => t.tradeId)).to.deep.equal(run.signals.flatMap((s) => [`${s.data.signalId}:buy`, `${s.data.signalId}:sell`]));
    });
  });
});
