/**
 * A strategy's backtest: its request, the live signal code folded over the candles (technical exits at
 * the strategy's own stop loss and take profit, by hand), the neural walk-forward over the models as
 * they were (no look-ahead), the arbitrage round trips (by hand), the same signals as the live engine's
 * inputs give, and runs through the engine on the simulated market.
 */
import { expect } from 'chai';
import { backtestResultSchema, backtestTradeSchema, type BacktestTrade } from '../backtest/contracts';
import { candlesOf, FIVE_MIN, T0 } from './strategy-candles.fixtures';
import { simulationMarket } from '../backtest/market';
import { MarketSimulation } from '../market/simulation';
import { rsi } from '../market/indicators/rsi';
import { FEATURE_COUNT } from '../ml/features';
import { ValidationError } from '../shared/errors';
import { DEFAULT_RISK_PROFILE } from '../trading/contracts';
import { TRADE_FEE_RATE } from '../trading/money';
import { exchangeQuotes, type ExchangeQuote } from './exchange-quotes';
import { defaultConfiguration, type ArbitrageConfiguration, type TechnicalConfiguration } from './strategy-catalogue';
import {
  arbitrageBacktest,
  arbitrageInputs,
  backtestRoundTrips,
  modelAt,
  neuralPlan,
  neuralSignals,
  runStrategyBacktest,
  strategyBacktestConfig,
  strategySignalsOver,
  technicalInputs,
  type StrategyBacktestConfig,
  type StrategyModel,
} from './strategy-backtest';
import { evolveStrategySignal, initialStrategySignalState, strategySignalDecider, type StrategyInputs, type StrategySignalGenerated } from './strategy-signals';

const req = { startDate: '2024-01-01', endDate: '2024-12-31', initialCapital: 10000 };
const NOW = Date.UTC(2026, 0, 1);
const fill = (side: 'BUY' | 'SELL', time: string, amount: number, price: number, fee: number, pnl: number | null, symbol: 'ETH' | 'BTC' = 'ETH'): BacktestTrade =>
  ({ tradeId: time, time, side, symbol, amount, price, fee, pnl, reason: side === 'BUY' ? 'SIGNAL' : 'SIGNAL', execution: {} }) as unknown as BacktestTrade;

const paperNet = (entry: number, exit: number) => Math.round(((exit * (1 - TRADE_FEE_RATE)) / (entry * (1 + TRADE_FEE_RATE)) - 1) * 100 * 10_000) / 10_000;

/** Thirty quiet candles around 110, then one fall to 100: RSI(14) goes from about 50 to about 20, entering oversold (below 25) there. */
const QUIET = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? 110 : 110.5));
const technical: TechnicalConfiguration = { rsiPeriod: 14, rsiOverbought: 75, stopLoss: 2, takeProfit: 4 };
const signalsOf = (closes: number[], c = technical) => {
  const candles = candlesOf(closes);
  return strategySignalsOver('rsi-technical', candles, 1, candles.length, technicalInputs(c, candles.close.subarray(0, candles.length)));
};

