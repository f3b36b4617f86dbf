/**
 * One training run (issue 19): the dataset of domain/src/ml/dataset.ts (features known at decision
 * time, a time-ordered split with a gap), the model of the chosen type fitted on the training rows,
 * the held-out test rows scored (domain/src/ml/evaluation.ts: accuracy, majority baseline, Wilson
 * interval, verdict), and the model serialised to bytes whose SHA-256 is its digest. Deterministic:
 * the same candles, parameters and seed give the same figures and the same bytes.
 *
 * - neural_network: TensorFlow.js (WebAssembly backend), Dense(hiddenUnits, relu) -> Dense(1,
 *   sigmoid), Glorot-uniform weights from `seed` and seed + 1, Adam, binary cross-entropy, batches of
 *   64 in time order (tfjs's shuffle draws from Math.random, so it is off).
 * - gradient_boosting: XGBoost (WebAssembly), binary:logistic, its `seed` for the row subsampling.
 * - logistic_regression: domain/src/ml/logistic-regression.ts (exact, no randomness).
 * The stored model is JSON: format, type, feature names, the training rows' standardisation, and the
 * model (tfjs topology and base64 weights; XGBoost's binary model in base64; the coefficients).
 */
import { createHash } from 'node:crypto';
import { buildDataset, type Dataset, type Standardisation } from '@papertrade/domain/ml/dataset';
import { evaluate, type Evaluation } from '@papertrade/domain/ml/evaluation';
import { FEATURE_COUNT, FEATURE_NAMES, type CandleColumnsInput } from '@papertrade/domain/ml/features';
import { predictLogistic, trainLogisticRegression } from '@papertrade/domain/ml/logistic-regression';
import type { GradientBoostingParameters, LogisticRegressionParameters, ModelParameters, ModelTypeId, NeuralNetworkParameters } from '@papertrade/domain/ml/model-types';
import type { LayersModel, Tensor } from '@tensorflow/tfjs';
import { tensorflow, xgboost, type Tf } from './wasm-runtimes';

export interface TrainingRun {
  evaluation: Evaluation;
  trainSamples: number;
  trainingTimeMs: number;
  /** The stored model (UTF-8 JSON) and its SHA-256, hex. */
  bytes: Buffer;
  digest: string;
  /** Probabilities of an up candle for the test rows (for the specs and the bench). */
  testProbabilities: Float64Array;
}

export interface StoredModel {
  format: 'papertrade-ml-1';
  modelType: ModelTypeId;
  features: readonly string[];
  standardisation: Standardisation;
  model: unknown;
}

type Progress = (fraction: number, message?: string) => void;

/** Trains and scores a model of `modelType` on the candles (oldest first); `clock` times the fit. */
export async function trainModel(
  candles: CandleColumnsInput,
  modelType: ModelTypeId,
  parameters: ModelParameters,
  options: { progress?: Progress; signal?: AbortSignal; clock?: () => number } = {},
): Promise<TrainingRun> {
  const clock = options.clock ?? (() => performance.now());
  const progress = options.progress ?? (() => {});
  const dataset = buildDataset(candles);
  progress(0.05, 'Features computed');
  const started = clock();
  const fitted = await fit(modelType, parameters, dataset, progress, options.signal);
  const trainingTimeMs = Math.round(clock() - started);
  const testProbabilities = fitted.predict(dataset.test.x, dataset.test.rows);
  const evaluation = evaluate(testProbabilities, dataset.test.y);
  const stored: StoredModel = { format: 'papertrade-ml-1', modelType, features: FEATURE_NAMES, standardisation: dataset.standardisation, model: fitted.serialised };
  const bytes = Buffer.from(JSON.stringify(stored), 'utf8');
  progress(1, 'Scored on held-out candles');
  return { evaluation, trainSamples: dataset.train.rows, trainingTimeMs, bytes, digest: createHash('sha256').update(bytes).digest('hex'), testProbabilities };
}

interface Fitted {
  predict(x: Float32Array, rows: number): Float64Array;
  serialised: unknown;
}

function fit(modelType: ModelTypeId, parameters: ModelParameters, dataset: Dataset, progress: Progress, signal?: AbortSignal): Promise<Fitted> {
  switch (modelType) {
    case 'logistic_regression':
      return Promise.resolve(fitLogistic(parameters as LogisticRegressionParameters, dataset, progress));
    case 'neural_network':
      return fitNeuralNetwork(parameters as NeuralNetworkParameters, dataset, progress, signal);
    case 'gradient_boosting':
      return fitGradientBoosting(parameters as GradientBoostingParameters, dataset, progress);
  }
}

function fitLogistic(parameters: LogisticRegressionParameters, dataset: Dataset, progress: Progress): Fitted {
  const model = trainLogisticRegression(dataset.train.x, dataset.train.y, dataset.train.rows, FEATURE_COUNT, parameters.l2, (i) => progress(Math.min(0.9, 0.05 + i * 0.08), `Newton step ${i}`));
  return { predict: (x, rows) => predictLogistic(model, x, rows, FEATURE_COUNT), serialised: { coefficients: model.coefficients } };
}

