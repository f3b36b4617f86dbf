/**
 * What every event store adapter must do. Each adapter's spec calls `eventStoreConformance` with a
 * factory for a fresh, isolated store. Assertions never compare raw positions: only through
 * `comparePositions`.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { ConcurrencyError } from '@papertrade/domain/shared/errors';
import type { AppendResult, EventStore, NewEvent, RecordedEvent } from './event-store';
import { comparePositions } from './position';

export type EventStoreFactory = () => Promise<{ store: EventStore; cleanup(): Promise<void> }>;

export function newEvent(type: string, data: Record<string, unknown> = {}): NewEvent {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: { userId: 'tester', correlationId: randomUUID(), causationId: randomUUID(), at: new Date(0).toISOString(), schemaVersion: 1 },
  };
}

async function waitFor(predicate: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

export function eventStoreConformance(adapterName: string, makeStore: EventStoreFactory): void {
  describe(`event store conformance: ${adapterName}`, function () {
    let store: EventStore;
    let cleanup: () => Promise<void>;
    let prefix: string;
    const stream = (name: string) => `${prefix}${name}`;
    const mine = (events: RecordedEvent[]) => events.filter((e) => e.streamId.startsWith(prefix));

    before(async function () {
      ({ store, cleanup } = await makeStore());
    });
    after(async function () {
      await cleanup?.();
    });
    beforeEach(function () {
      prefix = `t${randomUUID().replace(/-/g, '').slice(0, 12)}_`;
    });

    it('appends to a new stream and reads it back in revision order with data and metadata', async function () {
      const events = [newEvent('Opened', { amount: 10, nested: { list: [1, 'two'] } }), newEvent('Closed', { reason: 'done' })];
      const result = await store.append(stream('a-1'), events, 'no_stream');
      expect(result.nextRevision).to.equal(1n);
      const read = await store.readStream(stream('a-1'));
      expect(read.map((e) => e.type)).to.deep.equal(['Opened', 'Closed']);
      expect(read.map((e) => e.revision)).to.deep.equal([0n, 1n]);
      expect(read.map((e) => e.id)).to.deep.equal(events.map((e) => e.id));
      expect(read[0]!.data).to.deep.equal({ amount: 10, nested: { list: [1, 'two'] } });
      expect(read[0]!.metadata).to.deep.include({ userId: 'tester', schemaVersion: 1 });
      expect(read[0]!.streamId).to.equal(stream('a-1'));
      expect(comparePositions(read[1]!.position, result.position)).to.equal(0);
    });

    it('reads an unknown stream as empty', async function () {
      expect(await store.readStream(stream('nothing'))).to.deep.equal([]);
    });

    describe('readStreamPage', function () {
      const revisions = (events: RecordedEvent[]) => events.map((e) => Number(e.revision));

      it('reads a page forwards from a revision, with the stream\'s last revision', async function () {
        const events = Array.from({ length: 12 }, (_, i) => newEvent('N', { i }));
        await store.append(stream('p-1'), events.slice(0, 7), 'no_stream');
        await store.append(stream('p-1'), events.slice(7), 6n);
        const whole = await store.readStream(stream('p-1'));
        const page = await store.readStreamPage(stream('p-1'), { fromRevision: 5n, maxCount: 4 });
        expect(revisions(page.events)).to.deep.equal([5, 6, 7, 8]);
        expect(page.events).to.deep.equal(whole.slice(5, 9));
        expect(page.lastRevision).to.equal(11n);
        expect(revisions((await store.readStreamPage(stream('p-1'), { maxCount: 3 })).events)).to.deep.equal([0, 1, 2]);
        // The end of the stream cuts the page short; past the end nothing is read.
        expect(revisions((await store.readStreamPage(stream('p-1'), { fromRevision: 10n, maxCount: 5 })).events)).to.deep.equal([10, 11]);
        expect(await store.readStreamPage(stream('p-1'), { fromRevision: 12n, maxCount: 5 })).to.deep.equal({ events: [], lastRevision: 11n });
        for (const far of [(1n << 63n) - 1n, 1n << 64n]) expect(await store.readStreamPage(stream('p-1'), { fromRevision: far, maxCount: 5 })).to.deep.equal({ events: [], lastRevision: 11n });
      });

      it('reads a page backwards, from the end or from a revision', async function () {
        await store.append(stream('p-2'), Array.from({ length: 10 }, (_, i) => newEvent('N', { i })), 'no_stream');
        const whole = await store.readStream(stream('p-2'));
        const last = await store.readStreamPage(stream('p-2'), { direction: 'backwards', maxCount: 3 });
        expect(revisions(last.events)).to.deep.equal([9, 8, 7]);
        expect(last.events).to.deep.equal(whole.slice(7).reverse());
        expect(last.lastRevision).to.equal(9n);
        const middle = await store.readStreamPage(stream('p-2'), { direction: 'backwards', fromRevision: 4n, maxCount: 3 });
        expect(revisions(middle.events)).to.deep.equal([4, 3, 2]);
        expect(middle.lastRevision).to.equal(9n);
        expect(revisions((await store.readStreamPage(stream('p-2'), { direction: 'backwards', fromRevision: 1n, maxCount: 5 })).events)).to.deep.equal([1, 0]);
        expect(revisions((await store.readStreamPage(stream('p-2'), { direction: 'backwards', fromRevision: 40n, maxCount: 2 })).events)).to.deep.equal([9, 8]);
      });

      it('answers the last revision alone for a count of 0, and nothing for a stream that does not exist', async function () {
        await store.append(stream('p-3'), [newEvent('A'), newEvent('B')], 'no_stream');
        expect(await store.readStreamPage(stream('p-3'), { maxCount: 0 })).to.deep.equal({ events: [], lastRevision: 1n });
        expect(await store.readStreamPage(stream('p-3'), { direction: 'backwards', maxCount: 0 })).to.deep.equal({ events: [], lastRevision: 1n });
        for (const direction of ['forwards', 'backwards'] as const) {
          expect(await store.readStreamPage(stream('p-none'), { direction, maxCount: 10 })).to.deep.equal({ events: [], lastRevision: undefined });
          expect(await store.readStreamPage(stream('p-none'), { direction, maxCount: 0 })).to.deep.equal({ events: [], lastRevision: undefined });
        }
      });

      it('refuses a negative or fractional count and a negative revision', async function () {
        for (const options of [{ maxCount: -1 }, { maxCount: 1.5 }, { maxCount: Number.NaN }, { maxCount: 1, fromRevision: -1n }]) {
          let error: unknown;
          await store.readStreamPage(stream('p-bad'), options).catch((e: unknown) => (error = e));
          expect(error, JSON.stringify(options, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).to.be.instanceOf(RangeError);
        }
      });
    });

    it('refuses "no stream" on an existing stream', async function () {
      await store.append(stream('b'), [newEvent('A')], 'no_stream');
      let error: unknown;
      try {
        await store.append(stream('b'), [newEvent('B')], 'no_stream');
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(ConcurrencyError);
      expect(await store.readStream(stream('b'))).to.have.length(1);
    });

    it('appends at the exact expected revision and refuses a stale one', async function () {
      await store.append(stream('c'), [newEvent('A')], 'no_stream');
      const ok = await store.append(stream('c'), [newEvent('B'), newEvent('C')], 0n);
      expect(ok.nextRevision).to.equal(2n);
      let error: unknown;
      try {
        await store.append(stream('c'), [newEvent('D')], 0n);
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(ConcurrencyError);
      expect((await store.readStream(stream('c'))).map((e) => e.type)).to.deep.equal(['A', 'B', 'C']);
    });

    it('refuses an exact revision on a stream that does not exist', async function () {
      let error: unknown;
      try {
        await store.append(stream('ghost'), [newEvent('A')], 3n);
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(ConcurrencyError);
    });

    it('appends with "any" whatever the stream holds', async function () {
      const first = await store.append(stream('d'), [newEvent('A')], 'any');
      expect(first.nextRevision).to.equal(0n);
      const second = await store.append(stream('d'), [newEvent('B')], 'any');
      expect(second.nextRevision).to.equal(1n);
      expect(comparePositions(first.position, second.position)).to.be.lessThan(0);
    });

    it('lets exactly one of several concurrent writers at the same revision win', async function () {
      await store.append(stream('race'), [newEvent('A')], 'no_stream');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 5 }, (_, i) => store.append(stream('race'), [newEvent(`W${i}`)], 0n)),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).to.be.instanceOf(ConcurrencyError);
      expect(await store.readStream(stream('race'))).to.have.length(2);
    });

    it('appends to several streams at once, each under its own expectation; a failed one leaves the others appended', async function () {
      await store.append(stream('m-exact'), [newEvent('A')], 'no_stream');
      await store.append(stream('m-stale'), [newEvent('A'), newEvent('B')], 'no_stream');
      await store.append(stream('m-taken'), [newEvent('A')], 'no_stream');
      const before = await store.headPosition();
      const results = await store.appendMany([
        { streamId: stream('m-new'), events: [newEvent('N1'), newEvent('N2')], expected: 'no_stream' },
        { streamId: stream('m-stale'), events: [newEvent('S')], expected: 0n },
        { streamId: stream('m-exact'), events: [newEvent('E')], expected: 0n },
        { streamId: stream('m-taken'), events: [newEvent('T')], expected: 'no_stream' },
        { streamId: stream('m-any'), events: [newEvent('Y')], expected: 'any' },
        { streamId: stream('m-ghost'), events: [newEvent('G')], expected: 4n },
      ]);
      expect(results.map((r) => (r instanceof ConcurrencyError ? 'conflict' : r.nextRevision))).to.deep.equal([1n, 'conflict', 1n, 'conflict', 0n, 'conflict']);
      expect((await store.readStream(stream('m-new'))).map((e) => [e.type, e.revision])).to.deep.equal([['N1', 0n], ['N2', 1n]]);
      expect((await store.readStream(stream('m-exact'))).map((e) => e.type)).to.deep.equal(['A', 'E']);
      expect((await store.readStream(stream('m-stale'))).map((e) => e.type)).to.deep.equal(['A', 'B']);
      expect((await store.readStream(stream('m-taken'))).map((e) => e.type)).to.deep.equal(['A']);
      expect(await store.readStream(stream('m-ghost'))).to.deep.equal([]);
      // Each result's position is its stream's last event, in the global order.
      const all = mine(await store.readAll({ after: before, limit: 100_000 }));
      expect(all.map((e) => e.type).sort()).to.deep.equal(['E', 'N1', 'N2', 'Y']);
      for (const [i, name] of [[0, 'm-new'], [2, 'm-exact'], [4, 'm-any']] as const) {
        const last = all.filter((e) => e.streamId === stream(name)).at(-1)!;
        expect(comparePositions((results[i] as AppendResult).position, last.position), name).to.equal(0);
      }
      expect(await store.appendMany([])).to.deep.equal([]);
    });

    it('refuses an appendMany that names a stream twice or gives a stream no event, and appends nothing', async function () {
      const before = await store.headPosition();
      const refusal = async (appends: Parameters<EventStore['appendMany']>[0]) => {
        let error: unknown;
        await store.appendMany(appends).catch((e: unknown) => (error = e));
        return error instanceof RangeError ? error.message : error;
      };
      expect(
        await refusal([
          { streamId: stream('dup'), events: [newEvent('A')], expected: 'any' },
          { streamId: stream('dup'), events: [newEvent('B')], expected: 'any' },
        ]),
      ).to.equal('appendMany needs distinct streams');
      expect(
        await refusal([
          { streamId: stream('full'), events: [newEvent('A')], expected: 'any' },
          { streamId: stream('empty'), events: [], expected: 'any' },
        ]),
      ).to.equal('append needs at least one event');
      expect(mine(await store.readAll({ after: before, limit: 100 }))).to.deep.equal([]);
    });

    it('loads several streams at once as loadStream would, with event ids looked up per stream', async function () {
      const snap = { name: 'counter', schemaVersion: 2 };
      const a = [newEvent('A0'), newEvent('A1'), newEvent('A2')];
      const b = [newEvent('B0')];
      await store.append(stream('ls-a'), a, 'no_stream');
      await store.append(stream('ls-b'), b, 'no_stream');
      await store.saveSnapshot(stream('ls-a'), snap.name, { revision: 1n, schemaVersion: 2, state: { n: 2 } });
      const names = [stream('ls-b'), stream('ls-none'), stream('ls-a')];
      const eventIds = new Map([[stream('ls-a'), [a[0]!.id, b[0]!.id]], [stream('ls-none'), [a[1]!.id]]]);
      const loaded = await store.loadStreams(names, { snapshot: snap, eventIds });
      for (const [i, name] of names.entries()) {
        const one = await store.loadStream(name, { snapshot: snap, ...(eventIds.has(name) ? { eventIds: eventIds.get(name)! } : {}) });
        expect(loaded[i], name).to.deep.equal(one);
      }
      expect(loaded[2]!.snapshot?.state).to.deep.equal({ n: 2 });
      expect(loaded[2]!.events.map((e) => e.id)).to.deep.equal([a[2]!.id]);
      expect(loaded[2]!.found.map((e) => e.id)).to.deep.equal([a[0]!.id]);
      expect(loaded[0]!.found).to.deep.equal([]);
      expect(loaded[1]).to.deep.equal({ events: [], found: [], revision: undefined });
      expect(await store.loadStreams([])).to.deep.equal([]);
    });

    it('reads the global order after a position, with a limit, positions strictly increasing', async function () {
      const before = await store.headPosition();
      await store.append(stream('g1'), [newEvent('One')], 'no_stream');
      await store.append(stream('g2'), [newEvent('Two'), newEvent('Three')], 'no_stream');
      await store.append(stream('g1'), [newEvent('Four')], 0n);
      const all = mine(await store.readAll({ after: before, limit: 1000 }));
      expect(all.map((e) => e.type)).to.deep.equal(['One', 'Two', 'Three', 'Four']);
      for (let i = 1; i < all.length; i++) {
        expect(comparePositions(all[i - 1]!.position, all[i]!.position)).to.be.lessThan(0);
      }
      const afterSecond = mine(await store.readAll({ after: all[1]!.position, limit: 1000 }));
      expect(afterSecond.map((e) => e.type)).to.deep.equal(['Three', 'Four']);
      const limited = await store.readAll({ after: before, limit: 2 });
      expect(limited).to.have.length(2);
      const head = await store.headPosition();
      expect(comparePositions(head, all[3]!.position)).to.be.greaterThanOrEqual(0);
    });

    it("finds an actor's last event on any stream, and nothing at or before `after`", async function () {
      const by = (actor: string, type: string): NewEvent => {
        const event = newEvent(type);
        return { ...event, metadata: { ...event.metadata, userId: actor } };
      };
      const alice = stream('alice');
      const bob = stream('bob');
      const start = await store.headPosition();
      expect(await store.lastPositionByActor(alice)).to.equal(undefined);
      await store.append(stream('own-1'), [by(alice, 'One'), by(alice, 'Two')], 'no_stream');
      const [, two] = await store.readStream(stream('own-1'));
      expect(comparePositions(await store.lastPositionByActor(alice), two!.position)).to.equal(0);
      // Another actor's later events do not count; the actor's events on someone else's stream do.
      await store.append(stream('other-1'), [by(bob, 'Three')], 'no_stream');
      expect(comparePositions(await store.lastPositionByActor(alice), two!.position)).to.equal(0);
      await store.append(stream('other-1'), [by(alice, 'Four'), by(bob, 'Five')], 0n);
      const four = (await store.readStream(stream('other-1'))).find((e) => e.type === 'Four')!;
      expect(comparePositions(await store.lastPositionByActor(alice), four.position)).to.equal(0);
      expect(comparePositions(await store.lastPositionByActor(alice, start), four.position)).to.equal(0);
      expect(comparePositions(await store.lastPositionByActor(alice, two!.position), four.position)).to.equal(0);
      expect(await store.lastPositionByActor(alice, four.position)).to.equal(undefined);
      expect(await store.lastPositionByActor(alice, await store.headPosition())).to.equal(undefined);
    });

    it('catches up then follows live appends, in order, once each', async function () {
      const start = await store.headPosition();
      await store.append(stream('s'), [newEvent('Old1'), newEvent('Old2')], 'no_stream');
      const seen: RecordedEvent[] = [];
      const sub = store.subscribe(async (e) => {
        if (e.streamId.startsWith(prefix)) seen.push(e);
      }, start ? { after: start } : {});
      await waitFor(() => seen.length === 2);
      await store.append(stream('s'), [newEvent('Live1')], 1n);
      await store.append(stream('s2'), [newEvent('Live2')], 'no_stream');
      await waitFor(() => seen.length === 4);
      await sub.stop();
      expect(seen.map((e) => e.type)).to.deep.equal(['Old1', 'Old2', 'Live1', 'Live2']);
    });

    it('redelivers everything after a checkpoint to a new subscription', async function () {
      const start = await store.headPosition();
      await store.append(stream('r'), [newEvent('A'), newEvent('B'), newEvent('C')], 'no_stream');
      const first: RecordedEvent[] = [];
      const sub1 = store.subscribe(async (e) => {
        if (e.streamId.startsWith(prefix)) first.push(e);
      }, start ? { after: start } : {});
      await waitFor(() => first.length === 3);
      await sub1.stop();
      const again: string[] = [];
      const sub2 = store.subscribe(async (e) => {
        if (e.streamId.startsWith(prefix)) again.push(e.type);
      }, { after: first[0]!.position });
      await waitFor(() => again.length === 2);
      await sub2.stop();
      expect(again).to.deep.equal(['B', 'C']);
    });

    it('ends the subscription when the handler throws', async function () {
      const start = await store.headPosition();
      await store.append(stream('x'), [newEvent('Boom')], 'no_stream');
      const sub = store.subscribe(async (e) => {
        if (e.streamId.startsWith(prefix)) throw new Error('handler failed');
      }, start ? { after: start } : {});
      let error: unknown;
      await sub.done.catch((e: unknown) => (error = e));
      expect((error as Error).message).to.equal('handler failed');
    });

    it('stops delivering after stop()', async function () {
      const start = await store.headPosition();
      const seen: string[] = [];
      const sub = store.subscribe(async (e) => {
        if (e.streamId.startsWith(prefix)) seen.push(e.type);
      }, start ? { after: start } : {});
      await store.append(stream('st'), [newEvent('Before')], 'no_stream');
      await waitFor(() => seen.length === 1);
      await sub.stop();
      await store.append(stream('st'), [newEvent('After')], 0n);
      await new Promise((r) => setTimeout(r, 200));
      expect(seen).to.deep.equal(['Before']);
    });
    describe('snapshots and loadStream', function () {
      const snap = { name: 'counter', schemaVersion: 2 };

      it('loads every event, the revision and nothing else when there is no snapshot', async function () {
        const events = [newEvent('A'), newEvent('B'), newEvent('C')];
        await store.append(stream('l-1'), events, 'no_stream');
        const loaded = await store.loadStream(stream('l-1'), { snapshot: snap });
        expect(loaded.snapshot).to.equal(undefined);
        expect(loaded.events.map((e) => e.id)).to.deep.equal(events.map((e) => e.id));
        expect(loaded.events.map((e) => e.streamId)).to.deep.equal(events.map(() => stream('l-1')));
        expect(loaded.revision).to.equal(2n);
        expect(loaded.found).to.deep.equal([]);
        const missing = await store.loadStream(stream('l-none'), { snapshot: snap, eventIds: [events[0]!.id] });
        expect(missing).to.deep.equal({ events: [], found: [], revision: undefined });
      });

      it('loads the snapshot and only the events after it; another schema version or name is ignored', async function () {
        const events = Array.from({ length: 5 }, (_, i) => newEvent('N', { i }));
        await store.append(stream('l-2'), events, 'no_stream');
        await store.saveSnapshot(stream('l-2'), snap.name, { revision: 2n, schemaVersion: 2, state: { total: 3, nested: { ok: true } } });
        const loaded = await store.loadStream(stream('l-2'), { snapshot: snap });
        expect(loaded.snapshot).to.deep.equal({ revision: 2n, schemaVersion: 2, state: { total: 3, nested: { ok: true } } });
        expect(loaded.events.map((e) => e.revision)).to.deep.equal([3n, 4n]);
        expect(loaded.revision).to.equal(4n);
        for (const other of [{ name: 'counter', schemaVersion: 3 }, { name: 'other', schemaVersion: 2 }]) {
          const full = await store.loadStream(stream('l-2'), { snapshot: other });
          expect(full.snapshot).to.equal(undefined);
          expect(full.events.map((e) => e.revision)).to.deep.equal([0n, 1n, 2n, 3n, 4n]);
        }
        const none = await store.loadStream(stream('l-2'));
        expect(none.snapshot).to.equal(undefined);
        expect(none.events).to.have.length(5);
      });

      it('keeps the newest snapshot: an older revision does not replace it', async function () {
        await store.append(stream('l-3'), Array.from({ length: 4 }, () => newEvent('N')), 'no_stream');
        await store.saveSnapshot(stream('l-3'), snap.name, { revision: 3n, schemaVersion: 2, state: { at: 3 } });
        await store.saveSnapshot(stream('l-3'), snap.name, { revision: 1n, schemaVersion: 2, state: { at: 1 } });
        const loaded = await store.loadStream(stream('l-3'), { snapshot: snap });
        expect(loaded.snapshot?.state).to.deep.equal({ at: 3 });
        expect(loaded.events).to.deep.equal([]);
        expect(loaded.revision).to.equal(3n);
      });

      it('finds the asked-for event ids anywhere in the stream, also before the snapshot', async function () {
        const events = Array.from({ length: 150 }, (_, i) => newEvent('N', { i }));
        for (let i = 0; i < events.length; i += 50) await store.append(stream('l-4'), events.slice(i, i + 50), 'any');
        await store.saveSnapshot(stream('l-4'), snap.name, { revision: 148n, schemaVersion: 2, state: {} });
        const ids = [events[3]!.id, events[149]!.id, newEvent('X').id];
        const loaded = await store.loadStream(stream('l-4'), { snapshot: snap, eventIds: ids });
        expect(loaded.found.map((e) => e.id)).to.deep.equal([events[3]!.id, events[149]!.id]);
        expect(loaded.found[0]!.revision).to.equal(3n);
        expect(loaded.events.map((e) => e.revision)).to.deep.equal([149n]);
      });

      it('never shows snapshots as events: not in readAll, subscriptions or the head', async function () {
        const result = await store.append(stream('l-5'), [newEvent('Only')], 'no_stream');
        await store.saveSnapshot(stream('l-5'), snap.name, { revision: 0n, schemaVersion: 2, state: { x: 1 } });
        const head = await store.headPosition();
        expect(comparePositions(head, result.position)).to.equal(0);
        const all = mine(await store.readAll({ limit: 100_000 }));
        expect(all.map((e) => e.type)).to.not.include('Snapshot');
        expect(all.every((e) => !e.streamId.includes('snapshot'))).to.equal(true);
        const seen: RecordedEvent[] = [];
        const sub = store.subscribe(async (e) => void seen.push(e));
        await store.append(stream('l-5'), [newEvent('Later')], 0n);
        await waitFor(() => mine(seen).some((e) => e.type === 'Later'));
        await sub.stop();
        expect(mine(seen).map((e) => e.type)).to.not.include('Snapshot');
      });
    });
  });
}
