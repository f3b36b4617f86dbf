/** Card figures from round trips: null below 20, conventions as stated. */
import { expect } from 'chai';
import { cumulativeReturns, MIN_TRADES_FOR_FIGURES, strategyFigures } from './strategy-figures';

const trip = (netReturn: number, grossReturn = netReturn + 0.2) => ({ netReturn, grossReturn, exitTime: '2026-01-01T00:00:00.000Z' });

describe('strategy figures', function () {
  it('below 20 round trips every ratio is null (not enough trades), the count and return are kept', function () {
    const f = strategyFigures(Array.from({ length: MIN_TRADES_FOR_FIGURES - 1 }, () => trip(1)));
    expect(f).to.include({ totalTrades: 19, accuracy: null, winRate: null, profitFactor: null, sharpeRatio: null, maxDrawdown: null });
    expect(f.totalReturn).to.be.closeTo((1.01 ** 19 - 1) * 100, 0.01);
  });

  it('measures win rate, accuracy (before fees), profit factor, per-trade Sharpe and drawdown', function () {
    // 10 wins of +2 %, 10 losses of -1 % of which 5 were right before fees (+0.1 % gross).
    const trades = [...Array.from({ length: 10 }, () => trip(2)), ...Array.from({ length: 5 }, () => trip(-1, 0.1)), ...Array.from({ length: 5 }, () => trip(-1, -0.8))];
    const f = strategyFigures(trades);
    expect(f.winRate).to.equal(50);
    expect(f.accuracy).to.equal(75);
    expect(f.profitFactor).to.equal(2);
    const sd = Math.sqrt((20 * 1.5 ** 2) / 19);
    expect(f.sharpeRatio).to.equal(Math.round((0.5 / sd) * 100) / 100);
    expect(f.maxDrawdown).to.be.closeTo((1 - 0.99 ** 10) * 100, 0.01);
  });

  it('the cumulative return compounds the trades in order', function () {
    expect(cumulativeReturns([trip(10), trip(-10)]).map((p) => p.cumulativeReturn)).to.deep.equal([10, -1]);
  });
});
