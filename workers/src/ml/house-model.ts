/**
 * The house model (issue 19): what visitors, and users without a model of their own, see in the ML
 * panel. A workers process that starts with no house model trained asks for one as a long job (the
 * spec's defaults: Neural Network, 30 days), like any user's, so GET /api/ml-status answers something
 * measured; until it ends the status says it is training. Several processes starting together ask
 * once: the model stream takes one request (a second is refused while one is pending), and the job's
 * id derives from the request so a process that finds the request without its job writes the job.
 */
import { HOUSE_MODEL_USER_ID, HOUSE_SETTINGS, MODEL_TRAINING_JOB_KIND, modelStreamId, trainingAsOf } from '@papertrade/domain/ml/model';
import { modelDecider } from '@papertrade/domain/ml/model.decider';
import { DomainError } from '@papertrade/domain/shared/errors';
import type { CommandHandler } from '@papertrade/platform/commands/command-handler';
import type { Logger } from '@papertrade/platform/config/logger';
import { jobIdFor, requestJob } from '../jobs/job-runner';

export const HOUSE_MODEL_ACTOR = 'house-model';

/** Asks for the house model's first training unless it has one or one is pending (and makes sure its job exists). */
export async function ensureHouseModel(deps: { handler: CommandHandler; clock: () => Date; logger: Logger }): Promise<void> {
  const { handler } = deps;
  const loaded = await handler.load(modelDecider, modelStreamId(HOUSE_MODEL_USER_ID));
  if (loaded.state.current) return;
  let pending = loaded.state.pending;
  if (!pending) {
    const asOf = new Date(trainingAsOf(deps.clock().getTime())).toISOString();
    const jobId = jobIdFor(`house-model@${asOf}`);
    try {
      const result = await handler.handle(
        modelDecider,
        modelStreamId(HOUSE_MODEL_USER_ID),
        { type: 'RequestModelTraining', data: { userId: HOUSE_MODEL_USER_ID, jobId, reason: 'house', settings: HOUSE_SETTINGS, fallback: HOUSE_SETTINGS, asOf, dailyLimit: null }, metadata: { now: handler.now() } },
        { actor: HOUSE_MODEL_ACTOR, correlationId: jobId },
      );
      const event = result.events[0];
      if (event?.type !== 'ModelTrainingRequested') return;
      pending = { ...event.data };
      deps.logger.info('house model requested', { jobId });
    } catch (error) {
      // Another process asked first (409): it writes the job.
      if (error instanceof DomainError && error.status === 409) return;
      throw error;
    }
  }
  const { modelType, trainingDays, parameters, asOf, jobId } = pending;
  await requestJob(handler, { jobId, kind: MODEL_TRAINING_JOB_KIND, params: { userId: HOUSE_MODEL_USER_ID, modelType, trainingDays, parameters, asOf }, requestedBy: HOUSE_MODEL_USER_ID }, { actor: HOUSE_MODEL_ACTOR });
}
