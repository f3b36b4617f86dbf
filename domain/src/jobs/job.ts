/**
 * Long jobs (DESIGN.md section 5): model training now, backtests and walk-forward runs next. Each job
 * is its own stream, `job-{jobId}`:
 *
 *   JobRequested -> JobClaimed -> (JobLeaseRenewed)* -> JobCompleted | JobFailed
 *                        ^  a claim whose lease passed may be taken over: JobClaimed again (attempt + 1)
 *
 * A claim is appended with the stream's expected revision (the command helper's optimistic check), so
 * when two worker processes claim the same job one wins and the other is refused. The holder renews
 * its lease while it works; a holder that stops renewing (killed, hung) loses the job to the next
 * claim once `leaseUntil` has passed. Only the holder of the current claim may complete or fail the
 * job, so a worker that was taken over cannot complete it a second time, and a completed or failed job
 * cannot be claimed again. Progress is not an event (it would fill the log): it goes on the bus.
 *
 * `kind` names the work ('model-training', 'backtest', ...) and `params` is that kind's own input, a
 * JSON object the kind validates; `result` is a small reference to what the job produced (a digest, a
 * document id), never the product itself.
 */
import type { DomainEvent } from '../shared/decider';

export type JobParams = Record<string, unknown>;
export type JobResult = Record<string, unknown>;

export type JobRequested = DomainEvent<'JobRequested', { jobId: string; kind: string; params: JobParams; requestedBy: string; requestedAt: string }>;
export type JobClaimed = DomainEvent<'JobClaimed', { jobId: string; worker: string; attempt: number; leaseUntil: string; claimedAt: string }>;
export type JobLeaseRenewed = DomainEvent<'JobLeaseRenewed', { jobId: string; worker: string; leaseUntil: string; renewedAt: string }>;
export type JobCompleted = DomainEvent<'JobCompleted', { jobId: string; worker: string; result: JobResult; completedAt: string }>;
/** `worker` is null when no worker failed it (the claims ran out: every holder stopped renewing). */
export type JobFailed = DomainEvent<'JobFailed', { jobId: string; worker: string | null; reason: string; failedAt: string }>;

export type JobEvent = JobRequested | JobClaimed | JobLeaseRenewed | JobCompleted | JobFailed;

export const JOB_EVENT_TYPES: ReadonlySet<string> = new Set(['JobRequested', 'JobClaimed', 'JobLeaseRenewed', 'JobCompleted', 'JobFailed']);

export interface JobInfo {
  jobId: string;
  kind: string;
  params: JobParams;
  requestedBy: string;
  requestedAt: string;
}

export type JobState =
  | { status: 'NONE' }
  | { status: 'QUEUED'; job: JobInfo; attempts: number }
  | { status: 'RUNNING'; job: JobInfo; attempts: number; worker: string; leaseUntil: string }
  | { status: 'COMPLETED'; job: JobInfo; attempts: number; worker: string; result: JobResult }
  | { status: 'FAILED'; job: JobInfo; attempts: number; worker: string | null; reason: string };

export type JobStatus = JobState['status'];

export const initialJobState = (): JobState => ({ status: 'NONE' });

export function evolveJob(state: JobState, event: JobEvent): JobState {
  switch (event.type) {
    case 'JobRequested': {
      const { jobId, kind, params, requestedBy, requestedAt } = event.data;
      return { status: 'QUEUED', job: { jobId, kind, params, requestedBy, requestedAt }, attempts: 0 };
    }
    case 'JobClaimed':
      if (state.status === 'NONE') return state;
      return { status: 'RUNNING', job: state.job, attempts: event.data.attempt, worker: event.data.worker, leaseUntil: event.data.leaseUntil };
    case 'JobLeaseRenewed':
      return state.status === 'RUNNING' ? { ...state, leaseUntil: event.data.leaseUntil } : state;
    case 'JobCompleted':
      if (state.status === 'NONE') return state;
      return { status: 'COMPLETED', job: state.job, attempts: state.attempts, worker: event.data.worker, result: event.data.result };
    case 'JobFailed':
      if (state.status === 'NONE') return state;
      return { status: 'FAILED', job: state.job, attempts: state.attempts, worker: event.data.worker, reason: event.data.reason };
  }
}

export const JOB_STREAM_PREFIX = 'job-';
export const jobStreamId = (jobId: string) => `${JOB_STREAM_PREFIX}${jobId}`;
