/** IdentityCache over a counting in-memory reader and an injected clock: when a user is read again. */
import { expect } from 'chai';
import type { UserView } from '@papertrade/domain/auth/user-view';
import { MemoryBus } from '../bus/memory-bus';
import { changeSubject } from '../projections/read-models';
import { IDENTITY_MAX_AGE_MS, IdentityCache, NOTICE_ID_LIMIT } from './identity-cache';

const user = (n: number, tier: UserView['subscriptionTier'] = 'FREE'): UserView => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  email: `u${n}@example.com`,
  username: `u${n}`,
  firstName: null,
  lastName: null,
  subscriptionTier: tier,
  subscriptionStatus: 'ACTIVE',
  isAdmin: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  emailNormalised: `u${n}@example.com`,
  usernameNormalised: `u${n}`,
  createdMonth: '2026-01',
  premium: tier === 'PREMIUM',
});

/** A read model of users that counts reads; `hold` makes the next read wait until released. */
class FakeUsers {
  readonly docs = new Map<string, UserView>();
  reads = 0;
  private held?: Promise<void>;
  hold(): () => void {
    let release!: () => void;
    this.held = new Promise<void>((r) => (release = r));
    return release;
  }
  read = async (id: string): Promise<UserView | null> => {
    this.reads++;
    const doc = this.docs.get(id) ?? null; // what the store holds when the read starts
    const held = this.held;
    this.held = undefined;
    await held;
    return doc;
  };
}

describe('IdentityCache', function () {
  let now: number;
  let users: FakeUsers;
  let cache: IdentityCache;
  const a = user(1);
  const b = user(2);

  beforeEach(function () {
    now = 1_000;
    users = new FakeUsers();
    users.docs.set(a.id, a).set(b.id, b);
    cache = new IdentityCache(users.read, { now: () => now });
  });

  it('reads a user once and serves it from memory while the entry is younger than 2 s', async function () {
    expect(await cache.get(a.id)).to.deep.equal(a);
    now += IDENTITY_MAX_AGE_MS - 1;
    expect(await cache.get(a.id)).to.deep.equal(a);
    expect(users.reads).to.equal(1);
  });

  it('re-reads an entry once it is 2 s old (bounded staleness when a notice is lost)', async function () {
    await cache.get(a.id);
    users.docs.set(a.id, { ...a, subscriptionTier: 'PREMIUM' });
    now += IDENTITY_MAX_AGE_MS;
    expect((await cache.get(a.id))?.subscriptionTier).to.equal('PREMIUM');
    expect(users.reads).to.equal(2);
    expect((await cache.get(a.id))?.subscriptionTier).to.equal('PREMIUM');
    expect(users.reads).to.equal(2);
  });

  it('drops the users a notice names, and only those', async function () {
    await cache.get(a.id);
    await cache.get(b.id);
    users.docs.set(a.id, { ...a, isAdmin: true });
    cache.applyNotice({ position: '00000000000000000001-00000000000000000001', generation: 1, ids: [a.id] });
    expect((await cache.get(a.id))?.isAdmin).to.equal(true);
    await cache.get(b.id);
    expect(users.reads).to.equal(3);
  });

  it('drops everything on a notice that may have left ids out, a rebuild switch, or a notice it cannot read', async function () {
    const full = Array.from({ length: NOTICE_ID_LIMIT }, (_, i) => user(100 + i).id);
    for (const notice of [{ position: 'p', generation: 1, ids: full }, { rebuilt: true, generation: 2 }, { generation: 1 }, 'nonsense', null]) {
      await cache.get(a.id);
      await cache.get(b.id);
      expect(cache.size).to.equal(2);
      cache.applyNotice(notice);
      expect(cache.size, JSON.stringify(notice)).to.equal(0);
    }
    // One id fewer than the limit: the list is complete, so the others stay.
    await cache.get(a.id);
    cache.applyNotice({ position: 'p', generation: 1, ids: full.slice(1) });
    expect(cache.size).to.equal(1);
  });

  it('hears the notices on the users subject of a bus', async function () {
    const bus = new MemoryBus();
    const off = await cache.listen(bus);
    await cache.get(a.id);
    await bus.publish(changeSubject('public-stats'), { position: 'p', generation: 1, ids: [a.id] });
    await bus.publish(changeSubject('users'), { position: 'p', generation: 1, ids: [a.id] });
    await new Promise((r) => setImmediate(r)); // MemoryBus delivers on the next tick
    expect(cache.size).to.equal(0);
    off();
    await bus.close();
  });

  it('refresh (X-Min-Position) reads whatever the entry holds and keeps the new value', async function () {
    await cache.get(a.id);
    users.docs.set(a.id, { ...a, subscriptionTier: 'PREMIUM' });
    expect((await cache.refresh(a.id))?.subscriptionTier).to.equal('PREMIUM');
    expect(users.reads).to.equal(2);
    expect((await cache.get(a.id))?.subscriptionTier).to.equal('PREMIUM');
    expect(users.reads).to.equal(2);
  });

  it('never keeps a miss, and forgets a user the read model no longer holds', async function () {
    const late = user(3);
    expect(await cache.get(late.id)).to.equal(null);
    users.docs.set(late.id, late);
    expect(await cache.get(late.id)).to.deep.equal(late);
    users.docs.delete(late.id);
    expect(await cache.refresh(late.id)).to.equal(null);
    expect(cache.size).to.equal(0);
    expect(await cache.get(late.id)).to.equal(null);
    expect(users.reads).to.equal(4);
  });

  it('does not keep a read that a notice overtook: the next request reads again', async function () {
    const release = users.hold();
    const reading = cache.get(a.id); // reads the FREE document, then waits
    users.docs.set(a.id, { ...a, subscriptionTier: 'PREMIUM' });
    cache.applyNotice({ position: 'p', generation: 1, ids: [a.id] });
    release();
    expect((await reading)?.subscriptionTier).to.equal('FREE');
    expect((await cache.get(a.id))?.subscriptionTier).to.equal('PREMIUM');
    expect(users.reads).to.equal(2);
  });

  it('holds at most maxEntries users, evicting the least recently used', async function () {
    const small = new IdentityCache(users.read, { now: () => now, maxEntries: 2 });
    const c = user(3);
    users.docs.set(c.id, c);
    await small.get(a.id);
    await small.get(b.id);
    await small.get(a.id); // a is now the most recently used
    await small.get(c.id); // evicts b
    expect(small.size).to.equal(2);
    const before = users.reads;
    await small.get(a.id);
    await small.get(c.id);
    expect(users.reads).to.equal(before);
    await small.get(b.id);
    expect(users.reads).to.equal(before + 1);
  });

  it('holds 10,000 users by default', async function () {
    for (let n = 0; n < 10_001; n++) users.docs.set(user(1000 + n).id, user(1000 + n));
    for (let n = 0; n < 10_001; n++) await cache.get(user(1000 + n).id);
    expect(cache.size).to.equal(10_000);
  });
});
