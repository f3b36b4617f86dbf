/**
 * ReadModels' read-your-writes waits: what wakes a waiter. The document store is a map in memory, so
 * waits can run on mocked timers (node:test's MockTimers): whether a change notice or the 25 ms poll
 * woke a waiter is then a fact, not a race; and the names stored data depends on. What the live
 * generation is, its checkpoint, and when a position counts as reached: projector-documents.int.spec.ts,
 * on a real store.
 */
import { expect } from 'chai';
import { mock } from 'node:test';
import type { Collection, Document, DocumentStore } from '../document-store/document-store';
import { MemoryBus } from '../bus/memory-bus';
import { encodePosition } from '../event-store/position';
import { CHECKPOINT_COLLECTION, META_COLLECTION, ReadModels, changeSubject, checkpointId, generationCollection } from './read-models';

/** Only get and put: all ReadModels uses, besides handing collections out. */
class MapDocumentStore implements DocumentStore {
  private readonly collections = new Map<string, Map<string, Document>>();
  collection<T extends Document = Document>(name: string): Collection<T> {
    const docs = this.collections.get(name) ?? new Map<string, Document>();
    this.collections.set(name, docs);
    const partial: Pick<Collection<T>, 'get' | 'put'> = {
      get: async (id) => (docs.get(id) as T | undefined) ?? null,
      put: async (id, doc) => void docs.set(id, doc),
    };
    return partial as Collection<T>;
  }
  async close(): Promise<void> {}
}

const p = (n: number) => encodePosition(n, 0);

/** Lets queued callbacks run (setImmediate is not mocked) without any timer firing. */
async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Whether `promise` has settled after a few turns: 'pending' if not. */
async function settledWithin<T>(promise: Promise<T>): Promise<T | 'pending'> {
  return Promise.race([promise, turns(50).then(() => 'pending' as const)]);
}

