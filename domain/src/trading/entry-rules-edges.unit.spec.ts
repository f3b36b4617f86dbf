/**
 * The entry rules' figures where their inputs run out (entry-rules.ts): a portfolio worth nothing has
 * no drawdown, an entry with nothing at risk has an unbounded reward/risk, Kelly's payoff with no win
 * or no loss yet, half Kelly with no loss yet below a perfect record, and the dynamic scale of a coin
 * whose average volatility is not known.
 */
import { expect } from 'chai';
import { drawdownPercent, dynamicScale, halfKelly, payoffRatio, rewardToRisk, type ClosedTradeStats } from './entry-rules';

const stats = (closes: number, wins: number, losses: number, winUsd: number, lossUsd: number): ClosedTradeStats => ({ closes, wins, losses, winMicros: winUsd * 1e6, lossMicros: lossUsd * 1e6 });

describe('entry rules: edges', function () {
  it('drawdown: no value and no peak is no drawdown (0, not an unknown)', function () {
    expect(drawdownPercent(0, 0)).to.equal(0);
  });

  it('reward/risk: a stop at the entry with no fees risks nothing, so its reward/risk is unbounded whatever the target', function () {
    expect(rewardToRisk(100, 100, 105, 0)).to.equal(Number.POSITIVE_INFINITY);
    expect(rewardToRisk(100, 100, 100, 0), 'no reward either').to.equal(Number.POSITIVE_INFINITY);
    expect(rewardToRisk(100, 100, 95, 0), 'a target below the entry').to.equal(Number.POSITIVE_INFINITY);
  });

  it('half Kelly with no loss yet is half the win rate: 15 wins in 20 closes (5 at zero) is 0.375', function () {
    expect(halfKelly(stats(20, 15, 0, 1500, 0))).to.equal(0.375);
  });

  it('payoff: 0 with no win, unbounded with no loss yet, the average win over the average loss otherwise', function () {
    expect(payoffRatio(stats(20, 0, 20, 0, 2000))).to.equal(0);
    expect(payoffRatio(stats(20, 20, 0, 2000, 0))).to.equal(Number.POSITIVE_INFINITY);
    // (1,500 / 15) / (400 / 5) = 100 / 80
    expect(payoffRatio(stats(20, 15, 5, 1500, 400))).to.equal(1.25);
  });

  it('dynamic scale: unknown (NaN) when the average volatility is zero, not the quarter size', function () {
    expect(dynamicScale(0, 0.002)).to.be.NaN;
    expect(dynamicScale(-0.001, 0.002)).to.be.NaN;
  });
});
