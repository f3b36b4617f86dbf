/**
 * The projector runtime with the real projections: idempotent application, checkpoints, crash
 * resume without loss or doubling, rebuild into a new generation equal to the live one, and one
 * writer per projection.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { USERS_PROJECTION, type UserView } from '@papertrade/domain/auth/user-view';
import { PUBLIC_STATS_ID, PUBLIC_STATS_PROJECTION, type PublicStatsView } from '@papertrade/domain/public-stats/public-stats-view';
import type { EventStore, NewEvent } from '@papertrade/platform/event-store/event-store';
import type { DocumentStore } from '@papertrade/platform/document-store/document-store';
import { SqlEventStore } from '@papertrade/platform/event-store/sql-event-store';
import { SqlDocumentStore } from '@papertrade/platform/document-store/sql-document-store';
import { MemoryBus } from '@papertrade/platform/bus/memory-bus';
import { MemoryLeaseProvider, PostgresLeaseProvider } from '@papertrade/platform/projections/lease';
import { Projector } from '@papertrade/platform/projections/projector';
import { CHECKPOINT_COLLECTION, ReadModels, checkpointId } from '@papertrade/platform/projections/read-models';
import { silentLogger } from '@papertrade/platform/config/logger';
import { projections } from './projections';
import { pgliteStores } from '../../test/pglite-stores';
import { POSTGRES_URL, requireServices } from '../../test/services';
import { dropSchema, postgresClient, uniqueSchema } from '../../test/postgres';
import { waitUntil } from '../../test/wait';

const at = '2026-11-05T00:00:00.000Z';
const meta = () => ({ userId: 'system', correlationId: randomUUID(), causationId: randomUUID(), at, schemaVersion: 1 });

function registration(userId: string, i: number): NewEvent {
  return {
    id: randomUUID(),
    type: 'UserRegistered',
    data: { userId, email: `u${i}@example.com`, username: `user_${i}`, firstName: `F${i}`, lastName: null, passwordHash: 'scrypt$x', registeredAt: at },
    metadata: meta(),
  };
}
function rename(userId: string, name: string): NewEvent {
  return { id: randomUUID(), type: 'UserProfileUpdated', data: { userId, changes: { firstName: name }, updatedBy: 'a', updatedAt: at }, metadata: meta() };
}

async function seedUsers(store: EventStore, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    ids.push(id);
    await store.append(`user-${id}`, [registration(id, i), rename(id, `Renamed${i}`)], 'no_stream');
  }
  return ids;
}

describe('projector runtime (PGlite)', function () {
  this.timeout(60_000);
  let eventStore: EventStore;
  let documents: DocumentStore;
  let cleanup: () => Promise<void>;
  const bus = new MemoryBus();
  const deps = () => ({ eventStore, documents, bus, leases: new MemoryLeaseProvider(), logger: silentLogger });

  beforeEach(async function () {
    ({ eventStore, documents, cleanup } = await pgliteStores());
  });
  afterEach(async function () {
    await cleanup();
  });

  it('projects users and public stats, checkpoints, and publishes a change notice', async function () {
    const notices: unknown[] = [];
    const off = await bus.subscribe('projection.*.changed', (_s, p) => notices.push(p));
    const projector = new Projector(deps(), projections);
    await projector.start();
    const [id] = await seedUsers(eventStore, 3);
    await projector.caughtUp();
    const readModels = new ReadModels(documents);
    const user = await (await readModels.collection<UserView>(USERS_PROJECTION)).get(id!);
    expect(user).to.include({ firstName: 'Renamed0', username: 'user_0', subscriptionTier: 'FREE' });
    const stats = await (await readModels.collection<PublicStatsView>(PUBLIC_STATS_PROJECTION)).get(PUBLIC_STATS_ID);
    expect(stats?.traders).to.equal(3);
    expect(await readModels.checkpoint(USERS_PROJECTION)).to.equal(await eventStore.headPosition());
    await waitUntil(() => notices.length > 0, { message: 'a change notice' });
    off();
    await projector.stop();
  });

  it('resumes after a crash from its checkpoint, and a redelivery from an older checkpoint doubles nothing', async function () {
    let projector = new Projector(deps(), projections);
    await projector.start();
    await seedUsers(eventStore, 4);
    await projector.caughtUp();
    await projector.stop(); // "crash"
    await seedUsers(eventStore, 3); // written while no projector runs
    // Lose the checkpoint of public-stats entirely: everything is delivered again.
    await documents.collection(CHECKPOINT_COLLECTION).delete(checkpointId(PUBLIC_STATS_PROJECTION, 1));
    projector = new Projector(deps(), projections);
    await projector.start();
    await projector.caughtUp();
    const readModels = new ReadModels(documents);
    const stats = await (await readModels.collection<PublicStatsView>(PUBLIC_STATS_PROJECTION)).get(PUBLIC_STATS_ID);
    expect(stats?.traders).to.equal(7);
    expect(await (await readModels.collection(USERS_PROJECTION)).count()).to.equal(7);
    await projector.stop();
  });

  it('rebuilds into a new generation equal to the live one, serving the live one meanwhile', async function () {
    const projector = new Projector(deps(), projections);
    await projector.start();
    await seedUsers(eventStore, 25);
    await projector.caughtUp();
    const readModels = new ReadModels(documents);
    const live = await (await readModels.collection<UserView>(USERS_PROJECTION)).find({ sort: [{ field: 'id', direction: 'asc' }] });
    const liveStats = await (await readModels.collection(PUBLIC_STATS_PROJECTION)).get(PUBLIC_STATS_ID);

    const rebuilding = projector.rebuild(USERS_PROJECTION);
    // While it runs, readers still get the complete live generation.
    expect(await (await readModels.collection(USERS_PROJECTION)).count()).to.equal(25);
    const result = await rebuilding;
    expect(result).to.deep.equal({ from: 1, to: 2 });
    expect(await readModels.liveGeneration(USERS_PROJECTION)).to.equal(2);
    const rebuilt = await (await readModels.collection<UserView>(USERS_PROJECTION)).find({ sort: [{ field: 'id', direction: 'asc' }] });
    expect(rebuilt).to.deep.equal(live);
    expect(await documents.collection('users__g1').count()).to.equal(0); // old generation dropped
    await projector.rebuild(PUBLIC_STATS_PROJECTION);
    expect(await (await readModels.collection(PUBLIC_STATS_PROJECTION)).get(PUBLIC_STATS_ID)).to.deep.equal(liveStats);

    // and the rebuilt generation keeps following new events
    const [late] = await seedUsers(eventStore, 1);
    await projector.caughtUp();
    expect(await (await readModels.collection(USERS_PROJECTION)).get(late!)).to.not.equal(null);
    await projector.stop();
  });

  it('waits for a position (read-your-writes) and gives up after the timeout', async function () {
    const readModels = new ReadModels(documents, bus);
    await readModels.listen();
    const projector = new Projector(deps(), projections);
    const [id] = await seedUsers(eventStore, 1);
    const head = (await eventStore.headPosition())!;
    expect(await readModels.waitFor([USERS_PROJECTION], head, 100)).to.equal(false);
    await projector.start();
    expect(await readModels.waitFor([USERS_PROJECTION], head, 2000)).to.equal(true);
    expect(await (await readModels.collection(USERS_PROJECTION)).get(id!)).to.not.equal(null);
    await projector.stop();
  });
});

describe('projector runtime (PostgreSQL): one writer per projection', function () {
  this.timeout(60_000);
  let schema: string;
  before(async function () {
    await requireServices(this, 'postgres');
    schema = uniqueSchema('lease');
  });
  after(async function () {
    if (schema) await dropSchema(schema);
  });

  it('runs each projection in one instance only; the other takes over when it stops', async function () {
    const sql = postgresClient(schema);
    const eventStore = await SqlEventStore.create(sql, { schema });
    const documents = await SqlDocumentStore.create(sql, { schema });
    const make = () =>
      new Projector({ eventStore, documents, bus: new MemoryBus(), leases: new PostgresLeaseProvider(POSTGRES_URL, schema), logger: silentLogger }, projections);
    const names = projections.map((p) => p.name).sort();
    expect(names).to.include.members(['public-stats', 'users']);
    const a = make();
    const b = make();
    await a.start();
    await b.start();
    expect(Object.keys(a.positions()).sort()).to.deep.equal(names);
    expect(Object.keys(b.positions())).to.deep.equal([]);
    await seedUsers(eventStore, 2);
    await a.caughtUp();
    await a.stop();
    await waitUntil(() => Object.keys(b.positions()).length === names.length, { message: 'the other instance to take every projection over' });
    expect(Object.keys(b.positions()).sort()).to.deep.equal(names);
    await seedUsers(eventStore, 1);
    await b.caughtUp();
    const stats = await (await new ReadModels(documents).collection<PublicStatsView>(PUBLIC_STATS_PROJECTION)).get(PUBLIC_STATS_ID);
    expect(stats?.traders).to.equal(3);
    await b.stop();
    await sql.close();
  });
});
