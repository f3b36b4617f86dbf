/**
 * SqlEventStore's edges that the conformance suite leaves open (sql-event-store.ts), on PGlite: a
 * grouped append statement lost with its connection, loadStreams without options and with a stream
 * twice, and reads of the global order from different places asked for in one turn.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { APPEND_BATCHES_IN_FLIGHT, SqlEventStore } from './sql-event-store';
import { newEvent } from './event-store.conformance';
import type { SqlClient } from '../sql/sql-client';
import { pgliteClientForSuite } from '../../../test/pglite';

const isGroupedAppend = (statement: string) => statement.trim().startsWith('WITH req AS');
const isSingleAppend = (statement: string) => statement.trim().startsWith('WITH s AS');

describe('SqlEventStore edges (PGlite)', function () {
  this.timeout(60_000);
  const pglite = pgliteClientForSuite();

  it('fails every append of a grouped statement whose connection is lost (it may have committed), none tried again on its own', async function () {
    const client = pglite();
    const statements: string[] = [];
    let lose = true;
    const query: SqlClient['query'] = (text, params, options) => {
      statements.push(text);
      if (lose && isGroupedAppend(text)) {
        lose = false;
        // What node-postgres rejects with when the server goes away: a Node error code, no SQLSTATE.
        return Promise.reject(Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' }));
      }
      return client.query(text, params, options);
    };
    const losing = { ...client, engine: client.engine, query, transaction: client.transaction.bind(client), exec: client.exec.bind(client), close: client.close.bind(client) } as SqlClient;
    const store = await SqlEventStore.create(losing);
    statements.length = 0;
    // The first appends fill the statements in flight; those that arrive meanwhile go together in one.
    const first = Array.from({ length: APPEND_BATCHES_IN_FLIGHT }, () => `e-${randomUUID()}`);
    const grouped = Array.from({ length: 6 }, () => `e-${randomUUID()}`);
    const settled = await Promise.allSettled([...first, ...grouped].map((s) => store.append(s, [newEvent('Maybe')], 'no_stream')));
    expect(settled.slice(0, first.length).map((s) => s.status)).to.deep.equal(first.map(() => 'fulfilled'));
    for (const lost of settled.slice(first.length)) {
      expect(lost.status).to.equal('rejected');
      expect((lost as PromiseRejectedResult).reason).to.have.property('code', 'ECONNRESET');
    }
    expect(statements.filter(isGroupedAppend)).to.have.length(1);
    expect(statements.filter(isSingleAppend), 'only the first appends, one statement each').to.have.length(first.length);
    for (const s of grouped) expect(await store.readStream(s)).to.deep.equal([]);
  });

  it('loads several streams without options, and refuses a stream asked for twice', async function () {
    const store = await SqlEventStore.create(pglite());
    const [a, b] = [`l-${randomUUID()}`, `l-${randomUUID()}`];
    await store.append(a, [newEvent('A1'), newEvent('A2')], 'no_stream');
    await store.append(b, [newEvent('B1')], 'no_stream');
    const loaded = await store.loadStreams([b, a]);
    expect(loaded.map((l) => [l.events.map((e) => e.type), l.found, l.revision, l.snapshot])).to.deep.equal([
      [['B1'], [], 0n, undefined],
      [['A1', 'A2'], [], 1n, undefined],
    ]);
    let refused: unknown;
    await store.loadStreams([a, b, a]).catch((error: unknown) => (refused = error));
    expect(refused).to.be.instanceOf(RangeError).with.property('message', 'loadStreams needs distinct streams');
  });

  it('answers reads of the global order from different places asked for in one turn each from its own place', async function () {
    const store = await SqlEventStore.create(pglite());
    const one = await store.append(`r-${randomUUID()}`, [newEvent('One')], 'any');
    const two = await store.append(`r-${randomUUID()}`, [newEvent('Two')], 'any');
    const [fromStart, afterOne, afterTwo] = await Promise.all([
      store.readAll({ limit: 1000 }),
      store.readAll({ after: one.position, limit: 1000 }),
      store.readAll({ after: two.position, limit: 1000 }),
    ]);
    expect(fromStart.map((e) => e.position)).to.include.members([one.position, two.position]);
    expect(afterOne.map((e) => e.position)).to.deep.equal([two.position]);
    expect(afterTwo).to.deep.equal([]);
  });
});
