/**
 * The training run's data at its edges (DESIGN.md sections 6 and 9): n candles give n - 50 feature
 * rows, the last of them unlabelled; 70 % of the labelled rows (rounded down) train, 51 are dropped,
 * the rest test; exactly 200 test rows are enough, 199 are refused. The standardisation holds one mean
 * and one deviation per feature, nothing more: the training rows' raw mean and (population) deviation.
 */
import { expect } from 'chai';
import { buildDataset, NotEnoughDataError } from './dataset';
import { computeFeatures, FEATURE_COUNT } from './features';
import { syntheticCandleColumns } from './synthetic-candles.fixtures';

describe('ML dataset at its edges', function () {
  it('885 candles: 834 labelled rows, 583 to train and exactly 200 to test, which is enough', function () {
    // 885 - 50 = 835 rows, 834 labelled; floor(834 x 0.7) = 583; 834 - 583 - 51 = 200.
    const data = buildDataset(syntheticCandleColumns({ candles: 885, seed: 21 }));
    expect([data.train.rows, data.test.rows, data.test.y.length, data.test.x.length]).to.deep.equal([583, 200, 200, 200 * FEATURE_COUNT]);
  });

  it('884 candles: 583 training rows but only 199 test rows, refused with the counts', function () {
    // 884 - 50 = 834 rows, 833 labelled; floor(833 x 0.7) = 583; 833 - 583 - 51 = 199.
    expect(() => buildDataset(syntheticCandleColumns({ candles: 884, seed: 21 }))).to.throw(
      NotEnoughDataError,
      'Not enough candles to train and test: 884 candles give 583 training and 199 test rows; at least 200 of each are needed',
    );
  });

  it("the standardisation: one mean and one deviation per feature, the training rows' own", function () {
    const candles = syntheticCandleColumns({ candles: 1000, seed: 8 });
    const data = buildDataset(candles);
    const { values } = computeFeatures(candles);
    // 950 rows, 949 labelled, floor(949 x 0.7) = 664 train.
    const trainRows = 664;
    expect(data.train.rows).to.equal(trainRows);
    const mean: number[] = [];
    const std: number[] = [];
    for (let f = 0; f < FEATURE_COUNT; f++) {
      let sum = 0;
      for (let r = 0; r < trainRows; r++) sum += values[r * FEATURE_COUNT + f]!;
      mean.push(sum / trainRows);
      let squares = 0;
      for (let r = 0; r < trainRows; r++) squares += (values[r * FEATURE_COUNT + f]! - mean[f]!) ** 2;
      std.push(Math.sqrt(squares / trainRows) || 1);
    }
    expect(data.standardisation.mean).to.have.length(FEATURE_COUNT);
    expect(data.standardisation.std).to.have.length(FEATURE_COUNT);
    for (let f = 0; f < FEATURE_COUNT; f++) {
      expect(data.standardisation.mean[f], `mean of feature ${f}`).to.be.closeTo(mean[f]!, 1e-12 + Math.abs(mean[f]!) * 1e-9);
      expect(data.standardisation.std[f], `deviation of feature ${f}`).to.be.closeTo(std[f]!, std[f]! * 1e-9);
    }
  });
});
