/**
 * command-api as the cluster runs it (PostgreSQL event store, read models and request limits) while
 * PostgreSQL refuses it connections, as a server at `max_connections` does ("sorry, too many clients
 * already", SQLSTATE 53300). That is how the trading bench's probe sign-up answered 500: a freshly
 * started command-api has no pooled connection yet, and the shared server was full. Nothing the
 * client sent was wrong and a retry in a moment succeeds, so the answer is 503 with Retry-After.
 *
 * The refusal is real but confined to this spec: the services connect as a role of their own, whose
 * CONNECTION LIMIT is set to 0 (PostgreSQL then refuses that role's new connections with the same
 * SQLSTATE 53300) and whose open connections are terminated; other suites on the server are untouched.
 */
import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { PROBLEM_CONTENT_TYPE } from '@papertrade/platform/http/problem-middleware';
import type { Projector } from '@papertrade/platform/projections/projector';
import { commandApiDeps, createProjector, createRuntime, type Runtime } from '../../../bin/compose';
import { POSTGRES_URL, requireServices } from '../../../test/services';
import { LOOPBACK_LIMITS } from '../../../test/limits';
import { createCommandApi } from '../app';

describe('command-api while PostgreSQL refuses it connections (a server at its connection limit)', function () {
  this.timeout(60_000);
  const tag = randomUUID().replace(/-/g, '').slice(0, 10);
  const role = `t_refused_${tag}`;
  const schema = `t_refused_${tag}`;
  let admin: pg.Client | undefined;
  let rt: Runtime | undefined;
  let projector: Projector | undefined;
  let server: Server | undefined;
  let url = '';

  const allowConnections = async (allowed: boolean) => {
    await admin!.query(`ALTER ROLE "${role}" CONNECTION LIMIT ${allowed ? -1 : 0}`);
    if (allowed) return;
    // The role's pooled connections go too, so every query needs a new connection, which is refused.
    await admin!.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [role]);
    for (const deadline = Date.now() + 10_000; ; ) {
      const { rows } = await admin!.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = $1', [role]);
      if (rows[0]!.n === 0) return;
      if (Date.now() > deadline) throw new Error(`connections of ${role} still open`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  const post = async (path: string, body: unknown) => {
    const res = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };
  const account = () => {
    const id = randomUUID().slice(0, 8);
    return { email: `refused.${id}@example.com`, username: `refused_${id}`, password: 'secret1', confirmPassword: 'secret1' };
  };

  before(async function () {
    await requireServices(this, 'postgres');
    admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    const password = randomBytes(12).toString('hex');
    const { rows } = await admin.query<{ db: string }>('SELECT current_database() AS db');
    await admin.query(`CREATE ROLE "${role}" LOGIN PASSWORD '${password}'`);
    // CREATE SCHEMA IF NOT EXISTS (the stores' set-up) needs CREATE on the database even when the schema exists.
    await admin.query(`GRANT CREATE ON DATABASE "${rows[0]!.db}" TO "${role}"`);
    await admin.query(`CREATE SCHEMA "${schema}" AUTHORIZATION "${role}"`);
    const databaseUrl = new URL(POSTGRES_URL);
    databaseUrl.username = role;
    databaseUrl.password = password;
    rt = await createRuntime('command-api', {
      embedded: false,
      env: {
        EVENT_STORE: 'postgres',
        READ_STORE: 'postgres',
        BUS: 'memory',
        DATABASE_URL: databaseUrl.toString(),
        DATABASE_SCHEMA: schema,
        JWT_SECRET: randomUUID() + randomUUID(),
        MARKET_SEED: randomUUID(),
        LOG: 'off',
        TEST_CHECKOUT: 'on',
        ...LOOPBACK_LIMITS,
      },
    });
    // The users projection, which a sign-in answers the profile from.
    projector = createProjector(rt);
    await projector.start();
    server = await new Promise<Server>((resolve) => {
      const s = createCommandApi(commandApiDeps(rt!)).listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterEach(async function () {
    if (admin && rt) await allowConnections(true);
  });

  after(async function () {
    if (server) {
      const closed = new Promise((resolve) => server!.close(resolve));
      server.closeAllConnections();
      await closed;
    }
    await projector?.stop();
    await rt?.infra.close();
    if (admin) {
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [role]);
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.query(`DROP OWNED BY "${role}"`).catch(() => {});
      await admin.query(`DROP ROLE IF EXISTS "${role}"`);
      await admin.end();
    }
  });

  it('signs up and signs in while PostgreSQL accepts its connections (the set-up works)', async function () {
    const fields = account();
    expect((await post('/api/auth/signup', fields)).status).to.equal(201);
    expect((await post('/api/auth/login', { email: fields.email, password: fields.password })).status).to.equal(200);
  });

  it('answers a sign-up and a sign-in 503 with Retry-After, not 500, and signs up once connections are allowed again', async function () {
    const registered = account();
    expect((await post('/api/auth/signup', registered)).status).to.equal(201);
    await allowConnections(false);

    const fields = account();
    const signup = await post('/api/auth/signup', fields);
    expect(signup.status, JSON.stringify(signup.body)).to.equal(503);
    expect(signup.headers.get('content-type')).to.contain(PROBLEM_CONTENT_TYPE);
    expect(signup.headers.get('retry-after')).to.equal('1');
    expect(signup.body).to.include({ status: 503, title: 'Service unavailable' });
    expect(String(signup.body.detail)).to.match(/try again/);

    const login = await post('/api/auth/login', { email: registered.email, password: registered.password });
    expect(login.status, JSON.stringify(login.body)).to.equal(503);
    expect(login.headers.get('retry-after')).to.equal('1');

    await allowConnections(true);
    expect((await post('/api/auth/signup', fields)).status).to.equal(201);
    expect((await post('/api/auth/login', { email: registered.email, password: registered.password })).status).to.equal(200);
  });
});
