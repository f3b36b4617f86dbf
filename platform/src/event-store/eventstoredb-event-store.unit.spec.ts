/**
 * The EventStoreDB adapter's own logic (prefixes, system events, paging of $all, positions of
 * multi-event appends, resubscription, stop) on an in-memory fake of `@eventstore/db-client`.
 *
 * The fake follows the server's documented behaviour, taking the less convenient reading wherever it
 * is ambiguous: a multi-event write's records share the commit position of the write and each has
 * its own prepare position; the append answer reports the write's first record; reads of $all include
 * the record at their start position (both directions); a subscription starts after its position; the
 * log holds system events and other prefixes' streams. It is no substitute for the real server
 * (`eventstoredb-event-store.int.spec.ts`, EVENTSTORE_URL), but it runs everywhere.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  StreamNotFoundError,
  UnavailableError,
  AccessDeniedError,
  WrongExpectedVersionError,
  type AppendExpectedRevision,
  type AppendResult as EsdbAppendResult,
  type EventData,
  type EventStoreDBClient,
  type Filter,
  type Position as EsdbPosition,
  type ReadPosition,
  type ReadRevision,
} from '@eventstore/db-client';
import { ConcurrencyError } from '@papertrade/domain/shared/errors';
import type { RecordedEvent } from './event-store';
import { eventStoreConformance, newEvent } from './event-store.conformance';
import { EventStoreDbEventStore } from './eventstoredb-event-store';
import { decodePosition } from './position';

interface FakeRecord {
  streamId: string;
  id: string;
  type: string;
  revision: bigint;
  isJson: true;
  contentType: 'application/json';
  data: unknown;
  metadata: unknown;
  created: Date;
  position: EsdbPosition;
}

const cmp = (a: EsdbPosition, b: EsdbPosition) =>
  a.commit !== b.commit ? (a.commit < b.commit ? -1 : 1) : a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1;

function matches(filter: Filter | undefined, record: FakeRecord): boolean {
  if (!filter) return true;
  const subject = filter.filterOn === 'streamName' ? record.streamId : record.type;
  if ('prefixes' in filter) return filter.prefixes.some((p) => subject.startsWith(p));
  return new RegExp(filter.regex).test(subject);
}

type FakeSubscription = Readable & { unsubscribe(): Promise<void>; esFilter?: Filter };

class FakeEventStoreDb {
  readonly log: FakeRecord[] = [];
  readonly subscriptions = new Set<FakeSubscription>();
  subscribeCalls = 0;
  disposed = false;
  // Log positions start below a digit boundary, so encodings of different widths get compared.
  private next = 9_999_000n;

  constructor() {
    this.write('$stats-127.0.0.1:2113', [{ type: '$statsCollected', data: {} }]);
  }

  /** Writes straight into the log: system events, other tenants' streams. */
  write(streamId: string, events: Array<{ type: string; data: unknown; id?: string; metadata?: unknown }>): EsdbPosition {
    let revision = this.revisionOf(streamId) ?? -1n;
    const commit = this.next;
    let first: EsdbPosition | undefined;
    for (const e of events) {
      revision += 1n;
      const position = { commit, prepare: this.next };
      first ??= position;
      this.next += 97n + BigInt(JSON.stringify(e.data).length);
      const record: FakeRecord = {
        streamId,
        id: e.id ?? randomUUID(),
        type: e.type,
        revision,
        isJson: true,
        contentType: 'application/json',
        data: e.data,
        metadata: e.metadata,
        created: new Date(),
        position,
      };
      this.log.push(record);
      for (const sub of this.subscriptions) {
        if (matches(sub.esFilter, record)) sub.push({ event: record, commitPosition: commit });
      }
    }
    return first ?? { commit, prepare: commit };
  }

  revisionOf(streamId: string): bigint | undefined {
    let last: bigint | undefined;
    for (const r of this.log) if (r.streamId === streamId) last = r.revision;
    return last;
  }

  async appendToStream(streamId: string, events: EventData | EventData[], options: { expectedRevision?: AppendExpectedRevision } = {}): Promise<EsdbAppendResult> {
    await Promise.resolve();
    const list = Array.isArray(events) ? events : [events];
    const expected = options.expectedRevision ?? 'any';
    const current = this.revisionOf(streamId);
    const ok =
      expected === 'any' ||
      (expected === 'no_stream' && current === undefined) ||
      (expected === 'stream_exists' && current !== undefined) ||
      (typeof expected === 'bigint' && current === expected);
    if (!ok) throw new WrongExpectedVersionError(undefined, { streamName: streamId, expected, current: current ?? 'no_stream' });
    const first = this.write(
      streamId,
      list.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata })),
    );
    // The write's first record, the least helpful answer a server could give for several events.
    return { success: true, nextExpectedRevision: this.revisionOf(streamId) ?? -1n, position: first };
  }

  readonly streamMetadata = new Map<string, unknown>();
  async setStreamMetadata(streamId: string, metadata: unknown): Promise<void> {
    await Promise.resolve();
    this.streamMetadata.set(streamId, metadata);
  }

  readStream(streamId: string, options: { fromRevision?: ReadRevision; maxCount?: number | bigint; direction?: string } = {}) {
    const records = this.log.filter((r) => r.streamId === streamId);
    if (records.length === 0) {
      return this.streaming([], new StreamNotFoundError(undefined, streamId));
    }
    const backwards = options.direction === 'backwards';
    const from = options.fromRevision ?? (backwards ? 'end' : 'start');
    let selected = backwards ? [...records].reverse() : records;
    if (typeof from === 'bigint') selected = selected.filter((r) => (backwards ? r.revision <= from : r.revision >= from));
    return this.streaming(selected.slice(0, Number(options.maxCount ?? Number.MAX_SAFE_INTEGER)).map((r) => ({ event: r })));
  }

  readAll(options: { fromPosition?: ReadPosition; maxCount?: number | bigint; direction?: string } = {}) {
    const backwards = options.direction === 'backwards';
    const from = options.fromPosition ?? (backwards ? 'end' : 'start');
    let selected = backwards ? [...this.log].reverse() : [...this.log];
    if (typeof from === 'object') selected = selected.filter((r) => (backwards ? cmp(r.position, from) <= 0 : cmp(r.position, from) >= 0));
    return this.streaming(
      selected.slice(0, Number(options.maxCount ?? Number.MAX_SAFE_INTEGER)).map((r) => ({ event: r, commitPosition: r.position.commit })),
    );
  }

  subscribeToAll(options: { fromPosition?: ReadPosition; filter?: Filter } = {}) {
    this.subscribeCalls += 1;
    const sub = new Readable({ objectMode: true, read() {} }) as FakeSubscription;
    sub.esFilter = options.filter;
    sub.unsubscribe = async () => {
      this.subscriptions.delete(sub);
      sub.push(null);
    };
    const from = options.fromPosition ?? 'start';
    const backlog = from === 'end' ? [] : this.log.filter((r) => from === 'start' || cmp(r.position, from) > 0);
    for (const r of backlog) if (matches(options.filter, r)) sub.push({ event: r, commitPosition: r.position.commit });
    this.subscriptions.add(sub);
    sub.once('close', () => this.subscriptions.delete(sub));
    setImmediate(() => sub.emit('confirmation'));
    return sub;
  }

  /** Every live subscription fails with `error`, as on a dropped connection. */
  fail(error: Error): void {
    for (const sub of [...this.subscriptions]) {
      this.subscriptions.delete(sub);
      sub.destroy(error);
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
  }

  private streaming(items: unknown[], error?: Error) {
    const stream = Readable.from(
      (async function* () {
        await Promise.resolve();
        if (error) throw error;
        yield* items;
      })(),
    ) as Readable & { cancel(): Promise<void> };
    stream.cancel = async () => {
      stream.destroy();
    };
    return stream;
  }
}

