/**
 * The ML slice's HTTP contracts (issue 19): POST /api/ml/create-model, POST /api/ml/retrain,
 * GET /api/ml-status, GET /api/ml/model-types. web/ imports them.
 *
 * Training is a long job: the POSTs answer at once (202) with the job, and the client learns the end
 * from ML_UPDATE on its socket (then reads ml-status). Accuracy, baseline and the interval are
 * percents of the held-out test candles; the verdict is "edge" only when the interval's lower bound
 * is above the majority-class baseline.
 */
import { z } from 'zod';
import { commandPositionSchema } from '../api/shared';
import { DEFAULT_TRAINING_DAYS, MAX_TRAINING_DAYS, MIN_TRAINING_DAYS, modelTypeIds, parameterSchemas, type ModelTypeId } from './model-types';
import { addIssueAt } from '../shared/issues';

export const modelTypeIdSchema = z.enum(modelTypeIds, { error: () => `modelType must be one of ${modelTypeIds.join(', ')}` });

const trainingDaysSchema = z
  .int(`trainingDays must be a whole number from ${MIN_TRAINING_DAYS} to ${MAX_TRAINING_DAYS}`)
  .min(MIN_TRAINING_DAYS, `trainingDays must be from ${MIN_TRAINING_DAYS} to ${MAX_TRAINING_DAYS}`)
  .max(MAX_TRAINING_DAYS, `trainingDays must be from ${MIN_TRAINING_DAYS} to ${MAX_TRAINING_DAYS}`);

/**
 * `parameters`: the type's own (model-types.ts: each with bounds and a default; unknown names are
 * refused); `{}` (the spec's client) takes every default.
 */
export const createModelRequestSchema = z
  .strictObject({
    modelType: modelTypeIdSchema,
    trainingDays: trainingDaysSchema.default(DEFAULT_TRAINING_DAYS),
    parameters: z.record(z.string(), z.unknown(), 'parameters must be an object').default({}),
  })
  .transform((body, ctx) => {
    const parsed = parameterSchemas[body.modelType].safeParse(body.parameters);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        addIssueAt(ctx, ['parameters', ...issue.path.map(String)], issue.code === 'unrecognized_keys' ? `unknown parameter for ${body.modelType}: ${issue.keys.join(', ')}` : issue.message);
      }
      return z.NEVER;
    }
    return { modelType: body.modelType as ModelTypeId, trainingDays: body.trainingDays, parameters: parsed.data };
  });
export type CreateModelRequest = z.output<typeof createModelRequestSchema>;

/** What the POSTs answer: the job that trains the model (accuracy comes when it ends). */
export const trainingJobResponseSchema = z.object({
  jobId: z.string(),
  modelType: modelTypeIdSchema,
  trainingDays: z.number(),
  status: z.literal('QUEUED'),
  /** Always null here: the accuracy is measured by the job (ML_UPDATE, then GET /api/ml-status). */
  accuracy: z.null(),
  position: commandPositionSchema,
});
export type TrainingJobResponse = z.infer<typeof trainingJobResponseSchema>;

const percentSchema = z.number().min(0).max(100);

export const mlStatusResponseSchema = z.object({
  modelType: modelTypeIdSchema,
  modelName: z.string(),
  trainingDataDays: z.number(),
  /** Held-out accuracy in percent (1 decimal); null before the first training ends. */
  accuracy: percentSchema.nullable(),
  /** The majority-class baseline of the same test candles, percent. */
  baseline: percentSchema.nullable(),
  /** The accuracy's 95 % Wilson interval, percent. */
  interval: z.object({ low: percentSchema, high: percentSchema }).nullable(),
  verdict: z.enum(['edge', 'no edge']).nullable(),
  testSamples: z.number().nullable(),
  /** When the model was trained (ISO); null before the first training ends (the panel says 'Never'). */
  lastTraining: z.string().nullable(),
  /** Whose model this is: the caller's own, or the house model everyone without one sees. */
  owner: z.enum(['own', 'house']),
  /** READY: figures measured; TRAINING: the first training has not ended yet. */
  status: z.enum(['READY', 'TRAINING', 'NOT_TRAINED']),
  /** A training of this model under way, with its place in the queue (0 once it runs). */
  training: z
    .object({ jobId: z.string(), status: z.enum(['QUEUED', 'RUNNING']), queuePosition: z.number(), requestedAt: z.string(), modelType: modelTypeIdSchema, trainingDays: z.number() })
    .nullable(),
  lastFailure: z.object({ jobId: z.string(), reason: z.string(), at: z.string() }).nullable(),
  /** The job of the last training that ended (trained or failed), to match an answer to its request. */
  lastJobId: z.string().nullable(),
  /** The symbol and candle width learned, and the end of the training data. */
  symbol: z.string(),
  candleMinutes: z.number(),
  dataAsOf: z.string().nullable(),
});
export type MlStatusResponse = z.infer<typeof mlStatusResponseSchema>;

export const modelTypesResponseSchema = z.object({
  types: z.array(
    z.object({
      id: modelTypeIdSchema,
      name: z.string(),
      description: z.string(),
      complexity: z.enum(['Low', 'Medium', 'High']),
      /** Held-out accuracy (percent) of the last training of this type by anyone; null: not measured yet. */
      accuracy: percentSchema.nullable(),
      baseline: percentSchema.nullable(),
      verdict: z.enum(['edge', 'no edge']).nullable(),
      /** The last training's duration in words ('4.2 s'), or 'not measured yet'. */
      trainingTime: z.string(),
      trainingTimeMs: z.number().nullable(),
      /** The days of candles that last training used, and when it ended. */
      measuredOn: z.object({ trainingDays: z.number(), trainedAt: z.string() }).nullable(),
      /** The parameters with their defaults. */
      defaults: z.record(z.string(), z.number()),
    }),
  ),
});
export type ModelTypesResponse = z.infer<typeof modelTypesResponseSchema>;

export const NOT_MEASURED_YET = 'not measured yet';

export function trainingTimeText(ms: number | null): string {
  if (ms === null) return NOT_MEASURED_YET;
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 60_000).toFixed(1)} min`;
}

/** Confidence text of an accuracy (spec section 9): above 80 High, above 60 Medium, otherwise Low. */
export function accuracyLevel(accuracy: number): 'High' | 'Medium' | 'Low' {
  return accuracy > 80 ? 'High' : accuracy > 60 ? 'Medium' : 'Low';
}
