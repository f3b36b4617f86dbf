/**
 * Backtests across processes (issue 18): two workers processes on one PostgreSQL schema and NATS
 * share the backtests four premium users asked for through command-api; one process is killed
 * (SIGKILL, no clean shutdown) while it holds a backtest job that has not ended. Its claim is not
 * renewed any more, and once the lease (JOB_LEASE_MS, 3 s here; the backtest runs on a worker thread,
 * so the renewals go out while it runs) has passed the other process takes the job over (attempt 2) and
 * runs it from the start. Every job completes exactly once, every backtest
 * records one result and each of its trade pages once, and every user's slot is released.
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

const BOUND_MS = 300_000;
const USERS = 4;
const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('local cluster: backtest jobs over two workers processes, one SIGKILLed mid-job (PostgreSQL + NATS)', function () {
  this.timeout(500_000);
  let schema: string;
  let view: SchemaView;
  let commandApi: string;
  const services: StartedService[] = [];
  const workers: StartedService[] = [];

  before(async function () {
    await requireServices(this, 'postgres', 'nats');
    schema = uniqueSchema('btjobs');
    const env = clusterEnv(schema, { TRUST_PROXY: '1', JOB_LEASE_MS: '3000', HOUSE_MODEL: 'off', ADMIN_EMAIL: 'bt.admin@example.com', ADMIN_PASSWORD: 'bt-admin-pass' });
    for (const service of ['projectors', 'command-api']) services.push(await startService('bin/start-service.ts', [service], env));
    commandApi = services[1]!.url;
    for (let i = 0; i < 2; i++) workers.push(await startService('bin/start-service.ts', ['workers'], env));
    view = await SchemaView.open(schema);
  });

  after(async function () {
    for (const p of [...workers, ...services].reverse()) await p.stop();
    await view?.close();
    if (schema) await dropSchema(schema);
  });

  async function runnerName(service: StartedService): Promise<string> {
    const health = (await (await fetch(`${service.url}/api/health`)).json()) as { workers: Array<{ name: string; worker?: string }> };
    return health.workers.find((w) => w.name === 'job-runner')!.worker!;
  }

  const jobEvents = async (): Promise<RecordedEvent[]> => (await view.allEvents()).filter((e) => e.streamId.startsWith('job-'));

  it("spreads the backtests over both processes; the killed one's job is taken over; every job completes once and every result and trade page is recorded once", async function () {
    const [a, b] = workers as [StartedService, StartedService];
    const names = [await runnerName(a), await runnerName(b)];
    const admin = await waitUntil(async () => {
      const login = await sendJson('POST', `${commandApi}/api/auth/login`, { email: 'bt.admin@example.com', password: 'bt-admin-pass' }, { 'x-forwarded-for': '198.51.100.200' });
      return login.status === 200 ? String(login.body.token) : null;
    }, { timeoutMs: 20_000, intervalMs: 100, message: 'the admin to sign in' });

    const requests: Array<{ userId: string; id: string; jobId: string }> = [];
    for (let i = 0; i < USERS; i++) {
      const id = `bt${i}_${randomUUID().slice(0, 6)}`;
      const address = { 'x-forwarded-for': `198.51.100.${i + 1}` };
      const signup = await sendJson('POST', `${commandApi}/api/auth/signup`, { email: `${id}@example.com`, username: id, password: 'secret1', confirmPassword: 'secret1' }, address);
      expect(signup.status).to.equal(201);
      const login = await sendJson('POST', `${commandApi}/api/auth/login`, { email: `${id}@example.com`, password: 'secret1' }, address);
      const userId = String((login.body.user as { id: string }).id);
      const up = await sendJson('PUT', `${commandApi}/api/admin/users/${userId}`, { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' }, { authorization: `Bearer ${admin}` });
      expect(up.status, JSON.stringify(up.body)).to.equal(200);
      const body = { strategyId: ['rsi-mean-reversion', 'ma-crossover', 'macd-momentum', 'house-signals'][i], symbol: ['ETH', 'BTC', 'BNB', 'ETH'][i], startDate: day(Date.now() - 70 * DAY), endDate: day(Date.now() - 10 * DAY) };
      // command-api learns of the upgrade from the users projection's notice: until then it is a 403.
      const created = await waitUntil(async () => {
        const res = await sendJson('POST', `${commandApi}/api/backtest/run`, body, { authorization: `Bearer ${String(login.body.token)}` });
        return res.status === 403 ? null : res;
      }, { timeoutMs: 20_000, intervalMs: 100, message: 'the user to be premium on command-api' });
      expect(created.status, JSON.stringify(created.body)).to.equal(202);
      requests.push({ userId, id: String(created.body.id), jobId: String(created.body.jobId) });
    }
    const jobIds = requests.map((r) => r.jobId);

    // Kill the first process as soon as it holds a claim on a job that has not ended.
    const victim = await waitUntil(
      async () => {
        const events = await jobEvents();
        const ended = new Set(events.filter((e) => e.type === 'JobCompleted' || e.type === 'JobFailed').map((e) => String(e.data.jobId)));
        return events.find((e) => e.type === 'JobClaimed' && e.data.worker === names[0] && !ended.has(String(e.data.jobId)));
      },
      { timeoutMs: BOUND_MS, intervalMs: 20, message: `${names[0]} to claim a job` },
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
    expect(victimClaims, "the killed process's job taken over by the survivor").to.deep.equal([[names[0], 1], [names[1], 2]]);
    expect(events.find((e) => e.type === 'JobCompleted' && e.data.jobId === victimJob)!.data.worker).to.equal(names[1]);

    const all = await view.allEvents();
    for (const r of requests) {
      const run = all.filter((e) => e.streamId === `backtest-${r.id}`);
      const completed = run.filter((e) => e.type === 'BacktestCompleted');
      expect(completed, `backtest ${r.id} completed once`).to.have.length(1);
      expect(run.filter((e) => e.type === 'BacktestFailed')).to.have.length(0);
      const pages = run.filter((e) => e.type === 'BacktestTradesRecorded').map((e) => Number(e.data.page));
      const tradeCount = Number(completed[0]!.data.tradeCount);
      expect(pages, `backtest ${r.id}: each trade page once`).to.deep.equal(Array.from({ length: Math.ceil(tradeCount / 200) }, (_, i) => i));
      const trades = run.filter((e) => e.type === 'BacktestTradesRecorded').flatMap((e) => e.data.trades as unknown[]);
      expect(trades).to.have.length(tradeCount);
      const slot = all.filter((e) => e.streamId === `backtester-${r.userId}`).map((e) => e.type);
      expect(slot, `user ${r.userId}'s slot taken and released`).to.deep.equal(['BacktestSlotTaken', 'BacktestSlotReleased']);
    }
  });
});
