import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Position } from './position';
import { PgliteClient } from '../sql/sql-client';
import { SqlEventStore } from './sql-event-store';
import { eventStoreConformance } from './event-store.conformance';
import { requireServices } from '../../../test/services';
import { dropSchema, postgresClient, uniqueSchema } from '../../../test/postgres';
import { freshPglite } from '../../../test/pglite';

describe('SqlEventStore on PostgreSQL', function () {
  before(async function () {
    await requireServices(this, 'postgres');
  });
  eventStoreConformance('PostgreSQL', async () => {
    const schema = uniqueSchema('es');
    const store = await SqlEventStore.create(postgresClient(schema), { schema });
    return { store, cleanup: async () => { await store.close(); await dropSchema(schema); } };
  });
});

describe('SqlEventStore on PGlite', function () {
  eventStoreConformance('PGlite', async () => {
    const pglite = await freshPglite();
    const store = await SqlEventStore.create(new PgliteClient(pglite.db));
    return { store, cleanup: async () => { await store.close(); await pglite.cleanup(); } };
  });
});

describe('SqlEventStore: positions once transaction ids gain a digit', function () {
  // A fresh PGlite starts at three-digit transaction ids (one transaction per append): the columns
  // must be ordered as numbers, not as their text (where '999' sorts above '1000').
  const digits = (position: string) => BigInt(position.split('-')[0]!).toString().length;
  const event = () => ({ id: randomUUID(), type: 'Ping', data: {}, metadata: { userId: 'system', correlationId: 'c', causationId: 'c', at: new Date(0).toISOString(), schemaVersion: 1 } });
  let store: SqlEventStore;
  let cleanup: () => Promise<void>;
  let positions: string[];

  before(async function () {
    const pglite = await freshPglite();
    store = await SqlEventStore.create(new PgliteClient(pglite.db));
    cleanup = async () => {
      await store.close();
      await pglite.cleanup();
    };
    positions = [(await store.append(`digits-${randomUUID()}`, [event()], 'no_stream')).position];
    for (let i = 0; i < 5000 && digits(positions.at(-1)!) === digits(positions[0]!); i++) {
      positions.push((await store.append(`digits-${randomUUID()}`, [event()], 'no_stream')).position);
    }
    expect(digits(positions.at(-1)!)).to.be.greaterThan(digits(positions[0]!));
  });
  after(async () => cleanup?.());

  it('headPosition is the last append', async function () {
    expect(await store.headPosition()).to.equal(positions.at(-1));
  });

  it('readAll pages through them in order, none skipped', async function () {
    const read: string[] = [];
    let after: Position | undefined;
    for (;;) {
      const batch = await store.readAll(after ? { after, limit: 100 } : { limit: 100 });
      read.push(...batch.map((e) => e.position));
      if (batch.length < 100) break;
      after = batch.at(-1)!.position;
    }
    expect(read).to.deep.equal(positions);
  });
});