describe('strategy backtest', function () {
  this.timeout(120_000);

  it('names the strategy and carries its configuration; the period is checked as every backtest\'s', function () {
    const { config, configKey } = strategyBacktestConfig('rsi-technical', { ...defaultConfiguration('technical'), rsiPeriod: 21 }, req, NOW);
    expect(config).to.deep.equal({ strategyId: 'rsi-technical', symbol: 'ETH', startDate: '2024-01-01T00:00:00.000Z', endDate: '2025-01-01T00:00:00.000Z', initialCapital: 10000, parameters: { rsiPeriod: 21, rsiOverbought: 70, stopLoss: 2, takeProfit: 4 } });
    expect(configKey).to.match(/^rsi-technical\|ETH\|/);
    expect(() => strategyBacktestConfig('neural-network', defaultConfiguration('neural'), { ...req, endDate: '2027-01-01' }, NOW)).to.throw(ValidationError, /endDate must not be in the future/);
  });

  describe('technical: exits at the strategy\'s own stop loss and take profit (hand-computed)', function () {
    it('buys where RSI enters oversold and sells at the first close 2 % below the entry', function () {
      const trips = signalsOf([...QUIET, 100, 99, 98.5, 97.9, 97]);
      expect(trips.map((s) => [s.index, s.signal.data.type])).to.deep.equal([[30, 'BUY'], [33, 'SELL']]);
      const sell = trips[1]!.signal.data;
      expect(sell.reasons[0]).to.match(/^Stop loss: close 97.90 is 2.10% below the entry 100.00/);
      // Entry 100, exit 97.9: gross -2.1 %, net of the paper fee each way 97.9 × 0.999 / (100 × 1.001) − 1.
      expect(sell.trade).to.deep.include({ entryPrice: 100, exitPrice: 97.9, grossReturn: -2.1, netReturn: paperNet(100, 97.9) });
    });

    it('sells at the first close 4 % above the entry', function () {
      const trips = signalsOf([...QUIET, 100, 101, 102, 103.9, 104.2]);
      expect(trips.map((s) => [s.index, s.signal.data.type])).to.deep.equal([[30, 'BUY'], [34, 'SELL']]);
      expect(trips[1]!.signal.data.reasons[0]).to.match(/^Take profit: close 104.20 is 4.20% above the entry 100.00/);
      expect(trips[1]!.signal.data.trade).to.deep.include({ entryPrice: 100, exitPrice: 104.2, netReturn: paperNet(100, 104.2) });
    });

    it('other stop loss and take profit: other exits (the configuration, not the risk profile, decides)', function () {
      const wide = signalsOf([...QUIET, 100, 99, 98.5, 97.9, 97], { ...technical, stopLoss: 2.5 });
      expect(wide.map((s) => [s.index, s.signal.data.type])).to.deep.equal([[30, 'BUY'], [34, 'SELL']]);
      const narrow = signalsOf([...QUIET, 100, 101, 102, 103.9, 104.2], { ...technical, takeProfit: 1.5 });
      expect(narrow.map((s) => [s.index, s.signal.data.type])).to.deep.equal([[30, 'BUY'], [32, 'SELL']]);
    });
  });

  describe('the same signals as the live engine\'s', function () {
    // The live engine evaluates each close with the inputs it computes from the closed candles it read
    // (workers/src/strategies/strategy-engine.ts inputsOf): RSI over them, the quotes of them.
    const sim = new MarketSimulation(Uint32Array.from([19, 1, 2, 3, 4, 5, 6, 7]));
    const market = simulationMarket(sim);
    const live = (closes: Float64Array, first: number, inputsAt: (window: Float64Array) => StrategyInputs) => {
      let state = initialStrategySignalState();
      const out: StrategySignalGenerated[] = [];
      for (let i = first; i < closes.length; i++) {
        const candleTime = new Date(T0 + i * FIVE_MIN).toISOString();
        const events = strategySignalDecider.decide({ type: 'EvaluateStrategy', data: { signalId: 'x', configId: 'c', configKey: 'c', symbol: 'ETH', candleTime, inputs: inputsAt(closes.subarray(0, i + 1)) } }, state);
        for (const e of events) state = evolveStrategySignal(state, e);
        out.push(...events);
      }
      return out;
    };
    const closes = Float64Array.from({ length: 3000 }, (_, i) => market.ticks.price('ethereum', 1_000_000 + i * 60));
    const candles = candlesOf(Array.from(closes));
    const strip = (s: StrategySignalGenerated) => ({ type: s.data.type, candleTime: s.data.candleTime, price: s.data.price, reasons: s.data.reasons, trade: s.data.trade, arbitrage: s.data.arbitrage });

    it('technical: the backtest\'s signals are the live evaluation\'s, candle for candle', function () {
      const c: TechnicalConfiguration = { rsiPeriod: 7, rsiOverbought: 65, stopLoss: 0.3, takeProfit: 0.3 };
      const backtest = strategySignalsOver('rsi-technical', candles, 600, candles.length, technicalInputs(c, closes)).map((s) => strip(s.signal));
      const expected = live(closes, 600, (w) => {
        const series = rsi(w, c.rsiPeriod);
        return { strategyType: 'technical', configuration: c, rsi: series[w.length - 1]!, previousRsi: series[w.length - 2]!, close: w[w.length - 1]! };
      }).map(strip);
      expect(backtest.length).to.be.greaterThan(10);
      expect(backtest.some((s) => /^(Stop loss|Take profit)/.test(s.reasons[0]!))).to.equal(true);
      expect(backtest).to.deep.equal(expected);
    });

    it('arbitrage: the backtest\'s signals are the live evaluation\'s, candle for candle', function () {
      const c: ArbitrageConfiguration = { minSpread: 0, maxPositionSize: 1000 };
      const backtest = strategySignalsOver('cross-exchange-arbitrage', candles, 300, candles.length, arbitrageInputs(c, closes)).map((s) => strip(s.signal));
      const expected = live(closes, 300, (w) => ({ strategyType: 'arbitrage', configuration: c, quotes: exchangeQuotes(w), close: w[w.length - 1]! })).map(strip);
      expect(backtest.length).to.be.greaterThan(0);
      expect(backtest).to.deep.equal(expected);
    });
  });

  describe('arbitrage: round trips of maxPositionSize net of both exchanges\' fees', function () {
    it('buys on the cheaper exchange and sells on the dearer, by hand', function () {
      const candles = candlesOf([100, 100, 100]);
      const quotes: ExchangeQuote[] = [
        { exchange: 'binance', price: 100, basis: 0 },
        { exchange: 'coinbase', price: 100.5, basis: 0.005 },
        { exchange: 'kraken', price: 101, basis: 0.01 },
      ];
      const c: ArbitrageConfiguration = { minSpread: 0.5, maxPositionSize: 1000 };
      const signals = strategySignalsOver('cross-exchange-arbitrage', candles, 1, 2, () => ({ strategyType: 'arbitrage', configuration: c, quotes, close: 100 }));
      const config: StrategyBacktestConfig = { strategyId: 'cross-exchange-arbitrage', symbol: 'ETH', startDate: new Date(T0).toISOString(), endDate: new Date(T0 + 3 * FIVE_MIN).toISOString(), initialCapital: 5000, parameters: { ...c } };
      const { result, trades } = arbitrageBacktest(config, candles, 0, 3, signals, {});
      // Binance 0.1 %, Kraken 0.26 %: 1000 USD buys 1000 / (100 × 1.001) ETH on Binance; sold on Kraken
      // for 101 × 0.9974 each: 1000 × (100.7374 / 100.1 − 1) = 6.3676 USD, the net spread 0.63676 %.
      const amount = 1000 / 100.1;
      expect(trades).to.have.length(2);
      expect(trades[0]).to.deep.include({ side: 'BUY', exchange: 'binance', price: 100, pnl: null, reason: 'SIGNAL' });
      expect(trades[1]).to.deep.include({ side: 'SELL', exchange: 'kraken', price: 101, reason: 'SIGNAL' });
      expect(trades[0]!.amount).to.be.closeTo(amount, 1e-12);
      expect(trades[0]!.fee).to.be.closeTo(0.999001, 1e-6);
      expect(trades[1]!.fee).to.be.closeTo(amount * 101 * 0.0026, 1e-6);
      expect(trades[1]!.pnl).to.be.closeTo(6.367632, 1e-6);
      expect(signals[0]!.signal.data.arbitrage!.profitUsd).to.equal(6.37);
      expect(result).to.deep.include({ totalTrades: 1, winRate: 1, fills: 2, signals: 1, refusedSignals: 0 });
      expect(result.performanceMetrics.winningTrades).to.equal(1);
      expect(result.finalBalance).to.be.closeTo(5006.37, 0.005);
      expect(result.totalReturn).to.be.closeTo(6.367632 / 5000, 1e-4);
      expect(backtestRoundTrips(trades)).to.have.length(1);
      expect(backtestRoundTrips(trades)[0]!.netReturn).to.be.closeTo(0.6368, 1e-4);
      for (const t of trades) backtestTradeSchema.parse(t);
      backtestResultSchema.parse(result);
    });

    it('refuses a round trip the cash cannot pay for', function () {
      const candles = candlesOf([100, 100, 100]);
      const quotes: ExchangeQuote[] = [
        { exchange: 'binance', price: 100, basis: 0 },
        { exchange: 'kraken', price: 101, basis: 0.01 },
      ];
      const c: ArbitrageConfiguration = { minSpread: 0.5, maxPositionSize: 1000 };
      const signals = strategySignalsOver('cross-exchange-arbitrage', candles, 1, 2, () => ({ strategyType: 'arbitrage', configuration: c, quotes, close: 100 }));
      const config: StrategyBacktestConfig = { strategyId: 'cross-exchange-arbitrage', symbol: 'ETH', startDate: new Date(T0).toISOString(), endDate: new Date(T0 + 3 * FIVE_MIN).toISOString(), initialCapital: 500, parameters: { ...c } };
      const { result, trades } = arbitrageBacktest(config, candles, 0, 3, signals, {});
      expect(trades).to.have.length(0);
      expect(result).to.deep.include({ signals: 1, refusedSignals: 1, totalTrades: 0, finalBalance: 500 });
    });
  });

  describe('neural: walk-forward over the models as they were', function () {
    // A random walk; two models, trained at candle 300 and candle 600 closes; a fake scorer of the
    // features (the port: the workers' loads the stored models).
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const closes = Array.from({ length: 1000 }, () => 0).reduce<number[]>((acc) => [...acc, (acc.at(-1) ?? 100) * (1 + (random() - 0.5) * 0.01)], []);
    const at = (i: number) => new Date(T0 + (i + 1) * FIVE_MIN).toISOString();
    const models: StrategyModel[] = [
      { digest: 'aaaaaaaa1', owner: 'own', modelType: 'logistic_regression', trainedAt: at(300), asOf: at(299) },
      { digest: 'bbbbbbbb2', owner: 'own', modelType: 'neural_network', trainedAt: at(600), asOf: at(600) },
      { digest: 'hhhhhhhh3', owner: 'house', modelType: 'neural_network', trainedAt: at(900), asOf: at(900) },
    ];
    const scored: Array<{ digest: string; rows: number }> = [];
    const score = async (digest: string, x: Float64Array, rows: number) => {
      scored.push({ digest, rows });
      const sign = digest.startsWith('a') ? 1 : -1;
      return Float64Array.from({ length: rows }, (_, r) => 1 / (1 + Math.exp(-sign * 400 * x[r * FEATURE_COUNT]!)));
    };
    const configuration = { ...defaultConfiguration('neural'), confidenceThreshold: 55 };
    const run = async (series: number[]) => {
      const candles = candlesOf(series);
      const plan = await neuralPlan(candles, 100, 1000, models, score);
      return { ...neuralSignals('neural-network', configuration, candles, 100, 1000, plan), probability: plan.probability };
    };

    it('decides each candle by the latest model trained by its close (the user\'s before the house\'s), none before the first', async function () {
      expect(modelAt(models, Date.parse(at(299)))).to.equal(null);
      expect(modelAt(models, Date.parse(at(300)))!.digest).to.equal('aaaaaaaa1');
      expect(modelAt(models, Date.parse(at(599)))!.digest).to.equal('aaaaaaaa1');
      expect(modelAt(models, Date.parse(at(950)))!.digest, 'the user\'s own model before the house\'s').to.equal('bbbbbbbb2');
      expect(modelAt([models[2]!], Date.parse(at(950)))!.digest, 'the house model without one of theirs').to.equal('hhhhhhhh3');
      const { signals, modelOf } = await run(closes);
      expect(signals.length).to.be.greaterThan(10);
      expect(signals.every((s) => s.index >= 300), 'nothing before the first model').to.equal(true);
      for (let i = 100; i < 1000; i++) if (modelOf[i]) expect(Date.parse(modelOf[i]!.trainedAt)).to.be.at.most(T0 + (i + 1) * FIVE_MIN);
      expect(signals.filter((s) => s.index >= 600).every((s) => s.signal.data.reasons[0]!.startsWith('Your model bbbbbbbb'))).to.equal(true);
    });

    it('no look-ahead: changing the candles after t changes no decision at or before t', async function () {
      const before = await run(closes);
      for (const t of [350, 640]) {
        const changed = closes.map((x, i) => (i > t ? x * (1 + 0.02 * Math.sin(i)) : x));
        const after = await run(changed);
        const upTo = (r: typeof before) => r.signals.filter((s) => s.index <= t).map((s) => ({ i: s.index, type: s.signal.data.type, reasons: s.signal.data.reasons }));
        expect(upTo(after), `t = ${t}`).to.deep.equal(upTo(before));
        expect(Array.from(after.probability.subarray(0, t + 1))).to.deep.equal(Array.from(before.probability.subarray(0, t + 1)));
        expect(after.signals.filter((s) => s.index > t)).to.not.deep.equal(before.signals.filter((s) => s.index > t));
      }
    });
  });

  describe('through the engine on the simulated market', function () {
    const sim = new MarketSimulation(Uint32Array.from([19, 2, 2, 3, 4, 5, 6, 7]));
    const market = simulationMarket(sim);
    const period = { startDate: '2025-06-02T00:00:00.000Z', endDate: '2025-06-05T00:00:00.000Z', initialCapital: 10_000, symbol: 'ETH' as const };
    const rules = { profile: { ...DEFAULT_RISK_PROFILE, correlationLimit: 1, riskRewardRatio: 0.5 } };

    it('technical: the strategy\'s signals fill through the paper engine, its stop loss and take profit among them', async function () {
      const run = await runStrategyBacktest({ ...period, strategyId: 'rsi-technical', parameters: { rsiPeriod: 7, rsiOverbought: 65, stopLoss: 0.3, takeProfit: 0.3 } }, market, { rules });
      backtestResultSchema.parse(run.result);
      const ids = new Set(run.signals.map((s) => s.data.signalId));
      const bySignal = run.trades.filter((t) => t.signalId);
      expect(bySignal.length).to.be.greaterThan(5);
      for (const t of bySignal) expect(ids.has(t.signalId!), t.signalId).to.equal(true);
      const exits = run.signals.filter((s) => s.data.type === 'SELL').map((s) => s.data.reasons[0]!);
      expect(exits.some((r) => r.startsWith('Stop loss'))).to.equal(true);
      expect(exits.some((r) => r.startsWith('Take profit'))).to.equal(true);
      expect(run.result.notes!.join(' ')).to.match(/stop loss \(0.3% below the entry close\)/);
    });

    it('arbitrage: round trips between the simulated exchanges, the figures by the same conventions', async function () {
      const run = await runStrategyBacktest({ ...period, strategyId: 'cross-exchange-arbitrage', parameters: { minSpread: 0, maxPositionSize: 1000 } }, market, { rules });
      backtestResultSchema.parse(run.result);
      expect(run.result.signals).to.equal(run.signals.length).and.be.greaterThan(0);
      expect(run.trades.length).to.equal(2 * (run.result.signals - run.result.refusedSignals));
      const pnl = run.trades.reduce((a, t) => a + (t.pnl ?? 0), 0);
      expect(run.result.finalBalance).to.be.closeTo(10_000 + pnl, 0.01);
      expect(run.result.totalTrades).to.equal(run.result.signals - run.result.refusedSignals);
    });

    it('neural: without a model trained by the period\'s end nothing trades, and the result says why', async function () {
      const later: StrategyModel = { digest: 'cccccccc', owner: 'own', modelType: 'neural_network', trainedAt: '2025-07-01T00:00:00.000Z', asOf: '2025-07-01T00:00:00.000Z' };
      const port = { models: async () => [later], score: async () => { throw new Error('not scored'); } };
      const run = await runStrategyBacktest({ ...period, strategyId: 'neural-network', parameters: { ...defaultConfiguration('neural') } }, market, { rules, models: port });
      expect(run.trades).to.have.length(0);
      expect(run.result.notes!.join(' ')).to.match(/No model had been trained by the period's end/);
    });

    it('each SELL closes its coin\'s position: net return from the P&L over the cost, gross from the prices', function () {
      const trips = backtestRoundTrips([
        fill('SELL', '2024-01-03', 1, 110, 0.11, 9.79, 'BTC'), // nothing held: ignored
        fill('BUY', '2024-01-01', 1, 100, 0.1, null),
        fill('SELL', '2024-01-02', 1, 110, 0.11, 9.79),
      ]);
      expect(trips).to.deep.equal([{ entryPrice: 100, entryTime: '2024-01-01', exitPrice: 110, exitTime: '2024-01-02', grossReturn: 10, netReturn: Math.round((9.79 / 100.1) * 100 * 10000) / 10000 }]);
    });
  });
});
