/**
 * The strategy signal stream at its edges, by hand: the stream's state after each kind of signal, the
 * technical rule's strict and inclusive thresholds (oversold and overbought entered, stop loss and take
 * profit reached exactly), its confidences, the neural rule at exactly its threshold and without a
 * probability, and arbitrage at exactly its minimum spread.
 */
import { expect } from 'chai';
import { exchangeFeeRate } from '../exchanges/exchanges';
import { defaultConfiguration, type NeuralConfiguration, type TechnicalConfiguration } from './strategy-catalogue';
import {
  evolveStrategySignal,
  initialStrategySignalState,
  strategySignalDecider,
  type EvaluateStrategy,
  type StrategyInputs,
  type StrategySignalEvent,
  type StrategySignalState,
} from './strategy-signals';

const T1 = '2026-03-04T10:00:00.000Z';
const T2 = '2026-03-04T10:05:00.000Z';
const T3 = '2026-03-04T10:10:00.000Z';
const tech: TechnicalConfiguration = { rsiPeriod: 14, rsiOverbought: 70, stopLoss: 2, takeProfit: 4 };
const evaluate = (inputs: StrategyInputs, candleTime = T2): EvaluateStrategy => ({
  type: 'EvaluateStrategy',
  data: { signalId: `s-${candleTime}`, configId: 'c1', configKey: 'k', symbol: 'ETH', candleTime, inputs },
});
const technical = (rsi: number, previousRsi: number, close: number, configuration: TechnicalConfiguration = tech): StrategyInputs => ({ strategyType: 'technical', configuration, rsi, previousRsi, close });
const event = (type: 'BUY' | 'SELL' | 'ARBITRAGE', price: number, candleTime: string): StrategySignalEvent => ({
  type: 'StrategySignalGenerated',
  data: { signalId: `s-${candleTime}`, configId: 'c1', configKey: 'k', strategyType: type === 'ARBITRAGE' ? 'arbitrage' : 'technical', symbol: 'ETH', type, price, confidence: 75, candleTime, reasons: [], trade: null, arbitrage: null },
});
const flat = (): StrategySignalState => ({ lastCandleTime: T1, position: null });
const longAt = (entryPrice: number): StrategySignalState => ({ lastCandleTime: T1, position: { entryPrice, entryTime: T1 } });
const decide = (command: EvaluateStrategy, state: StrategySignalState) => strategySignalDecider.decide(command, state);
/** The signal's kind and confidence, or null when nothing is signalled. */
const outcome = (command: EvaluateStrategy, state: StrategySignalState) => {
  const events = decide(command, state);
  expect(events.length).to.be.at.most(1);
  return events[0] ? { type: events[0].data.type, confidence: events[0].data.confidence } : null;
};

