/**
 * A training run's data (DESIGN.md sections 6 and 9): the candles' feature rows in time order, the
 * first 70 % of the labelled rows to train, 51 rows dropped (the longest feature window and the
 * label's candle), the rest to test; each row's label is whether the next candle closed higher; the
 * standardisation is fitted on the training rows alone (they come out with mean 0 and deviation 1,
 * the test rows do not have to); too few rows for either part is refused with the counts.
 */
import { expect } from 'chai';
import { buildDataset, GAP_ROWS, MIN_TEST_ROWS, NotEnoughDataError, TRAIN_SHARE } from './dataset';
import { computeFeatures, FEATURE_COUNT, nextCandleLabels } from './features';
import { syntheticCandleColumns } from './synthetic-candles.fixtures';

const FIVE_MINUTES = 5 * 60_000;

describe('ML dataset', function () {
  const candles = syntheticCandleColumns({ candles: 1200, seed: 11, rho: 0.2 });
  // Computed in a hook, not when the file loads: a mutation run runs the hooks again for each mutant.
  let features: ReturnType<typeof computeFeatures>;
  let labels: Int8Array;
  let data: ReturnType<typeof buildDataset>;
  let labelled: number;
  let trainRows: number;
  let testStart: number;
  before(function () {
    features = computeFeatures(candles);
    labels = nextCandleLabels(candles.close);
    data = buildDataset(candles);
    // Every row but the last candle's has a label.
    labelled = features.rows - 1;
    trainRows = Math.floor(labelled * 0.7);
    testStart = trainRows + 51;
  });

  it('splits in time order: 70 % to train, a gap of 51 rows, the rest to test; the times of each part', function () {
    expect([TRAIN_SHARE, GAP_ROWS, MIN_TEST_ROWS]).to.deep.equal([0.7, 51, 200]);
    expect(data.features).to.equal(FEATURE_COUNT);
    expect(data.train.rows).to.equal(trainRows);
    expect(data.test.rows).to.equal(labelled - testStart);
    const timeOf = (row: number) => candles.time[features.index[row]!]!;
    expect([data.trainFrom, data.trainTo, data.testFrom, data.testTo]).to.deep.equal([timeOf(0), timeOf(trainRows - 1), timeOf(testStart), timeOf(labelled - 1)]);
    expect(data.testFrom - data.trainTo, 'the gap').to.equal(52 * FIVE_MINUTES);
  });

  it("labels: whether the row's next candle closed higher", function () {
    for (let r = 0; r < data.train.rows; r++) expect(data.train.y[r], `train ${r}`).to.equal(labels[features.index[r]!]);
    for (let r = 0; r < data.test.rows; r++) expect(data.test.y[r], `test ${r}`).to.equal(labels[features.index[testStart + r]!]);
    expect(new Set([...data.train.y, ...data.test.y])).to.deep.equal(new Set([0, 1]));
  });

  it('standardised with the training rows: their features have mean 0 and deviation 1, the test rows use the same figures', function () {
    for (let f = 0; f < FEATURE_COUNT; f++) {
      let sum = 0;
      let squares = 0;
      for (let r = 0; r < data.train.rows; r++) sum += data.train.x[r * FEATURE_COUNT + f]!;
      const mean = sum / data.train.rows;
      for (let r = 0; r < data.train.rows; r++) squares += (data.train.x[r * FEATURE_COUNT + f]! - mean) ** 2;
      expect(mean, `feature ${f} mean`).to.be.closeTo(0, 1e-5);
      expect(Math.sqrt(squares / data.train.rows), `feature ${f} deviation`).to.be.closeTo(1, 1e-4);
      // The standardisation's own figures: the training rows' raw mean and deviation.
      let raw = 0;
      for (let r = 0; r < trainRows; r++) raw += features.values[r * FEATURE_COUNT + f]!;
      expect(data.standardisation.mean[f], `feature ${f}`).to.be.closeTo(raw / trainRows, 1e-9);
      const first = (features.values[testStart * FEATURE_COUNT + f]! - data.standardisation.mean[f]!) / data.standardisation.std[f]!;
      expect(data.test.x[f], `feature ${f} of the first test row`).to.be.closeTo(first, 1e-5);
    }
  });

  it('a feature that never moves keeps a deviation of 1 (nothing to divide by zero)', function () {
    const flat = syntheticCandleColumns({ candles: 1200, seed: 3 });
    flat.volume = new Float64Array(flat.close.length).fill(0);
    const quiet = buildDataset(flat);
    expect(quiet.standardisation.std.some((s) => s === 1)).to.equal(true);
    expect(Array.from(quiet.train.x).every(Number.isFinite)).to.equal(true);
  });

  it('too few candles for 200 training and 200 test rows: refused with the counts', function () {
    const few = syntheticCandleColumns({ candles: 600, seed: 5 });
    const rowsOf = computeFeatures(few).rows - 1;
    const train = Math.floor(rowsOf * 0.7);
    expect(() => buildDataset(few)).to.throw(NotEnoughDataError, `Not enough candles to train and test: 600 candles give ${train} training and ${rowsOf - train - 51} test rows; at least 200 of each are needed`);
    expect(() => buildDataset(syntheticCandleColumns({ candles: 10, seed: 5 }))).to.throw(NotEnoughDataError, 'Not enough candles to train and test: 10 candles give 0 training and 0 test rows; at least 200 of each are needed');
  });
});