async function fitNeuralNetwork(parameters: NeuralNetworkParameters, dataset: Dataset, progress: Progress, signal?: AbortSignal): Promise<Fitted> {
  const tf = await tensorflow();
  // Fixed names: tfjs numbers unnamed layers per process, which would change the stored bytes (and the digest) run to run.
  const model = tf.sequential({ name: 'papertrade_mlp' });
  model.add(tf.layers.dense({ name: 'hidden', units: parameters.hiddenUnits, activation: 'relu', inputShape: [FEATURE_COUNT], kernelInitializer: tf.initializers.glorotUniform({ seed: parameters.seed }) }));
  model.add(tf.layers.dense({ name: 'output', units: 1, activation: 'sigmoid', kernelInitializer: tf.initializers.glorotUniform({ seed: parameters.seed + 1 }) }));
  model.compile({ optimizer: tf.train.adam(parameters.learningRate), loss: 'binaryCrossentropy' });
  const xs = tf.tensor2d(dataset.train.x, [dataset.train.rows, FEATURE_COUNT]);
  const ys = tf.tensor2d(Float32Array.from(dataset.train.y), [dataset.train.rows, 1]);
  try {
    await model.fit(xs, ys, {
      epochs: parameters.epochs,
      batchSize: 64,
      shuffle: false,
      verbose: 0,
      callbacks: {
        onEpochEnd: async (epoch) => {
          progress(0.05 + (0.9 * (epoch + 1)) / parameters.epochs, `Epoch ${epoch + 1} of ${parameters.epochs}`);
          if (signal?.aborted) model.stopTraining = true;
        },
      },
    });
  } finally {
    xs.dispose();
    ys.dispose();
  }
  const serialised = await new Promise<unknown>((resolve, reject) => {
    model
      .save(
        tf.io.withSaveHandler(async (artifacts) => {
          resolve({
            topology: artifacts.modelTopology,
            weightSpecs: artifacts.weightSpecs,
            weights: Buffer.from(artifacts.weightData as ArrayBuffer).toString('base64'),
          });
          return { modelArtifactsInfo: { dateSaved: new Date(0), modelTopologyType: 'JSON' } };
        }),
      )
      .catch(reject);
  });
  return {
    predict: (x, rows) => predictLayers(tf, model, x, rows),
    serialised,
  };
}

function predictLayers(tf: Tf, model: LayersModel, x: Float32Array, rows: number): Float64Array {
  const input = tf.tensor2d(x, [rows, FEATURE_COUNT]);
  const output = model.predict(input) as Tensor;
  try {
    return Float64Array.from(output.dataSync());
  } finally {
    input.dispose();
    output.dispose();
  }
}

function toRows(x: Float32Array, rows: number): number[][] {
  const out: number[][] = new Array(rows);
  for (let r = 0; r < rows; r++) out[r] = Array.from(x.subarray(r * FEATURE_COUNT, (r + 1) * FEATURE_COUNT));
  return out;
}

async function fitGradientBoosting(parameters: GradientBoostingParameters, dataset: Dataset, progress: Progress): Promise<Fitted> {
  const XGBoost = await xgboost();
  const booster = new XGBoost({
    booster: 'gbtree',
    objective: 'binary:logistic',
    max_depth: parameters.maxDepth,
    eta: parameters.learningRate,
    subsample: parameters.subsample,
    colsample_bytree: 1,
    min_child_weight: 1,
    seed: parameters.seed,
    nthread: 1,
    silent: 1,
    iterations: parameters.rounds,
  });
  progress(0.1, `Boosting ${parameters.rounds} rounds`);
  booster.train(toRows(dataset.train.x, dataset.train.rows), Array.from(dataset.train.y));
  const json = booster.toJSON();
  const bytes = Buffer.from(Uint8Array.from(json.model.map((b) => b & 0xff)));
  return {
    predict: (x, rows) => Float64Array.from(booster.predict(toRows(x, rows))),
    serialised: { xgboost: bytes.toString('base64'), options: json.options },
  };
}

/** Loads a stored model back and returns its probability function (a later process, the bot's strategies to come). */
export async function loadModel(bytes: Buffer): Promise<{ stored: StoredModel; predict(x: Float32Array, rows: number): Promise<Float64Array> }> {
  const stored = JSON.parse(bytes.toString('utf8')) as StoredModel;
  switch (stored.modelType) {
    case 'logistic_regression': {
      const model = stored.model as { coefficients: number[] };
      return { stored, predict: async (x, rows) => predictLogistic(model, x, rows, FEATURE_COUNT) };
    }
    case 'gradient_boosting': {
      const XGBoost = await xgboost();
      const model = stored.model as { xgboost: string; options: Record<string, unknown> };
      const booster = XGBoost.load({ name: 'ml-xgboost', model: Array.from(Buffer.from(model.xgboost, 'base64')), options: model.options });
      return { stored, predict: async (x, rows) => Float64Array.from(booster.predict(toRows(x, rows))) };
    }
    case 'neural_network': {
      const tf = await tensorflow();
      const model = stored.model as { topology: object; weightSpecs: never; weights: string };
      const weights = Buffer.from(model.weights, 'base64');
      const layers = await tf.loadLayersModel(tf.io.fromMemory({ modelTopology: model.topology, weightSpecs: model.weightSpecs, weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength) }));
      return {
        stored,
        predict: async (x, rows) => predictLayers(tf, layers, x, rows),
      };
    }
  }
}
