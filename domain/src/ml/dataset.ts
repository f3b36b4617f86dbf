/**
 * The training and test sets of one training run (issue 19, DESIGN.md sections 6 and 9): rows are
 * candles in time order; the first TRAIN_SHARE of the labelled rows train, then GAP_ROWS rows are
 * dropped, and the rest is held out for the test. A training row's label reads the next candle, and a
 * test row's features read LONGEST_FEATURE_WINDOW candles back: with the gap at least that long, no
 * test row's window contains a candle a training label saw, so nothing the model learned from
 * overlaps what it is scored on. Standardisation (mean and deviation per feature) is fitted on the
 * training rows only and applied to both.
 */
import { computeFeatures, FEATURE_COUNT, LONGEST_FEATURE_WINDOW, nextCandleLabels, type CandleColumnsInput } from './features';

export const TRAIN_SHARE = 0.7;
/** Rows dropped between the training and the test rows: the longest feature window, plus the label's one candle. */
export const GAP_ROWS = LONGEST_FEATURE_WINDOW + 1;
/** Fewer test rows than this cannot tell an edge from luck: the run is refused. */
export const MIN_TEST_ROWS = 200;

export interface Standardisation {
  mean: number[];
  std: number[];
}

export interface Split {
  x: Float32Array;
  y: Uint8Array;
  rows: number;
}

export interface Dataset {
  features: number;
  train: Split;
  test: Split;
  standardisation: Standardisation;
  /** Candle times (ms) of the first and last rows of each part. */
  trainFrom: number;
  trainTo: number;
  testFrom: number;
  testTo: number;
}

export class NotEnoughDataError extends Error {}

export function buildDataset(candles: CandleColumnsInput): Dataset {
  const features = computeFeatures(candles);
  const labels = nextCandleLabels(candles.close);
  // The last row is the last candle's (features.ts: rows run to the series' end), which has no next one: no label.
  const labelled = Math.max(0, features.rows - 1);
  const trainRows = Math.floor(labelled * TRAIN_SHARE);
  const testStart = trainRows + GAP_ROWS;
  const testRows = labelled - testStart;
  if (trainRows < MIN_TEST_ROWS || testRows < MIN_TEST_ROWS) {
    throw new NotEnoughDataError(`Not enough candles to train and test: ${candles.close.length} candles give ${Math.max(0, trainRows)} training and ${Math.max(0, testRows)} test rows; at least ${MIN_TEST_ROWS} of each are needed`);
  }
  const mean = new Array<number>(FEATURE_COUNT).fill(0);
  const std = new Array<number>(FEATURE_COUNT).fill(0);
  for (let r = 0; r < trainRows; r++) for (let f = 0; f < FEATURE_COUNT; f++) mean[f]! += features.values[r * FEATURE_COUNT + f]!;
  for (let f = 0; f < FEATURE_COUNT; f++) mean[f] = mean[f]! / trainRows;
  for (let r = 0; r < trainRows; r++) for (let f = 0; f < FEATURE_COUNT; f++) std[f]! += (features.values[r * FEATURE_COUNT + f]! - mean[f]!) ** 2;
  for (let f = 0; f < FEATURE_COUNT; f++) std[f] = Math.sqrt(std[f]! / trainRows) || 1;
  const standardisation = { mean, std };
  const split = (from: number, rows: number): Split => {
    const x = new Float32Array(rows * FEATURE_COUNT);
    const y = new Uint8Array(rows);
    for (let r = 0; r < rows; r++) {
      const source = from + r;
      for (let f = 0; f < FEATURE_COUNT; f++) x[r * FEATURE_COUNT + f] = (features.values[source * FEATURE_COUNT + f]! - mean[f]!) / std[f]!;
      y[r] = labels[features.index[source]!]!;
    }
    return { x, y, rows };
  };
  const timeOf = (row: number) => Number(candles.time[features.index[row]!]);
  return {
    features: FEATURE_COUNT,
    train: split(0, trainRows),
    test: split(testStart, testRows),
    standardisation,
    trainFrom: timeOf(0),
    trainTo: timeOf(trainRows - 1),
    testFrom: timeOf(testStart),
    testTo: timeOf(labelled - 1),
  };
}
