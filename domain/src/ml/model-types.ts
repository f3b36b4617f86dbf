/**
 * The model types (issue 19) and their parameters, each with its bounds and default. `seed` makes a
 * training run deterministic: the same data, parameters and seed give the same model and the same
 * held-out figure (the logistic regression has no randomness and no seed).
 */
import { z } from 'zod';

export const modelTypeIds = ['neural_network', 'gradient_boosting', 'logistic_regression'] as const;
export type ModelTypeId = (typeof modelTypeIds)[number];
export const DEFAULT_MODEL_TYPE: ModelTypeId = 'neural_network';

const seed = z.int('seed must be a whole number').min(0, 'seed must be from 0 to 2147483647').max(2_147_483_647, 'seed must be from 0 to 2147483647').default(42);
const whole = (name: string, min: number, max: number, fallback: number) =>
  z.int(`${name} must be a whole number from ${min} to ${max}`).min(min, `${name} must be from ${min} to ${max}`).max(max, `${name} must be from ${min} to ${max}`).default(fallback);
const real = (name: string, min: number, max: number, fallback: number) =>
  z.number(`${name} must be a number from ${min} to ${max}`).min(min, `${name} must be from ${min} to ${max}`).max(max, `${name} must be from ${min} to ${max}`).default(fallback);

export const neuralNetworkParametersSchema = z.strictObject({
  hiddenUnits: whole('hiddenUnits', 2, 64, 16),
  epochs: whole('epochs', 1, 100, 10),
  learningRate: real('learningRate', 0.0001, 0.1, 0.003),
  seed,
});
export const gradientBoostingParametersSchema = z.strictObject({
  maxDepth: whole('maxDepth', 1, 8, 3),
  rounds: whole('rounds', 10, 500, 100),
  learningRate: real('learningRate', 0.01, 1, 0.1),
  subsample: real('subsample', 0.5, 1, 0.8),
  seed,
});
export const logisticRegressionParametersSchema = z.strictObject({
  l2: real('l2', 0, 100, 1),
});

export const parameterSchemas = {
  neural_network: neuralNetworkParametersSchema,
  gradient_boosting: gradientBoostingParametersSchema,
  logistic_regression: logisticRegressionParametersSchema,
} as const satisfies Record<ModelTypeId, z.ZodType>;

export type NeuralNetworkParameters = z.output<typeof neuralNetworkParametersSchema>;
export type GradientBoostingParameters = z.output<typeof gradientBoostingParametersSchema>;
export type LogisticRegressionParameters = z.output<typeof logisticRegressionParametersSchema>;
export type ModelParameters = NeuralNetworkParameters | GradientBoostingParameters | LogisticRegressionParameters;

export interface ModelTypeInfo {
  id: ModelTypeId;
  name: string;
  description: string;
  complexity: 'Low' | 'Medium' | 'High';
}

export const modelTypes: readonly ModelTypeInfo[] = [
  {
    id: 'neural_network',
    name: 'Neural Network',
    description: 'A small multilayer perceptron (one hidden ReLU layer, a sigmoid output) trained with Adam on TensorFlow.js (WebAssembly backend).',
    complexity: 'High',
  },
  {
    id: 'gradient_boosting',
    name: 'Gradient Boosting',
    description: 'Boosted decision trees (XGBoost compiled to WebAssembly, logistic objective).',
    complexity: 'Medium',
  },
  {
    id: 'logistic_regression',
    name: 'Logistic Regression',
    description: "A linear model of the features with an L2 penalty, fitted exactly by Newton's method.",
    complexity: 'Low',
  },
];

export function modelTypeInfo(id: ModelTypeId): ModelTypeInfo {
  return modelTypes.find((t) => t.id === id)!;
}

/** The parameters of a type with every default filled in (throws on bad input: callers validate first). */
export function parametersOf(modelType: ModelTypeId, parameters: unknown): ModelParameters {
  return parameterSchemas[modelType].parse(parameters ?? {});
}

/** The days of candles a model may train on, and the default (spec section 9: creation sends 30). */
export const MIN_TRAINING_DAYS = 7;
export const MAX_TRAINING_DAYS = 365;
export const DEFAULT_TRAINING_DAYS = 30;
