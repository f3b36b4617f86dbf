/**
 * The read cache's rules, each checked by what a read returns after the store changed behind it:
 * change notices drop what they name (by document id, or by the group a route keeps a list under),
 * notices that may have left ids out and rebuilds drop a whole projection, a read a notice overtook is
 * not kept, X-Min-Position and the caller's own writes are honoured by the entry's position even when
 * no notice came (NATS is at most once), and entries age out. The document store is a map in memory;
 * the bus the in-process one.
 */
import { expect } from 'chai';
import type { Collection, Document, DocumentStore } from '../document-store/document-store';
import { MemoryBus } from '../bus/memory-bus';
import { encodePosition, type Position } from '../event-store/position';
import { CHECKPOINT_COLLECTION, ReadModels, changeSubject, checkpointId, generationCollection } from './read-models';
import { ANY_CHANGE, ReadModelCache, type LastWriteOf } from './read-model-cache';

class MapDocumentStore implements DocumentStore {
  readonly collections = new Map<string, Map<string, Document>>();
  /** Reads of documents (not of checkpoints or pointers), to tell a cache hit from a read. */
  reads = 0;
  /** Runs inside every document read, before it answers (to change things while a read is under way). */
  duringRead: (() => Promise<void>) | undefined;
  collection<T extends Document = Document>(name: string): Collection<T> {
    const docs = this.collections.get(name) ?? new Map<string, Document>();
    this.collections.set(name, docs);
    const counted = !name.startsWith('_');
    const partial: Pick<Collection<T>, 'get' | 'put'> = {
      get: async (id) => {
        if (counted) this.reads++;
        const doc = (docs.get(id) as T | undefined) ?? null;
        if (counted && this.duringRead) await this.duringRead();
        return doc;
      },
      put: async (id, doc) => void docs.set(id, doc),
    };
    return partial as Collection<T>;
  }
  async close(): Promise<void> {}
}

