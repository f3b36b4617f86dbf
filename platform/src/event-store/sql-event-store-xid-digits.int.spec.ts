/**
 * The global order is (transaction id, sequence) compared as numbers. Transaction ids of different
 * lengths (999 and 1000) are where an accidental text comparison would show: "1000" < "999". A fresh
 * PGlite starts below 1000, so the test burns transaction ids up to just below the next power of
 * ten and appends across it. (On the PostgreSQL server the same SQL runs; its ids are far from the
 * next power of ten, which is why this goes unnoticed there for a long time.)
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { SqlEventStore } from './sql-event-store';
import { newEvent } from './event-store.conformance';
import { comparePositions, type Position } from './position';
import { PgliteClient } from '../sql/sql-client';
import { freshPglite } from '../../../test/pglite';

describe('SqlEventStore order across transaction ids of different lengths (PGlite)', function () {
  let db: PGlite;
  let store: SqlEventStore;
  let cleanup: () => Promise<void>;
  before(async function () {
    const pglite = await freshPglite();
    db = pglite.db;
    cleanup = pglite.cleanup;
    store = await SqlEventStore.create(new PgliteClient(db, false));
  });
  after(async function () {
    await cleanup?.();
  });

  /** Each call runs in a transaction of its own, so it also uses up one transaction id. */
  const nextXid = async () => Number((await db.query<{ x: string }>('SELECT pg_current_xact_id()::text AS x')).rows[0]!.x);

  it('reads, pages and reports the head in global order when ids pass from 999 to 1000', async function () {
    let xid = await nextXid();
    const boundary = 10 ** String(xid).length;
    while (xid < boundary - 4) xid = await nextXid();

    const appended: Array<{ id: string; position: Position }> = [];
    for (let i = 0; i < 8; i++) {
      const event = newEvent('Tick', { i });
      const { position } = await store.append(`tick-${randomUUID()}`, [event], 'no_stream');
      appended.push({ id: event.id, position });
    }
    expect(await nextXid(), 'the appends crossed the boundary').to.be.greaterThan(boundary);
    for (let i = 1; i < appended.length; i++) expect(comparePositions(appended[i - 1]!.position, appended[i]!.position)).to.be.lessThan(0);

    const all = await store.readAll(); // a fresh store: these are all its events
    expect(all.map((e) => e.id)).to.deep.equal(appended.map((a) => a.id));
    expect(await store.headPosition()).to.equal(appended[appended.length - 1]!.position);

    // A subscriber paging from a checkpoint before the boundary gets the next events, none skipped.
    const page = await store.readAll({ after: appended[1]!.position, limit: 3 });
    expect(page.map((e) => e.id)).to.deep.equal(appended.slice(2, 5).map((a) => a.id));
  });
});
