/** The job decider: requested, claimed with a lease, renewed by its holder, taken over after the lease, completed or failed once. */
import { specFor } from '../shared/decider-specification';
import { IllegalStateError, NotFoundError } from '../shared/errors';
import type { JobEvent } from './job';
import { jobDecider } from './job.decider';

const spec = specFor(jobDecider);
const T0 = '2026-03-04T05:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
const requested: JobEvent = { type: 'JobRequested', data: { jobId: 'j1', kind: 'model-training', params: { days: 30 }, requestedBy: 'u1', requestedAt: T0 } };
const claimedBy = (worker: string, attempt: number, untilSeconds: number): JobEvent => ({
  type: 'JobClaimed',
  data: { jobId: 'j1', worker, attempt, leaseUntil: at(untilSeconds), claimedAt: at(untilSeconds - 30) },
});
const claim = (worker: string, nowSeconds: number, maxAttempts?: number) => ({
  type: 'ClaimJob' as const,
  data: { jobId: 'j1', worker, leaseMs: 30_000, ...(maxAttempts ? { maxAttempts } : {}) },
  metadata: { now: at(nowSeconds) },
});
const complete = (worker: string) => ({ type: 'CompleteJob' as const, data: { jobId: 'j1', worker, result: { digest: 'abc' } }, metadata: { now: at(40) } });
const fail = (worker: string) => ({ type: 'FailJob' as const, data: { jobId: 'j1', worker, reason: 'no data' }, metadata: { now: at(40) } });
const renew = (worker: string, nowSeconds: number) => ({ type: 'RenewJobLease' as const, data: { jobId: 'j1', worker, leaseMs: 30_000 }, metadata: { now: at(nowSeconds) } });

describe('job decider', function () {
  it('a request is recorded once (the same request again appends nothing)', function () {
    const request = { type: 'RequestJob' as const, data: { jobId: 'j1', kind: 'model-training', params: { days: 30 }, requestedBy: 'u1' }, metadata: { now: T0 } };
    spec.given([]).when(request).then([requested]);
    spec.given([requested]).when(request).then([]);
  });

  it('a queued job is claimed with a lease from now (attempt 1)', function () {
    spec.given([requested]).when(claim('w1', 10)).then([{ type: 'JobClaimed', data: { jobId: 'j1', worker: 'w1', attempt: 1, leaseUntil: at(40), claimedAt: at(10) } }]);
  });

  it('a job never requested cannot be claimed (404)', function () {
    spec.given([]).when(claim('w1', 10)).thenThrows(NotFoundError);
  });

  it('a live claim refuses another worker (409), up to the last millisecond of its lease', function () {
    spec.given([requested, claimedBy('w1', 1, 40)]).when(claim('w2', 39.999)).thenThrows(IllegalStateError, /claimed by w1/);
  });

  it('a claim whose lease has passed is taken over (attempt 2), at the lease end exactly too', function () {
    spec.given([requested, claimedBy('w1', 1, 40)]).when(claim('w2', 40)).then([{ type: 'JobClaimed', data: { jobId: 'j1', worker: 'w2', attempt: 2, leaseUntil: at(70), claimedAt: at(40) } }]);
  });

  it('a renewal moves the lease on, so the job is not taken over while its holder works', function () {
    const renewed: JobEvent = { type: 'JobLeaseRenewed', data: { jobId: 'j1', worker: 'w1', leaseUntil: at(65), renewedAt: at(35) } };
    spec.given([requested, claimedBy('w1', 1, 40)]).when(renew('w1', 35)).then([renewed]);
    spec.given([requested, claimedBy('w1', 1, 40), renewed]).when(claim('w2', 50)).thenThrows(IllegalStateError);
  });

  it('only the holder renews, completes or fails: a worker that was taken over is refused', function () {
    const history = [requested, claimedBy('w1', 1, 40), claimedBy('w2', 2, 80)];
    spec.given(history).when(renew('w1', 45)).thenThrows(IllegalStateError, /now claimed by w2/);
    spec.given(history).when(complete('w1')).thenThrows(IllegalStateError, /now claimed by w2/);
    spec.given(history).when(fail('w1')).thenThrows(IllegalStateError, /now claimed by w2/);
    spec.given(history).when(complete('w2')).then([{ type: 'JobCompleted', data: { jobId: 'j1', worker: 'w2', result: { digest: 'abc' }, completedAt: at(40) } }]);
  });

  it('a completed job cannot be claimed, failed or completed by anyone else; its holder completing again appends nothing', function () {
    const done: JobEvent = { type: 'JobCompleted', data: { jobId: 'j1', worker: 'w1', result: { digest: 'abc' }, completedAt: at(20) } };
    const history = [requested, claimedBy('w1', 1, 40), done];
    spec.given(history).when(claim('w2', 100)).thenThrows(IllegalStateError, /already completed/);
    spec.given(history).when(complete('w1')).then([]);
    spec.given(history).when(complete('w2')).thenThrows(IllegalStateError);
    spec.given(history).when(fail('w1')).thenThrows(IllegalStateError);
  });

  it('a failed job is final too', function () {
    const failed: JobEvent = { type: 'JobFailed', data: { jobId: 'j1', worker: 'w1', reason: 'no data', failedAt: at(20) } };
    spec.given([requested, claimedBy('w1', 1, 40), failed]).when(claim('w2', 100)).thenThrows(IllegalStateError, /already failed/);
    spec.given([requested, claimedBy('w1', 1, 40), failed]).when(fail('w1')).then([]);
  });

  it('after maxAttempts claims that all stopped renewing, the next claim fails the job instead of running it again', function () {
    const history = [requested, claimedBy('w1', 1, 40), claimedBy('w2', 2, 80), claimedBy('w3', 3, 120)];
    spec.given(history).when(claim('w4', 130)).then([
      { type: 'JobFailed', data: { jobId: 'j1', worker: null, reason: 'Gave up after 3 attempts: each worker that claimed the job stopped before finishing it', failedAt: at(130) } },
    ]);
    spec.given(history).when(claim('w4', 130, 5)).then([{ type: 'JobClaimed', data: { jobId: 'j1', worker: 'w4', attempt: 4, leaseUntil: at(160), claimedAt: at(130) } }]);
  });

  it('its holder fails a claimed job, with the reason, once', function () {
    const failedByHolder: JobEvent = { type: 'JobFailed', data: { jobId: 'j1', worker: 'w1', reason: 'no data', failedAt: at(40) } };
    spec.given([requested, claimedBy('w1', 1, 70)]).when(fail('w1')).then([failedByHolder]);
    spec.given([requested, claimedBy('w1', 1, 70), failedByHolder]).when(fail('w1')).then([]);
  });
});
