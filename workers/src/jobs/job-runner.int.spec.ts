/**
 * The generic long-job runner on the embedded stores (PGlite, the projector running): two runners
 * share the queue, each job runs once and completes once; a runner that stops mid-job (its lease
 * left to lapse) is taken over by the other, which completes the job; a failing job is failed once
 * with its reason; progress reaches the requesting user's socket subject; one running job per user and kind.
 * The cross-process proof (two workers processes, one SIGKILLed) is test/cluster-jobs.int.spec.ts.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { JobInfo } from '@papertrade/domain/jobs/job';
import { userRealtimeSubject } from '@papertrade/domain/realtime/subjects';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { silentLogger } from '@papertrade/platform/config/logger';
import { startHarness, type Harness } from '../../../test/api-harness';
import { waitUntil } from '../../../test/wait';
import { JobRunner, requestJob, type JobContext, type JobKind } from './job-runner';

const KIND = 'test-work';

describe('job runner (PGlite)', function () {
  this.timeout(60_000);
  let harness: Harness;
  let handler: CommandHandler;
  const runners: JobRunner[] = [];

  before(async function () {
    harness = await startHarness();
    handler = new CommandHandler(harness.rt.infra.eventStore, () => new Date());
  });
  afterEach(async function () {
    for (const r of runners.splice(0)) await r.stop();
  });
  after(async function () {
    await harness?.stop();
  });

  /** A kind whose jobs wait until released (per job id), recording who ran what. */
  function gatedKind() {
    const gates = new Map<string, () => void>();
    const runs: Array<{ jobId: string; worker: string }> = [];
    const kind: JobKind = {
      kind: KIND,
      async run(job: JobInfo, context: JobContext) {
        runs.push({ jobId: job.jobId, worker: context.worker });
        context.progress(0.5, 'halfway');
        await new Promise<void>((resolve, reject) => {
          gates.set(`${job.jobId}@${context.worker}`, resolve);
          context.signal.addEventListener('abort', () => reject(context.signal.reason as Error));
        });
        if (job.params.fail) throw new Error(`bad input ${String(job.params.fail)}`);
        return { ref: `result-of-${job.jobId}` };
      },
    };
    const release = (jobId: string, worker: string) => gates.get(`${jobId}@${worker}`)?.();
    return { kind, runs, gates, release };
  }

  function runner(kind: JobKind, worker: string, leaseMs = 60_000) {
    const { readModels, bus } = harness.rt.infra;
    const r = new JobRunner({ handler, readModels, bus, clock: () => new Date(), logger: silentLogger }, { kinds: [kind], worker, leaseMs, renewEveryMs: Math.floor(leaseMs / 3), pollMs: 50 });
    runners.push(r);
    return r;
  }

  const jobEvents = async (jobId: string) => (await harness.rt.infra.eventStore.readStream(`job-${jobId}`)).map((e) => ({ type: e.type, data: e.data }));

  it('two runners share the queue: each job is claimed and completed exactly once', async function () {
    const { kind, runs, release } = gatedKind();
    const a = runner(kind, 'runner-a');
    const b = runner(kind, 'runner-b');
    const jobIds = Array.from({ length: 4 }, () => randomUUID());
    for (const jobId of jobIds) await requestJob(handler, { jobId, kind: KIND, params: {}, requestedBy: randomUUID() }, { actor: 'spec' });
    await a.start();
    await b.start();
    for (let done = 0; done < jobIds.length; ) {
      await waitUntil(() => runs.length > done, { timeoutMs: 20_000, message: `run ${done + 1}` });
      for (const r of runs.slice(done)) release(r.jobId, r.worker);
      done = runs.length;
    }
    await waitUntil(async () => (await Promise.all(jobIds.map(jobEvents))).every((events) => events.some((e) => e.type === 'JobCompleted')), { timeoutMs: 20_000, message: 'every job completed' });
    await a.idle();
    await b.idle();
    expect(runs.map((r) => r.jobId).sort(), 'each job ran once').to.deep.equal([...jobIds].sort());
    expect(new Set(runs.map((r) => r.worker)).size, 'both runners worked (one job each at a time)').to.equal(2);
    for (const jobId of jobIds) {
      const events = await jobEvents(jobId);
      expect(events.map((e) => e.type)).to.deep.equal(['JobRequested', 'JobClaimed', 'JobCompleted']);
      expect(events[2]!.data.result).to.deep.equal({ ref: `result-of-${jobId}` });
    }
  });

  it('a runner that stops mid-job leaves its claim to lapse; the other takes it over (attempt 2) and completes it once', async function () {
    const { kind, runs, release } = gatedKind();
    const a = runner(kind, 'crashing-a', 600);
    const jobId = randomUUID();
    await requestJob(handler, { jobId, kind: KIND, params: {}, requestedBy: randomUUID() }, { actor: 'spec' });
    await a.start();
    await waitUntil(() => runs.some((r) => r.worker === 'crashing-a'), { message: 'runner a to start the job' });
    await a.stop(); // the job in hand is abandoned, its claim still stands until the lease passes
    const b = runner(kind, 'survivor-b', 600);
    await b.start();
    await waitUntil(() => runs.some((r) => r.worker === 'survivor-b'), { timeoutMs: 20_000, message: 'runner b to take the job over' });
    release(jobId, 'survivor-b');
    await waitUntil(async () => (await jobEvents(jobId)).some((e) => e.type === 'JobCompleted'), { timeoutMs: 20_000, message: 'the job completed' });
    const events = await jobEvents(jobId);
    const claims = events.filter((e) => e.type === 'JobClaimed').map((e) => [e.data.worker, e.data.attempt]);
    expect(claims).to.deep.equal([['crashing-a', 1], ['survivor-b', 2]]);
    expect(events.filter((e) => e.type === 'JobCompleted').map((e) => e.data.worker)).to.deep.equal(['survivor-b']);
  });

  it('a job whose every holder stopped is failed by the next claim once the attempts are used up, and its kind is told (gaveUp)', async function () {
    const { kind, runs } = gatedKind();
    const told: Array<{ jobId: string; reason: string }> = [];
    kind.gaveUp = async (job, reason) => void told.push({ jobId: job.jobId, reason });
    const { readModels, bus } = harness.rt.infra;
    const make = (worker: string) => {
      const r = new JobRunner({ handler, readModels, bus, clock: () => new Date(), logger: silentLogger }, { kinds: [kind], worker, leaseMs: 400, renewEveryMs: 130, pollMs: 50, maxAttempts: 1 });
      runners.push(r);
      return r;
    };
    const jobId = randomUUID();
    await requestJob(handler, { jobId, kind: KIND, params: {}, requestedBy: randomUUID() }, { actor: 'spec' });
    const first = make('stopping-1');
    await first.start();
    await waitUntil(() => runs.some((r) => r.jobId === jobId), { message: 'the first attempt to start' });
    await first.stop();
    await make('second-2').start();
    await waitUntil(async () => (await jobEvents(jobId)).some((e) => e.type === 'JobFailed'), { timeoutMs: 20_000, message: 'the job failed' });
    expect((await jobEvents(jobId)).map((e) => e.type)).to.deep.equal(['JobRequested', 'JobClaimed', 'JobFailed']);
    await waitUntil(() => told.length === 1, { message: 'gaveUp called' });
    expect(told[0]).to.deep.equal({ jobId, reason: 'Gave up after 1 attempts: each worker that claimed the job stopped before finishing it' });
    expect(runs.filter((r) => r.jobId === jobId)).to.have.length(1);
  });

  it('a job whose work throws is failed once with the reason; progress reached the user', async function () {
    const { kind, runs, release } = gatedKind();
    const user = randomUUID();
    const progress: unknown[] = [];
    const unsubscribe = await harness.rt.infra.bus.subscribe(userRealtimeSubject(user, 'JOB_PROGRESS'), (_s, payload) => progress.push(payload));
    const r = runner(kind, 'runner-f');
    const jobId = randomUUID();
    await requestJob(handler, { jobId, kind: KIND, params: { fail: 'x' }, requestedBy: user }, { actor: 'spec' });
    await r.start();
    await waitUntil(() => runs.length === 1, { message: 'the job to start' });
    release(jobId, 'runner-f');
    await waitUntil(async () => (await jobEvents(jobId)).some((e) => e.type === 'JobFailed'), { message: 'the job failed' });
    const failed = (await jobEvents(jobId)).filter((e) => e.type === 'JobFailed');
    expect(failed.map((e) => e.data)).to.deep.equal([{ jobId, worker: 'runner-f', reason: 'bad input x', failedAt: failed[0]!.data.failedAt }]);
    await waitUntil(() => progress.some((p) => (p as { status: string }).status === 'FAILED'), { message: 'the FAILED progress' });
    expect(progress[0]).to.deep.equal({ jobId, kind: KIND, status: 'RUNNING', progress: 0, message: 'Started' });
    expect(progress).to.deep.include({ jobId, kind: KIND, status: 'RUNNING', progress: 0.5, message: 'halfway' });
    unsubscribe();
  });

  it('progress reaches the user at most every 500 ms, but every new tenth goes out even in a burst', async function () {
    const user = randomUUID();
    const progress: Array<{ status: string; progress: number }> = [];
    const unsubscribe = await harness.rt.infra.bus.subscribe(userRealtimeSubject(user, 'JOB_PROGRESS'), (_s, payload) => progress.push(payload as { status: string; progress: number }));
    const kind: JobKind = {
      kind: KIND,
      async run(_job: JobInfo, context: JobContext) {
        for (let i = 0; i <= 100; i++) context.progress(i / 100, 'burst');
        return { ref: 'done' };
      },
    };
    const r = runner(kind, 'runner-p');
    const jobId = randomUUID();
    await requestJob(handler, { jobId, kind: KIND, params: {}, requestedBy: user }, { actor: 'spec' });
    await r.start();
    await waitUntil(() => progress.some((p) => p.status === 'COMPLETED'), { message: 'the COMPLETED progress' });
    unsubscribe();
    const running = progress.filter((p) => p.status === 'RUNNING').map((p) => p.progress);
    // Started (0), the burst's first call (the interval had passed since none before it), then each tenth once.
    expect(running).to.deep.equal([0, 0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
  });

  it('runs one job per user and kind at a time: the second waits for the first', async function () {
    const { kind, runs, release } = gatedKind();
    const a = runner(kind, 'runner-x');
    const b = runner(kind, 'runner-y');
    const user = randomUUID();
    const first = randomUUID();
    const second = randomUUID();
    await requestJob(handler, { jobId: first, kind: KIND, params: {}, requestedBy: user }, { actor: 'spec' });
    await requestJob(handler, { jobId: second, kind: KIND, params: {}, requestedBy: user }, { actor: 'spec' });
    await a.start();
    await b.start();
    await waitUntil(() => runs.length === 1, { message: 'the first job to start' });
    // Both runners have looked for work several times meanwhile (poll 50 ms) and found the second job waiting.
    await harness.projector.caughtUp();
    await new Promise((r) => setImmediate(r));
    await waitUntil(async () => a.status().claimed + b.status().claimed === 1 && (await jobEvents(second)).length === 1, { message: 'the second still queued' });
    release(runs[0]!.jobId, runs[0]!.worker);
    await waitUntil(() => runs.length === 2, { timeoutMs: 20_000, message: 'the second job to start after the first' });
    expect(runs.map((r) => r.jobId)).to.deep.equal([first, second]);
    release(second, runs[1]!.worker);
    await waitUntil(async () => (await jobEvents(second)).some((e) => e.type === 'JobCompleted'), { message: 'the second completed' });
  });
});
