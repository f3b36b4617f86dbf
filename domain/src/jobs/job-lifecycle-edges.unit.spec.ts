/**
 * The job stream at its edges: the lease a worker asks for must be a positive, finite number of
 * milliseconds; a job that is not running (queued, or given up) is refused to renewal, completion
 * and failure with a message saying what it is; a renewal keeps the holder able to complete; and the
 * fold keeps what was requested, ignores a claim or an end that has no request before it, and moves
 * a lease only while the job runs.
 */
import { expect } from 'chai';
import { fold } from '../shared/decider';
import { specFor } from '../shared/decider-specification';
import { IllegalStateError, NotFoundError, ValidationError } from '../shared/errors';
import type { JobEvent } from './job';
import { jobDecider } from './job.decider';

const spec = specFor(jobDecider);
const T0 = '2026-03-04T05:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
const requested: JobEvent = { type: 'JobRequested', data: { jobId: 'j1', kind: 'backtest', params: { symbol: 'ETH', days: 90 }, requestedBy: 'u1', requestedAt: T0 } };
const claimed: JobEvent = { type: 'JobClaimed', data: { jobId: 'j1', worker: 'w1', attempt: 1, leaseUntil: at(40), claimedAt: at(10) } };
const renewed: JobEvent = { type: 'JobLeaseRenewed', data: { jobId: 'j1', worker: 'w1', leaseUntil: at(65), renewedAt: at(35) } };
const completed: JobEvent = { type: 'JobCompleted', data: { jobId: 'j1', worker: 'w1', result: { digest: 'abc' }, completedAt: at(50) } };
const gaveUp: JobEvent = { type: 'JobFailed', data: { jobId: 'j1', worker: null, reason: 'Gave up after 3 attempts', failedAt: at(200) } };
const failedBy = (worker: string): JobEvent => ({ type: 'JobFailed', data: { jobId: 'j1', worker, reason: 'no data', failedAt: at(50) } });

const claim = (leaseMs: number) => ({ type: 'ClaimJob' as const, data: { jobId: 'j1', worker: 'w1', leaseMs }, metadata: { now: at(10) } });
const renew = (leaseMs: number, worker = 'w1') => ({ type: 'RenewJobLease' as const, data: { jobId: 'j1', worker, leaseMs }, metadata: { now: at(35) } });
const complete = (worker = 'w1') => ({ type: 'CompleteJob' as const, data: { jobId: 'j1', worker, result: { digest: 'abc' } }, metadata: { now: at(50) } });
const fail = (worker: string) => ({ type: 'FailJob' as const, data: { jobId: 'j1', worker, reason: 'no data' }, metadata: { now: at(60) } });

describe('job stream (edges)', function () {
  describe('the lease asked for', function () {
    it('refuses a lease of zero, a negative one, NaN and an infinite one (400), naming what was given', function () {
      for (const leaseMs of [0, -1000, Number.NaN, Number.POSITIVE_INFINITY]) {
        spec.given([requested]).when(claim(leaseMs)).thenThrows(ValidationError, `leaseMs must be a positive number of milliseconds, got ${leaseMs}`);
      }
      spec.given([requested, claimed]).when(renew(0)).thenThrows(ValidationError, 'leaseMs must be a positive number of milliseconds, got 0');
    });

    it('accepts the shortest lease, one millisecond', function () {
      spec.given([requested]).when(claim(1)).then([{ type: 'JobClaimed', data: { jobId: 'j1', worker: 'w1', attempt: 1, leaseUntil: '2026-03-04T05:00:10.001Z', claimedAt: at(10) } }]);
    });
  });

  describe('a job that is not running', function () {
    it('a job never requested is a 404 that names it, for renewal, completion and failure alike', function () {
      spec.given([]).when(renew(30_000)).thenThrows(NotFoundError, 'Job j1 was never requested');
      spec.given([]).when(complete()).thenThrows(NotFoundError, 'Job j1 was never requested');
      spec.given([]).when(fail('w1')).thenThrows(NotFoundError, 'Job j1 was never requested');
    });

    it('a queued job cannot be renewed, completed or failed before someone claims it (409: it is queued)', function () {
      spec.given([requested]).when(renew(30_000)).thenThrows(IllegalStateError, 'Job j1 is queued, not running');
      spec.given([requested]).when(complete()).thenThrows(IllegalStateError, 'Job j1 is queued, not running');
      spec.given([requested]).when(fail('w1')).thenThrows(IllegalStateError, 'Job j1 is queued, not running');
    });

    it('a job that was given up (no worker failed it) refuses a late failure by a worker whose claim ran out', function () {
      spec.given([requested, claimed, gaveUp]).when(fail('w1')).thenThrows(IllegalStateError, 'Job j1 is failed, not running');
    });

    it('a job failed by one worker refuses a failure by another; only its own worker retrying appends nothing', function () {
      spec.given([requested, claimed, failedBy('w1')]).when(fail('w2')).thenThrows(IllegalStateError, 'Job j1 is failed, not running');
      spec.given([requested, claimed, failedBy('w1')]).when(fail('w1')).then([]);
    });
  });

  it('the holder that renewed its lease completes the job', function () {
    spec.given([requested, claimed, renewed]).when(complete()).then([completed]);
  });

  describe('the fold', function () {
    it('keeps what was requested (kind, parameters, who, when) through the claim', function () {
      const job = { jobId: 'j1', kind: 'backtest', params: { symbol: 'ETH', days: 90 }, requestedBy: 'u1', requestedAt: T0 };
      expect(fold(jobDecider, [requested])).to.deep.equal({ status: 'QUEUED', job, attempts: 0 });
      expect(fold(jobDecider, [requested, claimed])).to.deep.equal({ status: 'RUNNING', job, attempts: 1, worker: 'w1', leaseUntil: at(40) });
    });

    it('a claim, a completion or a failure with no request before it leaves no job (commands then answer 404)', function () {
      for (const orphan of [claimed, completed, failedBy('w1')]) expect(fold(jobDecider, [orphan]), orphan.type).to.deep.equal({ status: 'NONE' });
      spec.given([claimed]).when(complete()).thenThrows(NotFoundError, 'Job j1 was never requested');
    });

    it('a lease renewal moves only a running claim: a queued or a completed job is left as it was', function () {
      expect(fold(jobDecider, [requested, renewed])).to.deep.equal(fold(jobDecider, [requested]));
      expect(fold(jobDecider, [requested, claimed, completed, renewed])).to.deep.equal(fold(jobDecider, [requested, claimed, completed]));
      expect(fold(jobDecider, [requested, claimed, renewed])).to.deep.include({ status: 'RUNNING', leaseUntil: at(65) });
    });
  });
});
