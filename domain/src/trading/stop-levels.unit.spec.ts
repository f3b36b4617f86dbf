/**
 * A position's exits (stop-levels.ts): the four stop-loss types with k stated (fixed and trailing in
 * percent, atr and volatility as k x the figure), the target at takeProfitRatio times the stop's
 * distance, and the plans (PROFILE follows the profile now, MANUAL keeps its levels, NONE has none).
 * Where the levels are executed (the first tick at or beyond one) is the engine's exit scan
 * (engine/exit-scan.unit.spec.ts, exit-spec.unit.spec.ts): a price range reaching a level no longer
 * closes at the level's price.
 */
import { expect } from 'chai';
import { DEFAULT_RISK_PROFILE, type RiskProfile } from './contracts';
import { exitLevels, NO_EXITS, stopDistance, stopLossLevel, stopRuleText, takeProfitLevel, usdText, type ExitPlan } from './stop-levels';

const profile = (changes: Partial<RiskProfile>): RiskProfile => ({ ...DEFAULT_RISK_PROFILE, ...changes });
const PROFILE_PLAN: ExitPlan = { kind: 'PROFILE', atr: 12, sigma: 0.002 };

describe('stop levels', function () {
  describe('the stop-loss types', function () {
    it('fixed: stopLossValue percent below the entry', function () {
      expect(stopDistance('fixed', 2, 3000, Number.NaN, Number.NaN)).to.be.closeTo(60, 1e-9);
      expect(stopLossLevel('fixed', 2, 3000, 3500, Number.NaN, Number.NaN)).to.be.closeTo(2940, 1e-9);
    });

    it('trailing: stopLossValue percent below the highest price since the entry, never below the fixed level', function () {
      expect(stopLossLevel('trailing', 2, 3000, 3200, Number.NaN, Number.NaN)).to.be.closeTo(3136, 1e-9);
      expect(stopLossLevel('trailing', 2, 3000, 2900, Number.NaN, Number.NaN), 'the high is at least the entry').to.be.closeTo(2940, 1e-9);
      // The initial distance (for the target) is the fixed one.
      expect(stopDistance('trailing', 2, 3000, Number.NaN, Number.NaN)).to.be.closeTo(60, 1e-9);
    });

    it('atr: k x ATR14 below the entry (stopLossValue is k)', function () {
      expect(stopDistance('atr', 2.5, 3000, 12, Number.NaN)).to.equal(30);
      expect(stopLossLevel('atr', 2.5, 3000, 9999, 12, Number.NaN)).to.equal(2970);
      expect(stopDistance('atr', 2.5, 3000, Number.NaN, 0.002), 'an unknown ATR: no level').to.be.NaN;
    });

    it('volatility: k x sigma20 x the entry below it (stopLossValue is k)', function () {
      expect(stopDistance('volatility', 3, 3000, 12, 0.002)).to.be.closeTo(18, 1e-9);
      expect(stopLossLevel('volatility', 3, 3000, 9999, 12, 0.002)).to.be.closeTo(2982, 1e-9);
    });

    it('the target: takeProfitRatio times the initial stop distance above the entry', function () {
      expect(takeProfitLevel(3000, 60, 2.5)).to.equal(3150);
      expect(takeProfitLevel(3000, 30, 1)).to.equal(3030);
    });
  });

  describe('plans', function () {
    it('PROFILE: the levels follow the profile as it is now, with the figures recorded at entry', function () {
      expect(exitLevels(PROFILE_PLAN, profile({}), 3000, 3000, 99, 0.5)).to.deep.equal({ stopLoss: 2940, takeProfit: 3150 });
      expect(exitLevels(PROFILE_PLAN, profile({ stopLossValue: 3, takeProfitRatio: 2 }), 3000, 3000, 99, 0.5)).to.deep.equal({ stopLoss: 2910, takeProfit: 3180 });
      expect(exitLevels(PROFILE_PLAN, profile({ stopLossType: 'atr', stopLossValue: 2 }), 3000, 3000, 99, 0.5), 'the entry ATR 12, not the 99 of now').to.deep.equal({ stopLoss: 2976, takeProfit: 3060 });
      const trailing = exitLevels(PROFILE_PLAN, profile({ stopLossType: 'trailing' }), 3000, 3300, 99, 0.5);
      expect(trailing.stopLoss).to.be.closeTo(3234, 1e-9);
      expect(trailing.takeProfit).to.equal(3150);
    });

    it('PROFILE without entry figures (a position from before): the figures of now', function () {
      expect(exitLevels({ kind: 'PROFILE', atr: null, sigma: null }, profile({ stopLossType: 'atr', stopLossValue: 2 }), 3000, 3000, 20, 0.5)).to.deep.equal({ stopLoss: 2960, takeProfit: 3100 });
    });

    it('MANUAL: the levels set, either may be absent; NONE: no level at all', function () {
      const manual: ExitPlan = { kind: 'MANUAL', stopLoss: 2910, takeProfit: null, stopLossPercent: 3, takeProfitPercent: null };
      const levels = exitLevels(manual, profile({ stopLossValue: 10 }), 3000, 3000, 1, 1);
      expect(levels.stopLoss).to.equal(2910);
      expect(levels.takeProfit).to.be.NaN;
      const none = exitLevels(NO_EXITS, profile({}), 3000, 3000, 1, 1);
      expect(none.stopLoss).to.be.NaN;
      expect(none.takeProfit).to.be.NaN;
    });

    it('says how each stop is set', function () {
      expect(stopRuleText(PROFILE_PLAN, profile({ stopLossType: 'trailing' }), 3000, 3210, 12, 0.002)).to.equal("Trailing: 2% below the high since entry $3,210.00, target 2.5 x the stop's distance");
      // The figures the entry recorded, as exitLevels sets the level by; without them, the market's now.
      expect(stopRuleText(PROFILE_PLAN, profile({ stopLossType: 'atr' }), 3000, 3000, 12.5, 0.004)).to.equal("ATR: 2 x ATR14 $12.00 below entry, target 2.5 x the stop's distance");
      expect(stopRuleText({ kind: 'PROFILE', atr: null, sigma: null }, profile({ stopLossType: 'atr' }), 3000, 3000, 12.5, 0.004)).to.equal("ATR: 2 x ATR14 $12.50 below entry, target 2.5 x the stop's distance");
      expect(stopRuleText(PROFILE_PLAN, profile({ stopLossType: 'volatility' }), 3000, 3000, 12.5, 0.004)).to.equal("Volatility: 2 x sigma 0.200% below entry, target 2.5 x the stop's distance");
      expect(stopRuleText({ kind: 'PROFILE', atr: null, sigma: null }, profile({ stopLossType: 'volatility' }), 3000, 3000, 12.5, 0.004)).to.equal("Volatility: 2 x sigma 0.400% below entry, target 2.5 x the stop's distance");
      expect(stopRuleText(NO_EXITS, profile({}), 3000, 3000, 12, 0.002)).to.equal('No automatic exit (manual position)');
      expect(stopRuleText({ kind: 'MANUAL', stopLoss: 2910, takeProfit: null, stopLossPercent: 3, takeProfitPercent: null }, profile({}), 3000, 3000, 1, 1)).to.equal('Manual: stop 3% below entry, no target');
      expect(usdText(1234567.891)).to.equal('$1,234,567.89');
      expect(usdText(0.45123)).to.equal('$0.4512');
    });
  });
});
