/**
 * The entry rules as numbers (entry-rules.ts), each at its boundary: drawdown from the peak, reward /
 * risk net of the fees, half Kelly (20 closes, no loss, no win), the dynamic scale's limits, the
 * correlation and volatility comparisons (strictly above refuses).
 */
import { expect } from 'chai';
import {
  correlationRefuses,
  drawdownPercent,
  drawdownStopsEntries,
  DYNAMIC_SCALE_MAX,
  DYNAMIC_SCALE_MIN,
  dynamicScale,
  halfKelly,
  KELLY_MIN_CLOSES,
  payoffRatio,
  rewardRiskRefuses,
  rewardToRisk,
  volatilityPauses,
  type ClosedTradeStats,
} from './entry-rules';

const stats = (closes: number, wins: number, losses: number, winUsd: number, lossUsd: number): ClosedTradeStats => ({ closes, wins, losses, winMicros: winUsd * 1e6, lossMicros: lossUsd * 1e6 });

describe('entry rules', function () {
  it('drawdown: percent below the peak; a value above the peak is its own peak; entries stop only above the maximum', function () {
    expect(drawdownPercent(11_000, 9_350)).to.be.closeTo(15, 1e-9);
    expect(drawdownPercent(10_000, 12_000)).to.equal(0);
    expect(drawdownStopsEntries(15, 15), 'at the maximum: still allowed').to.equal(false);
    expect(drawdownStopsEntries(15.01, 15)).to.equal(true);
  });

  it('reward/risk: the distances net of a fee on each fill', function () {
    expect(rewardToRisk(100, 98, 104, 0)).to.be.closeTo(2, 1e-12);
    // Default profile: stop 2 %, target 5 %: (104.895 - 100.1) / (100.1 - 97.902) = 2.18
    expect(rewardToRisk(100, 98, 105)).to.be.closeTo(4.795 / 2.198, 1e-12);
    // Ratio 2 on a 2 % stop: 1.73, below a riskRewardRatio of 2.
    expect(rewardToRisk(100, 98, 104)).to.be.closeTo(3.796 / 2.198, 1e-12);
    expect(rewardRiskRefuses(rewardToRisk(100, 98, 104), 2)).to.equal(true);
    expect(rewardRiskRefuses(2, 2), 'at the ratio: allowed').to.equal(false);
    expect(rewardRiskRefuses(Number.NaN, 0.5), 'unknown: refused').to.equal(true);
    expect(rewardToRisk(100, 100.3, 105), 'a stop above the entry net of fees: not a risk that can be measured').to.be.NaN;
  });

  it('half Kelly: 0.5 x (W - (1 - W) / R) from the closed trades, only from 20 of them', function () {
    expect(KELLY_MIN_CLOSES).to.equal(20);
    expect(halfKelly(stats(19, 12, 7, 1200, 700))).to.be.NaN;
    // W = 0.6, R = (1200/12) / (800/8) = 1: f = 0.5 x (0.6 - 0.4) = 0.1
    expect(halfKelly(stats(20, 12, 8, 1200, 800))).to.be.closeTo(0.1, 1e-12);
    expect(payoffRatio(stats(20, 12, 8, 1200, 800))).to.equal(1);
    // W = 0.4, R = 1.2: 0.5 x (0.4 - 0.6 / 1.2) = -0.05: no edge
    expect(halfKelly(stats(20, 8, 12, 960, 1200))).to.be.closeTo(-0.05, 1e-12);
    expect(halfKelly(stats(20, 20, 0, 2000, 0)), 'no loss yet: W / 2').to.equal(0.5);
    expect(halfKelly(stats(20, 0, 20, 0, 2000)), 'no win: no edge').to.equal(-0.5);
    // A close at zero counts in W's denominator but in neither average.
    expect(halfKelly(stats(21, 12, 8, 1200, 800))).to.be.closeTo(0.5 * (12 / 21 - 9 / 21), 1e-12);
  });

  it('dynamic sizing: average over recent volatility, within 0.25 and 2', function () {
    expect(dynamicScale(0.002, 0.004)).to.equal(0.5);
    expect(dynamicScale(0.002, 0.0001)).to.equal(DYNAMIC_SCALE_MAX);
    expect(dynamicScale(0.0001, 0.002)).to.equal(DYNAMIC_SCALE_MIN);
    expect(dynamicScale(Number.NaN, 0.002)).to.be.NaN;
    expect(dynamicScale(0.002, 0)).to.be.NaN;
  });

  it('correlation and volatility: strictly above the limit refuses', function () {
    expect(correlationRefuses(0.83, 0.7)).to.equal(true);
    expect(correlationRefuses(0.7, 0.7)).to.equal(false);
    expect(volatilityPauses(30.01, 30)).to.equal(true);
    expect(volatilityPauses(30, 30)).to.equal(false);
    expect(volatilityPauses(Number.NaN, 30)).to.equal(false);
  });
});
