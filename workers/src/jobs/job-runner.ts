/**
 * The long-job runner (DESIGN.md section 5), generic over the kind of work: every workers process
 * runs one, and the jobs spread over them. It serves model training now (workers/src/ml) and is what
 * backtests and walk-forward runs will use: give it a `JobKind` (a name and a `run` function) and
 * request jobs of that kind with `requestJob` (below) or the job decider's RequestJob.
 *
 * How a job runs:
 *  1. Finding work. The `jobs` read model (domain/src/jobs/job-queue-view.ts) lists the queued jobs
 *     of the runner's kinds, oldest first, and the running ones whose lease has passed. The runner
 *     looks when the projection announces a change on the bus (`projection.jobs.changed`) and every
 *     `pollMs` besides (the bus is at most once). Every process sees the same list: there is no
 *     checkpoint per process to lose or to replay from the start.
 *  2. Claiming. ClaimJob on `job-{jobId}` through the command helper, appended with the stream's
 *     expected revision: of two processes claiming one job, one appends JobClaimed and the other is
 *     refused (409) and moves on. One running job per user and kind, in the order asked
 *     (`firstOfItsUser`), and a process runs at most `concurrency` jobs.
 *  3. Working. The kind's `run` gets the job and a context: `progress(fraction, message)` publishes
 *     JOB_PROGRESS to the requesting user's sockets (at most every PROGRESS_EVERY_MS, and whenever the
 *     fraction reaches a new tenth, so a run quicker than the interval still shows its steps), `signal` aborts
 *     when the claim was lost. Meanwhile the runner renews the lease every `renewEveryMs`
 *     (JobLeaseRenewed); a refused renewal means another process took the job over (this one was
 *     too slow to renew), so the run is aborted and its result thrown away.
 *  4. Ending. CompleteJob with the result `run` returned (a small reference: the product itself is
 *     stored by the kind before it returns), or FailJob with the error's message. Only the holder of
 *     the current claim may do either (the decider), so a job completes exactly once.
 *
 * A process that dies mid-job (SIGKILL, power) stops renewing; once its lease has passed another
 * process claims the job (attempt 2) and runs it from the start, so a kind's `run` must be safe to run
 * again: deterministic, and idempotent in what it writes besides the job (the model trainer's
 * ModelTrained is recorded once per job). After DEFAULT_MAX_JOB_ATTEMPTS claims the job fails instead.
 */
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import { jobStreamId, type JobInfo, type JobParams, type JobResult } from '@papertrade/domain/jobs/job';
import { DEFAULT_MAX_JOB_ATTEMPTS, jobDecider, type JobCommand } from '@papertrade/domain/jobs/job.decider';
import { JOBS_PROJECTION, type JobView } from '@papertrade/domain/jobs/job-queue-view';
import { jobProgressSchema, type JobProgress } from '@papertrade/domain/realtime/contracts';
import { userRealtimeSubject } from '@papertrade/domain/realtime/subjects';
import { DomainError } from '@papertrade/domain/shared/errors';
import type { Bus } from '@papertrade/platform/bus/bus';
import type { CommandHandler, CommandResult } from '@papertrade/platform/commands/command-handler';
import type { Logger } from '@papertrade/platform/config/logger';
import type { ReadModels } from '@papertrade/platform/projections/read-models';
import type { Collection } from '@papertrade/platform/document-store/document-store';

export const DEFAULT_JOB_LEASE_MS = 30_000;
export const DEFAULT_JOB_POLL_MS = 2_000;
const PROGRESS_EVERY_MS = 500;
/** The actor of the runner's commands. */
export const JOB_RUNNER_ACTOR = 'job-runner';
const ID_NAMESPACE = '6f3e2d1c-8a7b-4c5d-9e0f-1a2b3c4d5e6f';

export interface JobContext {
  /** This runner's name (who holds the claim). */
  worker: string;
  /** Aborted when the claim is lost (taken over) or the runner stops. */
  signal: AbortSignal;
  /** Publishes JOB_PROGRESS (a fraction from 0 to 1) to the requesting user's sockets; throttled. */
  progress(fraction: number, message?: string): void;
}

