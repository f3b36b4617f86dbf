/**
 * Long jobs across processes (DESIGN.md section 5, issue 19): two workers processes on one PostgreSQL
 * schema and NATS share the model-training jobs four users asked for through command-api; one
 * process is killed (SIGKILL, no clean shutdown) while it trains a job. Its claim is not renewed any
 * more, and once the lease (JOB_LEASE_MS, 3 s here) has passed the other process takes the job over
 * (attempt 2) and trains it. Every job completes exactly once, and every model is recorded once.
 *
 * Bounds (BOUND_MS) are only how long a broken build makes the suite wait, never assertions of speed.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { RecordedEvent } from '@papertrade/platform/event-store/event-store';
import { requireServices } from './services';
import { dropSchema, uniqueSchema } from './postgres';
import { startService, type StartedService } from './app-process';
import { SchemaView, clusterEnv, sendJson } from './cluster-support';
import { waitUntil } from './wait';

const BOUND_MS = 240_000;
const USERS = 4;

describe('local cluster: model-training jobs over two workers processes, one SIGKILLed mid-job (PostgreSQL + NATS)', function () {
  this.timeout(400_000);
  let schema: string;
  let view: SchemaView;
  const services: StartedService[] = [];
  const workers: StartedService[] = [];

  before(async function () {
    await requireServices(this, 'postgres', 'nats');
    schema = uniqueSchema('jobs');
    const env = clusterEnv(schema, { TRUST_PROXY: '1', JOB_LEASE_MS: '3000', HOUSE_MODEL: 'off' });
    for (const service of ['projectors', 'command-api']) services.push(await startService('bin/start-service.ts', [service], env));
    for (let i = 0; i < 2; i++) workers.push(await startService('bin/start-service.ts', ['workers'], env));
    view = await SchemaView.open(schema);
  });

  after(async function () {
    for (const p of [...workers, ...services].reverse()) await p.stop();
    await view?.close();
    if (schema) await dropSchema(schema);
  });

  /** The job runner's name in a workers process (its claims carry it), from its health check. */
  async function runnerName(service: StartedService): Promise<string> {
    const health = (await (await fetch(`${service.url}/api/health`)).json()) as { workers: Array<{ name: string; worker?: string }> };
    return health.workers.find((w) => w.name === 'job-runner')!.worker!;
  }

  const jobEvents = async (): Promise<RecordedEvent[]> => (await view.allEvents()).filter((e) => e.streamId.startsWith('job-'));

  it('spreads the jobs over both processes; the killed one\'s job is taken over; every job completes once and every model is recorded once', async function () {
    const [a, b] = workers as [StartedService, StartedService];
    const names = [await runnerName(a), await runnerName(b)];
    const commandApi = services[1]!.url;

    const jobIds: string[] = [];
    for (let i = 0; i < USERS; i++) {
      const id = `jobs${i}_${randomUUID().slice(0, 6)}`;
      const address = { 'x-forwarded-for': `198.51.100.${i + 1}` };
      const signup = await sendJson('POST', `${commandApi}/api/auth/signup`, { email: `${id}@example.com`, username: id, password: 'secret1', confirmPassword: 'secret1' }, address);
      expect(signup.status).to.equal(201);
      const login = await sendJson('POST', `${commandApi}/api/auth/login`, { email: `${id}@example.com`, password: 'secret1' }, address);
      const created = await sendJson('POST', `${commandApi}/api/ml/create-model`, { modelType: 'neural_network', trainingDays: 45, parameters: { epochs: 15 } }, { authorization: `Bearer ${String(login.body.token)}` });
      expect(created.status, JSON.stringify(created.body)).to.equal(202);
      jobIds.push(String(created.body.jobId));
    }

    // Kill the first process as soon as it holds a claim on a job that has not ended.
    const victim = await waitUntil(
      async () => {
        const events = await jobEvents();
        const ended = new Set(events.filter((e) => e.type === 'JobCompleted' || e.type === 'JobFailed').map((e) => String(e.data.jobId)));
        return events.find((e) => e.type === 'JobClaimed' && e.data.worker === names[0] && !ended.has(String(e.data.jobId)));
      },
      { timeoutMs: BOUND_MS, intervalMs: 50, message: `${names[0]} to claim a job` },
    );
    await a.kill();
    const victimJob = String(victim.data.jobId);

    await waitUntil(async () => {
      const ended = (await jobEvents()).filter((e) => e.type === 'JobCompleted' || e.type === 'JobFailed');
      return jobIds.every((id) => ended.some((e) => e.data.jobId === id));
    }, { timeoutMs: BOUND_MS, intervalMs: 250, message: 'every job to end' });

    const events = await jobEvents();
    for (const jobId of jobIds) {
      const mine = events.filter((e) => e.data.jobId === jobId);
      expect(mine.filter((e) => e.type === 'JobCompleted'), `job ${jobId} completed once`).to.have.length(1);
      expect(mine.filter((e) => e.type === 'JobFailed'), `job ${jobId} never failed`).to.have.length(0);
    }
    const claims = events.filter((e) => e.type === 'JobClaimed');
    expect(new Set(claims.map((e) => e.data.worker)), 'both processes claimed jobs').to.deep.equal(new Set(names));
    const victimClaims = claims.filter((e) => e.data.jobId === victimJob).map((e) => [e.data.worker, e.data.attempt]);
    expect(victimClaims, 'the killed process\'s job taken over by the survivor').to.deep.equal([[names[0], 1], [names[1], 2]]);
    expect(events.find((e) => e.type === 'JobCompleted' && e.data.jobId === victimJob)!.data.worker).to.equal(names[1]);

    const all = await view.allEvents();
    const trained = all.filter((e) => e.type === 'ModelTrained');
    expect(trained.map((e) => e.data.jobId).sort(), 'one model recorded per job').to.deep.equal([...jobIds].sort());
    for (const e of trained) {
      expect(e.data).to.include({ modelType: 'neural_network', trainingDays: 45, symbol: 'ETH' });
      expect(e.data.digest).to.match(/^[0-9a-f]{64}$/);
    }
  });
});
