/**
 * A page of a stream reads a page's rows, however long the stream (issue 16, item 22): the store's
 * own statements run under EXPLAIN ANALYZE (a SqlClient that explains each statement reading the
 * events table before running it), and the rows the plan's scans of `events` produced are counted.
 * A page of 50 from a 10,000-event stream reads 50 rows, as from a 60-event one (a 10-event stream,
 * its 10); reading the whole stream (readStream, what the audit used to do) reads all 10,000. The
 * spec failed before the page's revisions were a closed range: the planner, without statistics,
 * read the 5,000 rows from the page's start on and sorted them. On PGlite always, and on
 * PostgreSQL when the server is there.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { PgliteClient, type QueryOptions, type Row, type SqlClient, type SqlExecutor } from '../sql/sql-client';
import { SqlEventStore } from './sql-event-store';
import type { NewEvent } from './event-store';
import { requireServices } from '../../../test/services';
import { dropSchema, postgresClient, uniqueSchema } from '../../../test/postgres';
import { freshPglite } from '../../../test/pglite';

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

function rowsFromEvents(node: PlanNode): number {
  const own = node['Relation Name'] === 'events' ? (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1) : 0;
  return own + (node.Plans ?? []).reduce((n, child) => n + rowsFromEvents(child), 0);
}

/** Runs every SELECT on the events table under EXPLAIN ANALYZE first and adds up the rows its scans of `events` read. */
class RowCountingClient implements SqlClient {
  rowsRead = 0;
  counting = false;
  constructor(private readonly inner: SqlClient) {}
  get engine() {
    return this.inner.engine;
  }
  async query<R extends Row = Row>(text: string, params?: unknown[], options?: QueryOptions): Promise<R[]> {
    if (this.counting && /^\s*(WITH|SELECT)\b/i.test(text) && /\bFROM events\b/.test(text)) {
      const [plan] = await this.inner.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params);
      const json = plan!['QUERY PLAN'];
      const parsed = (typeof json === 'string' ? JSON.parse(json) : json) as Array<{ Plan: PlanNode }>;
      this.rowsRead += rowsFromEvents(parsed[0]!.Plan);
    }
    return this.inner.query<R>(text, params, options);
  }
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.inner.transaction(fn);
  }
  exec(text: string): Promise<void> {
    return this.inner.exec(text);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

const event = (i: number): NewEvent => ({
  id: randomUUID(),
  type: 'Counted',
  data: { i },
  metadata: { userId: 'tester', correlationId: 'c', causationId: 'c', at: new Date(i * 1000).toISOString(), schemaVersion: 1 },
});

function pageCosts(name: string, make: () => Promise<{ sql: SqlClient; options: { schema?: string }; cleanup(): Promise<void> }>) {
  describe(`a stream's page reads a page of rows (${name})`, function () {
    this.timeout(120_000);
    let client: RowCountingClient;
    let store: SqlEventStore;
    let cleanup: () => Promise<void>;
    const long = `long-${randomUUID()}`;
    const short = `short-${randomUUID()}`;
    const ten = `ten-${randomUUID()}`;

    before(async function () {
      const made = await make();
      client = new RowCountingClient(made.sql);
      store = await SqlEventStore.create(client, made.options);
      cleanup = made.cleanup;
      for (let i = 0; i < 10_000; i += 500) await store.append(long, Array.from({ length: 500 }, (_, j) => event(i + j)), i === 0 ? 'no_stream' : BigInt(i - 1));
      await store.append(short, Array.from({ length: 60 }, (_, j) => event(j)), 'no_stream');
      await store.append(ten, Array.from({ length: 10 }, (_, j) => event(j)), 'no_stream');
    });
    after(async () => {
      await store?.close();
      await cleanup?.();
    });

    async function rowsRead(read: () => Promise<unknown>): Promise<number> {
      client.rowsRead = 0;
      client.counting = true;
      try {
        await read();
      } finally {
        client.counting = false;
      }
      return client.rowsRead;
    }

    it('reads 50 rows for a page of 50 of 10,000 events, as of 60 events (10 of 10), in either direction; 10,000 for the whole stream', async function () {
      const figures = {
        longMiddle: await rowsRead(() => store.readStreamPage(long, { fromRevision: 5_000n, maxCount: 50 })),
        longLastBackwards: await rowsRead(() => store.readStreamPage(long, { direction: 'backwards', maxCount: 50 })),
        longLength: await rowsRead(() => store.readStreamPage(long, { maxCount: 0 })),
        shortMiddle: await rowsRead(() => store.readStreamPage(short, { fromRevision: 5n, maxCount: 50 })),
        tenFirst: await rowsRead(() => store.readStreamPage(ten, { maxCount: 50 })),
        longWhole: await rowsRead(() => store.readStream(long)),
      };
      console.log(`      rows read (${name}): ${JSON.stringify(figures)}`);
      expect(figures.longMiddle).to.equal(50);
      expect(figures.longLastBackwards).to.equal(50);
      expect(figures.longLength).to.equal(0);
      expect(figures.shortMiddle).to.equal(50);
      expect(figures.tenFirst).to.equal(10);
      expect(figures.longWhole).to.equal(10_000);
    });
  });
}

pageCosts('PGlite', async () => {
  const pglite = await freshPglite();
  return { sql: new PgliteClient(pglite.db), options: {}, cleanup: () => pglite.cleanup() };
});

describe('on PostgreSQL', function () {
  before(async function () {
    await requireServices(this, 'postgres');
  });
  pageCosts('PostgreSQL', async () => {
    const schema = uniqueSchema('pages');
    return { sql: postgresClient(schema), options: { schema }, cleanup: () => dropSchema(schema) };
  });
});