export interface JobKind {
  kind: string;
  run(job: JobInfo, context: JobContext): Promise<JobResult>;
  /**
   * Called when a claim found the job's attempts used up and failed it instead of running it (every
   * holder stopped renewing): what `run` would have recorded on a failure of its own is this hook's
   * to record. Called by the process whose claim failed the job, once.
   */
  gaveUp?(job: JobInfo, reason: string): Promise<void>;
}

export interface JobRunnerDeps {
  handler: CommandHandler;
  readModels: ReadModels;
  bus: Bus;
  clock: () => Date;
  logger: Logger;
}

export interface JobRunnerOptions {
  kinds: JobKind[];
  /** This process's name in claims (default host:pid:random). */
  worker?: string;
  leaseMs?: number;
  /** Default a third of the lease. */
  renewEveryMs?: number;
  pollMs?: number;
  /** Jobs one process runs at once (default 1: training is CPU-bound, and each process has its cores). */
  concurrency?: number;
  maxAttempts?: number;
}

export interface JobRunnerStatus {
  name: 'job-runner';
  running: boolean;
  worker: string;
  kinds: string[];
  claimed: number;
  takenOver: number;
  completed: number;
  failed: number;
  lost: number;
  runningJobs: string[];
  lastError: string | null;
}

/** A job id derived from a key (UUIDv5): the same key always names the same job, so a repeated request appends nothing. */
export function jobIdFor(key: string): string {
  return uuidv5(key, ID_NAMESPACE);
}

/** Requests a job (JobRequested on `job-{jobId}`); a job that exists already is left as it is. */
export function requestJob(
  handler: CommandHandler,
  request: { jobId: string; kind: string; params: JobParams; requestedBy: string },
  meta: { actor: string; correlationId?: string },
): Promise<CommandResult<unknown>> {
  return handler.handle(jobDecider, jobStreamId(request.jobId), { type: 'RequestJob', data: request, metadata: { now: handler.now() } }, {
    actor: meta.actor,
    correlationId: meta.correlationId ?? request.jobId,
  });
}

export class JobRunner {
  readonly worker: string;
  private readonly kinds: Map<string, JobKind>;
  private readonly leaseMs: number;
  private readonly renewEveryMs: number;
  private readonly pollMs: number;
  private readonly concurrency: number;
  private readonly maxAttempts: number;
  private running = false;
  private pollTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private round: Promise<void> | undefined;
  private again = false;
  private readonly active = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private counts = { claimed: 0, takenOver: 0, completed: 0, failed: 0, lost: 0 };
  private lastError: string | null = null;

  constructor(
    private readonly deps: JobRunnerDeps,
    options: JobRunnerOptions,
  ) {
    this.worker = options.worker ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.kinds = new Map(options.kinds.map((k) => [k.kind, k]));
    this.leaseMs = options.leaseMs ?? DEFAULT_JOB_LEASE_MS;
    this.renewEveryMs = options.renewEveryMs ?? Math.max(10, Math.floor(this.leaseMs / 3));
    this.pollMs = options.pollMs ?? DEFAULT_JOB_POLL_MS;
    this.concurrency = options.concurrency ?? 1;
    this.maxAttempts = options.maxAttempts ?? DEFAULT_MAX_JOB_ATTEMPTS;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = await this.deps.bus.subscribe(`projection.${JOBS_PROJECTION}.changed`, () => this.wake());
    this.deps.logger.info('job runner started', { worker: this.worker, kinds: [...this.kinds.keys()] });
    this.wake();
  }

  /** Stops looking for work and aborts the jobs in hand (their claims lapse and another process takes them over). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearTimeout(this.pollTimer);
    this.unsubscribe?.();
    await this.round;
    for (const { controller } of this.active.values()) controller.abort(new Error('the job runner stopped'));
    await Promise.all([...this.active.values()].map((a) => a.done));
  }

  /** Resolves when no job is running here and no look for work is under way (tests). */
  async idle(): Promise<void> {
    while (this.round || this.active.size > 0) {
      await this.round;
      await Promise.all([...this.active.values()].map((a) => a.done));
    }
  }

  status(): JobRunnerStatus {
    return { name: 'job-runner', running: this.running, worker: this.worker, kinds: [...this.kinds.keys()], ...this.counts, runningJobs: [...this.active.keys()], lastError: this.lastError };
  }

