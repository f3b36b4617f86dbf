/**
 * The limits of a what-if (what-if.ts): a period of one day is a period, a value on Risk
 * Management's own bound is allowed, a setting without a value (or a value without a setting) is not
 * a what-if, a period of no days is refused like one too long, and only a fixed or trailing stop has a
 * distance in percent.
 */
import { expect } from 'chai';
import { normalise } from './intents';
import { parseWhatIf, stopPercentOf, whatIfBounds, whatIfProblem } from './what-if';

const ask = (q: string) => parseWhatIf(normalise(q));

describe('assistant what-ifs: their limits', () => {
  it('reads a period of one day, in digits or in words', () => {
    expect(ask('what if my stop loss were 3% over the last 1 day')).to.deep.equal({ setting: 'stopLoss', value: 3, days: 1 });
    expect(ask('what if my stop loss were 3% over the past day')).to.deep.equal({ setting: 'stopLoss', value: 3, days: 1 });
    expect(ask('what if my take profit were 6% over the previous quarter')).to.deep.equal({ setting: 'takeProfit', value: 6, days: 90 });
  });

  it("allows a value on Risk Management's own bounds, and a period of one to ninety days", () => {
    expect(whatIfBounds).to.deep.equal({ stopLoss: { min: 0.5, max: 20 }, takeProfit: { min: 0.5, max: 100 }, maxPositionSize: { min: 0.1, max: 50 } });
    expect(whatIfProblem({ setting: 'stopLoss', value: 0.5, days: 1 })).to.equal(null);
    expect(whatIfProblem({ setting: 'stopLoss', value: 20, days: 90 })).to.equal(null);
    expect(whatIfProblem({ setting: 'maxPositionSize', value: 0.1, days: null })).to.equal(null);
    expect(whatIfProblem({ setting: 'maxPositionSize', value: 0.09, days: null })).to.equal('out of bounds');
    expect(whatIfProblem({ setting: 'takeProfit', value: 100.5, days: null })).to.equal('out of bounds');
  });

  it('needs both a setting and its value', () => {
    expect(whatIfProblem({ setting: 'stopLoss', value: null, days: 30 })).to.equal('no setting');
    expect(whatIfProblem({ setting: null, value: 3, days: 30 })).to.equal('no setting');
  });

  it('refuses a period of no days, like one of more than ninety', () => {
    expect(whatIfProblem({ setting: 'stopLoss', value: 3, days: 0 })).to.equal('period too short');
    expect(whatIfProblem({ setting: 'stopLoss', value: 3, days: 91 })).to.equal('period too long');
  });

  it('only a fixed or a trailing stop has a distance in percent', () => {
    expect(stopPercentOf({ stopLossType: 'fixed', stopLossValue: 2 })).to.equal(2);
    expect(stopPercentOf({ stopLossType: 'trailing', stopLossValue: 2.5 })).to.equal(2.5);
    expect(stopPercentOf({ stopLossType: 'atr', stopLossValue: 2 })).to.equal(null);
    expect(stopPercentOf({ stopLossType: 'volatility', stopLossValue: 2 })).to.equal(null);
  });
});
