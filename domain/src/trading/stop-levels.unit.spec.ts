import { expect } from 'chai';
import { levelReached, stopLevels } from './stop-levels';

describe('stop levels', function () {
  const levels = stopLevels(3000, { stopLossPercent: 2, takeProfitPercent: 5 });

  it('are percents of the average entry price', function () {
    expect(levels.stopLoss).to.be.closeTo(2940, 1e-9);
    expect(levels.takeProfit).to.be.closeTo(3150, 1e-9);
  });

  it('a candle whose low reaches the stop closes at the stop price, even when it closed above it', function () {
    expect(levelReached(levels, { high: 3010, low: 2939 })).to.deep.equal({ reason: 'STOP_LOSS', price: levels.stopLoss });
    expect(levelReached(levels, { high: 3010, low: levels.stopLoss })).to.deep.equal({ reason: 'STOP_LOSS', price: levels.stopLoss });
  });

  it('a candle whose high reaches the target closes at the target price', function () {
    expect(levelReached(levels, { high: 3151, low: 3100 })).to.deep.equal({ reason: 'TAKE_PROFIT', price: levels.takeProfit });
  });

  it('neither reached: nothing; both inside one candle: the stop first', function () {
    expect(levelReached(levels, { high: 3149, low: 2941 })).to.equal(null);
    expect(levelReached(levels, { high: 3200, low: 2900 })).to.deep.equal({ reason: 'STOP_LOSS', price: levels.stopLoss });
  });
});