  /** Looks for work now (a round at a time; a wake during a round runs another after it). */
  wake(): void {
    if (!this.running) return;
    if (this.round) {
      this.again = true;
      return;
    }
    clearTimeout(this.pollTimer);
    this.round = this.lookForWork()
      .catch((error: unknown) => {
        this.lastError = error instanceof Error ? error.message : String(error);
        this.deps.logger.warn('job runner round failed; it looks again shortly', { worker: this.worker, error: this.lastError });
      })
      .finally(() => {
        this.round = undefined;
        if (!this.running) return;
        if (this.again) {
          this.again = false;
          this.wake();
          return;
        }
        this.pollTimer = setTimeout(() => this.wake(), this.pollMs);
        this.pollTimer.unref();
      });
  }

  private async lookForWork(): Promise<void> {
    if (this.active.size >= this.concurrency) return;
    const jobs = await this.deps.readModels.collection<JobView>(JOBS_PROJECTION);
    const now = this.deps.clock().getTime();
    const kinds = [...this.kinds.keys()];
    const candidates: JobView[] = [];
    for (const kind of kinds) {
      candidates.push(...(await jobs.find({ where: { kind, status: 'RUNNING' }, range: { field: 'leaseUntilMs', lt: now }, limit: 20 })));
      candidates.push(...(await jobs.find({ where: { kind, status: 'QUEUED' }, sort: [{ field: 'requestedAtMs', direction: 'asc' }], limit: 20 })));
    }
    candidates.sort((a, b) => a.requestedAtMs - b.requestedAtMs);
    for (const candidate of candidates) {
      if (!this.running || this.active.size >= this.concurrency) return;
      if (this.active.has(candidate.jobId)) continue;
      if (!(await this.firstOfItsUser(jobs, candidate))) continue;
      await this.tryClaim(candidate);
    }
  }

  /**
   * One running job per user and kind, in the order asked: a job runs when no other job of its user
   * and kind is running (whatever its lease: a lapsed one is taken over first) and none of them was
   * queued before it. A claim the read model does not show yet leaves that job QUEUED there, so the
   * next one still waits behind it.
   */
  private async firstOfItsUser(jobs: Collection<JobView>, candidate: JobView): Promise<boolean> {
    const mine = { kind: candidate.kind, requestedBy: candidate.requestedBy };
    const running = await jobs.count({ ...mine, status: 'RUNNING' });
    if (running - (candidate.status === 'RUNNING' ? 1 : 0) > 0) return false;
    const before = await jobs.count({ ...mine, status: 'QUEUED' }, { field: 'requestedAtMs', lt: candidate.requestedAtMs });
    return before === 0;
  }

  private async command(jobId: string, command: JobCommand): Promise<CommandResult<unknown>> {
    return this.deps.handler.handle(jobDecider, jobStreamId(jobId), command, { actor: JOB_RUNNER_ACTOR, correlationId: jobId });
  }

  private async tryClaim(candidate: JobView): Promise<void> {
    let claimed: { attempt: number; job: JobInfo } | undefined;
    try {
      const result = await this.command(candidate.jobId, {
        type: 'ClaimJob',
        data: { jobId: candidate.jobId, worker: this.worker, leaseMs: this.leaseMs, maxAttempts: this.maxAttempts },
        metadata: { now: this.deps.handler.now() },
      });
      const event = result.events[0] as { type: string; data: { attempt?: number } } | undefined;
      if (event?.type !== 'JobClaimed') {
        // The claims ran out: the decider failed the job instead.
        if (event?.type === 'JobFailed') {
          this.counts.failed += 1;
          const failed = await this.deps.handler.load(jobDecider, jobStreamId(candidate.jobId), undefined, { kept: true });
          if (failed.state.status !== 'NONE') {
            const reason = (event.data as { reason?: string }).reason ?? 'gave up';
            this.deps.logger.warn('job given up', { worker: this.worker, jobId: candidate.jobId, kind: candidate.kind, reason });
            await this.kinds.get(candidate.kind)?.gaveUp?.(failed.state.job, reason);
          }
        }
        return;
      }
      const state = await this.deps.handler.load(jobDecider, jobStreamId(candidate.jobId), undefined, { kept: true });
      if (state.state.status !== 'RUNNING' || state.state.worker !== this.worker) return;
      claimed = { attempt: event.data.attempt ?? 1, job: state.state.job };
    } catch (error) {
      // Another process got there first (409), or the job is gone (404): not ours to run.
      if (error instanceof DomainError && (error.status === 409 || error.status === 404 || error.status === 412)) return;
      throw error;
    }
    this.counts.claimed += 1;
    if (claimed.attempt > 1) this.counts.takenOver += 1;
    this.deps.logger.info('job claimed', { worker: this.worker, jobId: candidate.jobId, kind: candidate.kind, attempt: claimed.attempt });
    const controller = new AbortController();
    const done = this.execute(claimed.job, controller).finally(() => {
      this.active.delete(candidate.jobId);
      this.wake();
    });
    this.active.set(candidate.jobId, { controller, done });
  }

