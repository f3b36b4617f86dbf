/**
 * GET /api/ml-status and GET /api/ml/model-types (issue 19), from read models.
 *
 * - ml-status: a signed-in caller with a model of their own (trained, or its first training under
 *   way) gets theirs; everyone else (visitors too) the house model's, which the workers train on
 *   first start (workers/src/ml/house-model.ts): 'TRAINING' until it ends. A training under way
 *   carries its place in the queue (the jobs read model: the queued model trainings asked before it).
 * - model-types: the catalogue, each type with the figures of the last training of that type by
 *   anyone (the house or any user), or 'not measured yet'.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { noQuerySchema } from '@papertrade/domain/api/shared';
import { JOBS_PROJECTION, type JobView } from '@papertrade/domain/jobs/job-queue-view';
import { trainingTimeText, type MlStatusResponse, type ModelTypesResponse } from '@papertrade/domain/ml/contracts';
import { ML_MODEL_TYPES_PROJECTION, ML_STATUS_PROJECTION, mlStatusResponse, shownPercent, type MlStatusView, type ModelTypeStatsView } from '@papertrade/domain/ml/ml-status-view';
import { HOUSE_MODEL_USER_ID, MODEL_TRAINING_JOB_KIND } from '@papertrade/domain/ml/model';
import { modelTypes, parameterSchemas } from '@papertrade/domain/ml/model-types';
import { currentUser } from '@papertrade/platform/auth/guards';
import { parseQuery } from '@papertrade/platform/http/body';
import { readsFrom } from '@papertrade/platform/http/min-position';
import { readsOwnWrites } from '@papertrade/platform/http/own-writes';
import type { ReadModels } from '@papertrade/platform/projections/read-models';
import type { QueryApiDeps } from '../deps';

/** A training's place in the queue (the queued model trainings asked before it, plus one; 0 once running); null without one. */
export async function trainingPlace(readModels: ReadModels, training: MlStatusView['training']): Promise<{ status: 'QUEUED' | 'RUNNING'; queuePosition: number } | null> {
  if (!training) return null;
  const jobs = await readModels.collection<JobView>(JOBS_PROJECTION);
  const job = await jobs.get(training.jobId);
  if (job?.status === 'RUNNING') return { status: 'RUNNING', queuePosition: 0 };
  const requestedAtMs = job?.requestedAtMs ?? Date.parse(training.requestedAt);
  const ahead = await jobs.count({ kind: MODEL_TRAINING_JOB_KIND, status: 'QUEUED' }, { field: 'requestedAtMs', lt: requestedAtMs });
  return { status: 'QUEUED', queuePosition: ahead + 1 };
}

/**
 * GET /api/ml-status's answer: the user's own model when they have one (trained, training or failed),
 * else the house model's (visitors: no user). The assistant's get_model_status reads the same.
 */
export async function mlStatusOf(readModels: ReadModels, userId: string | undefined): Promise<MlStatusResponse> {
  const statuses = await readModels.collection<MlStatusView>(ML_STATUS_PROJECTION);
  const own = userId ? await statuses.get(userId) : null;
  const mine = own && (own.current || own.training || own.lastFailure) ? own : null;
  const view = mine ?? (await statuses.get(HOUSE_MODEL_USER_ID));
  return mlStatusResponse(view, mine ? 'own' : 'house', await trainingPlace(readModels, view?.training ?? null));
}

export function mlRoutes(deps: QueryApiDeps): Router {
  const router = new Router();
  const reads = readsOwnWrites(deps.ownWrites);
  const noQuery = async (ctx: Context, next: () => Promise<unknown>) => {
    parseQuery(ctx, noQuerySchema);
    await next();
  };

  router.get('/api/ml-status', noQuery, reads(ML_STATUS_PROJECTION, JOBS_PROJECTION), async (ctx) => {
    // A token sent must be good (401 otherwise), as for the portfolio: only its absence means a visitor.
    const user = ctx.get('authorization') ? currentUser(ctx) : undefined;
    ctx.body = await mlStatusOf(deps.readModels, user?.id);
  });

  router.get('/api/ml/model-types', noQuery, readsFrom(deps.readModels, ML_MODEL_TYPES_PROJECTION), async (ctx) => {
    const stats = await deps.readModels.collection<ModelTypeStatsView>(ML_MODEL_TYPES_PROJECTION);
    const measured = new Map((await stats.find()).map((s) => [s.modelType, s]));
    const body: ModelTypesResponse = {
      types: modelTypes.map((t) => {
        const m = measured.get(t.id);
        return {
          ...t,
          accuracy: m ? shownPercent(m.accuracy) : null,
          baseline: m ? shownPercent(m.baseline) : null,
          verdict: m?.verdict ?? null,
          trainingTime: trainingTimeText(m?.trainingTimeMs ?? null),
          trainingTimeMs: m?.trainingTimeMs ?? null,
          measuredOn: m ? { trainingDays: m.trainingDays, trainedAt: m.trainedAt } : null,
          defaults: parameterSchemas[t.id].parse({}) as Record<string, number>,
        };
      }),
    };
    ctx.body = body;
  });

  return router;
}
