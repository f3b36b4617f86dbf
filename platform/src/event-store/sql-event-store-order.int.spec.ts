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
    const slowSql = slowCommits(sql, () => gate);
    const slowStore = await SqlEventStore.create(slowSql, { schema });
    const slow = slowStore.append(`slow-${randomUUID()}`, [newEvent('Slow')], 'no_stream');
    await sleep(100); // the slow transaction has inserted (smaller seq) and is still open
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
    while (seen.length < (writers * perWriter) / 2) await sleep(5);
    await sub.stop();
    const restartAt = seen.length;
    sub = follow(checkpoint);
    await writing;
    const deadline = Date.now() + 20_000;
    while (seen.length < appended.size && Date.now() < deadline) await sleep(20);
    await sleep(200); // nothing extra may arrive
    await sub.stop();

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