  private async execute(job: JobInfo, controller: AbortController): Promise<void> {
    const kind = this.kinds.get(job.kind)!;
    let lastProgressAt = 0;
    let lastTenth = 0;
    const publish = (progress: JobProgress) => {
      if (!isUserId(job.requestedBy)) return;
      void this.deps.bus.publish(userRealtimeSubject(job.requestedBy, 'JOB_PROGRESS'), jobProgressSchema.parse(progress)).catch(() => {});
    };
    const renewals = setInterval(() => {
      void this.command(job.jobId, { type: 'RenewJobLease', data: { jobId: job.jobId, worker: this.worker, leaseMs: this.leaseMs }, metadata: { now: this.deps.handler.now() } }).catch((error: unknown) => {
        if (error instanceof DomainError && error.status === 409) {
          this.counts.lost += 1;
          this.deps.logger.warn('job claim lost to another worker; this run is abandoned', { worker: this.worker, jobId: job.jobId });
          controller.abort(new Error('the claim was taken over by another worker'));
        } else {
          this.deps.logger.warn('job lease renewal failed; trying again', { worker: this.worker, jobId: job.jobId, error: String(error) });
        }
      });
    }, this.renewEveryMs);
    renewals.unref();
    publish({ jobId: job.jobId, kind: job.kind, status: 'RUNNING', progress: 0, message: 'Started' });
    const context: JobContext = {
      worker: this.worker,
      signal: controller.signal,
      progress: (fraction, message) => {
        const now = Date.now();
        const clamped = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
        const tenth = Math.floor(clamped * 10);
        if (now - lastProgressAt < PROGRESS_EVERY_MS && tenth <= lastTenth) return;
        lastProgressAt = now;
        lastTenth = Math.max(lastTenth, tenth);
        publish({ jobId: job.jobId, kind: job.kind, status: 'RUNNING', progress: clamped, ...(message ? { message } : {}) });
      },
    };
    let outcome: { result: JobResult } | { reason: string };
    try {
      outcome = { result: await kind.run(job, context) };
    } catch (error) {
      outcome = { reason: error instanceof Error ? error.message : String(error) };
    } finally {
      clearInterval(renewals);
    }
    if (controller.signal.aborted) return; // lost or stopping: the next holder finishes it
    try {
      const now = this.deps.handler.now();
      if ('result' in outcome) {
        await this.command(job.jobId, { type: 'CompleteJob', data: { jobId: job.jobId, worker: this.worker, result: outcome.result }, metadata: { now } });
        this.counts.completed += 1;
        publish({ jobId: job.jobId, kind: job.kind, status: 'COMPLETED', progress: 1 });
      } else {
        await this.command(job.jobId, { type: 'FailJob', data: { jobId: job.jobId, worker: this.worker, reason: outcome.reason.slice(0, 500) }, metadata: { now } });
        this.counts.failed += 1;
        this.deps.logger.warn('job failed', { worker: this.worker, jobId: job.jobId, kind: job.kind, reason: outcome.reason });
        publish({ jobId: job.jobId, kind: job.kind, status: 'FAILED', progress: 1, message: outcome.reason.slice(0, 200) });
      }
    } catch (error) {
      // Refused: the claim was taken over meanwhile; the new holder ends the job.
      this.lastError = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn('job end refused; another worker holds it now', { worker: this.worker, jobId: job.jobId, error: this.lastError });
    }
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function isUserId(id: string): boolean {
  return UUID.test(id);
}
