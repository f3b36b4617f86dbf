/**
 * A strategy's backtest, more edges by hand: the technical inputs from the second close on (RSI once
 * the live engine has it), the house model's latest whatever the order, candles without a model in the
 * neural plan, the arbitrage ledger's notes and signals that are not round trips, the round trips of a
 * backtest's fills (partial sales, positions opened again, fills in any order, sales that close
 * nothing), and the user's own trade ids on the engine's fills.
 */
import { expect } from 'chai';
import type { BacktestTrade } from '../backtest/contracts';
import { candlesOf, FIVE_MIN, T0 } from './strategy-candles.fixtures';
import { simulationMarket } from '../backtest/market';
import { MarketSimulation } from '../market/simulation';
import { DEFAULT_RISK_PROFILE } from '../trading/contracts';
import { tradeIdFor } from '../trading/bot-trade-decision';
import type { ExchangeQuote } from './exchange-quotes';
import type { ArbitrageConfiguration, NeuralConfiguration, TechnicalConfiguration } from './strategy-catalogue';
import {
  arbitrageBacktest,
  backtestRoundTrips,
  modelAt,
  neuralSignals,
  runStrategyBacktest,
  strategySignalsOver,
  technicalInputs,
  type StrategyBacktestConfig,
  type StrategyModel,
  type StrategyModelPort,
} from './strategy-backtest';
import type { StrategySignalGenerated } from './strategy-signals';

const iso = (ms: number) => new Date(ms).toISOString();
const model = (digest: string, owner: 'own' | 'house', trainedAt: string): StrategyModel => ({ digest, owner, modelType: 'neural_network', trainedAt, asOf: trainedAt });
const day = (d: number) => `2024-01-0${d}T00:00:00.000Z`;
const fill = (side: 'BUY' | 'SELL', time: string, amount: number, price: number, fee: number, pnl: number | null): BacktestTrade =>
  ({ tradeId: `${side}@${time}`, time, side, symbol: 'ETH', amount, price, fee, pnl, reason: 'SIGNAL', execution: { mid: price, halfSpread: 0, impact: 0, filledAt: time, intendedAt: null, delayMs: null, level: null } }) as BacktestTrade;

