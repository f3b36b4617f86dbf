/**
 * How many checkpoint reads position waiters cost, and how many may wait at once (PGlite). Reads are
 * counted through a wrapper of the document store, never timed: the poll interval is set far beyond
 * the test, so a tick happens only when a waiter arrives or a change notice comes.
 */
import { expect } from 'chai';
import type { Collection, Document, DocumentStore } from '../document-store/document-store';
import { SqlDocumentStore } from '../document-store/sql-document-store';
import { PgliteClient } from '../sql/sql-client';
import { MemoryBus } from '../bus/memory-bus';
import { encodePosition } from '../event-store/position';
import { CHECKPOINT_COLLECTION, ReadModels, changeSubject, checkpointId, type ReadModelsOptions } from './read-models';
import { freshPglite } from '../../../test/pglite';
import { waitUntil } from '../../../test/wait';

/** Counts `get` calls per collection name. */
function countingStore(store: DocumentStore): { store: DocumentStore; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  return {
    reads,
    store: {
      collection<T extends Document>(name: string): Collection<T> {
        const inner = store.collection<T>(name);
        return Object.assign(Object.create(inner) as Collection<T>, {
          get: (id: string) => {
            reads.set(name, (reads.get(name) ?? 0) + 1);
            return inner.get(id);
          },
        });
      },
      close: () => store.close(),
    },
  };
}

describe('read models: position waiters share the checkpoint reads and are capped', function () {
  let documents: SqlDocumentStore;
  let cleanup: () => Promise<void>;
  let bus: MemoryBus;
  let counted: ReturnType<typeof countingStore>;
  let n = 0;
  let a: string;
  let b: string;

  const checkpointReads = () => counted.reads.get(CHECKPOINT_COLLECTION) ?? 0;
  const readModels = async (options: ReadModelsOptions) => {
    const rm = new ReadModels(counted.store, bus, { pollMs: 600_000, ...options });
    await rm.listen();
    return rm;
  };
  const advance = async (projection: string, minor: number) => {
    await documents.collection(CHECKPOINT_COLLECTION).put(checkpointId(projection, 1), { position: encodePosition(1, minor) });
    await bus.publish(changeSubject(projection), {});
  };

  before(async function () {
    const pglite = await freshPglite();
    cleanup = pglite.cleanup;
    documents = await SqlDocumentStore.create(new PgliteClient(pglite.db, false));
  });
  after(async function () {
    await cleanup?.();
  });
  beforeEach(async function () {
    n += 1;
    a = `waited_a_${n}`;
    b = `waited_b_${n}`;
    bus = new MemoryBus();
    counted = countingStore(documents);
    await documents.collection(CHECKPOINT_COLLECTION).put(checkpointId(a, 1), { position: encodePosition(1, 1) });
    await documents.collection(CHECKPOINT_COLLECTION).put(checkpointId(b, 1), { position: encodePosition(1, 1) });
  });
  afterEach(async function () {
    await bus.close();
  });

  it('200 waiters on two projections read each checkpoint once per tick, not once per waiter', async function () {
    const rm = await readModels({});
    const waits = Array.from({ length: 200 }, () => rm.waitFor([a, b], encodePosition(1, 2), 30_000));
    // The tick their arrival caused: one read per projection for all 200.
    await waitUntil(() => checkpointReads() >= 2, { message: 'the first tick' });
    await advance(a, 2);
    await advance(b, 2);
    expect(await Promise.all(waits)).to.deep.equal(Array.from({ length: 200 }, () => true));
    // Ticks: the arrival, then one per notice at most (two notices, possibly folded into one tick).
    expect(checkpointReads()).to.be.within(4, 6);
  });

  it('waiters for different positions are each woken when theirs is reached', async function () {
    const rm = await readModels({});
    const settled: string[] = [];
    const near = rm.waitFor([a], encodePosition(1, 2), 30_000).then((r) => settled.push(`near ${r}`));
    const far = rm.waitFor([a], encodePosition(1, 3), 30_000).then((r) => settled.push(`far ${r}`));
    await advance(a, 2);
    await near;
    expect(settled).to.deep.equal(['near true']);
    await advance(a, 3);
    await far;
    expect(settled).to.deep.equal(['near true', 'far true']);
  });

  it('beyond maxWaiters a wait answers false at once, without a read; the others keep waiting', async function () {
    const rm = await readModels({ maxWaiters: 3 });
    let settled = 0;
    const waits = Array.from({ length: 3 }, () => rm.waitFor([a], encodePosition(1, 2), 30_000).finally(() => (settled += 1)));
    await waitUntil(() => checkpointReads() >= 1, { message: 'the first tick' });
    const readsBefore = checkpointReads();
    expect(await rm.waitFor([a], encodePosition(1, 1), 30_000)).to.equal(false); // reached, but no room to check
    expect(checkpointReads()).to.equal(readsBefore);
    expect(settled).to.equal(0);
    await advance(a, 2);
    expect(await Promise.all(waits)).to.deep.equal([true, true, true]);
    // The room is given back.
    expect(await rm.waitFor([a], encodePosition(1, 2), 30_000)).to.equal(true);
  });

  it('a wait that times out before the first tick is still checked once', async function () {
    const rm = await readModels({});
    expect(await rm.waitFor([a, b], encodePosition(1, 1), 0)).to.equal(true);
    expect(await rm.waitFor([a, b], encodePosition(1, 2), 0)).to.equal(false);
  });
});
