/**
 * What SqlEventStore does with concurrent calls (sql-event-store.ts): appends that wait while
 * statements are on their way go together in one statement, each under its own expectation, and
 * one the database refuses fails alone; reads of the global order asked for in the same turn with
 * the same arguments share one query. On PGlite and on the PostgreSQL server.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { ConcurrencyError } from '@papertrade/domain/shared/errors';
import { APPEND_BATCHES_IN_FLIGHT, SqlEventStore } from './sql-event-store';
import { newEvent } from './event-store.conformance';
import { comparePositions } from './position';
import { PgliteClient, type QueryOptions, type Row, type SqlClient } from '../sql/sql-client';
import { freshPglite, pgliteClientForSuite } from '../../../test/pglite';
import { requireServices } from '../../../test/services';
import { dropSchema, postgresClient, uniqueSchema } from '../../../test/postgres';

/** The client, with the statements it runs recorded (their first line). */
function recording(inner: SqlClient, statements: string[]): SqlClient {
  return {
    engine: inner.engine,
    query: <R extends Row = Row>(text: string, params?: unknown[], options?: QueryOptions) => {
      statements.push(text.trim().split('\n')[0]!);
      return inner.query<R>(text, params, options);
    },
    transaction: (fn) => inner.transaction(fn),
    exec: (text) => inner.exec(text),
    close: () => inner.close(),
  };
}

const isAppend = (statement: string) => statement.startsWith('WITH s AS') || statement.startsWith('WITH req AS');
const isRead = (statement: string) => statement.startsWith('SELECT seq, tx_id::text AS tx_id, stream_id');

function suite(engine: string, open: () => Promise<{ client: SqlClient; cleanup(): Promise<void> }>) {
  describe(`SqlEventStore: grouped appends and shared reads (${engine})`, function () {
    this.timeout(60_000);
    let statements: string[];
    let store: SqlEventStore;
    let cleanup: () => Promise<void>;
    before(async function () {
      if (engine === 'PostgreSQL') await requireServices(this, 'postgres');
      const opened = await open();
      cleanup = opened.cleanup;
      statements = [];
      store = await SqlEventStore.create(recording(opened.client, statements));
    });
    after(async function () {
      await cleanup?.();
    });
    beforeEach(function () {
      statements.length = 0;
    });

    it('sends appends that arrive together in fewer statements than appends, each with its own answer', async function () {
      const streams = Array.from({ length: 30 }, () => `g-${randomUUID()}`);
      const results = await Promise.all(streams.map((s, i) => store.append(s, [newEvent('A', { i }), newEvent('B', { i })], 'no_stream')));
      const appends = statements.filter(isAppend);
      expect(appends.length, 'statements for 30 appends').to.be.at.most(APPEND_BATCHES_IN_FLIGHT + 2);
      for (const result of results) expect(result.nextRevision).to.equal(1n);
      // Distinct positions, and each stream holds exactly its own events.
      expect(new Set(results.map((r) => r.position)).size).to.equal(30);
      for (const [i, s] of streams.entries()) {
        const events = await store.readStream(s);
        expect(events.map((e) => [e.type, e.data, e.revision])).to.deep.equal([
          ['A', { i }, 0n],
          ['B', { i }, 1n],
        ]);
        expect(events[1]!.position).to.equal(results[i]!.position);
      }
    });

    it('puts a second append to the same stream in a later statement, in the order asked', async function () {
      const stream = `g-${randomUUID()}`;
      // Fill the statements in flight so that what follows has to wait and group.
      const others = Array.from({ length: APPEND_BATCHES_IN_FLIGHT }, () => store.append(`g-${randomUUID()}`, [newEvent('X')], 'any'));
      const first = store.append(stream, [newEvent('First')], 'no_stream');
      const second = store.append(stream, [newEvent('Second')], 'any');
      const [a, b] = await Promise.all([first, second, ...others]);
      expect(comparePositions(a.position, b.position)).to.be.below(0);
      expect((await store.readStream(stream)).map((e) => e.type)).to.deep.equal(['First', 'Second']);
    });

    it('fails only the append whose expectation does not hold', async function () {
      const taken = `g-${randomUUID()}`;
      await store.append(taken, [newEvent('Existing')], 'no_stream');
      const streams = Array.from({ length: 10 }, () => `g-${randomUUID()}`);
      const settled = await Promise.allSettled([
        ...streams.map((s) => store.append(s, [newEvent('Fresh')], 'no_stream')),
        store.append(taken, [newEvent('Again')], 'no_stream'),
        store.append(taken, [newEvent('Stale')], 5n),
      ]);
      expect(settled.slice(0, 10).every((s) => s.status === 'fulfilled')).to.equal(true);
      for (const refused of settled.slice(10)) {
        expect(refused.status).to.equal('rejected');
        expect((refused as PromiseRejectedResult).reason).to.be.instanceOf(ConcurrencyError);
      }
      expect((await store.readStream(taken)).map((e) => e.type)).to.deep.equal(['Existing']);
    });

    it('fails only the append the database refuses, the others of its statement are appended', async function () {
      const streams = Array.from({ length: 10 }, () => `g-${randomUUID()}`);
      const bad = `g-${randomUUID()}`;
      // PostgreSQL's jsonb has no NUL character: the database refuses this event (22P05).
      const settled = await Promise.allSettled([
        ...streams.map((s) => store.append(s, [newEvent('Fine')], 'no_stream')),
        store.append(bad, [newEvent('Bad', { text: 'a\u0000b' })], 'no_stream'),
      ]);
      expect(settled.slice(0, 10).map((s) => s.status)).to.deep.equal(Array(10).fill('fulfilled'));
      expect(settled[10]!.status).to.equal('rejected');
      for (const s of streams) expect(await store.readStream(s)).to.have.length(1);
      expect(await store.readStream(bad)).to.deep.equal([]);
    });

    it('shares one query between reads of the global order asked for in the same turn', async function () {
      await store.append(`g-${randomUUID()}`, [newEvent('Seen')], 'any');
      statements.length = 0;
      const [a, b, c] = await Promise.all([store.readAll({ limit: 1000 }), store.readAll({ limit: 1000 }), store.readAll({ limit: 999 })]);
      expect(statements.filter(isRead), 'two distinct reads').to.have.length(2);
      expect(b).to.equal(a);
      expect(c.length).to.equal(Math.min(a.length, 999));
    });

    it('never shares a read already sent: a read asked for after an append sees it', async function () {
      const head = await store.headPosition();
      const sent = store.readAll({ after: head, limit: 1000 });
      await new Promise((resolve) => setImmediate(resolve)); // the first read is on its way now
      const { position } = await store.append(`g-${randomUUID()}`, [newEvent('Later')], 'any');
      const after = await store.readAll({ after: head, limit: 1000 });
      await sent;
      expect(after.map((e) => e.position)).to.include(position);
      expect(statements.filter(isRead)).to.have.length(2);
    });
  });
}

