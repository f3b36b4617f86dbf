/**
 * The card's figures at their edges, by hand: which paper round trips count for an activation period
 * (candles closing exactly at its start and end, an open period, several periods), their order, when
 * the latest backtest is measured instead (exactly 20 paper trades, a backtest no longer than the
 * paper), the card's defaults and the performance summary, and the figures' conventions at zero
 * returns, without a loss and without any spread of returns.
 */
import { expect } from 'chai';
import { configKey, defaultConfiguration, strategyInfo } from './strategy-catalogue';
import { strategyFigures } from './strategy-figures';
import { NOT_ENOUGH_TRADES, roundTripsIn, strategyCard, strategyPerformance } from './strategy-read';
import type { StrategyRoundTrip } from './strategy-signals';
import type { StrategySignalView } from './strategy-view';

const key = configKey('technical', defaultConfiguration('technical'));
const T0 = Date.UTC(2026, 0, 1);
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const ms = (minutes: number) => T0 + minutes * 60_000;
/** A SELL (or, with entry = exit, an arbitrage round trip) whose entry candle opened at `entryMin` and exit candle at `exitMin` (5-minute candles). */
const signal = (id: string, entryMin: number, exitMin: number, netReturn: number, strategyKey = key): StrategySignalView => ({
  signalId: id, configId: 'c', configKey: strategyKey, strategyKey, strategyType: 'technical', symbol: 'ETH', type: 'SELL', price: 1, confidence: 60,
  candleTime: at(exitMin), candleTimeMs: ms(exitMin), closedAtMs: ms(exitMin + 5), reasons: ['why'], hasTrade: true, arbitrage: null,
  trade: { entryPrice: 1, entryTime: at(entryMin), exitPrice: 1, exitTime: at(exitMin), grossReturn: netReturn + 0.2, netReturn },
});
const trip = (netReturn: number, grossReturn = netReturn + 0.2, exitTime = at(0)): StrategyRoundTrip => ({ entryPrice: 1, entryTime: at(0), exitPrice: 1, exitTime, grossReturn, netReturn });
const r2 = (x: number) => Math.round(x * 100) / 100;

