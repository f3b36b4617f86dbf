/**
 * The PostgreSQL global order must be gap-free for a subscriber while transactions append
 * concurrently and commit out of order.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { SqlEventStore } from './sql-event-store';
import { newEvent } from './event-store.conformance';
import { comparePositions, type Position } from './position';
import type { RecordedEvent } from './event-store';
import type { Row, SqlClient } from '../sql/sql-client';
import { requireServices } from '../../../test/services';
import { dropSchema, postgresClient, uniqueSchema } from '../../../test/postgres';
import { waitUntil } from '../../../test/wait';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Holds each append's transaction open for a while after its insert, so commits come out of order.
 * (An append is one statement; here it runs inside an explicit transaction that commits late.)
 */
function slowCommits(inner: SqlClient, delay: () => Promise<void>): SqlClient {
  return {
    engine: inner.engine,
    query: <R extends Row = Row>(text: string, params?: unknown[]) =>
      text.includes('INSERT INTO events')
        ? inner.transaction(async (tx) => {
            const rows = await tx.query<R>(text, params);
            await delay();
            return rows;
          })
        : inner.query<R>(text, params),
    exec: (text) => inner.exec(text),
    close: () => inner.close(),
    transaction: (fn) => inner.transaction(fn),
  };
}

describe('SqlEventStore global order under concurrent writers (PostgreSQL)', function () {
  this.timeout(60_000);
  let schema: string;
  before(async function () {
    await requireServices(this, 'postgres');
    schema = uniqueSchema('order');
  });
  after(async function () {
    if (schema) await dropSchema(schema);
  });

  it('hides an event committed early behind an older transaction still open, then delivers both in order', async function () {
    const sql = postgresClient(schema);
    const store = await SqlEventStore.create(sql, { schema });
    const start = await store.headPosition();
    let releaseSlow!: () => void;
    const gate = new Promise<void>((r) => (releaseSlow = r));
    let inserted!: () => void;
    const hasInserted = new Promise<void>((r) => (inserted = r));
    const slowSql = slowCommits(sql, () => {
      inserted();
      return gate;
    });
    const slowStore = await SqlEventStore.create(slowSql, { schema });
    const slow = slowStore.append(`slow-${randomUUID()}`, [newEvent('Slow')], 'no_stream');
    await hasInserted; // the slow transaction has inserted (smaller seq) and is still open
    await store.append(`fast-${randomUUID()}`, [newEvent('Fast')], 'no_stream');
    expect((await store.readAll({ after: start })).map((e) => e.type)).to.deep.equal([]);
    releaseSlow();
    await slow;
    expect((await store.readAll({ after: start })).map((e) => e.type)).to.deep.equal(['Slow', 'Fast']);
    await sql.close();
  });

  it('delivers every event exactly once, in order, across a checkpoint and restart', async function () {
    const sql = slowCommits(postgresClient(schema, 20), async () => void (await sleep(Math.floor(Math.random() * 40))));
    const store = await SqlEventStore.create(sql, { schema });
    const start = await store.headPosition();
    const writers = 8;
    const perWriter = 30;
    const appended = new Set<string>();

    const seen: RecordedEvent[] = [];
    let checkpoint: Position | undefined = start;
    const follow = (after: Position | undefined) =>
      store.subscribe(async (e) => {
        seen.push(e);
        checkpoint = e.position;
      }, after ? { after, batchSize: 7 } : { batchSize: 7 });

    let sub = follow(checkpoint);
    const writing = Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        const stream = `w${w}-${randomUUID()}`;
        for (let i = 0; i < perWriter; i++) {
          const event = newEvent('Tick', { writer: w, i });
          appended.add(event.id);
          await store.append(stream, [event], i === 0 ? 'no_stream' : BigInt(i - 1));
        }
      }),
    );
    // Restart midway from the stored checkpoint, as a crashed projector would.
    await waitUntil(() => seen.length >= (writers * perWriter) / 2, { timeoutMs: 20_000, message: 'half of the events' });
    await sub.stop();
    const restartAt = seen.length;
    sub = follow(checkpoint);
    await writing;
    // Nothing extra may arrive: delivery is in global order, so once an event appended after all
    // the others has been seen, any duplicate or straggler would have been seen before it.
    const sentinel = newEvent('Sentinel');
    await store.append(`sentinel-${randomUUID()}`, [sentinel], 'no_stream');
    await waitUntil(() => seen.some((e) => e.id === sentinel.id), { timeoutMs: 20_000, message: 'the sentinel event' });
    await sub.stop();
    expect(seen.pop()!.id, 'the sentinel comes last').to.equal(sentinel.id);

    const ids = seen.map((e) => e.id);
    const dupes = seen.filter((e, i) => ids.indexOf(e.id) !== i);
    if (dupes.length) console.log("DUPES", dupes.map((d) => [d.position, ids.indexOf(d.id), seen.lastIndexOf(d)]), restartAt);
    expect(new Set(ids).size, 'no duplicates').to.equal(ids.length);
    expect(ids.length, 'nothing lost').to.equal(appended.size);
    for (const id of appended) expect(ids).to.include(id);
    for (let i = 1; i < seen.length; i++) expect(comparePositions(seen[i - 1]!.position, seen[i]!.position)).to.be.lessThan(0);
    const byStream = new Map<string, bigint[]>();
    for (const e of seen) byStream.set(e.streamId, [...(byStream.get(e.streamId) ?? []), e.revision]);
    for (const revisions of byStream.values()) expect(revisions).to.deep.equal(revisions.map((_, i) => BigInt(i)));
    await sql.close();
  });
});
