/**
 * A strategy's backtest at its edges, by hand: how far back each type reads before the period, which
 * model decides a candle (the latest trained by its close, the user's before the house's, never one
 * whose data ends later) and what it is called, that each model scores exactly its own candles that
 * have features and that each model's signals start flat, and the arbitrage ledger: a round trip at
 * its candle's close, named by its signal, paid when the cash covers it exactly, with progress that
 * counts the period's candles.
 */
import { expect } from 'chai';
import { type Candles } from '../backtest/candles';
import { candlesOf, FIVE_MIN, T0 } from './strategy-candles.fixtures';
import { warmUpCandles } from '../backtest/strategies';
import { FEATURE_COUNT, FEATURE_WARMUP } from '../ml/features';
import type { ExchangeQuote } from './exchange-quotes';
import type { ArbitrageConfiguration, NeuralConfiguration } from './strategy-catalogue';
import {
  arbitrageBacktest,
  arbitrageInputs,
  modelAt,
  neuralInputs,
  neuralPlan,
  neuralProbabilities,
  neuralSignals,
  strategySignalsOver,
  strategyWarmUpCandles,
  type StrategyBacktestConfig,
  type StrategyModel,
} from './strategy-backtest';

const iso = (ms: number) => new Date(ms).toISOString();
/** A zigzag that never repeats a return: closes 100 · (1 + 0.003 · sin(i)) compounded. */
const zigzag = (n: number) => Array.from({ length: n }, () => 0).reduce<number[]>((acc, _, i) => [...acc, (acc.at(-1) ?? 100) * (1 + 0.003 * Math.sin(i + 1))], []);
/** The close of candle i (ISO), the time a model must be trained by to decide it. */
const closeOf = (i: number) => iso(T0 + (i + 1) * FIVE_MIN);
const model = (digest: string, owner: 'own' | 'house', trainedAt: string, asOf = trainedAt): StrategyModel => ({ digest, owner, modelType: 'neural_network', trainedAt, asOf });
const neural: NeuralConfiguration = { learningRate: 0.001, epochs: 100, confidenceThreshold: 60 };