describe('strategy read at its edges', function () {
  describe('which paper round trips count', function () {
    it('an entry candle closing exactly at the activation counts; an exit candle closing exactly at the deactivation does not', function () {
      const periods = [{ configKey: key, fromMs: ms(100), toMs: ms(200) }];
      // Entry candle 95-100 closes at the activation; exit candle 195-200 closes at the deactivation.
      const trips = roundTripsIn(periods, [signal('a', 95, 120, 1), signal('b', 130, 195, 2), signal('c', 130, 190, 3), signal('d', 94, 120, 4)]);
      expect(trips.map((t) => t.netReturn)).to.deep.equal([1, 3]);
    });

    it('a round trip made within one candle (arbitrage) that closes exactly at the activation counts', function () {
      const periods = [{ configKey: key, fromMs: ms(100), toMs: ms(200) }];
      expect(roundTripsIn(periods, [signal('a', 95, 95, 1), signal('b', 90, 90, 2)]).map((t) => t.netReturn)).to.deep.equal([1]);
    });

    it('a period still open (no deactivation) takes every round trip after its start', function () {
      const periods = [{ configKey: key, fromMs: ms(100), toMs: null }];
      expect(roundTripsIn(periods, [signal('a', 100, 120, 1), signal('b', 200, 100_000, 2), signal('c', 50, 60, 3)]).map((t) => t.netReturn)).to.deep.equal([1, 2]);
    });

    it('a round trip inside any one of several periods counts', function () {
      const periods = [
        { configKey: key, fromMs: ms(100), toMs: ms(200) },
        { configKey: key, fromMs: ms(300), toMs: ms(400) },
      ];
      expect(roundTripsIn(periods, [signal('a', 110, 120, 1), signal('b', 310, 320, 2), signal('c', 210, 220, 3)]).map((t) => t.netReturn)).to.deep.equal([1, 2]);
    });

    it('oldest exit candle first, and signals of the same candle by their id', function () {
      const periods = [{ configKey: key, fromMs: ms(0), toMs: null }];
      const signals = [signal('z', 10, 50, 1), signal('y', 10, 20, 2), signal('b', 10, 30, 3), signal('a', 10, 30, 4)];
      expect(roundTripsIn(periods, signals).map((t) => t.netReturn)).to.deep.equal([2, 4, 3, 1]);
    });
  });

  describe('paper or backtest', function () {
    const paper = (n: number) => Array.from({ length: n }, () => trip(1));
    const backtest = (n: number) => Array.from({ length: n }, () => trip(-1, -0.8));

    it('with 20 paper round trips the paper ones are measured, however long the backtest, and the figures are given', function () {
      const card = strategyCard(strategyInfo('rsi-technical'), null, paper(20), backtest(25));
      expect(card).to.deep.include({ figuresSource: 'paper', sampleSize: 20, figuresNote: null, winRate: 100 });
      expect(strategyPerformance(paper(20), backtest(25)).source).to.equal('paper');
    });

    it('under 20 paper round trips, a backtest with no more of them than the paper does not replace it', function () {
      expect(strategyCard(strategyInfo('rsi-technical'), null, paper(5), backtest(3))).to.deep.include({ figuresSource: 'paper', sampleSize: 5, figuresNote: NOT_ENOUGH_TRADES });
      expect(strategyCard(strategyInfo('rsi-technical'), null, paper(5), backtest(5))).to.deep.include({ figuresSource: 'paper', sampleSize: 5 });
      expect(strategyCard(strategyInfo('rsi-technical'), null, paper(5), backtest(6))).to.deep.include({ figuresSource: 'backtest', sampleSize: 6 });
    });

    it('the card gives the type\'s defaults beside the configuration in force', function () {
      const card = strategyCard(strategyInfo('cross-exchange-arbitrage'), null, [], null);
      expect(card.defaults).to.deep.equal({ minSpread: 0.5, maxPositionSize: 1000 });
      expect(strategyCard(strategyInfo('rsi-technical'), null, [], null).defaults).to.deep.equal({ rsiPeriod: 14, rsiOverbought: 70, stopLoss: 2, takeProfit: 4 });
    });

    it('the performance summary: the total return, the count, the win rate and the Sharpe ratio of the trades measured', function () {
      // 20 trades: 10 of +2 % then 10 of −1 %.
      const trades = [...Array.from({ length: 10 }, () => trip(2)), ...Array.from({ length: 10 }, () => trip(-1))];
      const sd = Math.sqrt((20 * 1.5 ** 2) / 19);
      expect(strategyPerformance(trades, null).summary).to.deep.equal({ totalReturn: r2((1.02 ** 10 * 0.99 ** 10 - 1) * 100), totalTrades: 20, winRate: 50, sharpeRatio: r2(0.5 / sd) });
      expect(strategyPerformance([trip(1)], null).summary).to.deep.equal({ totalReturn: 1, totalTrades: 1, winRate: null, sharpeRatio: null });
    });
  });

  describe('the figures\' conventions', function () {
    it('a round trip returning exactly 0 is neither a win nor a right direction', function () {
      // 10 trades of +2 % (+2.2 % gross), 10 of exactly 0 (0 gross).
      const trades = [...Array.from({ length: 10 }, () => trip(2, 2.2)), ...Array.from({ length: 10 }, () => trip(0, 0))];
      const sd = Math.sqrt((20 * 1) / 19);
      expect(strategyFigures(trades)).to.deep.equal({ totalTrades: 20, totalReturn: r2((1.02 ** 10 - 1) * 100), accuracy: 50, winRate: 50, profitFactor: null, sharpeRatio: r2(1 / sd), maxDrawdown: 0 });
    });

    it('without a loss there is no profit factor, and returns that never vary have no Sharpe ratio', function () {
      const trades = Array.from({ length: 20 }, () => trip(1, 1.2));
      expect(strategyFigures(trades)).to.deep.equal({ totalTrades: 20, totalReturn: r2((1.01 ** 20 - 1) * 100), accuracy: 100, winRate: 100, profitFactor: null, sharpeRatio: null, maxDrawdown: 0 });
    });

    it('a loss of exactly 0 does not count as a loss: the profit factor is over the real losses', function () {
      // 10 of +3 %, 5 of 0, 5 of −2 %: 30 won over 10 lost.
      const trades = [...Array.from({ length: 10 }, () => trip(3)), ...Array.from({ length: 5 }, () => trip(0)), ...Array.from({ length: 5 }, () => trip(-2))];
      expect(strategyFigures(trades).profitFactor).to.equal(3);
    });
  });
});
