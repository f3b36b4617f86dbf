/** What a what-if question asks, and the profile each setting's change gives (issue 20). */
import { expect } from 'chai';
import { DEFAULT_RISK_PROFILE } from '../trading/contracts';
import { normalise } from './intents';
import { changedProfile, parseWhatIf, whatIfProblem } from './what-if';

const ask = (q: string) => parseWhatIf(normalise(q));

describe('assistant what-ifs', () => {
  it('reads the setting, its value in percent and the period', () => {
    expect(ask('What if my stop loss were 3% over the last 30 days?')).to.deep.equal({ setting: 'stopLoss', value: 3, days: 30 });
    expect(ask('what if my stop-loss was 1.5 percent in the past week')).to.deep.equal({ setting: 'stopLoss', value: 1.5, days: 7 });
    expect(ask('if I had set a take profit of 6% what would my P&L be')).to.deep.equal({ setting: 'takeProfit', value: 6, days: null });
    expect(ask('what if my target were 8% last month')).to.deep.equal({ setting: 'takeProfit', value: 8, days: 30 });
    expect(ask('what if my max position size were 10% over the last 14 days on BTC')).to.deep.equal({ setting: 'maxPositionSize', value: 10, days: 14 });
    expect(ask('what would have happened if I used a trailing stop')).to.deep.equal({ setting: null, value: null, days: null });
  });

  it('runs only a setting it knows, within Risk Management\u2019s range, over at most 90 days', () => {
    expect(whatIfProblem({ setting: 'stopLoss', value: 3, days: 30 })).to.equal(null);
    expect(whatIfProblem({ setting: null, value: null, days: 30 })).to.equal('no setting');
    expect(whatIfProblem({ setting: 'stopLoss', value: 20.5, days: null })).to.equal('out of bounds');
    expect(whatIfProblem({ setting: 'stopLoss', value: 0.4, days: null })).to.equal('out of bounds');
    expect(whatIfProblem({ setting: 'maxPositionSize', value: 50, days: 90 })).to.equal(null);
    expect(whatIfProblem({ setting: 'maxPositionSize', value: 50, days: 91 })).to.equal('period too long');
  });

  it('maps each setting onto the one risk profile', () => {
    const trailing = { ...DEFAULT_RISK_PROFILE, stopLossType: 'trailing' as const, stopLossValue: 2.5 };
    expect(changedProfile(trailing, 'stopLoss', 3)).to.include({ stopLossType: 'fixed', stopLossValue: 3, takeProfitRatio: trailing.takeProfitRatio });
    // A take profit of 6% on a 2.5% stop is a ratio of 2.4 of the stop's distance; the stop is kept.
    expect(changedProfile(trailing, 'takeProfit', 6)).to.include({ stopLossType: 'trailing', stopLossValue: 2.5, takeProfitRatio: 2.4 });
    // An ATR stop has no percent distance: the target is set against a fixed stop of its value.
    expect(changedProfile({ ...DEFAULT_RISK_PROFILE, stopLossType: 'atr', stopLossValue: 2 }, 'takeProfit', 5)).to.include({ stopLossType: 'fixed', stopLossValue: 2, takeProfitRatio: 2.5 });
    expect(changedProfile(trailing, 'maxPositionSize', 10)).to.deep.equal({ ...trailing, maxPositionSize: 10 });
  });
});