function makeStore(options: { prefix?: string; pageSize?: number; maxResubscribeAttempts?: number } = {}) {
  const fake = new FakeEventStoreDb();
  const store = new EventStoreDbEventStore(fake as unknown as EventStoreDBClient, {
    streamPrefix: options.prefix ?? 'unit-',
    ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
    ...(options.maxResubscribeAttempts !== undefined ? { maxResubscribeAttempts: options.maxResubscribeAttempts } : {}),
  });
  return { fake, store };
}

async function waitFor(predicate: () => boolean, timeoutMs = 2000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('EventStoreDbEventStore on an in-memory fake client', function () {
  eventStoreConformance('EventStoreDB adapter, fake client', async () => {
    const { fake, store } = makeStore({ pageSize: 3 });
    // Noise around the suite's streams: system events and another tenant's prefix.
    fake.write('$settings', [{ type: '$settings', data: {} }]);
    fake.write('other-stream', [{ type: 'Foreign', data: {} }]);
    return { store, cleanup: () => store.close() };
  });

  it('reports the position of the last event of a multi-event append', async function () {
    const { fake, store } = makeStore();
    const result = await store.append('s', [newEvent('A'), newEvent('B'), newEvent('C')], 'no_stream');
    const last = fake.log.at(-1)!;
    expect(decodePosition(result.position)).to.deep.equal([last.position.commit, last.position.prepare]);
    const read = await store.readStream('s');
    expect(read.at(-1)!.position).to.equal(result.position);
    expect(result.nextRevision).to.equal(2n);
  });

  it('stores the event id, JSON data and metadata as given, under the prefixed stream name', async function () {
    const { fake, store } = makeStore({ prefix: 'p-' });
    const event = newEvent('Opened', { amount: 3 });
    await store.append('user-1', [event], 'any');
    const record = fake.log.at(-1)!;
    expect(record).to.include({ streamId: 'p-user-1', id: event.id, type: 'Opened' });
    expect(record.data).to.deep.equal({ amount: 3 });
    expect(record.metadata).to.deep.equal(event.metadata);
    const [read] = await store.readStream('user-1');
    expect(read).to.deep.include({ streamId: 'user-1', id: event.id, revision: 0n });
  });

  it('maps a wrong expected version to ConcurrencyError', async function () {
    const { store } = makeStore();
    await store.append('s', [newEvent('A')], 'no_stream');
    for (const expected of ['no_stream', 5n] as const) {
      let error: unknown;
      await store.append('s', [newEvent('B')], expected).catch((e: unknown) => (error = e));
      expect(error).to.be.instanceOf(ConcurrencyError);
      expect((error as ConcurrencyError).status).to.equal(412);
    }
  });

  it('never shows system events or other prefixes, in reads, the head or subscriptions', async function () {
    const { fake, store } = makeStore({ prefix: 'mine-', pageSize: 2 });
    expect(await store.headPosition()).to.equal(undefined);
    expect(await store.readAll()).to.deep.equal([]);
    await store.append('a', [newEvent('A1')], 'no_stream');
    fake.write('theirs-a', [{ type: 'X', data: {} }]);
    fake.write('mine-b', [{ type: '$metadata', data: {} }]);
    fake.write('$$mine-a', [{ type: '$metadata', data: {} }]);
    for (let i = 0; i < 5; i++) fake.write(`theirs-${i}`, [{ type: 'Noise', data: { i } }]);
    const second = await store.append('a', [newEvent('A2')], 0n);
    for (let i = 0; i < 5; i++) fake.write(`$stats-${i}`, [{ type: '$statsCollected', data: {} }]);

    expect((await store.readAll()).map((e) => `${e.streamId}/${e.type}`)).to.deep.equal(['a/A1', 'a/A2']);
    expect(await store.headPosition()).to.equal(second.position);
    const seen: string[] = [];
    const sub = store.subscribe(async (e) => {
      seen.push(`${e.streamId}/${e.type}`);
    });
    await waitFor(() => seen.length === 2);
    fake.write('theirs-live', [{ type: 'Y', data: {} }]);
    await store.append('c', [newEvent('C1')], 'no_stream');
    await waitFor(() => seen.length === 3);
    await sub.stop();
    expect(seen).to.deep.equal(['a/A1', 'a/A2', 'c/C1']);
  });

  it('pages through $all with a limit, across pages full of other streams', async function () {
    const { fake, store } = makeStore({ prefix: 'mine-', pageSize: 2 });
    const positions: string[] = [];
    for (let i = 0; i < 7; i++) {
      for (let j = 0; j < 3; j++) fake.write(`theirs-${i}-${j}`, [{ type: 'Noise', data: {} }]);
      positions.push((await store.append(`s${i}`, [newEvent(`E${i}`)], 'no_stream')).position);
    }
    const all = await store.readAll();
    expect(all.map((e) => e.type)).to.deep.equal(['E0', 'E1', 'E2', 'E3', 'E4', 'E5', 'E6']);
    const page = await store.readAll({ after: positions[2] as (typeof all)[number]['position'], limit: 3 });
    expect(page.map((e) => e.type)).to.deep.equal(['E3', 'E4', 'E5']);
    expect(await store.readAll({ limit: 0 })).to.deep.equal([]);
  });

  it("finds an actor's last event back through pages of other streams, and reads no further back than `after`", async function () {
    const { fake, store } = makeStore({ prefix: 'mine-', pageSize: 2 });
    const byAlice = { ...newEvent('Mine'), metadata: { ...newEvent('x').metadata, userId: 'alice' } };
    const alice = await store.append('a', [byAlice], 'no_stream');
    // Events after it: another prefix and a system stream in Alice's name (not this store's), and others' events.
    fake.write('theirs-a', [{ type: 'X', data: {}, metadata: { userId: 'alice' } }]);
    fake.write('$$mine-a', [{ type: '$metadata', data: {}, metadata: { userId: 'alice' } }]);
    for (let i = 0; i < 5; i++) await store.append(`b${i}`, [newEvent('Other')], 'no_stream');
    expect(await store.lastPositionByActor('alice')).to.equal(alice.position);
    const reads: unknown[] = [];
    const readAll = fake.readAll.bind(fake);
    fake.readAll = (options) => {
      reads.push(options);
      return readAll(options);
    };
    const head = await store.headPosition();
    reads.length = 0;
    expect(await store.lastPositionByActor('alice', head)).to.equal(undefined);
    expect(reads).to.have.length(1);
    expect(await store.lastPositionByActor('nobody', alice.position)).to.equal(undefined);
  });

  it('resubscribes from its last delivered event after a transport failure, nothing lost or doubled', async function () {
    const { fake, store } = makeStore();
    await store.append('s', [newEvent('A'), newEvent('B')], 'no_stream');
    const seen: string[] = [];
    const sub = store.subscribe(async (e) => {
      seen.push(e.type);
    });
    await waitFor(() => seen.length === 2);
    fake.fail(new UnavailableError());
    await store.append('s', [newEvent('C')], 1n);
    await waitFor(() => seen.length === 3);
    fake.fail(new UnavailableError());
    fake.fail(new UnavailableError());
    await store.append('s', [newEvent('D')], 2n);
    await waitFor(() => seen.length === 4);
    await sub.stop();
    expect(seen).to.deep.equal(['A', 'B', 'C', 'D']);
    expect(fake.subscribeCalls).to.be.greaterThanOrEqual(2);
  });

  it('ends with the error when the failure is not transient or the attempts run out', async function () {
    const { fake, store } = makeStore({ maxResubscribeAttempts: 1 });
    const sub = store.subscribe(async () => {});
    await waitFor(() => fake.subscriptions.size === 1);
    fake.fail(new AccessDeniedError());
    let error: unknown;
    await sub.done.catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(AccessDeniedError);
  });

  it('can be stopped from inside its handler, and close() stops the rest', async function () {
    const { fake, store } = makeStore();
    await store.append('s', [newEvent('A'), newEvent('B')], 'no_stream');
    const seen: string[] = [];
    const sub = store.subscribe(async (e) => {
      seen.push(e.type);
      await sub.stop();
    });
    await sub.done;
    expect(seen).to.deep.equal(['A']);

    const other = store.subscribe(async () => {});
    await waitFor(() => fake.subscriptions.size === 1);
    await store.close();
    await other.done;
    expect(fake.subscriptions.size).to.equal(0);
    expect(fake.disposed).to.equal(true);
  });

  it('appending no events writes nothing but checks the expected revision', async function () {
    const { fake, store } = makeStore();
    const before = fake.log.length;
    const first = await store.append('s', [newEvent('A')], 'no_stream');
    const none = await store.append('s', [], 0n);
    expect(none).to.deep.equal(first);
    expect(fake.log.length).to.equal(before + 1);
    let error: unknown;
    await store.append('s', [], 'no_stream').catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(ConcurrencyError);
  });

  it('hands events to the handler one at a time', async function () {
    const { store } = makeStore();
    await store.append('s', [newEvent('A'), newEvent('B'), newEvent('C')], 'no_stream');
    let running = 0;
    let maxRunning = 0;
    const seen: RecordedEvent[] = [];
    const sub = store.subscribe(async (e) => {
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setTimeout(r, 5));
      seen.push(e);
      running -= 1;
    });
    await waitFor(() => seen.length === 3);
    await sub.stop();
    expect(maxRunning).to.equal(1);
  });
});