describe('strategy backtest: more edges', function () {
  describe('technical inputs', function () {
    const c: TechnicalConfiguration = { rsiPeriod: 3, rsiOverbought: 70, stopLoss: 2, takeProfit: 4 };

    it('every candle from the second has inputs; RSI(3) by Wilder\'s averages once there are more than 4 closes', function () {
      // Changes +1, +1, −1, +1. At candle 3: average gain 2/3, loss 1/3, RSI 100 · (2/3) / 1 = 66.67.
      // At candle 4: gain (2/3 · 2 + 1) / 3 = 7/9, loss (1/3 · 2) / 3 = 2/9, RSI 77.78.
      const inputs = technicalInputs(c, Float64Array.from([10, 11, 12, 11, 12]));
      expect(inputs(0), 'one close: nothing to evaluate').to.equal(null);
      expect(inputs(1)).to.deep.equal({ strategyType: 'technical', configuration: c, rsi: Number.NaN, previousRsi: Number.NaN, close: 11 });
      const last = inputs(4)!;
      expect(last).to.deep.include({ strategyType: 'technical', configuration: c, close: 12 });
      if (last.strategyType !== 'technical') throw new Error('technical inputs expected');
      expect(last.rsi).to.be.closeTo(700 / 9, 1e-9);
      expect(last.previousRsi).to.be.closeTo(200 / 3, 1e-9);
    });

    it('with only rsiPeriod + 1 closes there is no RSI yet, as the live engine reads it', function () {
      const inputs = technicalInputs(c, Float64Array.from([10, 11, 12, 11]));
      expect(inputs(3)).to.deep.equal({ strategyType: 'technical', configuration: c, rsi: Number.NaN, previousRsi: Number.NaN, close: 11 });
    });
  });

  it('without one of the user\'s models, the house\'s latest trained by the close, listed after an older one', function () {
    const older = model('house-older', 'house', iso(T0));
    const newer = model('house-newer', 'house', iso(T0 + 10 * FIVE_MIN));
    expect(modelAt([older, newer], T0 + 20 * FIVE_MIN)).to.equal(newer);
    expect(modelAt([newer, older], T0 + 20 * FIVE_MIN)).to.equal(newer);
  });

  it('neural: candles the plan gives no model have none (null), and are not evaluated', function () {
    const candles = candlesOf([100, 101, 102, 103], () => 1000);
    const a = model('aaaaaaaa-1', 'own', iso(T0));
    const neural: NeuralConfiguration = { learningRate: 0.001, epochs: 100, confidenceThreshold: 60 };
    const plan = { models: [a], modelIndex: Int32Array.from([-1, 0, 0, -1]), probability: new Float64Array(4).fill(0.9) };
    const { signals, modelOf } = neuralSignals('neural-network', neural, candles, 0, 4, plan);
    expect(modelOf).to.deep.equal([null, a, a, null]);
    // P(up) 90 %: flat at candle 1 it buys; long at candle 2, P(down) 10 % does not sell.
    expect(signals.map((s) => [s.index, s.signal.data.type])).to.deep.equal([[1, 'BUY']]);
  });

  describe('arbitrage ledger', function () {
    const quotes: ExchangeQuote[] = [
      { exchange: 'binance', price: 100, basis: 0 },
      { exchange: 'kraken', price: 101, basis: 0.01 },
    ];
    const c: ArbitrageConfiguration = { minSpread: 0.5, maxPositionSize: 1000 };
    const config: StrategyBacktestConfig = { strategyId: 'cross-exchange-arbitrage', symbol: 'ETH', startDate: iso(T0), endDate: iso(T0 + 4 * FIVE_MIN), initialCapital: 5000, parameters: { ...c } };

    it('a signal that is not a round trip is neither filled nor counted; the notes say how the round trips were made', function () {
      const candles = candlesOf([100, 100, 100, 100], () => 1000);
      const arbitrage = strategySignalsOver('cross-exchange-arbitrage', candles, 0, 4, (i) => (i === 2 ? { strategyType: 'arbitrage', configuration: c, quotes, close: 100 } : null));
      expect(arbitrage.map((s) => s.index)).to.deep.equal([2]);
      const buy: StrategySignalGenerated = {
        type: 'StrategySignalGenerated',
        data: { signalId: 'buy-1', configId: 'c', configKey: 'k', strategyType: 'technical', symbol: 'ETH', type: 'BUY', price: 100, confidence: 80, candleTime: iso(T0 + FIVE_MIN), reasons: ['not a round trip'], trade: null, arbitrage: null },
      };
      const { result, trades } = arbitrageBacktest(config, candles, 0, 4, [{ index: 1, signal: buy }, ...arbitrage], {});
      expect(trades.map((t) => [t.side, t.exchange, t.signalId])).to.deep.equal([
        ['BUY', 'binance', arbitrage[0]!.signal.data.signalId],
        ['SELL', 'kraken', arbitrage[0]!.signal.data.signalId],
      ]);
      expect({ fills: result.fills, signals: result.signals, refusedSignals: result.refusedSignals, notes: result.notes }).to.deep.equal({
        fills: 2,
        signals: 1,
        refusedSignals: 0,
        notes: [
          'Exchange quotes are simulated from the market’s price: the reference price plus a small mean-reverting basis per exchange (the live strategy’s quotes).',
          'Each time the best pair’s spread net of both exchanges’ fees exceeded 0.5%, a round trip of 1000 USD: bought on the cheaper exchange and sold on the dearer one at that close’s quotes, each leg paying its exchange’s fee; no coin is held between them.',
          'A round trip the cash could not pay for was refused.',
        ],
      });
    });
  });

  describe('the round trips of a backtest\'s fills', function () {
    it('a partial sale closes its share of the position\'s cost; a position sold out and bought again starts afresh; fills in any order', function () {
      // Bought 2 at 100 (fee 0.2: cost 200.2). Sold 1 at 110: half the cost, 100.1, P&L 10.01 (10 %).
      // Sold the other at 120: the other 100.1, P&L 20.02 (20 %). Bought 1 at 90 on day 4 (cost 90.09),
      // sold at 99 on day 5, P&L 9.009 (10 %).
      const fills = [
        fill('SELL', day(3), 1, 120, 0.12, 20.02),
        fill('BUY', day(4), 1, 90, 0.09, null),
        fill('SELL', day(2), 1, 110, 0.11, 10.01),
        fill('SELL', day(5), 1, 99, 0.099, 9.009),
        fill('BUY', day(1), 2, 100, 0.2, null),
      ];
      expect(backtestRoundTrips(fills)).to.deep.equal([
        { entryPrice: 100, entryTime: day(1), exitPrice: 110, exitTime: day(2), grossReturn: 10, netReturn: 10 },
        { entryPrice: 100, entryTime: day(1), exitPrice: 120, exitTime: day(3), grossReturn: 20, netReturn: 20 },
        { entryPrice: 90, entryTime: day(4), exitPrice: 99, exitTime: day(5), grossReturn: 10, netReturn: 10 },
      ]);
    });

    it('a SELL without a P&L, or against a position of no coins, closes nothing', function () {
      // The SELL of day 2 has no P&L: the position bought on day 1 stays open for day 3's (P&L 5.005 on 100.1: 5 %).
      expect(backtestRoundTrips([fill('BUY', day(1), 1, 100, 0.1, null), fill('SELL', day(2), 1, 110, 0.11, null), fill('SELL', day(3), 1, 105, 0.105, 5.005)])).to.deep.equal([
        { entryPrice: 100, entryTime: day(1), exitPrice: 105, exitTime: day(3), grossReturn: 5, netReturn: 5 },
      ]);
      expect(backtestRoundTrips([fill('BUY', day(1), 0, 100, 0, null), fill('SELL', day(2), 1, 110, 0.11, 9.89)])).to.deep.equal([]);
    });
  });

  describe('through the engine', function () {
    let market: ReturnType<typeof simulationMarket>;
    before(function () {
      market = simulationMarket(new MarketSimulation(Uint32Array.from([19, 2, 2, 3, 4, 5, 6, 7])));
    });

    it('the fills of the signals carry the bot\'s trade ids for the user the backtest is run for', async function () {
      this.timeout(20_000);
      const start = Date.parse('2025-06-02T00:00:00.000Z');
      const house: StrategyModel = { digest: '9876543210fedcba', owner: 'house', modelType: 'logistic_regression', trainedAt: '2025-06-01T00:00:00.000Z', asOf: '2025-05-31T23:55:00.000Z' };
      // Up, down, up, ... by row: a BUY then a SELL, and so on.
      const port: StrategyModelPort = { models: async () => [house], score: async (_digest, _x, rows) => Float64Array.from({ length: rows }, (_, r) => (r % 2 === 0 ? 0.9 : 0.1)) };
      const config: StrategyBacktestConfig = { strategyId: 'neural-network', symbol: 'ETH', startDate: iso(start), endDate: iso(start + 24 * FIVE_MIN), initialCapital: 10_000, parameters: { learningRate: 0.001, epochs: 100, confidenceThreshold: 60 } };
      const rules = { profile: { ...DEFAULT_RISK_PROFILE, correlationLimit: 1, riskRewardRatio: 0.5 } };
      const run = await runStrategyBacktest(config, market, { rules, models: port, userId: 'u-42' });
      const bySignal = run.trades.filter((t) => t.signalId !== undefined);
      expect(bySignal.length).to.be.greaterThan(1);
      expect(bySignal.map((t) => t.tradeId)).to.deep.equal(bySignal.map((t) => tradeIdFor(t.signalId!, 'u-42')));
    });
  });
});
