/** The jobs read model follows each job's stream: queued, running with its lease, completed or failed. */
import { expect } from 'chai';
import { fold } from '../shared/decider';
import type { JobEvent } from './job';
import { evolveJobView, jobDocumentId, type JobView } from './job-queue-view';

const T0 = '2026-03-04T05:00:00.000Z';
const view = (events: JobEvent[]) => events.reduce<JobView | null>((doc, e) => evolveJobView(doc, e), null);
const requested: JobEvent = { type: 'JobRequested', data: { jobId: 'j1', kind: 'backtest', params: {}, requestedBy: 'u1', requestedAt: T0 } };
const claimed: JobEvent = { type: 'JobClaimed', data: { jobId: 'j1', worker: 'w1', attempt: 1, leaseUntil: '2026-03-04T05:00:30.000Z', claimedAt: T0 } };

describe('jobs read model', function () {
  it('a request is QUEUED in the order of its time; a claim RUNNING with its lease; the end COMPLETED or FAILED', function () {
    expect(view([requested])).to.include({ status: 'QUEUED', requestedAtMs: Date.parse(T0), worker: null, leaseUntilMs: null });
    expect(view([requested, claimed])).to.include({ status: 'RUNNING', worker: 'w1', attempts: 1, leaseUntilMs: Date.parse('2026-03-04T05:00:30.000Z') });
    const renewed: JobEvent = { type: 'JobLeaseRenewed', data: { jobId: 'j1', worker: 'w1', leaseUntil: '2026-03-04T05:01:00.000Z', renewedAt: T0 } };
    expect(view([requested, claimed, renewed])!.leaseUntilMs).to.equal(Date.parse('2026-03-04T05:01:00.000Z'));
    const done: JobEvent = { type: 'JobCompleted', data: { jobId: 'j1', worker: 'w1', result: { ref: 'r' }, completedAt: T0 } };
    expect(view([requested, claimed, done])).to.include({ status: 'COMPLETED', leaseUntilMs: null });
    expect(view([requested, claimed, done])!.result).to.deep.equal({ ref: 'r' });
    const failed: JobEvent = { type: 'JobFailed', data: { jobId: 'j1', worker: null, reason: 'gave up', failedAt: T0 } };
    expect(view([requested, claimed, failed])).to.include({ status: 'FAILED', reason: 'gave up', worker: null });
  });

  it('ignores other events', function () {
    expect(evolveJobView(null, { type: 'BotStarted', data: { userId: 'u1' } })).to.equal(null);
    expect(fold({ initialState: () => null as JobView | null, evolve: evolveJobView }, [])).to.equal(null);
  });

  it('a job event names its document by its job id; any other event, or one without a job id, none', function () {
    expect(jobDocumentId({ type: 'JobRequested', data: { jobId: 'j9' } })).to.equal('j9');
    expect(jobDocumentId({ type: 'JobFailed', data: { jobId: 'j9' } })).to.equal('j9');
    expect(jobDocumentId({ type: 'PortfolioOpened', data: { jobId: 'j9' } })).to.equal(null);
    expect(jobDocumentId({ type: 'JobRequested', data: { jobId: 9 } })).to.equal(null);
    expect(jobDocumentId({ type: 'JobRequested', data: {} })).to.equal(null);
  });
});