describe('read models', function () {
  let store: MapDocumentStore;
  let readModels: ReadModels;
  const setCheckpoint = (projection: string, generation: number, position: string) =>
    store.collection(CHECKPOINT_COLLECTION).put(checkpointId(projection, generation), { position });

  beforeEach(function () {
    store = new MapDocumentStore();
    readModels = new ReadModels(store);
  });

  it('keeps the names that stored data and other processes rely on', function () {
    // Renaming any of these orphans every deployment's read models and checkpoints, or leaves a
    // query-api of the previous version deaf to the projector's notices during a rolling update.
    expect([META_COLLECTION, CHECKPOINT_COLLECTION]).to.deep.equal(['_projections', '_checkpoints']);
    expect(generationCollection('users', 2)).to.equal('users__g2');
    expect(checkpointId('users', 2)).to.equal('users@2');
    expect(changeSubject('users')).to.equal('projection.users.changed');
  });

  it('listens to nothing without a bus', async function () {
    await readModels.listen();
  });

  describe('what a projection has applied at least (reachedAtLeast)', function () {
    /** Counts checkpoint reads, to show what is answered from notices alone (before the read models are made). */
    const countCheckpointReads = () => {
      const counter = { reads: 0 };
      const collection = store.collection.bind(store);
      store.collection = <T extends Document>(name: string) => {
        const c = collection<T>(name);
        if (name !== CHECKPOINT_COLLECTION) return c;
        return { ...c, get: async (id: string) => (counter.reads++, c.get(id)) } as Collection<T>;
      };
      return counter;
    };

    it('reads a checkpoint once, then follows the live generation\'s notices without reading; the lowest of several', async function () {
      const counter = countCheckpointReads();
      const bus = new MemoryBus();
      readModels = new ReadModels(store, bus);
      await readModels.listen();
      await setCheckpoint('users', 1, p(3));
      await setCheckpoint('trades', 1, p(5));
      expect(await readModels.reachedAtLeast(['users', 'trades'])).to.equal(p(3));
      expect(counter.reads).to.equal(2);
      await bus.publish(changeSubject('users'), { position: p(7), generation: 1, ids: [] });
      await turns(2);
      expect(await readModels.reachedAtLeast(['users', 'trades'])).to.equal(p(5));
      expect(await readModels.reachedAtLeast(['users'])).to.equal(p(7));
      expect(counter.reads).to.equal(2);
      // A rebuild's generation replaying (not live) says nothing about the live one.
      await bus.publish(changeSubject('trades'), { position: p(9), generation: 2, ids: [] });
      await turns(2);
      expect(await readModels.reachedAtLeast(['trades'])).to.equal(p(5));
    });

    it('forgets what it knew at a rebuild switch, and is undefined while a projection has applied nothing', async function () {
      const bus = new MemoryBus();
      readModels = new ReadModels(store, bus);
      await readModels.listen();
      expect(await readModels.reachedAtLeast(['users'])).to.equal(undefined);
      await setCheckpoint('users', 1, p(4));
      expect(await readModels.reachedAtLeast(['users'])).to.equal(p(4));
      await store.collection(META_COLLECTION).put('users', { liveGeneration: 2 });
      await setCheckpoint('users', 2, p(2));
      await bus.publish(changeSubject('users'), { position: p(2), generation: 2, rebuilt: true });
      await turns(2);
      expect(await readModels.reachedAtLeast(['users'])).to.equal(p(2));
    });

    it('learns from the checkpoint reads of position waits', async function () {
      const counter = countCheckpointReads();
      readModels = new ReadModels(store);
      await setCheckpoint('users', 1, p(1));
      expect(await readModels.reachedAtLeast(['users'])).to.equal(p(1));
      await setCheckpoint('users', 1, p(6));
      expect(await readModels.waitFor(['users'], p(6), 5000)).to.equal(true);
      const reads = counter.reads;
      expect(await readModels.reachedAtLeast(['users'])).to.equal(p(6));
      expect(counter.reads).to.equal(reads);
    });
  });

  describe('on mocked timers', function () {
    afterEach(function () {
      mock.timers.reset();
    });

    /** Read models that listen to a bus of their own, then timers frozen: only a notice wakes a waiter. */
    const listeningOnMockedTimers = async () => {
      const bus = new MemoryBus();
      readModels = new ReadModels(store, bus);
      await readModels.listen();
      mock.timers.enable({ apis: ['setTimeout'] });
      return bus;
    };

    it('wakes a waiter on a change notice, without waiting for the next poll', async function () {
      const bus = await listeningOnMockedTimers();
      const waiting = readModels.waitFor(['users'], p(2), 60_000);
      mock.timers.tick(0); // the first check, at once: not there yet; the next poll is 25 ms away
      expect(await settledWithin(waiting), 'asleep until told').to.equal('pending');
      await setCheckpoint('users', 1, p(2));
      await bus.publish(changeSubject('users'), { position: p(2) });
      await turns(2); // the in-process bus delivers on setImmediate
      mock.timers.tick(0); // the notice schedules the shared check at once, not at the next 25 ms poll
      expect(await settledWithin(waiting)).to.equal(true);
    });

    it('wakes every waiter on a notice of any projection', async function () {
      const bus = await listeningOnMockedTimers();
      const first = readModels.waitFor(['users'], p(2), 60_000);
      const second = readModels.waitFor(['users'], p(2), 60_000);
      mock.timers.tick(0);
      await turns(5);
      await setCheckpoint('users', 1, p(2));
      await bus.publish(changeSubject('public-stats'), { position: p(2) });
      await turns(2);
      mock.timers.tick(0);
      expect(await settledWithin(Promise.all([first, second]))).to.deep.equal([true, true]);
    });

    it('polls every 25 ms when no notice comes (NATS core may drop one)', async function () {
      mock.timers.enable({ apis: ['setTimeout'] });
      const waiting = readModels.waitFor(['users'], p(2), 60_000);
      mock.timers.tick(0); // the first check, at once: not there yet
      await turns(5);
      await setCheckpoint('users', 1, p(2));
      mock.timers.tick(24);
      expect(await settledWithin(waiting), 'not before the poll').to.equal('pending');
      mock.timers.tick(1);
      expect(await settledWithin(waiting)).to.equal(true);
    });
  });
});
