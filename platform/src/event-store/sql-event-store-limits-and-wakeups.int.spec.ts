/**
 * SqlEventStore details the conformance suite leaves open: refusals and their messages, default
 * limits, an empty store, its own schema on PostgreSQL, and how a local append wakes subscribers
 * that would otherwise sleep until the next poll.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { ConcurrencyError } from '@papertrade/domain/shared/errors';
import { SqlEventStore } from './sql-event-store';
import { newEvent } from './event-store.conformance';
import type { RecordedEvent } from './event-store';
import { PgliteClient } from '../sql/sql-client';
import { freshPglite } from '../../../test/pglite';
import { requireServices } from '../../../test/services';
import { dropSchema, postgresClient, uniqueSchema } from '../../../test/postgres';

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function refusal(append: Promise<unknown>): Promise<Error> {
  try {
    await append;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the append to be refused');
}

describe('SqlEventStore limits and wake-ups (PGlite)', function () {
  this.timeout(60_000);
  let cleanup: () => Promise<void>;
  let store: SqlEventStore;
  /** Polls so rarely that only a wake-up can deliver within a test. */
  let sleepy: SqlEventStore;
  before(async function () {
    const pglite = await freshPglite();
    cleanup = pglite.cleanup;
    store = await SqlEventStore.create(new PgliteClient(pglite.db, false));
    sleepy = await SqlEventStore.create(new PgliteClient(pglite.db, false), { pollIntervalMs: 10 * 60_000 });
  });
  after(async function () {
    await cleanup?.();
  });

  it('has no head position while empty', async function () {
    expect(await store.headPosition()).to.equal(undefined);
    expect(await store.readAll()).to.deep.equal([]);
  });

  it('refuses an empty append', async function () {
    const error = await refusal(store.append(`s-${randomUUID()}`, [], 'any'));
    expect(error).to.be.instanceOf(RangeError);
    expect(error.message).to.equal('append needs at least one event');
  });

  it('says which expectation failed', async function () {
    const stream = `s-${randomUUID()}`;
    await store.append(stream, [newEvent('A')], 'no_stream');
    const exists = await refusal(store.append(stream, [newEvent('B')], 'no_stream'));
    expect(exists).to.be.instanceOf(ConcurrencyError);
    expect(exists.message).to.equal(`stream ${stream} already exists`);
    const stale = await refusal(store.append(stream, [newEvent('B')], 4n));
    expect(stale).to.be.instanceOf(ConcurrencyError);
    expect(stale.message).to.equal(`stream ${stream} is not at revision 4`);
  });

  it('numbers the revisions of a multi-event append after those already there', async function () {
    const stream = `s-${randomUUID()}`;
    await store.append(stream, [newEvent('A'), newEvent('B')], 'any');
    const result = await store.append(stream, [newEvent('C'), newEvent('D'), newEvent('E')], 'any');
    expect(result.nextRevision).to.equal(4n);
    expect((await store.readStream(stream)).map((e) => [e.type, e.revision])).to.deep.equal([
      ['A', 0n],
      ['B', 1n],
      ['C', 2n],
      ['D', 3n],
      ['E', 4n],
    ]);
  });

  it('reads at most 1000 events by default, and delivers more than one batch to a subscriber', async function () {
    const start = await store.headPosition();
    const stream = `bulk-${randomUUID()}`;
    await store.append(stream, Array.from({ length: 1001 }, (_, i) => newEvent('Bulk', { i })), 'no_stream');
    expect(await store.readAll(start ? { after: start } : {})).to.have.length(1000);
    const seen: number[] = [];
    const sub = store.subscribe(async (e) => void (e.streamId === stream && seen.push(Number(e.data.i))), start ? { after: start } : {});
    await until(() => seen.length === 1001, 'every event');
    await sub.stop();
    expect(seen).to.deep.equal(Array.from({ length: 1001 }, (_, i) => i));
  });

  it('wakes a caught-up subscriber on a local append instead of waiting for the next poll', async function () {
    const start = await sleepy.headPosition();
    const seen: RecordedEvent[] = [];
    const sub = sleepy.subscribe(async (e) => void seen.push(e), start ? { after: start } : {});
    const stream = `w-${randomUUID()}`;
    await sleepy.append(stream, [newEvent('First')], 'no_stream');
    await until(() => seen.some((e) => e.streamId === stream), 'the first event');
    await sleepy.append(stream, [newEvent('Second')], 0n);
    await until(() => seen.filter((e) => e.streamId === stream).length === 2, 'the second event');
    // stop() wakes the sleeping loop too, so it returns now, not after the poll interval.
    await sub.stop();
    await sub.done;
  });
});

describe('SqlEventStore in its own schema (PostgreSQL)', function () {
  this.timeout(60_000);
  it('creates its tables in the given schema, apart from other deployments', async function () {
    await requireServices(this, 'postgres');
    const [a, b] = [uniqueSchema('es_a'), uniqueSchema('es_b')];
    try {
      const storeA = await SqlEventStore.create(postgresClient(a), { schema: a });
      const storeB = await SqlEventStore.create(postgresClient(b), { schema: b });
      await storeA.append('shared-name', [newEvent('InA')], 'no_stream');
      await storeB.append('shared-name', [newEvent('InB')], 'no_stream');
      expect((await storeA.readStream('shared-name')).map((e) => e.type)).to.deep.equal(['InA']);
      expect((await storeB.readStream('shared-name')).map((e) => e.type)).to.deep.equal(['InB']);
      await storeA.close();
      await storeB.close();
    } finally {
      await dropSchema(a);
      await dropSchema(b);
    }
  });
});
