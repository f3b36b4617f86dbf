/**
 * POST /api/ml/create-model and POST /api/ml/retrain (issue 19): any signed-in user trains their own
 * model (visitors get 401), at most ML_TRAININGS_PER_DAY requests a UTC day (429) and one at a time
 * (409 naming the running job: a second request is refused, not queued, so a double click never
 * trains twice). Both answer at once, 202 with the job: the training runs in a workers process
 * (the long-job system) and its end reaches the user's sockets as ML_UPDATE, after which GET
 * /api/ml-status has the figures.
 *
 * The request is two appends: ModelTrainingRequested on `model-{userId}` (where the one-at-a-time and
 * daily rules are decided, under the stream's optimistic check) and JobRequested on `job-{jobId}`. If
 * the second fails the first stands without a job; the model stream stops counting such a request
 * as pending after PENDING_EXPIRY_MS (model.decider.ts), and a retried request with the same
 * Idempotency-Key writes the missing job.
 */
import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import { noBodySchema } from '@papertrade/domain/api/shared';
import { jobStreamId } from '@papertrade/domain/jobs/job';
import { jobDecider } from '@papertrade/domain/jobs/job.decider';
import { createModelRequestSchema, type TrainingJobResponse } from '@papertrade/domain/ml/contracts';
import { ML_STATUS_PROJECTION, type MlStatusView } from '@papertrade/domain/ml/ml-status-view';
import { HOUSE_MODEL_USER_ID, HOUSE_SETTINGS, MODEL_TRAINING_JOB_KIND, modelStreamId, trainingAsOf, type ModelTrainingRequested, type TrainingSettings } from '@papertrade/domain/ml/model';
import { modelDecider } from '@papertrade/domain/ml/model.decider';
import { IllegalStateError } from '@papertrade/domain/shared/errors';
import { idempotentId } from '@papertrade/platform/commands/command-handler';
import { currentUser, requireUser } from '@papertrade/platform/auth/guards';
import { jsonBody, parseBody } from '@papertrade/platform/http/body';
import type { CommandApiDeps } from '../deps';
import { commandMeta } from '../request-meta';

export function mlRoutes(deps: CommandApiDeps): Router {
  const router = new Router();

  /** What a user with no model of their own retrains: the house model they see. */
  async function houseSettings(): Promise<TrainingSettings> {
    const house = await (await deps.readModels.collection<MlStatusView>(ML_STATUS_PROJECTION)).get(HOUSE_MODEL_USER_ID);
    const current = house?.current;
    return current ? { modelType: current.modelType, trainingDays: current.trainingDays, parameters: current.parameters } : HOUSE_SETTINGS;
  }

  async function requestTraining(ctx: Context, body: unknown, settings: TrainingSettings | null): Promise<TrainingJobResponse> {
    const user = currentUser(ctx);
    const meta = commandMeta(ctx, user.id, deps.requestHashKey, body);
    // With an Idempotency-Key the job id follows from it, so a retry names the same job.
    const jobId = meta.idempotency ? idempotentId(meta.idempotency, 'job') : randomUUID();
    const now = deps.handler.now();
    const result = await deps.handler.handle(
      modelDecider,
      modelStreamId(user.id),
      {
        type: 'RequestModelTraining',
        data: {
          userId: user.id,
          jobId,
          reason: settings ? 'create' : 'retrain',
          settings,
          fallback: await houseSettings(),
          asOf: new Date(trainingAsOf(Date.parse(now))).toISOString(),
          dailyLimit: deps.config.ML_TRAININGS_PER_DAY,
        },
        metadata: { now },
      },
      meta,
    );
    const requested = result.events.find((e): e is ModelTrainingRequested => e.type === 'ModelTrainingRequested');
    if (!requested) throw new IllegalStateError('The training was not requested');
    const r = requested.data;
    const job = await deps.handler.handle(
      jobDecider,
      jobStreamId(r.jobId),
      { type: 'RequestJob', data: { jobId: r.jobId, kind: MODEL_TRAINING_JOB_KIND, params: { userId: user.id, modelType: r.modelType, trainingDays: r.trainingDays, parameters: r.parameters, asOf: r.asOf }, requestedBy: user.id }, metadata: { now: deps.handler.now() } },
      { actor: user.id, correlationId: meta.correlationId },
    );
    deps.logger.info('model training requested', { userId: user.id, jobId: r.jobId, modelType: r.modelType, trainingDays: r.trainingDays, replayed: result.replayed });
    ctx.status = 202;
    return { jobId: r.jobId, modelType: r.modelType, trainingDays: r.trainingDays, status: 'QUEUED', accuracy: null, position: job.position ?? result.position ?? null };
  }

  router.post('/api/ml/create-model', requireUser, jsonBody, async (ctx) => {
    const body = parseBody(ctx, createModelRequestSchema);
    ctx.body = await requestTraining(ctx, body, body);
  });

  router.post('/api/ml/retrain', requireUser, jsonBody, async (ctx) => {
    const body = parseBody(ctx, noBodySchema);
    ctx.body = await requestTraining(ctx, body, null);
  });

  return router;
}
