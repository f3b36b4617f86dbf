/** The chart's labels: prices by size, axis prices by tick step, time labels by range, label spacing. */
import { expect } from 'chai';
import { axisTickIndices, formatAxisPrice, formatAxisTime, formatChartPrice, formatVolume } from './chart-format';

describe('chart format', function () {
  it('writes dollars with 2 decimals, and 4 below a dollar where cents would hide every move', function () {
    expect(formatChartPrice(3742.234)).to.equal('$3,742.23');
    expect(formatChartPrice(1)).to.equal('$1.00');
    expect(formatChartPrice(0.45678)).to.equal('$0.4568');
    expect(formatChartPrice(Number.NaN)).to.equal('—');
  });

  it('gives axis prices the decimals their tick step needs', function () {
    expect(formatAxisPrice(3650, 50)).to.equal('$3,650');
    expect(formatAxisPrice(3650, 10)).to.equal('$3,650');
    expect(formatAxisPrice(101.5, 0.5)).to.equal('$101.5');
    expect(formatAxisPrice(0.455, 0.005)).to.equal('$0.455');
    expect(formatAxisPrice(0.45551, 0.00001)).to.equal('$0.4555');
  });

  it('writes volume compactly and times by range', function () {
    expect(formatVolume(645_430_000)).to.equal('$645.43M');
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
