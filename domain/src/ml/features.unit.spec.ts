/** The features of a candle read nothing after it: changing any later candle changes none of its row. */
import { expect } from 'chai';
import { computeFeatures, FEATURE_COUNT, FEATURE_WARMUP, nextCandleLabels } from './features';
import { syntheticCandleColumns } from './synthetic-candles.fixtures';

describe('ML features', function () {
  const base = syntheticCandleColumns({ candles: 400, seed: 7 });

  it('start at the warm-up with every feature finite', function () {
    const f = computeFeatures(base);
    expect(f.rows).to.equal(400 - FEATURE_WARMUP);
    expect(f.index[0]).to.equal(FEATURE_WARMUP);
    expect(Array.from(f.values).every(Number.isFinite)).to.equal(true);
  });

  it('no look-ahead: changing candles after index i (price, range, volume) leaves rows up to i unchanged', function () {
    const before = computeFeatures(base);
    for (const cut of [FEATURE_WARMUP, 120, 250, 398]) {
      const changed = { time: base.time, high: Float64Array.from(base.high), low: Float64Array.from(base.low), close: Float64Array.from(base.close), volume: Float64Array.from(base.volume) };
      for (let k = cut + 1; k < 400; k++) {
        changed.close[k] = changed.close[k]! * (1 + 0.05 * Math.sin(k));
        changed.high[k] = changed.high[k]! * 1.1;
        changed.low[k] = changed.low[k]! * 0.9;
        changed.volume[k] = changed.volume[k]! * 7;
      }
      const after = computeFeatures(changed);
      const rowsUpTo = cut - FEATURE_WARMUP + 1;
      expect(Array.from(after.values.subarray(0, rowsUpTo * FEATURE_COUNT)), `rows up to candle ${cut}`).to.deep.equal(Array.from(before.values.subarray(0, rowsUpTo * FEATURE_COUNT)));
      if (cut < 398) expect(Array.from(after.values.subarray(rowsUpTo * FEATURE_COUNT)), 'and the change is seen after it').not.to.deep.equal(Array.from(before.values.subarray(rowsUpTo * FEATURE_COUNT)));
    }
  });

  it('the label of candle i is the direction of candle i+1; the last candle has none', function () {
    expect(Array.from(nextCandleLabels([1, 2, 2, 1, 3]))).to.deep.equal([1, 0, 0, 1, -1]);
  });
});
