/**
 * RequestJob, ClaimJob, RenewJobLease, CompleteJob, FailJob on `job-{jobId}` (job.ts).
 *
 * Time comes in with each command (`metadata.now`), so whether a lease has passed is decided here,
 * on the stream's own record of it, never on a read model that may lag: a read model only tells a
 * worker which jobs are worth trying to claim.
 *
 * - RequestJob on an existing job appends nothing (the same request again).
 * - ClaimJob: a queued job is claimed (attempt 1); a running one only once its lease has passed
 *   (attempt + 1), and after `maxAttempts` claims whose holders all stopped renewing the job fails
 *   instead of running forever on a poison input. A live claim by another worker is a 409; so is a
 *   claim of a finished job.
 * - RenewJobLease, CompleteJob, FailJob: the current holder only (a 409 for anyone else, including a
 *   worker whose claim was taken over). Completing or failing again as the same worker appends
 *   nothing, so a holder that retries after a lost answer does not fail.
 */
import { assertNever, type Decider } from '../shared/decider';
import { IllegalStateError, NotFoundError, ValidationError } from '../shared/errors';
import { evolveJob, initialJobState, type JobEvent, type JobParams, type JobResult, type JobState } from './job';

/** How many times a job is claimed before it is failed for good (each holder stopped renewing). */
export const DEFAULT_MAX_JOB_ATTEMPTS = 3;

type Meta = { metadata: { now: string } };
export type RequestJob = { type: 'RequestJob'; data: { jobId: string; kind: string; params: JobParams; requestedBy: string } } & Meta;
export type ClaimJob = { type: 'ClaimJob'; data: { jobId: string; worker: string; leaseMs: number; maxAttempts?: number } } & Meta;
export type RenewJobLease = { type: 'RenewJobLease'; data: { jobId: string; worker: string; leaseMs: number } } & Meta;
export type CompleteJob = { type: 'CompleteJob'; data: { jobId: string; worker: string; result: JobResult } } & Meta;
export type FailJob = { type: 'FailJob'; data: { jobId: string; worker: string; reason: string } } & Meta;

export type JobCommand = RequestJob | ClaimJob | RenewJobLease | CompleteJob | FailJob;

const leaseUntil = (now: string, leaseMs: number) => {
  if (!Number.isFinite(leaseMs) || leaseMs <= 0) throw new ValidationError(`leaseMs must be a positive number of milliseconds, got ${leaseMs}`);
  return new Date(Date.parse(now) + leaseMs).toISOString();
};

function requireJob(state: JobState, jobId: string): Exclude<JobState, { status: 'NONE' }> {
  if (state.status === 'NONE') throw new NotFoundError(`Job ${jobId} was never requested`);
  return state;
}

export function requestJob(command: RequestJob, state: JobState): JobEvent[] {
  if (state.status !== 'NONE') return [];
  const { jobId, kind, params, requestedBy } = command.data;
  return [{ type: 'JobRequested', data: { jobId, kind, params, requestedBy, requestedAt: command.metadata.now } }];
}

export function claimJob(command: ClaimJob, state: JobState): JobEvent[] {
  const { jobId, worker, leaseMs } = command.data;
  const { now } = command.metadata;
  const job = requireJob(state, jobId);
  switch (job.status) {
    case 'QUEUED':
      return [{ type: 'JobClaimed', data: { jobId, worker, attempt: 1, leaseUntil: leaseUntil(now, leaseMs), claimedAt: now } }];
    case 'RUNNING': {
      if (Date.parse(job.leaseUntil) > Date.parse(now)) throw new IllegalStateError(`Job ${jobId} is claimed by ${job.worker} until ${job.leaseUntil}`);
      const maxAttempts = command.data.maxAttempts ?? DEFAULT_MAX_JOB_ATTEMPTS;
      if (job.attempts >= maxAttempts) {
        return [{ type: 'JobFailed', data: { jobId, worker: null, reason: `Gave up after ${job.attempts} attempts: each worker that claimed the job stopped before finishing it`, failedAt: now } }];
      }
      return [{ type: 'JobClaimed', data: { jobId, worker, attempt: job.attempts + 1, leaseUntil: leaseUntil(now, leaseMs), claimedAt: now } }];
    }
    case 'COMPLETED':
    case 'FAILED':
      throw new IllegalStateError(`Job ${jobId} has already ${job.status === 'COMPLETED' ? 'completed' : 'failed'}`);
    default:
      return assertNever(job);
  }
}

function requireHolder(state: JobState, jobId: string, worker: string): Extract<JobState, { status: 'RUNNING' }> {
  const job = requireJob(state, jobId);
  if (job.status !== 'RUNNING') throw new IllegalStateError(`Job ${jobId} is ${job.status.toLowerCase()}, not running`);
  if (job.worker !== worker) throw new IllegalStateError(`Job ${jobId} is now claimed by ${job.worker}, not ${worker}`);
  return job;
}

export function renewJobLease(command: RenewJobLease, state: JobState): JobEvent[] {
  const { jobId, worker, leaseMs } = command.data;
  requireHolder(state, jobId, worker);
  return [{ type: 'JobLeaseRenewed', data: { jobId, worker, leaseUntil: leaseUntil(command.metadata.now, leaseMs), renewedAt: command.metadata.now } }];
}

export function completeJob(command: CompleteJob, state: JobState): JobEvent[] {
  const { jobId, worker, result } = command.data;
  if (state.status === 'COMPLETED' && state.worker === worker) return [];
  requireHolder(state, jobId, worker);
  return [{ type: 'JobCompleted', data: { jobId, worker, result, completedAt: command.metadata.now } }];
}

export function failJob(command: FailJob, state: JobState): JobEvent[] {
  const { jobId, worker, reason } = command.data;
  if (state.status === 'FAILED' && state.worker === worker) return [];
  requireHolder(state, jobId, worker);
  return [{ type: 'JobFailed', data: { jobId, worker, reason, failedAt: command.metadata.now } }];
}

export const jobDecider: Decider<JobState, JobCommand, JobEvent> = {
  name: 'job',
  schemaVersion: 1,
  initialState: initialJobState,
  evolve: evolveJob,
  decide(command, state) {
    switch (command.type) {
      case 'RequestJob':
        return requestJob(command, state);
      case 'ClaimJob':
        return claimJob(command, state);
      case 'RenewJobLease':
        return renewJobLease(command, state);
      case 'CompleteJob':
        return completeJob(command, state);
      case 'FailJob':
        return failJob(command, state);
      default:
        return assertNever(command);
    }
  },
};
