/** What every document store adapter must do, including redelivery (putIfNewer) and deletes. */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { encodePosition } from '../event-store/position';
import type { Collection, DocumentStore } from './document-store';

export type DocumentStoreFactory = () => Promise<{ store: DocumentStore; cleanup(): Promise<void> }>;

type Person = { name: string; age: number; team: string; admin?: boolean };

export function documentStoreConformance(adapterName: string, makeStore: DocumentStoreFactory): void {
  describe(`document store conformance: ${adapterName}`, function () {
    let store: DocumentStore;
    let cleanup: () => Promise<void>;
    let people: Collection<Person>;

    before(async function () {
      ({ store, cleanup } = await makeStore());
    });
    after(async function () {
      await cleanup?.();
    });
    beforeEach(function () {
      people = store.collection<Person>(`people_${randomUUID().replace(/-/g, '').slice(0, 10)}`);
    });

    async function seed() {
      await people.put('a', { name: 'ada', age: 36, team: 'red', admin: true });
      await people.put('b', { name: 'bob', age: 25, team: 'blue', admin: false });
      await people.put('c', { name: 'cyd', age: 41, team: 'red', admin: false });
      await people.put('d', { name: 'dee', age: 30, team: 'blue', admin: false });
    }

    it('gets null for a missing id, puts, overwrites and deletes', async function () {
      expect(await people.get('nobody')).to.equal(null);
      await people.put('p1', { name: 'ann', age: 1, team: 'x' });
      expect(await people.get('p1')).to.deep.equal({ name: 'ann', age: 1, team: 'x' });
      await people.put('p1', { name: 'ann', age: 2, team: 'y' });
      expect(await people.get('p1')).to.deep.equal({ name: 'ann', age: 2, team: 'y' });
      await people.delete('p1');
      expect(await people.get('p1')).to.equal(null);
      await people.delete('p1'); // deleting twice is harmless
    });

    it('writes with putIfNewer only when the position is newer, so a redelivered event is skipped', async function () {
      const p1 = encodePosition(5, 1);
      const p2 = encodePosition(5, 2);
      const p0 = encodePosition(4, 99);
      expect(await people.putIfNewer('x', { name: 'v1', age: 1, team: 't' }, p1)).to.equal(true);
      expect(await people.putIfNewer('x', { name: 'again', age: 1, team: 't' }, p1)).to.equal(false);
      expect(await people.putIfNewer('x', { name: 'older', age: 1, team: 't' }, p0)).to.equal(false);
      expect(await people.get('x')).to.deep.equal({ name: 'v1', age: 1, team: 't' });
      expect(await people.putIfNewer('x', { name: 'v2', age: 2, team: 't' }, p2)).to.equal(true);
      const stored = await people.getWithPosition('x');
      expect(stored?.doc.name).to.equal('v2');
      expect(stored?.position).to.equal(p2);
    });

    it('writes many at once, each only when its position is newer', async function () {
      await people.putIfNewer('m1', { name: 'kept', age: 1, team: 't' }, encodePosition(7, 5));
      const written = await people.putManyIfNewer([
        { id: 'm1', doc: { name: 'stale', age: 2, team: 't' }, position: encodePosition(7, 4) },
        { id: 'm2', doc: { name: 'new', age: 3, team: 't' }, position: encodePosition(7, 6) },
        { id: 'm3', doc: { name: 'also', age: 4, team: 't' }, position: encodePosition(7, 7) },
      ]);
      expect(written).to.equal(2);
      expect((await people.get('m1'))?.name).to.equal('kept');
      expect((await people.get('m2'))?.name).to.equal('new');
      expect((await people.getWithPosition('m3'))?.position).to.equal(encodePosition(7, 7));
      expect(await people.putManyIfNewer([])).to.equal(0);
    });

    it('reads many documents with their positions at once, only those that exist', async function () {
      await people.putIfNewer('g1', { name: 'one', age: 1, team: 't' }, encodePosition(8, 1));
      await people.put('g2', { name: 'two', age: 2, team: 't' });
      const found = await people.getManyWithPosition(['g1', 'g2', 'g-none']);
      expect(found.sort((a, b) => a.id.localeCompare(b.id))).to.deep.equal([
        { id: 'g1', doc: { name: 'one', age: 1, team: 't' }, position: encodePosition(8, 1) },
        { id: 'g2', doc: { name: 'two', age: 2, team: 't' } },
      ]);
      expect(await people.getManyWithPosition([])).to.deep.equal([]);
    });

    it('compares positions across digit boundaries (fixed width)', async function () {
      expect(await people.putIfNewer('w', { name: 'nine', age: 9, team: 't' }, encodePosition(9, 9))).to.equal(true);
      expect(await people.putIfNewer('w', { name: 'ten', age: 10, team: 't' }, encodePosition(10, 1))).to.equal(true);
      expect(await people.putIfNewer('w', { name: 'back', age: 9, team: 't' }, encodePosition(9, 10))).to.equal(false);
      expect((await people.get('w'))?.name).to.equal('ten');
    });

    it('treats a delete then a redelivered older event as a fresh write', async function () {
      await people.putIfNewer('y', { name: 'v1', age: 1, team: 't' }, encodePosition(1, 1));
      await people.delete('y');
      expect(await people.get('y')).to.equal(null);
      expect(await people.putIfNewer('y', { name: 'v0', age: 0, team: 't' }, encodePosition(1, 0))).to.equal(true);
    });

    it('finds by equality, sorts, limits and skips', async function () {
      await seed();
      const red = await people.find({ where: { team: 'red' }, sort: [{ field: 'age', direction: 'asc' }] });
      expect(red.map((p) => p.name)).to.deep.equal(['ada', 'cyd']);
      const byAgeDesc = await people.find({ sort: [{ field: 'age', direction: 'desc' }] });
      expect(byAgeDesc.map((p) => p.name)).to.deep.equal(['cyd', 'ada', 'dee', 'bob']);
      const byName = await people.find({ sort: [{ field: 'name', direction: 'asc' }], skip: 1, limit: 2 });
      expect(byName.map((p) => p.name)).to.deep.equal(['bob', 'cyd']);
      const twoFields = await people.find({ where: { team: 'blue', admin: false }, sort: [{ field: 'name', direction: 'desc' }] });
      expect(twoFields.map((p) => p.name)).to.deep.equal(['dee', 'bob']);
      expect(await people.find({ where: { team: 'green' } })).to.deep.equal([]);
    });

    it('finds and counts within a numeric range (gte inclusive, lt exclusive), with equality and paging', async function () {
      await seed();
      await people.put('e', { name: 'eve', age: 30, team: 'red' });
      await people.put('s', { name: 'str', age: '33' as unknown as number, team: 'red' });
      const range = { field: 'age', gte: 30, lt: 41 };
      const inRange = await people.find({ range, sort: [{ field: 'age', direction: 'desc' }, { field: 'name', direction: 'asc' }] });
      expect(inRange.map((p) => p.name)).to.deep.equal(['ada', 'dee', 'eve']);
      const redInRange = await people.find({ where: { team: 'red' }, range, sort: [{ field: 'name', direction: 'asc' }], skip: 1, limit: 1 });
      expect(redInRange.map((p) => p.name)).to.deep.equal(['eve']);
      expect((await people.find({ range: { field: 'age', lt: 30 } })).map((p) => p.name)).to.deep.equal(['bob']);
      expect((await people.find({ range: { field: 'age', gte: 41 } })).map((p) => p.name)).to.deep.equal(['cyd']);
      expect(await people.count(undefined, range)).to.equal(3);
      expect(await people.count({ team: 'red' }, range)).to.equal(2);
      expect(await people.count({ team: 'red' }, { field: 'age' })).to.equal(4);
    });

    it('counts with and without a filter', async function () {
      await seed();
      expect(await people.count()).to.equal(4);
      expect(await people.count({ team: 'blue' })).to.equal(2);
      expect(await people.count({ admin: true })).to.equal(1);
    });

    it('finds and counts by a prefix of any of several string fields, with equality, sort and paging', async function () {
      await people.ensureIndex('name', 'prefix');
      await people.ensureIndex('team', 'prefix');
      await people.ensureIndex('age', 'sort');
      await people.ensureIndex('name', 'prefix'); // again: harmless
      await seed();
      await people.put('e', { name: 'reed', age: 22, team: 'blue' });
      await people.put('n', { name: 'red', age: 7 as number, team: 12 as unknown as string }); // a number never matches
      await people.put('u', { name: 'ré\u{10FFFF}x', age: 50, team: 'z' });
      const re = await people.find({ prefix: { fields: ['name', 'team'], value: 're' }, sort: [{ field: 'age', direction: 'asc' }] });
      // ada and cyd by team "red", reed and red by name; the code point after "e" is not "e".
      expect(re.map((p) => p.name)).to.deep.equal(['red', 'reed', 'ada', 'cyd']);
      expect(await people.count(undefined, undefined, { fields: ['name', 'team'], value: 're' })).to.equal(4);
      expect(await people.count({ team: 'red' }, undefined, { fields: ['name'], value: 'c' })).to.equal(1);
      const paged = await people.find({ prefix: { fields: ['team'], value: 'b' }, sort: [{ field: 'age', direction: 'desc' }], skip: 1, limit: 2 });
      expect(paged.map((p) => p.name)).to.deep.equal(['bob', 'reed']);
      // The highest code point has no successor: the prefix itself is checked.
      expect((await people.find({ prefix: { fields: ['name'], value: 'ré\u{10FFFF}' } })).map((p) => p.name)).to.deep.equal(['ré\u{10FFFF}x']);
      // Case and characters that mean something to LIKE or a regular expression are plain text.
      expect(await people.count(undefined, undefined, { fields: ['name'], value: 'A' })).to.equal(0);
      expect(await people.count(undefined, undefined, { fields: ['name'], value: '%' })).to.equal(0);
      expect(await people.count(undefined, undefined, { fields: ['name'], value: '.' })).to.equal(0);
      expect(await people.count(undefined, undefined, { fields: ['name'], value: '' })).to.equal(7);
    });

    it('keeps collections apart and drops one without touching another', async function () {
      const other = store.collection<Person>(`other_${randomUUID().replace(/-/g, '').slice(0, 10)}`);
      await people.put('same', { name: 'here', age: 1, team: 't' });
      await other.put('same', { name: 'there', age: 2, team: 't' });
      expect((await people.get('same'))?.name).to.equal('here');
      await people.drop();
      expect(await people.count()).to.equal(0);
      expect((await other.get('same'))?.name).to.equal('there');
    });
  });
}
