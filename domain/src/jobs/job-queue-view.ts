/**
 * The `jobs` read model: one document per job with its status, for the job runners (which jobs are
 * worth trying to claim: queued ones, oldest first, and running ones whose lease has passed) and for
 * the people waiting (their place in the queue). It only points at work: a claim is decided on the
 * job's stream (job.decider.ts), so a read model that lags can cost a refused claim, never a job run
 * twice at once.
 *
 * The place in the queue is computed when asked (`queuePlace`): how many jobs of the same kind were
 * queued before this one, plus one. A job that runs or has finished has no place.
 */
import type { DomainEvent } from '../shared/decider';
import { JOB_EVENT_TYPES, type JobEvent, type JobResult, type JobStatus } from './job';

export const JOBS_PROJECTION = 'jobs';

export type JobView = {
  jobId: string;
  kind: string;
  requestedBy: string;
  status: Exclude<JobStatus, 'NONE'>;
  requestedAt: string;
  /** requestedAt in ms: the queue's order (a numeric range and sort field). */
  requestedAtMs: number;
  worker: string | null;
  attempts: number;
  /** When the current claim ends unless renewed (ms); null unless RUNNING. */
  leaseUntilMs: number | null;
  result: JobResult | null;
  reason: string | null;
  updatedAt: string;
};

export function jobDocumentId(event: { type: string; data: unknown }): string | null {
  if (!JOB_EVENT_TYPES.has(event.type)) return null;
  const jobId = (event.data as { jobId?: unknown }).jobId;
  return typeof jobId === 'string' ? jobId : null;
}

export function evolveJobView(doc: JobView | null, event: DomainEvent): JobView | null {
  if (!JOB_EVENT_TYPES.has(event.type)) return doc;
  const e = event as JobEvent;
  if (e.type === 'JobRequested') {
    if (doc) return doc;
    const { jobId, kind, requestedBy, requestedAt } = e.data;
    return { jobId, kind, requestedBy, status: 'QUEUED', requestedAt, requestedAtMs: Date.parse(requestedAt), worker: null, attempts: 0, leaseUntilMs: null, result: null, reason: null, updatedAt: requestedAt };
  }
  if (!doc) return doc;
  switch (e.type) {
    case 'JobClaimed':
      return { ...doc, status: 'RUNNING', worker: e.data.worker, attempts: e.data.attempt, leaseUntilMs: Date.parse(e.data.leaseUntil), updatedAt: e.data.claimedAt };
    case 'JobLeaseRenewed':
      return doc.status === 'RUNNING' ? { ...doc, leaseUntilMs: Date.parse(e.data.leaseUntil), updatedAt: e.data.renewedAt } : doc;
    case 'JobCompleted':
      return { ...doc, status: 'COMPLETED', worker: e.data.worker, leaseUntilMs: null, result: e.data.result, updatedAt: e.data.completedAt };
    case 'JobFailed':
      return { ...doc, status: 'FAILED', worker: e.data.worker, leaseUntilMs: null, reason: e.data.reason, updatedAt: e.data.failedAt };
  }
}
