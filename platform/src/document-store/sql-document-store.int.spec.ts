import { expect } from 'chai';
import { PgliteClient } from '../sql/sql-client';
import { encodePosition } from '../event-store/position';
import { waitUntil } from '../../../test/wait';
import { SqlDocumentStore } from './sql-document-store';
import { documentStoreConformance } from './document-store.conformance';
import { requireServices } from '../../../test/services';
import { dropSchema, postgresClient, uniqueSchema } from '../../../test/postgres';
import { freshPglite } from '../../../test/pglite';

describe('SqlDocumentStore on PostgreSQL', function () {
  before(async function () {
    await requireServices(this, 'postgres');
  });
  documentStoreConformance('PostgreSQL', async () => {
    const schema = uniqueSchema('ds');
    const store = await SqlDocumentStore.create(postgresClient(schema), { schema });
    return { store, cleanup: async () => { await store.close(); await dropSchema(schema); } };
  });
});

describe('SqlDocumentStore on PGlite', function () {
  documentStoreConformance('PGlite', async () => {
    const pglite = await freshPglite();
    const store = await SqlDocumentStore.create(new PgliteClient(pglite.db));
    return { store, cleanup: async () => { await store.close(); await pglite.cleanup(); } };
  });
});

describe('SqlDocumentStore on PGlite: planner statistics (no autovacuum there)', function () {
  this.timeout(30_000);
  const tuples = async (sql: PgliteClient) =>
    Number((await sql.query<{ n: number }>(`SELECT reltuples::int AS n FROM pg_class WHERE relname = 'documents'`))[0]?.n);

  it('refreshes them after analyzeEveryWrites documents were written, and only when asked', async function () {
    const pglite = await freshPglite();
    try {
      const sql = new PgliteClient(pglite.db);
      const plain = await SqlDocumentStore.create(sql);
      await plain.collection('c').putManyIfNewer([1, 2, 3].map((i) => ({ id: `p${i}`, doc: { i }, position: encodePosition(1, i) })));
      // Never analysed: PostgreSQL says -1 tuples, and the planner guesses.
      expect(await tuples(sql)).to.equal(-1);

      const analysing = await SqlDocumentStore.create(sql, { analyzeEveryWrites: 4 });
      expect(await tuples(sql)).to.equal(3); // at start
      const c = analysing.collection('c');
      await c.put('a', { i: 1 });
      await c.putIfNewer('b', { i: 2 }, encodePosition(2, 1));
      await c.putManyIfNewer([{ id: 'd', doc: { i: 3 }, position: encodePosition(2, 2) }]);
      expect(await tuples(sql)).to.equal(3); // 3 writes: under the threshold
      await c.put('e', { i: 4 });
      await waitUntil(async () => (await tuples(sql)) === 7, { message: 'ANALYZE after the 4th write' });
    } finally {
      await pglite.cleanup();
    }
  });
});
