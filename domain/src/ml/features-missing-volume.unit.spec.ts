/**
 * A candle whose volume is unknown (NaN) must not put a NaN into the model's inputs: wherever that
 * candle is in the 20-candle window, the average volume is not defined and the volume feature reads 0,
 * as for a candle with no volume; every other feature is finite. Likewise a volume so small (the
 * smallest double) that its 20-candle average rounds to 0: the feature is 0, not infinity.
 */
import { expect } from 'chai';
import { computeFeatures, FEATURE_COUNT, FEATURE_NAMES, FEATURE_WARMUP } from './features';
import { syntheticCandleColumns } from './synthetic-candles.fixtures';

describe('features with an unknown volume', function () {
  it('a NaN volume: every feature finite, the volume feature 0 while that candle is in the window', function () {
    const candles = syntheticCandleColumns({ candles: 200, seed: 4 });
    const volume = Float64Array.from(candles.volume, (v) => (v > 0 ? v : 1));
    const missing = 120;
    volume[missing] = Number.NaN;
    const { rows, values, index } = computeFeatures({ ...candles, volume });
    expect(rows).to.equal(200 - FEATURE_WARMUP);
    const ratio = FEATURE_NAMES.indexOf('volume_ratio_20');
    for (let r = 0; r < rows; r++) {
      for (let f = 0; f < FEATURE_COUNT; f++) expect(Number.isFinite(values[r * FEATURE_COUNT + f]!), `row ${r}, ${FEATURE_NAMES[f]}`).to.equal(true);
      const i = index[r]!;
      if (i >= missing && i < missing + 20) expect(values[r * FEATURE_COUNT + ratio], `candle ${i}`).to.equal(0);
    }
  });

  it('a volume whose 20-candle average rounds to 0 (the smallest double after 19 empty candles): the volume feature is 0, not infinity', function () {
    const candles = syntheticCandleColumns({ candles: 120, seed: 6 });
    const volume = new Float64Array(120);
    volume[100] = Number.MIN_VALUE;
    expect(Number.MIN_VALUE / 20, 'the average underflows').to.equal(0);
    const { values, index } = computeFeatures({ ...candles, volume });
    const ratio = FEATURE_NAMES.indexOf('volume_ratio_20');
    const r = Array.from(index).indexOf(100);
    expect(values[r * FEATURE_COUNT + ratio]).to.equal(0);
    expect(Array.from(values).every(Number.isFinite)).to.equal(true);
  });
});
