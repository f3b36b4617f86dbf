/**
 * The MongoDB adapter against a real server: runs when MONGODB_URL is set
 * (e.g. mongodb://localhost:27017), reported as skipped otherwise (such a server cannot run on our CI
 * machines). Every run works in a database of its own, dropped afterwards.
 */
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { expect } from 'chai';
import { skipUnlessEnv } from '../../../test/services';
import { encodePosition } from '../event-store/position';
import { documentStoreConformance } from './document-store.conformance';
import { MongoDbDocumentStore, databaseFromUrl } from './mongodb-document-store';

function uniqueDatabase(): string {
  return `papertrade_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
}

async function freshStore(url: string): Promise<{ store: MongoDbDocumentStore; cleanup(): Promise<void> }> {
  const client = new MongoClient(url);
  await client.connect();
  const store = new MongoDbDocumentStore(client, { database: uniqueDatabase() });
  return {
    store,
    cleanup: async () => {
      try {
        await store.database.dropDatabase();
      } finally {
        await store.close();
      }
    },
  };
}

describe('MongoDbDocumentStore on MongoDB', function () {
  let url = '';
  before(function () {
    url = skipUnlessEnv(this, 'MONGODB_URL', 'MongoDB');
  });

  documentStoreConformance('MongoDB', () => freshStore(url));

  describe('MongoDB specifics', function () {
    let store: MongoDbDocumentStore;
    let cleanup: () => Promise<void>;
    before(async function () {
      ({ store, cleanup } = await freshStore(url));
    });
    after(async function () {
      await cleanup?.();
    });

    it('answers false, never throws, when concurrent redeliveries of one event race to insert', async function () {
      const coll = store.collection<{ n: number }>('race');
      const position = encodePosition(7, 7);
      const results = await Promise.all(Array.from({ length: 8 }, () => coll.putIfNewer('one', { n: 1 }, position)));
      expect(results.filter(Boolean)).to.have.length(1);
      expect((await coll.getWithPosition('one'))?.position).to.equal(position);
    });

    it('lets the newest of concurrent first writes win', async function () {
      const coll = store.collection<{ n: number }>('race-newest');
      await Promise.all([1, 2, 3, 4, 5].map((n) => coll.putIfNewer('doc', { n }, encodePosition(1, n))));
      expect(await coll.get('doc')).to.deep.equal({ n: 5 });
    });

    it('stores the JSON image of a document, as the SQL adapter does', async function () {
      const coll = store.collection('json');
      await coll.put('d', { at: new Date(0) as unknown as string, gone: undefined, kept: null, list: [1, 'a'] });
      expect(await coll.get('d')).to.deep.equal({ at: '1970-01-01T00:00:00.000Z', kept: null, list: [1, 'a'] });
    });

    it('keeps the position across a plain put', async function () {
      const coll = store.collection<{ v: number }>('put-keeps');
      await coll.putIfNewer('k', { v: 1 }, encodePosition(3, 3));
      await coll.put('k', { v: 2 });
      expect(await coll.getWithPosition('k')).to.deep.equal({ id: 'k', doc: { v: 2 }, position: encodePosition(3, 3) });
      expect(await coll.putIfNewer('k', { v: 0 }, encodePosition(3, 3))).to.equal(false);
    });
  });
});

describe('MongoDbDocumentStore without a server', function () {
  it('reads the database from the connection string', function () {
    expect(databaseFromUrl('mongodb://mongodb:27017/papertrade')).to.equal('papertrade');
    expect(databaseFromUrl('mongodb://user:pw@a:1,b:2/rm?replicaSet=rs0')).to.equal('rm');
    expect(databaseFromUrl('mongodb+srv://cluster.example.net/app?retryWrites=true')).to.equal('app');
    expect(databaseFromUrl('mongodb://mongodb:27017')).to.equal(undefined);
    expect(databaseFromUrl('mongodb://mongodb:27017/?tls=true')).to.equal(undefined);
  });

  it('refuses field and collection names MongoDB would read as paths or operators', async function () {
    const store = new MongoDbDocumentStore(new MongoClient('mongodb://127.0.0.1:1'), { database: 'never' });
    expect(() => store.collection('system.users')).to.throw(RangeError);
    expect(() => store.collection('a$b')).to.throw(RangeError);
    let error: unknown;
    await store.collection('fine').find({ where: { 'a.b': 1 } }).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(RangeError);
    error = undefined;
    await store.collection('fine').find({ sort: [{ field: '$where', direction: 'asc' }] }).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(RangeError);
    await store.close();
  });
});
