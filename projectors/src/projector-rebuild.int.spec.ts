/**
 * Rebuild at the head, on a real PostgreSQL server: the new generation goes live only once it has
 * applied every event up to the head captured when the rebuild began (also while another transaction
 * holds the subscription horizon back), the handover catches up with events appended while it runs,
 * and a rebuild while writes keep arriving ends equal to a projection of the whole log.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { USERS_PROJECTION, type UserView } from '@papertrade/domain/auth/user-view';
import type { NewEvent } from '@papertrade/platform/event-store/event-store';
import { SqlEventStore } from '@papertrade/platform/event-store/sql-event-store';
import { SqlDocumentStore } from '@papertrade/platform/document-store/sql-document-store';
import type { PostgresClient } from '@papertrade/platform/sql/sql-client';
import { MemoryBus } from '@papertrade/platform/bus/memory-bus';
import { MemoryLeaseProvider } from '@papertrade/platform/projections/lease';
import { Projector } from '@papertrade/platform/projections/projector';
import { ReadModels } from '@papertrade/platform/projections/read-models';
import { silentLogger } from '@papertrade/platform/config/logger';
import { projections } from './projections';
import { POSTGRES_URL, requireServices } from '../../test/services';
import { dropSchema, postgresClient, uniqueSchema } from '../../test/postgres';
import { waitUntil } from '../../test/wait';

const at = '2026-11-05T00:00:00.000Z';
const meta = () => ({ userId: 'system', correlationId: randomUUID(), causationId: randomUUID(), at, schemaVersion: 1 });
const registered = (userId: string): NewEvent => ({
  id: randomUUID(),
  type: 'UserRegistered',
  data: { userId, email: `${userId}@example.com`, username: `u_${userId.slice(0, 8)}`, firstName: null, lastName: null, passwordHash: 'scrypt$x', registeredAt: at },
  metadata: meta(),
});
const renamed = (userId: string, firstName: string): NewEvent => ({
  id: randomUUID(),
  type: 'UserProfileUpdated',
  data: { userId, changes: { firstName }, updatedBy: 'admin', updatedAt: at },
  metadata: meta(),
});

const until = (condition: () => boolean | Promise<boolean>, message: string) => waitUntil(condition, { message, timeoutMs: 45_000 });

describe('projection rebuild at the head (PostgreSQL)', function () {
  this.timeout(180_000);
  let schema: string;
  let sql: PostgresClient;
  let eventStore: SqlEventStore;
  let documents: SqlDocumentStore;
  let projector: Projector;
  let readModels: ReadModels;

  before(async function () {
    await requireServices(this, 'postgres');
  });
  beforeEach(async function () {
    schema = uniqueSchema('rebuild');
    sql = postgresClient(schema);
    eventStore = await SqlEventStore.create(sql, { schema, pollIntervalMs: 10 });
    documents = await SqlDocumentStore.create(sql, { schema });
    projector = new Projector({ eventStore, documents, bus: new MemoryBus(), leases: new MemoryLeaseProvider(), logger: silentLogger }, projections);
    readModels = new ReadModels(documents);
    await projector.start();
  });
  afterEach(async function () {
    await projector?.stop();
    await sql?.close();
    if (schema) await dropSchema(schema);
  });

  const register = async (n: number) => {
    const ids = Array.from({ length: n }, () => randomUUID());
    for (const id of ids) await eventStore.append(`user-${id}`, [registered(id)], 'no_stream');
    return ids;
  };
  const usersOf = async () => (await readModels.collection<UserView>(USERS_PROJECTION)).find({ sort: [{ field: 'id', direction: 'asc' }] });

  it('does not switch while another transaction holds the horizon back, then switches with every event up to the head', async function () {
    const ids = await register(30);
    await projector.caughtUp();
    // A write transaction that stays open: every event committed after it began is hidden from readers.
    const holder = new pg.Client({ connectionString: POSTGRES_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_current_xact_id()');
      for (const id of ids) await eventStore.append(`user-${id}`, [renamed(id, 'late')], 'any');
      const head = (await eventStore.headPosition())!;
      let settled = false;
      const rebuilding = projector.rebuild(USERS_PROJECTION).finally(() => (settled = true));
      // The new generation applies what it can see, then must wait for the hidden tail.
      await until(async () => (await documents.collection('users__g2').count()) === 30, 'the new generation to apply the visible events');
      await new Promise((r) => setTimeout(r, 300)); // give a premature switch every chance to happen
      expect(settled, 'rebuild() returned while the head was still hidden').to.equal(false);
      expect(await readModels.liveGeneration(USERS_PROJECTION)).to.equal(1);
      await holder.query('COMMIT');
      expect(await rebuilding).to.deep.equal({ from: 1, to: 2 });
      expect(await readModels.liveGeneration(USERS_PROJECTION)).to.equal(2);
      expect(projector.positions()[USERS_PROJECTION]! >= head).to.equal(true);
      const users = await usersOf();
      expect(users).to.have.length(30);
      expect(users.every((u) => u.firstName === 'late')).to.equal(true);
    } finally {
      await holder.end();
    }
  });

  it('catches up at the handover with events appended while the old writer stops', async function () {
    const ids = await register(20);
    await projector.caughtUp();
    // Append at the moment the rebuild reads the head for the handover (its second read).
    const original = eventStore.headPosition.bind(eventStore);
    let reads = 0;
    eventStore.headPosition = async () => {
      if (++reads === 2) for (const id of ids) await eventStore.append(`user-${id}`, [renamed(id, 'during-handover')], 'any');
      return original();
    };
    await projector.rebuild(USERS_PROJECTION);
    eventStore.headPosition = original;
    expect(reads).to.be.at.least(2);
    // Right when rebuild() returns, the live generation already holds them.
    const users = await usersOf();
    expect(users.map((u) => u.firstName)).to.deep.equal(ids.map(() => 'during-handover'));
  });

  it('ends equal to a projection of the whole log while writes keep arriving', async function () {
    const ids = await register(40);
    await projector.caughtUp();
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        const id = ids[written % ids.length]!;
        await eventStore.append(`user-${id}`, [renamed(id, `n${written}`)], 'any');
        written++;
        if (written % 25 === 0 && (await register(1)).length) written++;
      }
    })();
    for (let i = 0; i < 3; i++) {
      await until(() => written > (i + 1) * 60, 'more writes');
      await projector.rebuild(USERS_PROJECTION);
    }
    writing = false;
    await writer;
    await projector.caughtUp();
    const rebuilt = await usersOf();

    // The reference: a fresh projector over the whole log, in its own schema-less document namespace.
    const reference = new Projector(
      { eventStore, documents: referenceStore(documents), bus: new MemoryBus(), leases: new MemoryLeaseProvider(), logger: silentLogger },
      projections,
    );
    await reference.start();
    await reference.caughtUp();
    const expected = await (await new ReadModels(referenceStore(documents)).collection<UserView>(USERS_PROJECTION)).find({ sort: [{ field: 'id', direction: 'asc' }] });
    await reference.stop();
    expect(rebuilt.length).to.be.greaterThan(40);
    expect(rebuilt).to.deep.equal(expected);
  });
});

/** The same document store with every collection name prefixed, so a second projector writes apart. */
function referenceStore(store: SqlDocumentStore) {
  return { collection: <T extends Record<string, unknown>>(name: string) => store.collection<T>(`ref_${name}`), close: async () => {} };
}
