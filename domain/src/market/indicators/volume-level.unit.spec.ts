/** Volume level: ratio to the 20-candle average volume, HIGH above 1.5x, LOW below 0.5x, else NORMAL. */
import { expect } from 'chai';
import { HIGH_VOLUME_RATIO, LOW_VOLUME_RATIO, VOLUME_AVERAGE_PERIOD, volumeLevel, volumeRatio } from './volume-level';

describe('volume level', function () {
  it('names its thresholds: 20 candles, HIGH above 1.5x the average, LOW below 0.5x', function () {
    expect([VOLUME_AVERAGE_PERIOD, HIGH_VOLUME_RATIO, LOW_VOLUME_RATIO]).to.deep.equal([20, 1.5, 0.5]);
  });

  it('classifies a ratio, the bounds themselves being NORMAL, and has no level for an undefined ratio', function () {
    expect(volumeLevel(1.5000001)).to.equal('HIGH');
    expect(volumeLevel(1.5)).to.equal('NORMAL');
    expect(volumeLevel(1)).to.equal('NORMAL');
    expect(volumeLevel(0.5)).to.equal('NORMAL');
    expect(volumeLevel(0.4999999)).to.equal('LOW');
    expect(volumeLevel(0)).to.equal('LOW');
    expect(volumeLevel(Number.NaN)).to.equal(null);
  });

  it('divides each volume by the 20-candle average that includes it, from the 20th candle', function () {
    const volumes = new Float64Array(25).fill(100);
    volumes[20] = 290; // average of 19 x 100 + 290 = 109.5: ratio 2.648..., HIGH
    volumes[22] = 10; //  the window 3..22: 18 x 100 + 290 + 10 = 2100, average 105, ratio 0.095, LOW
    const ratio = volumeRatio(volumes);
    expect(ratio.length).to.equal(25);
    expect(ratio.subarray(0, 19).every(Number.isNaN)).to.equal(true);
    expect(ratio[19]).to.equal(1);
    expect(ratio[20]).to.be.closeTo(290 / 109.5, 1e-12);
    expect(ratio[22]).to.be.closeTo(10 / 105, 1e-12);
    expect(Array.from(ratio, volumeLevel).slice(18)).to.deep.equal([null, 'NORMAL', 'HIGH', 'NORMAL', 'LOW', 'NORMAL', 'NORMAL']);
  });

  it('has no ratio where there was no volume at all in the window', function () {
    const volumes = new Float64Array(30);
    volumes[29] = 5;
    const ratio = volumeRatio(volumes);
    expect(Number.isNaN(ratio[28])).to.equal(true);
    expect(ratio[29]).to.equal(20); // 5 against an average of 0.25
    expect(volumeRatio(new Float64Array(0)).length).to.equal(0);
  });

  it('takes any positive integer period', function () {
    const ratio = volumeRatio(Float64Array.from([1, 3, 2]), 2);
    expect(Array.from(ratio)).to.deep.equal([Number.NaN, 1.5, 0.8]);
    expect(() => volumeRatio(Float64Array.from([1]), 0)).to.throw(RangeError, 'volume average period must be a positive integer');
  });
});
