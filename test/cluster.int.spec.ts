/**
 * Local cluster mode: command-api, query-api, projectors and workers as separate OS processes
 * against PostgreSQL and NATS, driven through a user journey across them.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { SqlEventStore } from '@papertrade/platform/event-store/sql-event-store';
import { NATS_URL, POSTGRES_URL, requireServices } from './services';
import { dropSchema, postgresClient, uniqueSchema } from './postgres';
import { repoRoot, startService, type StartedService } from './app-process';
import { LOOPBACK_LIMITS } from './limits';

describe('local cluster: services as separate processes (PostgreSQL + NATS)', function () {
  this.timeout(120_000);
  let schema: string;
  const running = new Map<string, StartedService>();
  const urls: Record<string, string> = {};
  let clusterEnv: Record<string, string> = {};
  let events: SqlEventStore;

  /** Registered traders according to the event store itself, so no test depends on another's sign-ups. */
  const registrations = async () => {
    let count = 0;
    for (let page = await events.readAll({ limit: 1000 }); page.length; page = await events.readAll({ after: page[page.length - 1]!.position, limit: 1000 })) {
      count += page.filter((e) => e.type === 'UserRegistered').length;
    }
    return count;
  };
  const start = async (service: string) => {
    const started = await startService('bin/start-service.ts', [service], clusterEnv);
    running.set(service, started);
    urls[service] = started.url;
  };

  before(async function () {
    await requireServices(this, 'postgres', 'nats');
    schema = uniqueSchema('cluster');
    clusterEnv = {
      EVENT_STORE: 'postgres',
      READ_STORE: 'postgres',
      BUS: 'nats',
      DATABASE_URL: POSTGRES_URL,
      DATABASE_SCHEMA: schema,
      NATS_URL,
      NATS_PREFIX: schema,
      JWT_SECRET: randomUUID() + randomUUID(),
      LOG: 'off',
      ...LOOPBACK_LIMITS,
      ADMIN_EMAIL: 'chief@example.com',
      ADMIN_PASSWORD: 'chief-pass',
    };
    // Started one after another: each creates the tables it needs if they are missing.
    for (const service of ['projectors', 'command-api', 'query-api', 'workers']) await start(service);
    events = await SqlEventStore.create(postgresClient(schema, 2), { schema });
  });

  after(async function () {
    for (const p of [...running.values()].reverse()) await p.stop();
    await events?.close();
    if (schema) await dropSchema(schema);
  });

  it('signs up on command-api, reads its own write on query-api, signs in, and reads me', async function () {
    const id = randomUUID().slice(0, 8);
    const post = (p: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(urls['command-api'] + p, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const signup = await post('/api/auth/signup', { email: `cl.${id}@example.com`, username: `cl_${id}`, password: 'secret1', confirmPassword: 'secret1' });
    expect(signup.status).to.equal(201);
    const { position } = (await signup.json()) as { position: string };

    // the projectors process applies it and query-api (another process) waits for that position
    const stats = await fetch(`${urls['query-api']}/api/public/stats`, { headers: { 'x-min-position': position } });
    expect(stats.headers.get('x-position-reached')).to.equal('true');
    expect(((await stats.json()) as { traders: number }).traders).to.equal(await registrations()); // this user, the admin from ADMIN_EMAIL, and any other test's

    const login = await post('/api/auth/login', { email: `cl.${id}@example.com`, password: 'secret1' }, { 'x-min-position': position });
    expect(login.status).to.equal(200);
    const { token, user } = (await login.json()) as { token: string; user: { id: string } };

    const me = await fetch(`${urls['query-api']}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).to.equal(200);
    expect(((await me.json()) as { id: string }).id).to.equal(user.id);

    // the admin created at command-api start manages users through both APIs
    const adminLogin = await post('/api/auth/login', { email: 'chief@example.com', password: 'chief-pass' });
    const adminToken = ((await adminLogin.json()) as { token: string }).token;
    const put = await fetch(`${urls['command-api']}/api/admin/users/${user.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({ subscriptionTier: 'PREMIUM' }),
    });
    expect(put.status).to.equal(200);
    const { position: changed } = (await put.json()) as { position: string };
    const meAgain = await fetch(`${urls['query-api']}/api/auth/me`, { headers: { authorization: `Bearer ${token}`, 'x-min-position': changed } });
    expect(((await meAgain.json()) as { subscriptionTier: string }).subscriptionTier).to.equal('PREMIUM');

    const workers = await fetch(`${urls.workers}/api/health`);
    expect(workers.status).to.equal(200);
  });

  it('keeps accepting commands while the projectors are down, and catches up when they return', async function () {
    await running.get('projectors')!.stop();
    const id = randomUUID().slice(0, 8);
    const signup = await fetch(`${urls['command-api']}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `down.${id}@example.com`, username: `down_${id}`, password: 'secret1', confirmPassword: 'secret1' }),
    });
    expect(signup.status).to.equal(201);
    const { position } = (await signup.json()) as { position: string };
    const stale = await fetch(`${urls['query-api']}/api/public/stats`, { headers: { 'x-min-position': position } });
    expect(stale.headers.get('x-position-reached')).to.equal('false'); // waited 2 s, served what it had
    await start('projectors');
    const fresh = await fetch(`${urls['query-api']}/api/public/stats`, { headers: { 'x-min-position': position } });
    expect(fresh.headers.get('x-position-reached')).to.equal('true');
    expect(((await fresh.json()) as { traders: number }).traders).to.equal(await registrations());
  });

  it('refuses to start a service without JWT_SECRET', function () {
    const tsx = path.join(repoRoot, 'node_modules', '.bin', 'tsx');
    const result = spawnSync(tsx, ['bin/start-service.ts', 'query-api'], {
      cwd: repoRoot,
      env: { ...process.env, EVENT_STORE: 'postgres', READ_STORE: 'postgres', DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema, BUS: 'memory', JWT_SECRET: '', PORT: '0' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).to.equal(1);
    expect(result.stderr).to.match(/JWT_SECRET/);
  });
});
