/**
 * The `model-training` long job (issue 19): reads the candles up to the request's `asOf`, trains and
 * scores the model (trainers.ts), stores the model in the `ml-models` document collection under its
 * digest (every process can load it from there: loadModel), then records ModelTrained on
 * `model-{userId}` with the figures and the digest, and returns `{digest, accuracy}` as the job's
 * result reference. A run that fails records ModelTrainingFailed with the reason (and the job fails).
 *
 * Safe to run again (a takeover after a worker died): the same candles and seed give the same bytes,
 * so the same document and digest, and the model stream records a job's end once. A run whose claim
 * was lost records nothing: the new holder does.
 */
import { z } from 'zod';
import type { JobInfo, JobResult } from '@papertrade/domain/jobs/job';
import { percent } from '@papertrade/domain/ml/evaluation';
import { MODEL_SYMBOL, MODEL_TRAINING_JOB_KIND, modelStreamId, type TrainedModel } from '@papertrade/domain/ml/model';
import { modelDecider } from '@papertrade/domain/ml/model.decider';
import { modelTypeIdSchema } from '@papertrade/domain/ml/contracts';
import { MAX_TRAINING_DAYS, MIN_TRAINING_DAYS, parameterSchemas } from '@papertrade/domain/ml/model-types';
import { SIGNAL_CANDLE_MINUTES } from '@papertrade/domain/signals/contracts';
import type { CommandHandler } from '@papertrade/platform/commands/command-handler';
import type { DocumentStore } from '@papertrade/platform/document-store/document-store';
import type { Logger } from '@papertrade/platform/config/logger';
import type { JobContext, JobKind } from '../jobs/job-runner';
import { trainModel } from './trainers';
import { trainingCandles, type IntervalCandleSource } from './training-candles';

export const ML_MODELS_COLLECTION = 'ml-models';
export const MODEL_TRAINER_ACTOR = 'model-trainer';

export type StoredModelDocument = { digest: string; modelType: string; bytes: number; content: string; storedAt: string };

export const modelTrainingParamsSchema = z
  .object({
    userId: z.string().min(1),
    modelType: modelTypeIdSchema,
    trainingDays: z.int().min(MIN_TRAINING_DAYS).max(MAX_TRAINING_DAYS),
    parameters: z.record(z.string(), z.unknown()),
    asOf: z.iso.datetime(),
  })
  .transform((p, ctx) => {
    const parameters = parameterSchemas[p.modelType].safeParse(p.parameters);
    if (!parameters.success) {
      ctx.addIssue({ code: 'custom', message: `parameters: ${parameters.error.issues[0]?.message ?? 'invalid'}` });
      return z.NEVER;
    }
    return { ...p, parameters: parameters.data };
  });

export interface ModelTrainingDeps {
  handler: CommandHandler;
  documents: DocumentStore;
  candles: IntervalCandleSource;
  clock: () => Date;
  logger: Logger;
}

export function modelTrainingJob(deps: ModelTrainingDeps): JobKind {
  const models = deps.documents.collection<StoredModelDocument>(ML_MODELS_COLLECTION);
  const record = (userId: string, jobId: string, command: Parameters<typeof modelDecider.decide>[0]) =>
    deps.handler.handle(modelDecider, modelStreamId(userId), command, { actor: MODEL_TRAINER_ACTOR, correlationId: jobId });

  return {
    kind: MODEL_TRAINING_JOB_KIND,
    // Every worker that claimed it stopped: the user's pending training ends as failed, so they may ask again.
    async gaveUp(job: JobInfo, reason: string) {
      const userId = (job.params as { userId?: unknown }).userId;
      if (typeof userId !== 'string') return;
      await record(userId, job.jobId, { type: 'RecordModelTrainingFailed', data: { userId, jobId: job.jobId, reason: reason.slice(0, 300) }, metadata: { now: deps.handler.now() } });
    },
    async run(job: JobInfo, context: JobContext): Promise<JobResult> {
      const parsed = modelTrainingParamsSchema.safeParse(job.params);
      if (!parsed.success) throw new Error(`The training request is not valid: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      const p = parsed.data;
      try {
        context.progress(0.01, 'Reading candles');
        const candles = trainingCandles(deps.candles, Date.parse(p.asOf), p.trainingDays);
        const run = await trainModel(candles, p.modelType, p.parameters, { progress: context.progress, signal: context.signal });
        if (context.signal.aborted) throw context.signal.reason as Error;
        await models.put(run.digest, { digest: run.digest, modelType: p.modelType, bytes: run.bytes.length, content: run.bytes.toString('utf8'), storedAt: deps.clock().toISOString() });
        const e = run.evaluation;
        const model: TrainedModel = {
          modelType: p.modelType,
          trainingDays: p.trainingDays,
          parameters: p.parameters,
          jobId: job.jobId,
          symbol: MODEL_SYMBOL,
          candleMinutes: SIGNAL_CANDLE_MINUTES,
          asOf: p.asOf,
          trainSamples: run.trainSamples,
          testSamples: e.testSamples,
          correct: e.correct,
          majority: e.majority,
          accuracy: percent(e.accuracy, 2),
          baseline: percent(e.baseline, 2),
          low: percent(e.low, 2),
          high: percent(e.high, 2),
          verdict: e.verdict,
          trainingTimeMs: run.trainingTimeMs,
          digest: run.digest,
          trainedAt: deps.clock().toISOString(),
        };
        if (context.signal.aborted) throw context.signal.reason as Error;
        await record(p.userId, job.jobId, { type: 'RecordModelTrained', data: { userId: p.userId, model }, metadata: { now: deps.handler.now() } });
        deps.logger.info('model trained', { jobId: job.jobId, modelType: p.modelType, trainingDays: p.trainingDays, accuracy: model.accuracy, baseline: model.baseline, verdict: model.verdict, trainingTimeMs: model.trainingTimeMs });
        return { digest: run.digest, accuracy: model.accuracy };
      } catch (error) {
        if (!context.signal.aborted) {
          const reason = error instanceof Error ? error.message : String(error);
          await record(p.userId, job.jobId, { type: 'RecordModelTrainingFailed', data: { userId: p.userId, jobId: job.jobId, reason: reason.slice(0, 300) }, metadata: { now: deps.handler.now() } }).catch(() => {});
        }
        throw error;
      }
    },
  };
}
