/**
 * Helpers for specs that run the services as separate processes on PostgreSQL and NATS: the
 * environment of one isolated cluster (its own schema and subject prefix), the event store and read
 * models of that schema as seen from the test, and small JSON request helpers.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@papertrade/platform/event-store/event-store';
import { SqlEventStore } from '@papertrade/platform/event-store/sql-event-store';
import { SqlDocumentStore } from '@papertrade/platform/document-store/sql-document-store';
import { ReadModels } from '@papertrade/platform/projections/read-models';
import type { PostgresClient } from '@papertrade/platform/sql/sql-client';
import { NATS_URL, POSTGRES_URL } from './services';
import { postgresClient } from './postgres';
import { LOOPBACK_LIMITS } from './limits';

export function clusterEnv(schema: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    EVENT_STORE: 'postgres',
    READ_STORE: 'postgres',
    BUS: 'nats',
    DATABASE_URL: POSTGRES_URL,
    DATABASE_SCHEMA: schema,
    NATS_URL,
    NATS_PREFIX: schema,
    JWT_SECRET: randomUUID() + randomUUID(),
    MARKET_SEED: randomUUID(),
    // command-api and workers refuse to start without it (exchange secrets at rest).
    SECRETS_KEY: randomBytes(32).toString('hex'),
    LOG: 'off',
    // The cluster specs pay through the built-in test checkout, which a service runs only when asked.
    TEST_CHECKOUT: 'on',
    ...LOOPBACK_LIMITS,
    ...extra,
  };
}

/** The schema's stores, read directly (not through any service). */
export class SchemaView {
  private constructor(
    readonly schema: string,
    private readonly sql: PostgresClient,
    readonly events: SqlEventStore,
    readonly readModels: ReadModels,
  ) {}

  static async open(schema: string): Promise<SchemaView> {
    const sql = postgresClient(schema, 2);
    return new SchemaView(schema, sql, await SqlEventStore.create(sql, { schema }), new ReadModels(await SqlDocumentStore.create(sql, { schema })));
  }

  async allEvents(): Promise<RecordedEvent[]> {
    const all: RecordedEvent[] = [];
    for (;;) {
      const page = await this.events.readAll({ ...(all.length ? { after: all[all.length - 1]!.position } : {}), limit: 1000 });
      all.push(...page);
      if (page.length < 1000) return all;
    }
  }

  /**
   * Who holds each named lease of this schema (PostgresLeaseProvider: a session advisory lock on
   * `<schema>:<name>`), as the application_name of the holding connection (set a process's with
   * PGAPPNAME); names nobody holds are absent.
   */
  async leaseHolders(names: string[]): Promise<Record<string, string>> {
    const rows = await this.sql.query<{ name: string; holder: string }>(
      `SELECT k.name, a.application_name AS holder
         FROM unnest($2::text[]) AS k(name)
         JOIN pg_locks l ON l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
              AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended($1 || ':' || k.name, 0)
         JOIN pg_stat_activity a ON a.pid = l.pid`,
      [this.schema, names],
    );
    return Object.fromEntries(rows.map((r) => [r.name, r.holder]));
  }

  async close(): Promise<void> {
    await this.sql.close();
  }
}

export interface JsonAnswer {
  status: number;
  // Whatever the server sent; each test reads the fields it expects.
  body: Record<string, unknown>;
}

export async function sendJson(method: string, url: string, body: unknown, headers: Record<string, string> = {}): Promise<JsonAnswer> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}
