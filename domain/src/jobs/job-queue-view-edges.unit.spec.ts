/**
 * The jobs read model at its edges: events that are not a job's leave a document as it was, a
 * request seen again does not put a running job back in the queue, events of a job whose request was
 * not seen write no document, and a lease renewal gives no lease to a job that has finished.
 */
import { expect } from 'chai';
import type { DomainEvent } from '../shared/decider';
import type { JobEvent } from './job';
import { evolveJobView, type JobView } from './job-queue-view';

const T0 = '2026-03-04T05:00:00.000Z';
const view = (events: DomainEvent[], from: JobView | null = null) => events.reduce<JobView | null>((doc, e) => evolveJobView(doc, e), from);
const requested: JobEvent = { type: 'JobRequested', data: { jobId: 'j1', kind: 'backtest', params: {}, requestedBy: 'u1', requestedAt: T0 } };
const claimed: JobEvent = { type: 'JobClaimed', data: { jobId: 'j1', worker: 'w1', attempt: 1, leaseUntil: '2026-03-04T05:00:30.000Z', claimedAt: '2026-03-04T05:00:01.000Z' } };
const renewed: JobEvent = { type: 'JobLeaseRenewed', data: { jobId: 'j1', worker: 'w1', leaseUntil: '2026-03-04T05:01:00.000Z', renewedAt: '2026-03-04T05:00:25.000Z' } };
const completed: JobEvent = { type: 'JobCompleted', data: { jobId: 'j1', worker: 'w1', result: { ref: 'r' }, completedAt: '2026-03-04T05:00:20.000Z' } };
const failed: JobEvent = { type: 'JobFailed', data: { jobId: 'j1', worker: 'w1', reason: 'no data', failedAt: '2026-03-04T05:00:20.000Z' } };

describe('jobs read model (edges)', function () {
  it("leaves a job's document as it was on an event that is not a job's", function () {
    const doc = view([requested, claimed]);
    expect(evolveJobView(doc, { type: 'BotStarted', data: { userId: 'u1' } })).to.deep.equal(doc);
  });

  it('a request seen again does not put a running job back in the queue', function () {
    expect(view([requested, claimed, requested])).to.include({ status: 'RUNNING', worker: 'w1', attempts: 1, updatedAt: '2026-03-04T05:00:01.000Z' });
  });

  it('writes no document for the claim, renewal or end of a job whose request was not seen', function () {
    for (const e of [claimed, renewed, completed, failed]) expect(evolveJobView(null, e), e.type).to.equal(null);
  });

  it('a lease renewal after the job finished gives it no lease and does not move its time', function () {
    expect(view([requested, claimed, completed, renewed])).to.include({ status: 'COMPLETED', leaseUntilMs: null, updatedAt: '2026-03-04T05:00:20.000Z' });
    expect(view([requested, renewed])).to.include({ status: 'QUEUED', leaseUntilMs: null, updatedAt: T0 });
  });
});