describe('strategy signals at their edges', function () {
  describe('the stream\'s state', function () {
    it('a new stream is flat and has evaluated no candle yet', function () {
      expect(initialStrategySignalState()).to.deep.equal({ lastCandleTime: null, position: null });
      expect(strategySignalDecider.initialState()).to.deep.equal({ lastCandleTime: null, position: null });
    });

    it('a BUY opens a position at its price and candle; a SELL leaves the stream flat, remembering its candle', function () {
      const bought = evolveStrategySignal(initialStrategySignalState(), event('BUY', 2000, T1));
      expect(bought).to.deep.equal({ lastCandleTime: T1, position: { entryPrice: 2000, entryTime: T1 } });
      expect(evolveStrategySignal(bought, event('SELL', 2100, T2))).to.deep.equal({ lastCandleTime: T2, position: null });
    });

    it('an ARBITRAGE round trip (bought and sold at once) only moves the last candle on, leaving any position as it was', function () {
      expect(evolveStrategySignal(initialStrategySignalState(), event('ARBITRAGE', 2000, T1))).to.deep.equal({ lastCandleTime: T1, position: null });
      expect(evolveStrategySignal(longAt(1900), event('ARBITRAGE', 2000, T2))).to.deep.equal({ lastCandleTime: T2, position: { entryPrice: 1900, entryTime: T1 } });
    });

    it('after a SELL or an ARBITRAGE signal, the same candle evaluated again appends nothing', function () {
      const afterSell = evolveStrategySignal(longAt(2000), event('SELL', 1900, T2));
      expect(decide(evaluate(technical(25, 31, 1900), T2), afterSell)).to.deep.equal([]);
      const afterArbitrage = evolveStrategySignal(initialStrategySignalState(), event('ARBITRAGE', 2000, T2));
      expect(decide(evaluate(technical(25, 31, 1900), T2), afterArbitrage)).to.deep.equal([]);
      // The next candle is evaluated.
      expect(outcome(evaluate(technical(25, 31, 1900), T3), afterSell)).to.deep.equal({ type: 'BUY', confidence: 75 });
    });
  });

  describe('technical', function () {
    it('flat: RSI must go strictly below oversold (100 − 70 = 30), from at or above it the candle before', function () {
      expect(outcome(evaluate(technical(30, 31, 2000)), flat()), 'RSI at 30 is not below it').to.equal(null);
      // From exactly 30 to 25: it entered oversold; confidence 50 + 5 per point below 30.
      expect(outcome(evaluate(technical(25, 30, 2000)), flat())).to.deep.equal({ type: 'BUY', confidence: 75 });
    });

    it('a BUY\'s confidence is 50 plus 5 per RSI point below oversold, at most 100', function () {
      expect(outcome(evaluate(technical(28, 40, 2000)), flat())).to.deep.equal({ type: 'BUY', confidence: 60 });
      expect(outcome(evaluate(technical(29.5, 40, 2000)), flat())).to.deep.equal({ type: 'BUY', confidence: 52.5 });
      expect(outcome(evaluate(technical(10, 40, 2000)), flat()), '50 + 100, capped').to.deep.equal({ type: 'BUY', confidence: 100 });
    });

    it('long: RSI must go strictly above overbought (70), from at or below it the candle before', function () {
      expect(outcome(evaluate(technical(70, 69, 2010)), longAt(2000)), 'RSI at 70 is not above it').to.equal(null);
      expect(outcome(evaluate(technical(72, 71, 2010)), longAt(2000)), 'already overbought the candle before').to.equal(null);
      // From exactly 70 to 72: entered; confidence 50 + 5 per point above 70.
      expect(outcome(evaluate(technical(72, 70, 2010)), longAt(2000))).to.deep.equal({ type: 'SELL', confidence: 60 });
    });

    it('an overbought SELL\'s confidence is 50 plus 5 per RSI point above overbought, at most 100', function () {
      expect(outcome(evaluate(technical(71, 60, 2010)), longAt(2000))).to.deep.equal({ type: 'SELL', confidence: 55 });
      expect(outcome(evaluate(technical(95, 60, 2010)), longAt(2000)), '50 + 125, capped').to.deep.equal({ type: 'SELL', confidence: 100 });
    });

    it('the stop loss sells at a close exactly stopLoss % below the entry, the take profit exactly takeProfit % above', function () {
      // 1500 / 1600 = 0.9375 and 1700 / 1600 = 1.0625: exactly 6.25 % either way.
      const c: TechnicalConfiguration = { ...tech, stopLoss: 6.25, takeProfit: 6.25 };
      const stop = decide(evaluate(technical(50, 50, 1500, c)), longAt(1600));
      expect(stop.map((e) => [e.data.type, e.data.confidence, e.data.reasons[0]!.split(':')[0]])).to.deep.equal([['SELL', 100, 'Stop loss']]);
      const target = decide(evaluate(technical(50, 50, 1700, c)), longAt(1600));
      expect(target.map((e) => [e.data.type, e.data.confidence, e.data.reasons[0]!.split(':')[0]])).to.deep.equal([['SELL', 100, 'Take profit']]);
      // A cent inside either level: nothing.
      expect(outcome(evaluate(technical(50, 50, 1500.01, c)), longAt(1600))).to.equal(null);
      expect(outcome(evaluate(technical(50, 50, 1699.99, c)), longAt(1600))).to.equal(null);
    });

    it('without both RSI values (still warming up) nothing is decided, not even the stops', function () {
      // Long at 2000, the close 10 % down, far past the 2 % stop.
      expect(outcome(evaluate(technical(Number.NaN, 40, 1800)), longAt(2000))).to.equal(null);
      expect(outcome(evaluate(technical(40, Number.NaN, 1800)), longAt(2000))).to.equal(null);
      expect(outcome(evaluate(technical(40, 41, 1800)), longAt(2000))).to.deep.equal({ type: 'SELL', confidence: 100 });
    });
  });

  describe('neural', function () {
    const c: NeuralConfiguration = { ...defaultConfiguration('neural'), confidenceThreshold: 75 };
    const neural = (probabilityUp: number): StrategyInputs => ({ strategyType: 'neural', configuration: c, probabilityUp, close: 2000, model: 'House model 1a2b3c4d' });

    it('long, P(down) exactly at the threshold sells', function () {
      // P(up) 0.25: P(down) 75 %, the threshold.
      expect(outcome(evaluate(neural(0.25)), longAt(1900))).to.deep.equal({ type: 'SELL', confidence: 75 });
      expect(outcome(evaluate(neural(0.2578125)), longAt(1900)), 'P(down) 74.22 %').to.equal(null);
    });

    it('a probability that is not a number (NaN or infinite) decides nothing', function () {
      expect(outcome(evaluate(neural(Number.NaN)), flat())).to.equal(null);
      expect(outcome(evaluate(neural(Number.POSITIVE_INFINITY)), flat())).to.equal(null);
      expect(outcome(evaluate(neural(Number.NEGATIVE_INFINITY)), longAt(1900))).to.equal(null);
    });
  });

  describe('arbitrage', function () {
    it('a net spread exactly equal to minSpread does not trade: it must exceed it', function () {
      // Binance at 2000, Kraken at 2020: bought on Binance, sold on Kraken, net of both fees.
      const quotes = [{ exchange: 'binance' as const, price: 2000, basis: 0 }, { exchange: 'kraken' as const, price: 2020, basis: 0 }];
      const net = ((2020 * (1 - exchangeFeeRate('kraken'))) / (2000 * (1 + exchangeFeeRate('binance'))) - 1) * 100;
      const arbitrage = (minSpread: number): StrategyInputs => ({ strategyType: 'arbitrage', configuration: { minSpread, maxPositionSize: 1000 }, quotes, close: 2000 });
      expect(outcome(evaluate(arbitrage(net)), initialStrategySignalState())).to.equal(null);
      expect(outcome(evaluate(arbitrage(net - 1e-9)), initialStrategySignalState())).to.deep.equal({ type: 'ARBITRAGE', confidence: 100 });
    });
  });
});
