/**
 * Helpers for specs that run the services as separate processes on PostgreSQL and NATS: the
 * environment of one isolated cluster (its own schema and subject prefix), the event store and read
 * models of that schema as seen from the test, and small JSON request helpers.
 */
import { randomUUID } from 'node:crypto';
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
    LOG: 'off',
    ...LOOPBACK_LIMITS,
    ...extra,
  };
}

/** The schema's stores, read directly (not through any service). */
export class SchemaView {
  private constructor(
    private readonly sql: PostgresClient,
    readonly events: SqlEventStore,
    readonly readModels: ReadModels,
  ) {}

  static async open(schema: string): Promise<SchemaView> {
    const sql = postgresClient(schema, 2);
    return new SchemaView(sql, await SqlEventStore.create(sql, { schema }), new ReadModels(await SqlDocumentStore.create(sql, { schema })));
  }

  async allEvents(): Promise<RecordedEvent[]> {
    const all: RecordedEvent[] = [];
    for (;;) {
      const page = await this.events.readAll({ ...(all.length ? { after: all[all.length - 1]!.position } : {}), limit: 1000 });
      all.push(...page);
      if (page.length < 1000) return all;
    }
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
