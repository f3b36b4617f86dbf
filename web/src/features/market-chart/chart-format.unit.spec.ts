/** The chart's labels: time labels by range, label spacing (its prices are lib/number-format's). */
import { expect } from 'chai';
import { axisTickIndices, formatAxisTime } from './chart-format';

describe('chart format', function () {
  it('writes times by range', function () {
    const t = new Date(2026, 10, 22, 14, 5).getTime(); // local time, as the chart shows it
    expect(formatAxisTime(t, 0.04)).to.equal('14:05');
    expect(formatAxisTime(t, 7)).to.equal('Nov 22 14:05');
    expect(formatAxisTime(t, 30)).to.equal('Nov 22');
  });

  it('labels about one candle per 110 px, evenly, inside the series', function () {
    expect(axisTickIndices(168, 1100)).to.deep.equal([8, 25, 42, 59, 76, 93, 110, 127, 144, 161]);
    expect(axisTickIndices(3, 1100)).to.deep.equal([0, 1, 2]);
    expect(axisTickIndices(300, 100)).to.deep.equal([150]);
    expect(axisTickIndices(0, 1000)).to.deep.equal([]);
  });
});
