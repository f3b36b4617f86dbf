/**
 * Small rules at the edges of the strategies, the walk-forward objective and the curves: an RSI with
 * no losses is 100 (50 when nothing moved at all), a missing parameter is named, an unknown strategy
 * has no parameter sets, a profit factor with wins and no losses ranks above every other, and an empty
 * run has empty curves.
 */
import { expect } from 'chai';
import type { BacktestFigures } from './contracts';
import { curvesOf, EquitySeries } from './metrics';
import { NO_SIGNAL, rsiMeanReversion, SELL, warmUpCandles } from './strategies';
import { objectiveOf, parameterSets, windowJobs } from './walk-forward';
import { validateWalkForwardRequest, type StrategyId } from './contracts';
import { DEFAULT_RISK_PROFILE } from '../trading/contracts';

function figures(profitFactor: number | null, winningTrades: number): BacktestFigures {
  return {
    totalReturn: 0.1,
    winRate: 0.5,
    maxDrawdown: 0.05,
    totalTrades: 4,
    finalBalance: 11000,
    sharpeRatio: 1.2,
    performanceMetrics: { winningTrades, losingTrades: 2, averageWin: 10, averageLoss: -5, profitFactor, volatility: 0.3 },
  };
}

describe('strategy and walk-forward edges', function () {
  it('RSI mean reversion: a flat start reads RSI 50, then a first gain with no loss reads 100 and crosses the overbought level: SELL', function () {
    // Period 2: closes 10 10 10 -> gains 0, losses 0: RSI 50. Then +1: average gain 0.5, loss 0: RSI 100 > 70, from 50: SELL. Then 100 again: no new cross.
    const out = rsiMeanReversion(Float64Array.from([10, 10, 10, 11, 12]), 5, 2, 30, 70, new Int8Array(5));
    expect(Array.from(out)).to.deep.equal([NO_SIGNAL, NO_SIGNAL, NO_SIGNAL, SELL, NO_SIGNAL]);
  });

  it('names the missing parameter of a strategy', function () {
    expect(() => warmUpCandles('rsi-mean-reversion', {})).to.throw(RangeError, 'strategy parameter rsiPeriod is missing');
  });

  it('an unknown strategy has no parameter sets', function () {
    expect(() => parameterSets('nope' as StrategyId, 3)).to.throw(RangeError, 'no strategy nope');
  });

  it('the profit factor objective: the factor itself; wins with no loss rank above everything; no trade at all has none', function () {
    expect(objectiveOf(figures(1.5, 2), 'profitFactor')).to.equal(1.5);
    expect(objectiveOf(figures(null, 3), 'profitFactor')).to.equal(Number.MAX_VALUE);
    expect(objectiveOf(figures(null, 0), 'profitFactor')).to.equal(null);
  });

  it("each window's job carries the user who asked (for their fees and limits), and none when nobody is named", function () {
    const request = validateWalkForwardRequest({ strategyId: 'ma-crossover', startDate: '2026-01-01', endDate: '2026-03-01', windows: 3 }, Date.UTC(2026, 10, 26));
    const rules = { profile: DEFAULT_RISK_PROFILE };
    expect(windowJobs(request, rules, 'user-1').map((j) => j.userId)).to.deep.equal(['user-1', 'user-1', 'user-1']);
    expect(windowJobs(request, rules).map((j) => 'userId' in j)).to.deep.equal([false, false, false]);
  });

  it('an empty equity series has empty curves', function () {
    expect(curvesOf(new EquitySeries(), 10000)).to.deep.equal({ equityCurve: [], drawdownCurve: [] });
  });
});
