/**
 * The live-generation pointer cache of ReadModels (PGlite, in-process bus, injected clock): reused for
 * at most 2 s, dropped by a rebuild notice, and never cached where no notice can be heard.
 */
import { expect } from 'chai';
import type { Collection, Document, DocumentStore } from '../document-store/document-store';
import { SqlDocumentStore } from '../document-store/sql-document-store';
import { PgliteClient } from '../sql/sql-client';
import { MemoryBus } from '../bus/memory-bus';
import { GENERATION_MAX_AGE_MS, META_COLLECTION, ReadModels, changeSubject, generationCollection, type ProjectionMeta } from './read-models';
import { freshPglite } from '../../../test/pglite';

/** Delegates to a real store; reads of the pointer document can be counted and held. */
class PointerSpy implements DocumentStore {
  reads = 0;
  private held?: Promise<void>;
  constructor(private readonly inner: DocumentStore) {}
  hold(): () => void {
    let release!: () => void;
    this.held = new Promise<void>((r) => (release = r));
    return release;
  }
  collection<T extends Document = Document>(name: string): Collection<T> {
    const real = this.inner.collection<T>(name);
    if (name !== META_COLLECTION) return real;
    return Object.assign(Object.create(real) as Collection<T>, {
      get: async (id: string) => {
        this.reads++;
        const doc = await real.get(id);
        const held = this.held;
        this.held = undefined;
        await held;
        return doc;
      },
    });
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

describe('ReadModels: the live-generation pointer cache', function () {
  let cleanup: () => Promise<void>;
  let documents: SqlDocumentStore;
  let store: PointerSpy;
  let bus: MemoryBus;
  let now: number;
  let readModels: ReadModels;
  let n = 0;
  let projection: string;
  const setPointer = (generation: number) => documents.collection<ProjectionMeta>(META_COLLECTION).put(projection, { liveGeneration: generation });
  /** Publishes a notice and lets the in-process bus deliver it (next tick). */
  const notice = async (payload: unknown) => {
    await bus.publish(changeSubject(projection), payload);
    await new Promise((r) => setImmediate(r));
  };

  before(async function () {
    const pglite = await freshPglite();
    cleanup = pglite.cleanup;
    documents = await SqlDocumentStore.create(new PgliteClient(pglite.db));
  });
  after(async function () {
    await cleanup?.();
  });
  beforeEach(async function () {
    projection = `p${++n}`;
    now = 1_000;
    bus = new MemoryBus();
    store = new PointerSpy(documents);
    readModels = new ReadModels(store, bus, { now: () => now });
    await readModels.listen();
    await setPointer(1);
  });
  afterEach(async function () {
    await bus.close();
  });

  it('reuses the pointer for less than 2 s, then reads it again', async function () {
    expect(await readModels.liveGeneration(projection)).to.equal(1);
    await setPointer(2); // a switch whose notice is lost
    now += GENERATION_MAX_AGE_MS - 1;
    expect(await readModels.liveGeneration(projection)).to.equal(1);
    expect(store.reads).to.equal(1);
    now += 1;
    expect(await readModels.liveGeneration(projection)).to.equal(2);
    expect(store.reads).to.equal(2);
  });

  it('serves collections and checkpoints through the cached pointer', async function () {
    await documents.collection(generationCollection(projection, 1)).put('d', { v: 1 });
    for (let i = 0; i < 3; i++) expect(await (await readModels.collection(projection)).get('d')).to.deep.equal({ v: 1 });
    await readModels.checkpoint(projection);
    expect(store.reads).to.equal(1);
  });

  it('drops the pointer on a rebuild notice, or on a notice from another generation', async function () {
    await readModels.liveGeneration(projection);
    await setPointer(2);
    await notice({ position: 'p', generation: 1, ids: ['x'] }); // an ordinary change: the pointer stays
    expect(await readModels.liveGeneration(projection)).to.equal(1);
    await notice({ rebuilt: true, generation: 2 });
    expect(await readModels.liveGeneration(projection)).to.equal(2);
    await setPointer(3);
    await notice({ position: 'p', generation: 3, ids: [] }); // its rebuild notice was lost
    expect(await readModels.liveGeneration(projection)).to.equal(3);
  });

  it('does not cache a pointer read that a rebuild notice overtook', async function () {
    const release = store.hold();
    const reading = readModels.liveGeneration(projection); // reads generation 1, then waits
    await setPointer(2);
    await notice({ rebuilt: true, generation: 2 });
    release();
    expect(await reading).to.equal(1);
    expect(await readModels.liveGeneration(projection)).to.equal(2);
  });

  it('reads the pointer every time when no notice can be heard (no bus, or not listening)', async function () {
    for (const plain of [new ReadModels(store, undefined, { now: () => now }), new ReadModels(store, bus, { now: () => now })]) {
      await setPointer(1);
      expect(await plain.liveGeneration(projection)).to.equal(1);
      await setPointer(2);
      expect(await plain.liveGeneration(projection)).to.equal(2);
    }
  });

  it('reads afresh when asked, and keeps what it read', async function () {
    await readModels.liveGeneration(projection);
    await setPointer(2);
    expect(await readModels.liveGeneration(projection, { fresh: true })).to.equal(2);
    const reads = store.reads;
    expect(await readModels.liveGeneration(projection)).to.equal(2);
    expect(store.reads).to.equal(reads);
  });
});
