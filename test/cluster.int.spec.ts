/**
 * Local cluster mode: command-api, query-api, projectors and workers as separate OS processes
 * against PostgreSQL and NATS, driven through a user journey across them.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { POSTGRES_URL, requireServices } from './services';
import { dropSchema, uniqueSchema } from './postgres';
import { repoRoot, startService, type StartedService } from './app-process';
import { SchemaView, clusterEnv, sendJson } from './cluster-support';

describe('local cluster: services as separate processes (PostgreSQL + NATS)', function () {
  this.timeout(120_000);
  let schema: string;
  const running = new Map<string, StartedService>();
  const urls: Record<string, string> = {};
  let env: Record<string, string> = {};
  let view: SchemaView;

  /** Registered traders according to the event store itself, so no test depends on another's sign-ups. */
  const registrations = async () => (await view.allEvents()).filter((e) => e.type === 'UserRegistered').length;
  const start = async (service: string) => {
    const started = await startService('bin/start-service.ts', [service], env);
    running.set(service, started);
    urls[service] = started.url;
  };

  before(async function () {
    await requireServices(this, 'postgres', 'nats');
    schema = uniqueSchema('cluster');
    env = clusterEnv(schema, { ADMIN_EMAIL: 'chief@example.com', ADMIN_PASSWORD: 'chief-pass' });
    // Started one after another: each creates the tables it needs if they are missing.
    for (const service of ['projectors', 'command-api', 'query-api', 'workers']) await start(service);
    view = await SchemaView.open(schema);
  });

  after(async function () {
    for (const p of [...running.values()].reverse()) await p.stop();
    await view?.close();
    if (schema) await dropSchema(schema);
  });

  it('signs up on command-api, reads its own write on query-api, signs in, and reads me', async function () {
    const id = randomUUID().slice(0, 8);
    const post = (p: string, body: unknown, headers: Record<string, string> = {}) => sendJson('POST', urls['command-api'] + p, body, headers);
    const signup = await post('/api/auth/signup', { email: `cl.${id}@example.com`, username: `cl_${id}`, password: 'secret1', confirmPassword: 'secret1' });
    expect(signup.status).to.equal(201);
    const position = String(signup.body.position);

    // the projectors process applies it and query-api (another process) waits for that position
    const stats = await fetch(`${urls['query-api']}/api/public/stats`, { headers: { 'x-min-position': position } });
    expect(stats.headers.get('x-position-reached')).to.equal('true');
    expect(((await stats.json()) as { traders: number }).traders).to.equal(await registrations()); // this user, the admin from ADMIN_EMAIL, and any other test's

    const login = await post('/api/auth/login', { email: `cl.${id}@example.com`, password: 'secret1' }, { 'x-min-position': position });
    expect(login.status).to.equal(200);
    const { token, user } = login.body as { token: string; user: { id: string } };

    const me = await fetch(`${urls['query-api']}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).to.equal(200);
    expect(((await me.json()) as { id: string }).id).to.equal(user.id);

    // the admin created at command-api start manages users through both APIs
    const adminLogin = await post('/api/auth/login', { email: 'chief@example.com', password: 'chief-pass' });
    const adminToken = String(adminLogin.body.token);
    const put = await sendJson('PUT', `${urls['command-api']}/api/admin/users/${user.id}`, { subscriptionTier: 'PREMIUM' }, { authorization: `Bearer ${adminToken}` });
    expect(put.status).to.equal(200);
    const changed = String(put.body.position);
    const meAgain = await fetch(`${urls['query-api']}/api/auth/me`, { headers: { authorization: `Bearer ${token}`, 'x-min-position': changed } });
    expect(((await meAgain.json()) as { subscriptionTier: string }).subscriptionTier).to.equal('PREMIUM');

    const workers = await fetch(`${urls.workers}/api/health`);
    expect(workers.status).to.equal(200);
  });

  it('answers the AI chat (a POST that only reads) on query-api, from a trade just placed on command-api; command-api has no such route', async function () {
    const id = randomUUID().slice(0, 8);
    const post = (p: string, body: unknown, headers: Record<string, string> = {}) => sendJson('POST', urls['command-api'] + p, body, headers);
    const signup = await post('/api/auth/signup', { email: `chat.${id}@example.com`, username: `chat_${id}`, password: 'secret1', confirmPassword: 'secret1' });
    const login = await post('/api/auth/login', { email: `chat.${id}@example.com`, password: 'secret1' }, { 'x-min-position': String(signup.body.position) });
    const { token, user } = login.body as { token: string; user: { id: string } };
    const adminToken = String((await post('/api/auth/login', { email: 'chief@example.com', password: 'chief-pass' })).body.token);
    const put = await sendJson('PUT', `${urls['command-api']}/api/admin/users/${user.id}`, { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' }, { authorization: `Bearer ${adminToken}` });
    expect(put.status).to.equal(200);
    const placed = await post('/api/trades', { symbol: 'BTC', type: 'BUY', amount: 0.01 }, { authorization: `Bearer ${token}`, 'x-min-position': String(put.body.position) });
    expect(placed.status).to.equal(201);
    // The gateway sends this POST to query-api (deploy/nginx/gateway.conf); the projectors process applies the trade and query-api waits for it.
    const chat = await sendJson('POST', `${urls['query-api']}/api/ai-chat`, { message: 'What are my open positions?' }, { authorization: `Bearer ${token}`, 'x-min-position': String(placed.body.position) });
    expect(chat.status, JSON.stringify(chat.body)).to.equal(200);
    expect(String(chat.body.response)).to.contain('BTC: 0.0100 BTC at an average');
    expect((await post('/api/ai-chat', { message: 'hi' }, { authorization: `Bearer ${token}` })).status).to.equal(404);
  });

  it('keeps accepting commands while the projectors are down, and catches up when they return', async function () {
    await running.get('projectors')!.stop();
    const id = randomUUID().slice(0, 8);
    const signup = await sendJson('POST', `${urls['command-api']}/api/auth/signup`, {
      email: `down.${id}@example.com`,
      username: `down_${id}`,
      password: 'secret1',
      confirmPassword: 'secret1',
    });
    expect(signup.status).to.equal(201);
    const position = String(signup.body.position);
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

  it('refuses to start a service without MARKET_SEED while the market is simulated: every service must compute the same secret market', function () {
    const tsx = path.join(repoRoot, 'node_modules', '.bin', 'tsx');
    const base = { ...process.env, EVENT_STORE: 'postgres', READ_STORE: 'postgres', DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema, BUS: 'memory', JWT_SECRET: randomUUID() + randomUUID(), PORT: '0' };
    for (const seed of ['', 'too short']) {
      const result = spawnSync(tsx, ['bin/start-service.ts', 'query-api'], { cwd: repoRoot, env: { ...base, MARKET_DATA: 'simulated', MARKET_SEED: seed }, encoding: 'utf8', timeout: 30_000 });
      expect(result.status, `MARKET_SEED=${JSON.stringify(seed)}`).to.equal(1);
      expect(result.stderr).to.match(/MARKET_SEED (is required|must be at least 16 characters)/);
    }
  });

  it('refuses to start command-api and workers without a usable SECRETS_KEY: they hold exchange secrets', function () {
    const tsx = path.join(repoRoot, 'node_modules', '.bin', 'tsx');
    const base = { ...process.env, EVENT_STORE: 'postgres', READ_STORE: 'postgres', DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema, BUS: 'memory', JWT_SECRET: randomUUID() + randomUUID(), MARKET_SEED: randomUUID(), TEST_CHECKOUT: 'on', PORT: '0' };
    for (const service of ['command-api', 'workers']) {
      for (const key of ['', 'not a key']) {
        const result = spawnSync(tsx, ['bin/start-service.ts', service], { cwd: repoRoot, env: { ...base, SECRETS_KEY: key }, encoding: 'utf8', timeout: 30_000 });
        expect(result.status, `${service} SECRETS_KEY=${JSON.stringify(key)}`).to.equal(1);
        expect(result.stderr).to.match(/SECRETS_KEY (is required outside the embedded mode|must be 32 bytes)/);
        expect(result.stderr).not.to.contain('not a key');
      }
    }
  });
});