suite('PGlite', async () => {
  const pglite = await freshPglite();
  return { client: new PgliteClient(pglite.db, false), cleanup: pglite.cleanup };
});

suite('PostgreSQL', async () => {
  const schema = uniqueSchema('grouping');
  const client = postgresClient(schema);
  return {
    client,
    cleanup: async () => {
      await client.close();
      await dropSchema(schema);
    },
  };
});

describe('SqlEventStore as the sole writer: lastPositionByActor from its own appends (PGlite)', function () {
  this.timeout(60_000);
  const pglite = pgliteClientForSuite();

  it('answers from its own appends without a query, and asks the database about what came before it', async function () {
    const client = pglite();
    const plain = await SqlEventStore.create(client);
    const before = await plain.append(`a-${randomUUID()}`, [newEvent('Before')], 'any'); // actor 'tester'
    const statements: string[] = [];
    const sole = await SqlEventStore.create(recording(client, statements), { soleWriter: true });
    const byActor = (actor: string) => ({ ...newEvent('Mine'), metadata: { ...newEvent('Mine').metadata, userId: actor } });
    const alice = `alice-${randomUUID()}`;
    const first = await sole.append(`a-${randomUUID()}`, [byActor(alice)], 'any');
    const second = await sole.append(`a-${randomUUID()}`, [byActor(alice), byActor(alice)], 'any');
    statements.length = 0;
    expect(await sole.lastPositionByActor(alice)).to.equal(second.position);
    expect(await sole.lastPositionByActor(alice, first.position)).to.equal(second.position);
    expect(await sole.lastPositionByActor(alice, second.position)).to.equal(undefined);
    // Someone who has not written since the store was created: nothing after its start head.
    expect(await sole.lastPositionByActor(`bob-${randomUUID()}`, before.position)).to.equal(undefined);
    expect(statements, 'no query for any of these').to.deep.equal([]);
    // Before its start head it knows nothing: the database answers ('tester' wrote `before`).
    expect(await sole.lastPositionByActor('tester')).to.equal(before.position);
    expect(statements.length).to.equal(1);
    // The same answers as the database gives.
    for (const [actor, after] of [[alice, undefined], [alice, first.position], [alice, second.position], ['tester', undefined]] as const) {
      expect(await sole.lastPositionByActor(actor, after), `${actor} after ${after}`).to.equal(await plain.lastPositionByActor(actor, after));
    }
  });
});
