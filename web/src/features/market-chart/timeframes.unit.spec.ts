/** The chart's timeframes: labels, day values and the default, as spec sections 2 and 9 give them. */
import { expect } from 'chai';
import { DEFAULT_TIMEFRAME, TIMEFRAMES, timeframeByLabel } from './timeframes';

describe('chart timeframes', function () {
  it('are 1H 4H 1D 7D 30D with day values 0.04, 0.17, 1, 7, 30, in that order', function () {
    expect(TIMEFRAMES.map((t) => [t.label, t.days])).to.deep.equal([
      ['1H', 0.04],
      ['4H', 0.17],
      ['1D', 1],
      ['7D', 7],
      ['30D', 30],
    ]);
  });

  it('default to 7 days', function () {
    expect(DEFAULT_TIMEFRAME).to.deep.equal({ label: '7D', days: 7 });
  });

  it('are found by label, with the default for an unknown one', function () {
    expect(timeframeByLabel('4H').days).to.equal(0.17);
    expect(timeframeByLabel('30D').days).to.equal(30);
    expect(timeframeByLabel('2W')).to.equal(DEFAULT_TIMEFRAME);
  });
});
