/**
 * How many connections one service process opens to the PostgreSQL server. A server refuses
 * connections past its max_connections (100 by default), whoever asks: a cluster whose four services
 * each kept a pool per store (events 10, read models 10, request limits 4: up to 96, and a connection
 * per lease on top) could reach it on its own; the trading bench beside two cluster suites on one such
 * server did, and sign-ups answered 500 (now 503: http/unavailable.ts). One pool per process now.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../config/config';
import { SignInLimits, DEFAULT_SIGN_IN_LIMITS } from '../auth/sign-in-limits';
import { POSTGRES_URL, requireServices } from '../../../test/services';
import { dropSchema, uniqueSchema } from '../../../test/postgres';
import { POSTGRES_POOL_MAX, createInfrastructure, type Infrastructure } from './infrastructure';

describe('infrastructure on PostgreSQL: connections of one process', function () {
  this.timeout(60_000);
  const applicationName = `conn_${randomUUID().slice(0, 8)}`;
  let schema: string;
  let infra: Infrastructure | undefined;
  let admin: pg.Client;

  const connections = async () =>
    (await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [applicationName])).rows[0]!.n;

  before(async function () {
    await requireServices(this, 'postgres');
    schema = uniqueSchema('conns');
    admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    const url = new URL(POSTGRES_URL);
    url.searchParams.set('application_name', applicationName);
    const config = loadConfig({ EVENT_STORE: 'postgres', READ_STORE: 'postgres', BUS: 'memory', DATABASE_URL: url.toString(), DATABASE_SCHEMA: schema, LOG: 'off' });
    infra = await createInfrastructure(config, { service: 'test' });
  });

  after(async function () {
    await infra?.close();
    await admin?.end();
    if (schema) await dropSchema(schema);
  });

  it(`opens at most ${POSTGRES_POOL_MAX} however many event store, read model and request limit queries run at once, and closes them all`, async function () {
    const limits = new SignInLimits(infra!.limitStore, { ...DEFAULT_SIGN_IN_LIMITS, attemptsPerAddress: 1_000_000 });
    const documents = infra!.documents.collection<{ n: number }>('connections_probe');
    // Each kind alone is enough to fill a pool: queries issued together each take a connection of their own.
    await Promise.all([
      ...Array.from({ length: 30 }, () => infra!.eventStore.headPosition()),
      ...Array.from({ length: 30 }, (_, i) => documents.get(`doc-${i}`)),
      ...Array.from({ length: 30 }, (_, i) => limits.spendAttempt(`192.0.2.${i}`)),
    ]);
    // A pool keeps its connections open for a while after use: they are all still there to count.
    const open = await connections();
    expect(open).to.be.greaterThan(0);
    expect(open).to.be.at.most(POSTGRES_POOL_MAX);

    await infra!.close();
    infra = undefined;
    for (const deadline = Date.now() + 5000; (await connections()) > 0; ) {
      if (Date.now() > deadline) throw new Error(`${await connections()} connections left open after close`);
      await new Promise((r) => setTimeout(r, 50));
    }
  });
});
