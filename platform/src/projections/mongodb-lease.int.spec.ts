/**
 * The MongoDB lease (one projection writer at a time) against a real server: runs when MONGODB_URL is
 * set, reported as skipped otherwise. Each run uses a database of its own, dropped afterwards.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { skipUnlessEnv } from '../../../test/services';
import { MongoLeaseProvider } from './mongodb-lease';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('MongoLeaseProvider on MongoDB', function () {
  let client: MongoClient;
  let db: Db;
  const providers: MongoLeaseProvider[] = [];
  const provider = (options: ConstructorParameters<typeof MongoLeaseProvider>[1] = {}) => {
    const p = new MongoLeaseProvider(db, options);
    providers.push(p);
    return p;
  };

  before(async function () {
    const url = skipUnlessEnv(this, 'MONGODB_URL', 'MongoDB');
    client = new MongoClient(url);
    await client.connect();
    db = client.db(`papertrade_lease_${randomUUID().replace(/-/g, '').slice(0, 12)}`);
  });
  afterEach(async function () {
    await Promise.all(providers.splice(0).map((p) => p.close()));
  });
  after(async function () {
    if (!client) return;
    await db.dropDatabase();
    await client.close();
  });

  it('grants a name to one instance at a time, and again after release', async function () {
    const a = provider();
    const b = provider();
    const lease = await a.tryAcquire('projection:users');
    expect(lease).to.not.equal(null);
    expect(await b.tryAcquire('projection:users')).to.equal(null);
    expect(await a.tryAcquire('projection:users'), 'not twice in one instance').to.equal(null);
    expect(await b.tryAcquire('projection:other')).to.not.equal(null);
    await lease!.release();
    expect(await b.tryAcquire('projection:users')).to.not.equal(null);
  });

  it('lets exactly one of several racing instances win a free name', async function () {
    const contenders = Array.from({ length: 6 }, () => provider());
    const leases = await Promise.all(contenders.map((p) => p.tryAcquire('projection:race')));
    expect(leases.filter((l) => l !== null)).to.have.length(1);
  });

  it('keeps a renewed lease past its time to live, and hands over an abandoned one', async function () {
    const holder = provider({ ttlMs: 600, renewEveryMs: 150 });
    const other = provider({ ttlMs: 600, renewEveryMs: 150 });
    expect(await holder.tryAcquire('projection:ttl')).to.not.equal(null);
    await sleep(1000);
    expect(await other.tryAcquire('projection:ttl'), 'renewed').to.equal(null);

    // A crashed holder: its lease document stays, nobody renews it.
    const leases = db.collection<{ _id: string; owner: string; expiresAt: Date }>('_leases');
    await leases.insertOne({ _id: 'projection:abandoned', owner: 'crashed', expiresAt: new Date(Date.now() + 300) });
    expect(await other.tryAcquire('projection:abandoned')).to.equal(null);
    await sleep(700);
    expect(await other.tryAcquire('projection:abandoned'), 'expired').to.not.equal(null);
  });

  it('reports a lease taken over while its holder stalled', async function () {
    const lost: string[] = [];
    const holder = provider({ ttlMs: 600, renewEveryMs: 100, onLost: (name) => lost.push(name) });
    expect(await holder.tryAcquire('projection:stall')).to.not.equal(null);
    await db.collection<{ _id: string; owner: string }>('_leases').updateOne({ _id: 'projection:stall' }, { $set: { owner: 'someone-else' } });
    await sleep(400);
    expect(lost).to.deep.equal(['projection:stall']);
  });

  it('releases everything it holds on close', async function () {
    const a = provider();
    const b = provider();
    await a.tryAcquire('projection:x');
    await a.tryAcquire('projection:y');
    await a.close();
    expect(await b.tryAcquire('projection:x')).to.not.equal(null);
    expect(await b.tryAcquire('projection:y')).to.not.equal(null);
  });
});