describe('strategy backtest at its edges', function () {
  describe('warm-up: each type reads what live had before the period\'s first candle', function () {
    it('technical: as the catalogue\'s RSI strategy of the same period (its own period, 14 if none)', function () {
      expect(strategyWarmUpCandles('technical', { rsiPeriod: 21, rsiOverbought: 70, stopLoss: 2, takeProfit: 4 })).to.equal(warmUpCandles('rsi-mean-reversion', { rsiPeriod: 21 }));
      // Wilder's recursion seeded 40 periods back: 40 × 21 + 2.
      expect(strategyWarmUpCandles('technical', { rsiPeriod: 21 })).to.equal(842);
      expect(strategyWarmUpCandles('technical', {})).to.equal(40 * 14 + 2);
    });

    it('neural: as the features\' MACD (26, 9); arbitrage: a full basis window of returns', function () {
      expect(strategyWarmUpCandles('neural', { learningRate: 0.001, epochs: 100, confidenceThreshold: 60 })).to.equal(warmUpCandles('macd-momentum', { slowPeriod: 26, signalPeriod: 9 }));
      expect(strategyWarmUpCandles('neural', {})).to.equal(40 * (26 + 9) + 2);
      // 200 returns need 201 closes.
      expect(strategyWarmUpCandles('arbitrage', { minSpread: 0.5, maxPositionSize: 1000 })).to.equal(201);
    });
  });

  describe('which model decides a candle', function () {
    it('the user\'s latest trained by the close, whatever order the models come in', function () {
      const older = model('own-older', 'own', closeOf(10));
      const newer = model('own-newer', 'own', closeOf(20));
      const later = model('own-later', 'own', closeOf(40));
      expect(modelAt([newer, older, later], Date.parse(closeOf(30)))!.digest).to.equal('own-newer');
      expect(modelAt([older, later, newer], Date.parse(closeOf(30)))!.digest).to.equal('own-newer');
      expect(modelAt([newer, older], Date.parse(closeOf(15)))!.digest).to.equal('own-older');
    });

    it('without one of the user\'s, the house\'s latest trained by the close, whatever the order', function () {
      const older = model('house-older', 'house', closeOf(10));
      const newer = model('house-newer', 'house', closeOf(20));
      const later = model('house-later', 'house', closeOf(40));
      expect(modelAt([newer, older, later], Date.parse(closeOf(30)))!.digest).to.equal('house-newer');
      expect(modelAt([later, newer, older], Date.parse(closeOf(30)))!.digest).to.equal('house-newer');
    });

    it('never a model whose data ends after the close, even one stamped as trained before it', function () {
      const house = model('house', 'house', closeOf(5));
      const skewed = model('own-skewed', 'own', closeOf(10), closeOf(12));
      expect(modelAt([skewed, house], Date.parse(closeOf(11)))!.digest, 'its data reaches candle 12').to.equal('house');
      expect(modelAt([skewed, house], Date.parse(closeOf(12)))!.digest).to.equal('own-skewed');
    });

    it('its signals name it: "Your model" or "House model" and the first 8 characters of its digest', function () {
      const close = Float64Array.from([100, 101, 102]);
      const probability = Float64Array.from([0.7, 0.7, 0.7]);
      const own = model('0123456789abcdef', 'own', closeOf(0));
      const house = model('fedcba9876543210', 'house', closeOf(0));
      const inputs = neuralInputs(neural, close, probability, [null, own, house]);
      expect(inputs(0)).to.equal(null);
      expect(inputs(1)).to.deep.equal({ strategyType: 'neural', configuration: neural, probabilityUp: 0.7, close: 101, model: 'Your model 01234567' });
      expect(inputs(2)).to.deep.include({ model: 'House model fedcba98' });
    });
  });

  describe('each model scores its own candles, once they have features', function () {
    const closes = zigzag(120);
    const candles = candlesOf(closes);
    // The first feature (ml/features.ts) is the candle's log return: a scorer of it, by hand.
    const scoreOf = (calls: Array<{ digest: string; rows: number }>) => async (digest: string, x: Float64Array, rows: number) => {
      calls.push({ digest, rows });
      expect(x.length).to.equal(rows * FEATURE_COUNT);
      return Float64Array.from({ length: rows }, (_, r) => 0.5 + 10 * x[r * FEATURE_COUNT]!);
    };

    it('the probability of each candle in the period is its model\'s of its own features; NaN before features and outside the period', async function () {
      const calls: Array<{ digest: string; rows: number }> = [];
      const m = model('m-1', 'own', iso(T0 - FIVE_MIN));
      const { probability, modelOf } = await neuralProbabilities(candles, 30, 100, [m], scoreOf(calls));
      // Features start FEATURE_WARMUP candles in (50, after the period's first candle 30): candles from
      // there to 99 are scored, in one batch.
      expect(calls).to.deep.equal([{ digest: 'm-1', rows: 100 - FEATURE_WARMUP }]);
      for (let i = 0; i < 120; i++) {
        if (i >= FEATURE_WARMUP && i < 100) expect(probability[i], `candle ${i}`).to.be.closeTo(0.5 + 10 * Math.log(closes[i]! / closes[i - 1]!), 1e-12);
        else expect(probability[i], `candle ${i}`).to.be.NaN;
      }
      expect(modelOf).to.have.length(120);
      expect(modelOf.slice(30, 100).every((x) => x === m)).to.equal(true);
      expect(modelOf.slice(0, 30).concat(modelOf.slice(100)).every((x) => x === null)).to.equal(true);
    });

    it('two models, each its own candles in one batch; the plan covers every candle (-1 where no model)', async function () {
      const calls: Array<{ digest: string; rows: number }> = [];
      const a = model('m-a', 'own', iso(T0 - FIVE_MIN));
      const b = model('m-b', 'own', closeOf(79));
      const plan = await neuralPlan(candles, 60, 110, [a, b], scoreOf(calls));
      // Every candle from 60 has features (FEATURE_WARMUP is 50): a decides candles 60 to 78, b
      // (trained at candle 79's close) 79 to 109.
      expect(FEATURE_WARMUP).to.be.at.most(60);
      expect(calls).to.have.deep.members([{ digest: 'm-a', rows: 19 }, { digest: 'm-b', rows: 31 }]);
      expect(plan.modelIndex).to.have.length(120);
      const expected = Array.from({ length: 120 }, (_, i) => (i < 60 || i >= 110 ? -1 : i < 79 ? 0 : 1));
      expect(Array.from(plan.modelIndex)).to.deep.equal(expected);
    });

    it('candles too few for any features are not scored at all', async function () {
      const short = candlesOf(zigzag(FEATURE_WARMUP - 5));
      const m = model('m-1', 'own', iso(T0 - FIVE_MIN));
      const { probability, modelOf } = await neuralProbabilities(short, 0, short.length, [m], async () => {
        throw new Error('nothing to score');
      });
      expect(Array.from(probability).every((p) => Number.isNaN(p))).to.equal(true);
      expect(modelOf.every((x) => x === m)).to.equal(true);
    });
  });

  it('neural: each model is its own signal stream (its digest in the key), so a new model starts flat', function () {
    const candles = candlesOf(zigzag(10));
    const a = model('aaaaaaaa-first', 'own', iso(T0));
    const b = model('bbbbbbbb-second', 'own', closeOf(5));
    // P(up) 0.9 throughout: model a buys at candle 1 and stays long; model b, from candle 5, is flat
    // in its own stream and buys too.
    const plan = { models: [a, b], modelIndex: Int32Array.from({ length: 10 }, (_, i) => (i < 5 ? 0 : 1)), probability: new Float64Array(10).fill(0.9) };
    const { signals } = neuralSignals('neural-network', neural, candles, 1, 10, plan);
    const key = 'neural|confidenceThreshold=60|epochs=100|learningRate=0.001';
    expect(signals.map((s) => [s.index, s.signal.data.type, s.signal.data.configKey])).to.deep.equal([
      [1, 'BUY', `${key}|model=aaaaaaaa-first`],
      [5, 'BUY', `${key}|model=bbbbbbbb-second`],
    ]);
    expect(signals[0]!.signal.data.reasons[0]).to.match(/^Your model aaaaaaaa gives an up candle 90.0%/);
  });

  describe('arbitrage: the round trips\' ledger', function () {
    const quotes: ExchangeQuote[] = [
      { exchange: 'binance', price: 100, basis: 0 },
      { exchange: 'kraken', price: 101, basis: 0.01 },
    ];
    const c: ArbitrageConfiguration = { minSpread: 0.5, maxPositionSize: 1000 };
    const configOf = (initialCapital: number, candles: number): StrategyBacktestConfig => ({ strategyId: 'cross-exchange-arbitrage', symbol: 'ETH', startDate: iso(T0), endDate: iso(T0 + candles * FIVE_MIN), initialCapital, parameters: { ...c } });
    const signalsAt = (candles: Candles, indexes: number[]) => strategySignalsOver('cross-exchange-arbitrage', candles, 0, candles.length, (i) => (indexes.includes(i) ? { strategyType: 'arbitrage', configuration: c, quotes, close: 100 } : null));

    it('the second close of the history already has quotes: a jump there is a round trip at once', function () {
      // Closes 100 then 110 (r = ln 1.1): Coinbase's basis −0.2·r puts it at 107.90, Binance's 0.25·r
      // at 112.62; bought on Coinbase (0.5 %), sold on Binance (0.1 %): about 3.75 % net.
      const candles = candlesOf([100, 110]);
      const close = candles.close.subarray(0, 2);
      const inputsAt = arbitrageInputs({ minSpread: 3, maxPositionSize: 1000 }, close);
      expect(inputsAt(0), 'one close: nothing to quote').to.equal(null);
      const signals = strategySignalsOver('cross-exchange-arbitrage', candles, 0, 2, inputsAt);
      expect(signals.map((s) => [s.index, s.signal.data.type])).to.deep.equal([[1, 'ARBITRAGE']]);
      expect(signals[0]!.signal.data.reasons[0]).to.match(/^Buy on coinbase at 107.90, sell on binance at 112.62/);
      const r = Math.log(1.1);
      expect(signals[0]!.signal.data.arbitrage!.netSpread).to.be.closeTo((((1 + 0.25 * r) * 0.999) / ((1 - 0.2 * r) * 1.005) - 1) * 100, 1e-4);
    });

    it('each round trip fills at its own candle\'s close, both legs named by its signal and saying where and at what fee', function () {
      const candles = candlesOf([100, 100, 100, 100, 100]);
      const signals = signalsAt(candles, [2, 3]);
      expect(signals.map((s) => s.index)).to.deep.equal([2, 3]);
      const { result, trades } = arbitrageBacktest(configOf(5000, 5), candles, 0, 5, signals, {});
      expect(trades.map((t) => [t.side, t.time])).to.deep.equal([
        ['BUY', iso(T0 + 3 * FIVE_MIN)],
        ['SELL', iso(T0 + 3 * FIVE_MIN)],
        ['BUY', iso(T0 + 4 * FIVE_MIN)],
        ['SELL', iso(T0 + 4 * FIVE_MIN)],
      ]);
      const first = signals[0]!.signal.data;
      expect(first.signalId).to.equal(`cross-exchange-arbitrage:ETH@${iso(T0 + 2 * FIVE_MIN)}`);
      expect(trades[0]).to.deep.include({ tradeId: `${first.signalId}:buy`, signalId: first.signalId, rule: `Bought on binance (fee 0.1%): ${first.reasons[0]}` });
      expect(trades[1]).to.deep.include({ tradeId: `${first.signalId}:sell`, signalId: first.signalId, rule: `Sold on kraken (fee 0.26%): ${first.reasons[0]}` });
      expect(first.reasons[0]).to.match(/^Buy on binance at 100.00, sell on kraken at 101.00/);
      expect(result).to.deep.include({ signals: 2, refusedSignals: 0, fills: 4 });
    });

    it('a round trip that costs exactly the cash there is, is paid', function () {
      const candles = candlesOf([100, 100, 100]);
      const { result, trades } = arbitrageBacktest(configOf(1000, 3), candles, 0, 3, signalsAt(candles, [1]), {});
      expect(trades).to.have.length(2);
      expect(result).to.deep.include({ signals: 1, refusedSignals: 0 });
      // 1000 USD buys 1000 / 100.1 ETH on Binance, sold on Kraken at 101 × 0.9974.
      expect(result.finalBalance).to.be.closeTo(1000 + 1000 * ((101 * 0.9974) / 100.1 - 1), 0.005);
    });

    it('progress is the share of the period\'s candles done, every 4096 candles, then 1 once', function () {
      const candles = candlesOf(Array.from({ length: 8212 }, () => 100));
      const seen: number[] = [];
      // Candles 10 to 8201: 8192 of them, reported at 0 and 4096 done, then the end.
      arbitrageBacktest(configOf(1000, 8202), candles, 10, 8202, [], { onProgress: (f) => seen.push(f) });
      expect(seen).to.deep.equal([0, 0.5, 1]);
    });
  });
});