const p = (n: number) => encodePosition(n, 0);
const turns = async (count = 5) => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('read model cache', function () {
  let store: MapDocumentStore;
  let bus: MemoryBus;
  let readModels: ReadModels;
  let cache: ReadModelCache;
  let now: number;
  let lastWrites: Map<string, Position>;
  let lastWriteAsked: number;
  const lastWriteOf: LastWriteOf = async (actor, after) => {
    lastWriteAsked++;
    const last = lastWrites.get(actor);
    return last !== undefined && (after === undefined || last > after) ? last : undefined;
  };

  /** A document as the projector writes it: the document, then the checkpoint (no notice: see `notify`). */
  async function project(projection: string, id: string, doc: Document, position: Position): Promise<void> {
    await store.collection(generationCollection(projection, 1)).put(id, doc);
    await store.collection(CHECKPOINT_COLLECTION).put(checkpointId(projection, 1), { position });
  }
  async function notify(projection: string, payload: unknown): Promise<void> {
    await bus.publish(changeSubject(projection), payload);
    await turns();
  }
  const get = (id: string, freshness = {}) => cache.get<Document>('portfolios', id, freshness);

  beforeEach(async function () {
    store = new MapDocumentStore();
    bus = new MemoryBus();
    readModels = new ReadModels(store, bus);
    await readModels.listen();
    now = 0;
    lastWrites = new Map();
    lastWriteAsked = 0;
    cache = new ReadModelCache(readModels, lastWriteOf, { maxAgeMs: 60_000, now: () => now });
    await cache.listen();
  });

  it('serves a document again without reading it, until a notice names it', async function () {
    await project('portfolios', 'u1', { cash: 1 }, p(1));
    await project('portfolios', 'u2', { cash: 5 }, p(2));
    expect(await get('u1')).to.deep.equal({ cash: 1 });
    expect(await get('u2')).to.deep.equal({ cash: 5 });
    const reads = store.reads;
    expect(await get('u1')).to.deep.equal({ cash: 1 });
    expect(store.reads).to.equal(reads);

    await project('portfolios', 'u1', { cash: 2 }, p(3));
    await project('portfolios', 'u2', { cash: 6 }, p(3));
    await notify('portfolios', { position: p(3), generation: 1, ids: ['u1'] });
    expect(await get('u1')).to.deep.equal({ cash: 2 });
    // u2 was not named: still the kept one (the notice that names it drops it).
    expect(await get('u2')).to.deep.equal({ cash: 5 });
  });

  it('drops a whole group for an id mapped to it, and ANY_CHANGE lists for any notice of their projection', async function () {
    cache.groupBy('trades', (id) => (id.includes(':') ? id.slice(0, id.indexOf(':')) : undefined));
    let version = 1;
    const page = (user: string) => cache.read<Document, string>('trades', user, 'page1', async () => `${user} v${version}`, {});
    const list = () => cache.read<Document, string>('signals', ANY_CHANGE, 'all', async () => `list v${version}`, {});
    expect([await page('a'), await page('b'), await list()]).to.deep.equal(['a v1', 'b v1', 'list v1']);
    version = 2;
    await notify('trades', { position: p(1), generation: 1, ids: ['a:t9', 'a:t8'] });
    expect([await page('a'), await page('b'), await list()]).to.deep.equal(['a v2', 'b v1', 'list v1']);
    version = 3;
    await notify('signals', { position: p(2), generation: 1, ids: ['some-signal'] });
    expect(await list()).to.equal('list v3');
    // An id the mapping cannot place drops every group of the projection.
    await notify('trades', { position: p(3), generation: 1, ids: ['no-colon'] });
    expect([await page('a'), await page('b')]).to.deep.equal(['a v3', 'b v3']);
  });

  it('drops a whole projection for a notice that may have left ids out, one without ids, and a rebuild', async function () {
    for (const [i, payload] of [
      { position: p(5), generation: 1, ids: Array.from({ length: 100 }, (_, k) => `x${k}`) },
      { position: p(6), generation: 1 },
      { position: p(7), generation: 2, rebuilt: true },
    ].entries()) {
      const id = `u${i}`;
      await project('portfolios', id, { cash: i }, p(4));
      expect(await get(id)).to.deep.equal({ cash: i });
      await project('portfolios', id, { cash: i + 100 }, p(4));
      await notify('portfolios', payload);
      expect(await get(id), JSON.stringify(payload).slice(0, 60)).to.deep.equal({ cash: i + 100 });
    }
  });

  it('does not keep a read that a notice of its projection overtook', async function () {
    await project('portfolios', 'u1', { cash: 1 }, p(1));
    // The notice for the next version arrives while the old version is being read.
    store.duringRead = async () => {
      store.duringRead = undefined;
      await project('portfolios', 'u1', { cash: 2 }, p(2));
      await notify('portfolios', { position: p(2), generation: 1, ids: ['u1'] });
    };
    expect(await get('u1')).to.deep.equal({ cash: 1 });
    expect(await get('u1')).to.deep.equal({ cash: 2 });
  });

  it('honours X-Min-Position by the position the entry was read at, when the notice is lost', async function () {
    await project('portfolios', 'u1', { cash: 1 }, p(1));
    expect(await get('u1', {})).to.deep.equal({ cash: 1 });
    await project('portfolios', 'u1', { cash: 2 }, p(2)); // no notice: lost on the bus
    expect(await get('u1', {})).to.deep.equal({ cash: 1 }); // nobody asked for more
    expect(await get('u1', { atLeast: p(1) })).to.deep.equal({ cash: 1 });
    expect(await get('u1', { atLeast: p(2) })).to.deep.equal({ cash: 2 });
    expect(await get('u1', { bypass: true })).to.deep.equal({ cash: 2 });
  });

  it("serves the caller's own write by asking for it when the entry is older than the caller's bound", async function () {
    await project('portfolios', 'u1', { cash: 1 }, p(1));
    expect(await get('u1')).to.deep.equal({ cash: 1 });
    // Others wrote (the projection is at 5 now); u1 wrote nothing after 1: the entry serves them.
    await store.collection(CHECKPOINT_COLLECTION).put(checkpointId('portfolios', 1), { position: p(5) });
    lastWrites.set('u1', p(1));
    expect(await get('u1', { atLeast: p(5), actor: 'u1' })).to.deep.equal({ cash: 1 });
    expect(lastWriteAsked).to.equal(1);
    // u1's own write at 3, applied, its notice lost: the entry (read at 1) must not serve u1. (The
    // own-writes middleware waited for it: that wait read the checkpoint, so 5 is known applied.)
    await project('portfolios', 'u1', { cash: 3 }, p(5));
    lastWrites.set('u1', p(3));
    expect(await readModels.waitFor(['portfolios'], p(3))).to.equal(true);
    expect(await get('u1', { atLeast: p(3), actor: 'u1' })).to.deep.equal({ cash: 3 });
    // Read again once 5 was known applied: holds u1's write, no question asked.
    const asked = lastWriteAsked;
    expect(await get('u1', { atLeast: p(5), actor: 'u1' })).to.deep.equal({ cash: 3 });
    expect(lastWriteAsked).to.equal(asked);
  });

  it('reads again once an entry is maxAgeMs old (a lost notice costs at most that)', async function () {
    await project('portfolios', 'u1', { cash: 1 }, p(1));
    expect(await get('u1')).to.deep.equal({ cash: 1 });
    await project('portfolios', 'u1', { cash: 2 }, p(2));
    now += 59_999;
    expect(await get('u1')).to.deep.equal({ cash: 1 });
    now += 1;
    expect(await get('u1')).to.deep.equal({ cash: 2 });
  });

  it('keeps at most maxDocuments documents, counting a list by its length, least recently used out first', async function () {
    cache = new ReadModelCache(readModels, lastWriteOf, { maxAgeMs: 60_000, now: () => now, maxDocuments: 100 });
    let loads = 0;
    const page = (user: string, length: number) =>
      cache.read<Document, Document[]>('trades', user, 'page', async () => {
        loads++;
        return Array.from({ length }, (_, i) => ({ i }));
      }, {});
    await page('a', 60);
    await page('b', 30);
    await page('a', 60);
    expect(loads).to.equal(2);
    await page('c', 30); // 120 documents: b, the least recently used, goes
    await page('a', 60);
    await page('c', 30);
    expect(loads).to.equal(3);
    await page('b', 30);
    expect(loads).to.equal(4);
    expect(cache.stats().size).to.be.at.most(2);
  });

  it('keeps values frozen, so one request cannot change what another is served', async function () {
    await project('portfolios', 'u1', { cash: 1, positions: [{ units: 2 }] }, p(1));
    const doc = (await get('u1')) as { positions: Array<{ units: number }> };
    // Frozen all the way down; Reflect.set says so whether the spec is compiled as strict code (where
    // an assignment throws) or not (Stryker's sandbox loads specs as CommonJS, where it is ignored).
    expect([Object.isFrozen(doc), Object.isFrozen(doc.positions), Object.isFrozen(doc.positions[0])]).to.deep.equal([true, true, true]);
    expect(Reflect.set(doc.positions[0]!, 'units', 3)).to.equal(false);
    expect(Reflect.set(doc, 'cash', 2)).to.equal(false);
    expect(await get('u1')).to.deep.equal({ cash: 1, positions: [{ units: 2 }] });
  });
});
