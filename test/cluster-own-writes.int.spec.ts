/**
 * Read-your-own-writes without X-Min-Position across processes (PostgreSQL + NATS): the command goes
 * to command-api, the read to a query-api process whose projections are applied by a third process
 * and announced over NATS (platform/src/http/own-writes.ts). No read here sends X-Min-Position
 * except where a test sets up a premium user.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { DEFAULT_RISK_PARAMETERS } from '@papertrade/domain/trading/contracts';
import { requireServices } from './services';
import { dropSchema, uniqueSchema } from './postgres';
import { startService, type StartedService } from './app-process';
import { clusterEnv, sendJson } from './cluster-support';
import { waitUntil } from './wait';

const PAIRS = 200;

describe('local cluster: a plain client reads its own writes without X-Min-Position (PostgreSQL + NATS)', function () {
  this.timeout(180_000);
  let schema: string;
  const running: StartedService[] = [];
  let commandApi: string;
  let queryApi: string;
  let adminToken: string;

  const get = async (path: string, token: string, headers: Record<string, string> = {}) => {
    const res = await fetch(queryApi + path, { headers: { authorization: `Bearer ${token}`, ...headers } });
    return { status: res.status, body: (await res.json()) as any, headers: res.headers };
  };
  const send = (method: string, path: string, token: string, body: unknown) => sendJson(method, commandApi + path, body, { authorization: `Bearer ${token}` });

  /** A signed-up, signed-in user; premium through the admin's edit, read back before it is used. */
  const newUser = async (premium = false) => {
    const id = randomUUID().slice(0, 8);
    const email = `own.${id}@example.com`;
    const signup = await sendJson('POST', `${commandApi}/api/auth/signup`, { email, username: `own_${id}`, password: 'secret1', confirmPassword: 'secret1' });
    expect(signup.status, JSON.stringify(signup.body)).to.equal(201);
    const login = await sendJson('POST', `${commandApi}/api/auth/login`, { email, password: 'secret1' });
    expect(login.status, JSON.stringify(login.body)).to.equal(200);
    const token = String(login.body.token);
    const userId = String((login.body.user as { id: string }).id);
    if (premium) {
      const put = await send('PUT', `/api/admin/users/${userId}`, adminToken, { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' });
      expect(put.status, JSON.stringify(put.body)).to.equal(200);
      // command-api's own cache of who the user is follows the users notices: wait until it says premium.
      await waitUntil(async () => (await get('/api/auth/me', token, { 'x-min-position': String(put.body.position) })).body.subscriptionTier === 'PREMIUM' || null, {
        timeoutMs: 10_000,
        message: 'the user to read as premium',
      });
    }
    return { userId, token, email };
  };

  before(async function () {
    await requireServices(this, 'postgres', 'nats');
    schema = uniqueSchema('ownw');
    const env = clusterEnv(schema, { ADMIN_EMAIL: 'own.admin@example.com', ADMIN_PASSWORD: 'own-admin-pass' });
    // One after another: each creates the tables it needs if they are missing.
    for (const service of ['projectors', 'command-api', 'query-api']) {
      const started = await startService('bin/start-service.ts', [service], env);
      running.push(started);
      if (service === 'command-api') commandApi = started.url;
      if (service === 'query-api') queryApi = started.url;
    }
    adminToken = await waitUntil(
      async () => {
        const login = await sendJson('POST', `${commandApi}/api/auth/login`, { email: 'own.admin@example.com', password: 'own-admin-pass' });
        return login.status === 200 ? String(login.body.token) : null;
      },
      { timeoutMs: 20_000, intervalMs: 100, message: 'the admin to sign in' },
    );
  });

  after(async function () {
    for (const p of running.reverse()) await p.stop();
    if (schema) await dropSchema(schema);
  });

  it(`${PAIRS} back-to-back POST /api/trades on command-api then GET /api/trades on query-api: every trade is in the list`, async function () {
    // About 55 s on a shared 2-core machine at load average 19.
    this.timeout(300_000);
    const { token } = await newUser();
    const misses: string[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const placed = await send('POST', '/api/trades', token, { symbol: 'ETH', type: i % 2 === 0 ? 'BUY' : 'SELL', amount: 0.001 });
      expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
      const list = await get('/api/trades?pageSize=1', token);
      if (list.status !== 200 || list.body.trades[0]?.id !== placed.body.id || list.body.total !== i + 1) {
        misses.push(`${i}: ${list.status} newest ${list.body.trades?.[0]?.id} (placed ${String(placed.body.id)}), total ${list.body.total}`);
      }
    }
    expect(misses).to.deep.equal([]);
  });

  it('PUT /api/risk/parameters then GET /api/risk/parameters shows the new set, each time', async function () {
    const { token } = await newUser(true);
    const misses: string[] = [];
    for (let i = 0; i < 20; i++) {
      const wanted = { ...DEFAULT_RISK_PARAMETERS, maxConcurrentTrades: 1 + (i % 20), maxDrawdown: 5 + i };
      const put = await send('PUT', '/api/risk/parameters', token, wanted);
      expect(put.status, JSON.stringify(put.body)).to.equal(200);
      const got = await get('/api/risk/parameters', token);
      if (got.body.maxConcurrentTrades !== wanted.maxConcurrentTrades || got.body.maxDrawdown !== wanted.maxDrawdown) misses.push(`${i}: ${JSON.stringify(got.body)}`);
    }
    expect(misses).to.deep.equal([]);
  });

  it("an admin's edit of another user shows in GET /api/admin/users at once", async function () {
    const { userId, email } = await newUser();
    const misses: string[] = [];
    for (let i = 0; i < 20; i++) {
      const firstName = `Edited${i}`;
      const put = await send('PUT', `/api/admin/users/${userId}`, adminToken, { firstName });
      expect(put.status, JSON.stringify(put.body)).to.equal(200);
      const list = await get(`/api/admin/users?q=${encodeURIComponent(email)}`, adminToken);
      const shown = (list.body as Array<{ id: string; firstName: string }>).find((u) => u.id === userId);
      if (shown?.firstName !== firstName) misses.push(`${i}: ${JSON.stringify(shown)}`);
    }
    expect(misses).to.deep.equal([]);
  });

  it('bot settings then GET /api/risk, and a cancelled subscription then GET /api/subscription', async function () {
    const { token } = await newUser(true);
    const misses: string[] = [];
    for (let i = 0; i < 10; i++) {
      const settings = await send('POST', '/api/settings/bot', token, { maxPositionSize: 1 + i });
      expect(settings.status, JSON.stringify(settings.body)).to.equal(200);
      const risk = await get('/api/risk', token);
      if (risk.body.settings?.maxPositionSize !== 1 + i) misses.push(`${i}: settings ${JSON.stringify(risk.body.settings)}`);
    }
    for (let i = 0; i < 5; i++) {
      for (const [command, cancelled] of [['cancel', true], ['reactivate', false]] as const) {
        const change = await send('POST', `/api/subscription/${command}`, token, {});
        expect(change.status, JSON.stringify(change.body)).to.equal(200);
        const subscription = await get('/api/subscription', token);
        if (subscription.body.isCancelled !== cancelled) misses.push(`${i} ${command}: ${JSON.stringify(subscription.body)}`);
      }
    }
    expect(misses).to.deep.equal([]);
  });

  it('a payment confirmed on command-api, then me on query-api and premium routes on both see Premium, each time', async function () {
    const misses: string[] = [];
    for (let i = 0; i < 15; i++) {
      const { token } = await newUser();
      const checkout = await send('POST', '/api/subscription/checkout', token, { planId: 'premium' });
      expect(checkout.status, JSON.stringify(checkout.body)).to.equal(200);
      const sessionId = String(checkout.body.sessionId);
      // The test checkout's Pay button, on command-api (the gateway sends /test-checkout/ there).
      expect((await fetch(`${commandApi}/test-checkout/${sessionId}/pay`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status).to.equal(200);
      const success = await send('POST', '/api/subscription/success', token, { sessionId });
      expect(success.status, JSON.stringify(success.body)).to.equal(200);
      const [me, bot, alerts] = await Promise.all([get('/api/auth/me', token), send('POST', '/api/bot/start', token, {}), get('/api/risk/alerts', token)]);
      if (me.body.subscriptionTier !== 'PREMIUM') misses.push(`${i} me: ${me.body.subscriptionTier}`);
      if (bot.status !== 200) misses.push(`${i} bot/start: ${bot.status} ${JSON.stringify(bot.body)}`);
      if (alerts.status !== 200) misses.push(`${i} risk/alerts: ${alerts.status}`);
    }
    expect(misses).to.deep.equal([]);
  });
});
