/**
 * The daily auto-retrain worker (Settings' autoRetrain, issue 21; the rule is domain/src/ml/auto-retrain.ts):
 * every round it asks the `ml-status` read model for the models trained more than a day ago (one range
 * query on `trainedAtMs`, oldest first, a batch at a time, so a round's cost follows the models due,
 * not the users), keeps those whose owner has autoRetrain on (the `risk` documents, read together) and
 * requests a 'scheduled' training of each through the model trainer: RequestModelTraining on
 * `model-{userId}` and the long job, as POST /api/ml/retrain does, with the job's id derived from the
 * user and the UTC day.
 *
 * Once a day, also with several workers processes: the model stream takes one pending training (a
 * second request is a 409, passed over) and the job id follows from the user and day, so a process that
 * finds a scheduled request without its job (the other died between the two appends) writes the same
 * job, and a job that exists is left as it is. A model the round could not request (a failure) is
 * tried again the next round.
 */
import { AUTO_RETRAIN_AFTER_MS, autoRetrainCheck, autoRetrainKey } from '@papertrade/domain/ml/auto-retrain';
import { HOUSE_SETTINGS, MODEL_TRAINING_JOB_KIND, modelStreamId, trainingAsOf } from '@papertrade/domain/ml/model';
import { modelDecider } from '@papertrade/domain/ml/model.decider';
import { ML_STATUS_PROJECTION, type MlStatusView } from '@papertrade/domain/ml/ml-status-view';
import { DomainError } from '@papertrade/domain/shared/errors';
import { RISK_PROJECTION, riskProfileOf, type RiskView } from '@papertrade/domain/trading/trading-view';
import { DEFAULT_RISK_PROFILE } from '@papertrade/domain/trading/contracts';
import type { CommandHandler } from '@papertrade/platform/commands/command-handler';
import type { Logger } from '@papertrade/platform/config/logger';
import type { ReadModels } from '@papertrade/platform/projections/read-models';
import { jobIdFor, requestJob } from '../jobs/job-runner';
import { PeriodicRounds } from '../periodic-rounds';
import type { Timer } from '../signal-engine';

export const AUTO_RETRAIN_ACTOR = 'auto-retrain';
/** How often a round runs: a model is retrained at most this late after it turned a day old. */
export const AUTO_RETRAIN_INTERVAL_MS = 15 * 60_000;
/** Models considered per round at most (the next round takes the rest). */
const BATCH = 200;

export interface AutoRetrainDeps {
  readModels: ReadModels;
  handler: CommandHandler;
  clock: () => Date;
  logger: Logger;
  timer?: Timer;
  intervalMs?: number;
}

export interface AutoRetrainStatus {
  name: 'auto-retrain';
  running: boolean;
  rounds: number;
  requested: number;
  failures: number;
  lastRoundAt: string | null;
  lastError: string | null;
}

export class AutoRetrainer {
  private readonly periodic: PeriodicRounds;
  private rounds = 0;
  private requested = 0;
  private failures = 0;
  private lastRoundAt: string | null = null;
  private lastError: string | null = null;

  constructor(private readonly deps: AutoRetrainDeps) {
    // Counted and logged in runOnce; the next round tries again.
    this.periodic = new PeriodicRounds(() => this.runOnce(), deps.intervalMs ?? AUTO_RETRAIN_INTERVAL_MS, deps.timer);
  }

  /** A round now, then one every intervalMs until `stop`. Starting twice is harmless. */
  start(): void {
    this.periodic.start();
  }

  stop(): Promise<void> {
    return this.periodic.stop();
  }

  status(): AutoRetrainStatus {
    const { rounds, requested, failures, lastRoundAt, lastError } = this;
    return { name: 'auto-retrain', running: this.periodic.isRunning, rounds, requested, failures, lastRoundAt, lastError };
  }

  /** One round: requests the retraining of every model due (up to a batch). Returns the user ids it requested. */
  async runOnce(): Promise<string[]> {
    const now = this.deps.clock();
    const nowMs = now.getTime();
    this.rounds++;
    this.lastRoundAt = now.toISOString();
    const done: string[] = [];
    try {
      const statuses = await this.deps.readModels.collection<MlStatusView>(ML_STATUS_PROJECTION);
      await statuses.ensureIndex('trainedAtMs', 'sort');
      const old = await statuses.find({ range: { field: 'trainedAtMs', gte: 0, lt: nowMs - AUTO_RETRAIN_AFTER_MS + 1 }, sort: [{ field: 'trainedAtMs', direction: 'asc' }], limit: BATCH });
      if (old.length === 0) return done;
      const risks = await (await this.deps.readModels.collection<RiskView>(RISK_PROJECTION)).getManyWithPosition(old.map((v) => v.userId));
      const autoRetrain = new Map(risks.map((r) => [r.id, riskProfileOf(r.doc).autoRetrain]));
      for (const view of old) {
        // No risk document yet: the profile's default (on).
        if (!autoRetrainCheck(view, autoRetrain.get(view.userId) ?? DEFAULT_RISK_PROFILE.autoRetrain, nowMs).due) continue;
        try {
          if (await this.request(view.userId, now)) done.push(view.userId);
        } catch (error) {
          this.failures++;
          this.lastError = error instanceof Error ? error.message : String(error);
          this.deps.logger.warn('auto-retrain request failed', { userId: view.userId, error: this.lastError });
        }
      }
    } catch (error) {
      this.failures++;
      this.lastError = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn('auto-retrain round failed', { error: this.lastError });
      throw error;
    }
    this.requested += done.length;
    return done;
  }

  /** RequestModelTraining ('scheduled') and its job; false when the stream already has a training pending. */
  private async request(userId: string, now: Date): Promise<boolean> {
    const { handler } = this.deps;
    const key = autoRetrainKey(userId, now.toISOString());
    const jobId = jobIdFor(key);
    const asOf = new Date(trainingAsOf(now.getTime())).toISOString();
    // The stream's word over the read model's (which may lag): today's job ran already, or a fresh model.
    const before = await handler.load(modelDecider, modelStreamId(userId));
    if (before.state.endedJobs.includes(jobId)) return false;
    if (before.state.current && now.getTime() - Date.parse(before.state.current.trainedAt) < AUTO_RETRAIN_AFTER_MS) return false;
    let pending;
    try {
      const result = await handler.handle(
        modelDecider,
        modelStreamId(userId),
        { type: 'RequestModelTraining', data: { userId, jobId, reason: 'scheduled', settings: null, fallback: HOUSE_SETTINGS, asOf, dailyLimit: null }, metadata: { now: now.toISOString() } },
        { actor: AUTO_RETRAIN_ACTOR, correlationId: key },
      );
      const event = result.events[0];
      if (event?.type !== 'ModelTrainingRequested') return false;
      pending = event.data;
    } catch (error) {
      if (!(error instanceof DomainError && error.status === 409)) throw error;
      // A training is pending: ours of today without its job (another process died between the appends) gets it.
      const loaded = await handler.load(modelDecider, modelStreamId(userId));
      if (loaded.state.pending?.jobId !== jobId) return false;
      pending = loaded.state.pending;
    }
    const { modelType, trainingDays, parameters } = pending;
    await requestJob(handler, { jobId, kind: MODEL_TRAINING_JOB_KIND, params: { userId, modelType, trainingDays, parameters, asOf: pending.asOf }, requestedBy: userId }, { actor: AUTO_RETRAIN_ACTOR, correlationId: key });
    this.deps.logger.info('model retrain scheduled', { userId, jobId, modelType });
    return true;
  }
}
