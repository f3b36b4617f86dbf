/**
 * PgliteClient lets the event loop turn while PGlite is busy: PGlite runs each statement on the
 * event loop's thread and starts the next queued one in the same microtask run, so without this a
 * burst of statements holds every timer and socket until the burst is over. Ordered, not timed: with
 * `busyMs: 0` the client yields before every statement, so a callback queued for the next turn runs
 * before the burst ends.
 */
import { expect } from 'chai';
import { PgliteClient } from './sql-client';
import { freshPglite } from '../../../test/pglite';

describe('PgliteClient: yields to the event loop during a burst of statements', function () {
  let db: Awaited<ReturnType<typeof freshPglite>>;
  before(async function () {
    db = await freshPglite();
  });
  after(async function () {
    await db?.cleanup();
  });

  async function burst(run: (i: number) => Promise<unknown>): Promise<string[]> {
    const order: string[] = [];
    const statements = Array.from({ length: 20 }, (_, i) => run(i).then(() => order.push(`statement ${i}`)));
    setImmediate(() => order.push('event loop turn'));
    await Promise.all(statements);
    await new Promise((resolve) => setImmediate(resolve));
    return order;
  }

  it('gives the event loop a turn between queries once it has been busy for busyMs', async function () {
    const client = new PgliteClient(db.db, false, { busyMs: 0 });
    const order = await burst((i) => client.query('SELECT $1::int AS i', [i]));
    expect(order.indexOf('event loop turn')).to.be.within(0, 18);
    expect(order.filter((o) => o !== 'event loop turn')).to.deep.equal(Array.from({ length: 20 }, (_, i) => `statement ${i}`));
  });

  it('yields inside a transaction too, and the transaction still commits as one', async function () {
    const client = new PgliteClient(db.db, false, { busyMs: 0 });
    await client.exec('CREATE TABLE IF NOT EXISTS burst (i int)');
    const order: string[] = [];
    const tx = client.transaction(async (t) => {
      for (let i = 0; i < 20; i++) {
        await t.query('INSERT INTO burst (i) VALUES ($1)', [i]);
        order.push(`insert ${i}`);
      }
    });
    setImmediate(() => order.push('event loop turn'));
    await tx;
    expect(order.indexOf('event loop turn')).to.be.within(0, 19);
    expect(await client.query('SELECT count(*)::int AS n FROM burst')).to.deep.equal([{ n: 20 }]);
  });

  it('answers the queries of a burst in order, with their results, at the default busyMs', async function () {
    const client = new PgliteClient(db.db, false);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => client.query<{ i: number }>('SELECT $1::int AS i', [i])));
    expect(results.map((rows) => rows[0]!.i)).to.deep.equal(Array.from({ length: 50 }, (_, i) => i));
  });
});
