/** A strategy's backtest: the engine request of its rule, and the round trips of the engine's fills. */
import { expect } from 'chai';
import type { BacktestTrade } from '../backtest/contracts';
import { ValidationError } from '../shared/errors';
import { defaultConfiguration } from './strategy-catalogue';
import { backtestRoundTrips, engineBacktestRequest } from './strategy-backtest';

const req = { startDate: '2024-01-01', endDate: '2024-12-31', initialCapital: 10000 };
const fill = (side: 'BUY' | 'SELL', time: string, amount: number, price: number, fee: number, pnl: number | null, symbol: 'ETH' | 'BTC' = 'ETH'): BacktestTrade =>
  ({ tradeId: time, time, side, symbol, amount, price, fee, pnl, reason: side === 'BUY' ? 'SIGNAL' : 'SIGNAL', execution: {} }) as unknown as BacktestTrade;

describe('strategy backtest', function () {
  it('technical maps to the engine\'s RSI strategy with the same period and levels, on ETH', function () {
    expect(engineBacktestRequest('technical', { ...defaultConfiguration('technical'), rsiPeriod: 21, rsiOverbought: 75.4 }, req)).to.deep.equal({
      strategyId: 'rsi-mean-reversion', symbol: 'ETH', ...req, parameters: { rsiPeriod: 21, oversold: 25, overbought: 75 },
    });
  });

  it('neural and arbitrage cannot be backtested by the engine: a 400 saying why', function () {
    expect(() => engineBacktestRequest('neural', defaultConfiguration('neural'), req)).to.throw(ValidationError, /no model-driven strategy/);
    expect(() => engineBacktestRequest('arbitrage', defaultConfiguration('arbitrage'), req)).to.throw(ValidationError, /one price per coin/);
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
