/**
 * EventStoreDB adapter of the event store port (production mode, DESIGN.md section 4).
 *
 * - Streams are stored as `streamPrefix + streamId`; every read of `$all` keeps only the streams of
 *   this prefix (and strips it), so test runs against one shared server stay isolated. Production uses
 *   the empty prefix.
 * - System events (types or streams starting with `$`) are never returned.
 * - Positions are EventStoreDB's (commit, prepare) pair encoded with `encodePosition`, so their strings
 *   sort in `$all` order.
 * - `NewEvent.id` is the EventStoreDB event id; data and metadata are stored as JSON.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  ANY,
  BACKWARDS,
  END,
  ErrorType,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  streamNameFilter,
} from '@eventstore/db-client';
import type {
  AllStreamResolvedEvent,
  AppendExpectedRevision,
  Filter,
  Position as EsdbPosition,
  RecordedEvent as EsdbRecordedEvent,
  ResolvedEvent,
  StreamingRead,
} from '@eventstore/db-client';
import { ConcurrencyError } from '@papertrade/domain/shared/errors';
import { ascendingBy } from '@papertrade/domain/shared/order';
import type {
  AppendResult,
  EventMetadata,
  EventStore,
  ExpectedRevision,
  LoadStreamOptions,
  LoadStreamsOptions,
  StreamAppend,
  LoadedStream,
  NewEvent,
  ReadStreamPageOptions,
  RecordedEvent,
  StreamPage,
  StreamSnapshot,
  SubscribeOptions,
  Subscription,
} from './event-store';
import { checkAppendMany, MAX_REVISION, streamPageRequest } from './event-store';
import { comparePositions, decodePosition, encodePosition, type Position } from './position';

export interface EventStoreDbOptions {
  /** Prepended to every stream name; `$all` reads keep only streams with this prefix. Default ''. */
  streamPrefix?: string;
  /** Events fetched per `$all` read page (reads and catch-up). Default 500. */
  pageSize?: number;
  /**
   * Consecutive transport failures (server unavailable, leader change, stream ended by the server)
   * after which a subscription gives up and rejects `done`; it resubscribes from its last delivered
   * position until then. Default 20 (about a minute and a half with the capped backoff).
   */
  maxResubscribeAttempts?: number;
  /** Dispose the client in `close()`. Default true (the store owns the client). */
  closeClient?: boolean;
}

const MAX_U64 = (1n << 64n) - 1n;

/**
 * Snapshots live in streams of their own, `<prefix>~snapshot~<name>~<streamId>` (`~` never occurs in
 * the domain's stream ids), capped at one event by stream metadata. They are not domain events:
 * reads of `$all` and subscriptions drop them.
 */
const SNAPSHOT_MARK = '~snapshot~';
/** Events read back from the end of a stream in the same round trip as its snapshot. */
const TAIL_PAGE = 64;

/** A handler failure travels through the subscription loop wrapped, so it is never retried. */
class HandlerFailure {
  constructor(readonly cause: unknown) {}
}

class SubscriptionEnded extends Error {
  constructor() {
    super('the EventStoreDB subscription ended without being stopped');
  }
}

const TRANSIENT: ReadonlySet<string> = new Set([
  ErrorType.UNAVAILABLE,
  ErrorType.DEADLINE_EXCEEDED,
  ErrorType.NOT_LEADER,
  ErrorType.CANCELLED,
  ErrorType.TIMEOUT,
]);

function isTransient(err: unknown): boolean {
  if (err instanceof SubscriptionEnded) return true;
  if (typeof err !== 'object' || err === null) return false;
  const { type, code } = err as { type?: unknown; code?: unknown };
  if (typeof type === 'string' && TRANSIENT.has(type)) return true;
  // Node's stream errors when the gRPC stream is torn down under the iterator.
  return code === 'ERR_STREAM_PREMATURE_CLOSE';
}

/** A sleep that `wake()` cuts short, so stopping a subscription never waits out a backoff. */
function backoff(ms: number): { done: Promise<void>; wake(): void } {
  let wake = () => {};
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  return { done, wake };
}

function toNativePosition(position: Position): EsdbPosition {
  const [commit, prepare] = decodePosition(position);
  return { commit, prepare };
}

function validNative(position: EsdbPosition | undefined): position is EsdbPosition {
  // Servers before 22.6 report "no position" on stream reads as -1 / 2^64-1.
  return (
    position !== undefined &&
    position.commit >= 0n &&
    position.prepare >= 0n &&
    position.commit < MAX_U64 &&
    position.prepare < MAX_U64
  );
}

function toJsonObject(value: unknown, what: string, eventId: string): Record<string, unknown> {
  let parsed = value;
  if (value instanceof Uint8Array) {
    const text = Buffer.from(value).toString('utf8');
    if (text.length === 0) return {};
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`EventStoreDB event ${eventId} has ${what} that is not JSON`);
    }
  }
  if (parsed === undefined || parsed === null) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error(`EventStoreDB event ${eventId} has ${what} that is not a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

export class EventStoreDbEventStore implements EventStore {
  readonly streamPrefix: string;
  private readonly pageSize: number;
  private readonly maxResubscribeAttempts: number;
  private readonly closeClient: boolean;
  private readonly subscriptions = new Set<Subscription>();
  private closed = false;

  /** Connects with an `esdb://` connection string (e.g. `esdb://eventstore:2113?tls=false`); owns the client. */
  static connect(connectionString: string, options: Omit<EventStoreDbOptions, 'closeClient'> = {}): EventStoreDbEventStore {
    return new EventStoreDbEventStore(EventStoreDBClient.connectionString(connectionString), { ...options, closeClient: true });
  }

  constructor(
    private readonly client: EventStoreDBClient,
    options: EventStoreDbOptions = {},
  ) {
    this.streamPrefix = options.streamPrefix ?? '';
    if (this.streamPrefix.startsWith('$')) throw new RangeError('streamPrefix must not start with "$" (system streams)');
    this.pageSize = Math.max(2, options.pageSize ?? 500);
    this.maxResubscribeAttempts = options.maxResubscribeAttempts ?? 20;
    this.closeClient = options.closeClient ?? true;
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    this.assertOpen();
    const stream = this.streamPrefix + streamId;
    if (events.length === 0) return this.appendNothing(streamId, expected);
    const expectedRevision: AppendExpectedRevision = expected === 'any' ? ANY : expected === 'no_stream' ? NO_STREAM : expected;

    let result;
    try {
      result = await this.client.appendToStream(
        stream,
        events.map((e) =>
          jsonEvent({
            id: e.id,
            type: e.type,
            data: e.data,
            metadata: e.metadata as Record<string, unknown>,
          }),
        ),
        { expectedRevision },
      );
    } catch (err) {
      if (err instanceof WrongExpectedVersionError) {
        throw new ConcurrencyError(
          `stream ${streamId} is at revision ${String(err.actualVersion)}, expected ${String(err.expectedVersion)}`,
          { streamId },
        );
      }
      throw err;
    }

    // The server answers one position for the whole write, (commit, commit): exact for a single event
    // (its commit and prepare positions are equal), but the first event's for several. X-Min-Position
    // waits on this position, so for several events read the last one back (revisions never change,
    // so the read is exact).
    let position = validNative(result.position) ? result.position : undefined;
    if (events.length > 1 || position === undefined) {
      const [last] = await this.collect(
        this.client.readStream(stream, { fromRevision: result.nextExpectedRevision, maxCount: 1, direction: FORWARDS }),
      );
      if (validNative(last?.event?.position)) position = last.event.position;
    }
    if (position === undefined) throw new Error('EventStoreDB did not report the position of an append (server 22.6 or later is required)');
    return { nextRevision: result.nextExpectedRevision, position: encodePosition(position.commit, position.prepare) };
  }

  /** No multi-stream write in EventStoreDB: one append per stream, all in flight at once. */
  async appendMany(appends: StreamAppend[]): Promise<Array<AppendResult | ConcurrencyError>> {
    checkAppendMany(appends);
    const settled = await Promise.allSettled(appends.map((a) => this.append(a.streamId, a.events, a.expected)));
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected' && !(r.reason instanceof ConcurrencyError));
    if (failed) throw failed.reason;
    return settled.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as ConcurrencyError)));
  }

  async readStream(streamId: string): Promise<RecordedEvent[]> {
    this.assertOpen();
    const out: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(this.streamPrefix + streamId, { fromRevision: START, direction: FORWARDS })) {
        const event = this.toRecorded(resolved.event);
        if (event) out.push(event);
      }
    } catch (err) {
      if (err instanceof StreamNotFoundError || (err as { type?: unknown } | null)?.type === ErrorType.STREAM_NOT_FOUND) return [];
      throw err;
    }
    return out;
  }

  /**
   * The page (`readStream` with fromRevision, maxCount and direction) and the stream's last event
   * (backwards from END, one event) are read at once: two reads in flight on one connection. A page
   * read backwards from the end tells the last revision itself, so it is read alone.
   */
  async readStreamPage(streamId: string, options: ReadStreamPageOptions): Promise<StreamPage> {
    this.assertOpen();
    const { fromRevision, maxCount, backwards } = streamPageRequest(options);
    const stream = this.streamPrefix + streamId;
    const fromEnd = backwards && fromRevision === MAX_REVISION;
    const from = fromEnd ? END : fromRevision;
    const [page, last] = await Promise.all([
      maxCount > 0 ? this.readRange(stream, from, maxCount, backwards) : Promise.resolve([]),
      fromEnd && maxCount > 0 ? Promise.resolve(undefined) : this.readBackwards(stream, END, 1),
    ]);
    const events = page.map((resolved) => this.toStreamEvent(resolved.event, streamId)).filter((e): e is RecordedEvent => e !== undefined);
    let lastRevision = last === undefined ? events[0]?.revision : last[0]?.event?.revision;
    // An append between the two reads: the page may hold a later revision than the last one read.
    for (const e of events) if (lastRevision === undefined || e.revision > lastRevision) lastRevision = e.revision;
    return { events, lastRevision };
  }

  private async readRange(stream: string, fromRevision: bigint | typeof END, maxCount: number, backwards: boolean): Promise<ResolvedEvent[]> {
    if (backwards) return this.readBackwards(stream, fromRevision, maxCount);
    try {
      return await this.collect(this.client.readStream(stream, { fromRevision, direction: FORWARDS, maxCount }));
    } catch (err) {
      if (err instanceof StreamNotFoundError || (err as { type?: unknown } | null)?.type === ErrorType.STREAM_NOT_FOUND) return [];
      throw err;
    }
  }

  /**
   * The snapshot and the last TAIL_PAGE events of the stream are read at once (two reads in flight on
   * one connection: one round trip). When the snapshot is older than that page, or eventIds are not
   * found in it, the reads go on backwards (rare: snapshots are kept every few events).
   */
  async loadStream(streamId: string, options: LoadStreamOptions = {}): Promise<LoadedStream> {
    this.assertOpen();
    const stream = this.streamPrefix + streamId;
    const wanted = new Set(options.eventIds ?? []);
    const since = options.eventIdsSince ? Date.parse(options.eventIdsSince) : Number.NEGATIVE_INFINITY;
    const snapshotName = options.snapshot?.name;
    const [snapshotPage, firstPage] = await Promise.all([
      snapshotName ? this.readBackwards(this.snapshotStream(streamId, snapshotName), END, 1) : Promise.resolve([]),
      this.readBackwards(stream, END, TAIL_PAGE),
    ]);
    let snapshot: StreamSnapshot | undefined;
    const stored = snapshotPage[0]?.event;
    if (stored && options.snapshot) {
      const data = toJsonObject(stored.data, 'data', stored.id);
      if (data.schemaVersion === options.snapshot.schemaVersion && typeof data.revision === 'string') {
        snapshot = { revision: BigInt(data.revision), schemaVersion: options.snapshot.schemaVersion, state: data.state };
      }
    }
    const from = snapshot ? snapshot.revision + 1n : 0n;
    const newestFirst: RecordedEvent[] = [];
    const found: RecordedEvent[] = [];
    let page = firstPage;
    for (;;) {
      for (const resolved of page) {
        const event = this.toStreamEvent(resolved.event, streamId);
        if (!event) continue;
        newestFirst.push(event);
        if (wanted.delete(event.id)) found.push(event);
      }
      const oldest = newestFirst.at(-1);
      const reachedStart = page.length < TAIL_PAGE || oldest === undefined || oldest.revision === 0n;
      const coveredTail = oldest === undefined || oldest.revision <= from;
      const olderThanWindow = oldest !== undefined && Date.parse(String(oldest.metadata.at)) < since;
      if (reachedStart || (coveredTail && (wanted.size === 0 || olderThanWindow))) break;
      page = await this.readBackwards(stream, oldest.revision - 1n, TAIL_PAGE);
    }
    const events = newestFirst.filter((e) => e.revision >= from).reverse();
    found.sort(ascendingBy((e) => e.revision));
    return { ...(snapshot ? { snapshot } : {}), events, found, revision: newestFirst[0]?.revision };
  }

  /** One loadStream per stream, all in flight at once (reads on one connection). */
  async loadStreams(streamIds: string[], options: LoadStreamsOptions = {}): Promise<LoadedStream[]> {
    if (new Set(streamIds).size !== streamIds.length) throw new RangeError('loadStreams needs distinct streams');
    const { eventIds, ...rest } = options;
    return Promise.all(streamIds.map((streamId) => this.loadStream(streamId, { ...rest, ...(eventIds?.has(streamId) ? { eventIds: eventIds.get(streamId)! } : {}) })));
  }

  async saveSnapshot(streamId: string, name: string, snapshot: StreamSnapshot): Promise<void> {
    this.assertOpen();
    const stream = this.snapshotStream(streamId, name);
    // Keep the newest: read the stored one and append only over it (a concurrent save wins the race).
    const [current] = await this.readBackwards(stream, END, 1);
    if (current?.event) {
      const data = toJsonObject(current.event.data, 'data', current.event.id);
      const sameVersion = data.schemaVersion === snapshot.schemaVersion;
      if (sameVersion && typeof data.revision === 'string' && BigInt(data.revision) >= snapshot.revision) return;
    }
    let result;
    try {
      result = await this.client.appendToStream(
        stream,
        jsonEvent({
          type: 'Snapshot',
          data: { revision: snapshot.revision.toString(), schemaVersion: snapshot.schemaVersion, state: snapshot.state as Record<string, unknown> },
        }),
        { expectedRevision: current?.event ? current.event.revision : NO_STREAM },
      );
    } catch (err) {
      if (err instanceof WrongExpectedVersionError) return;
      throw err;
    }
    // The first snapshot of a stream caps it: older snapshots are scavenged.
    if (result.nextExpectedRevision === 0n) await this.client.setStreamMetadata(stream, { maxCount: 1 });
  }

  private snapshotStream(streamId: string, name: string): string {
    return `${this.streamPrefix}${SNAPSHOT_MARK}${name}~${streamId}`;
  }

  private async readBackwards(stream: string, fromRevision: bigint | typeof END, maxCount: number): Promise<ResolvedEvent[]> {
    try {
      return await this.collect(this.client.readStream(stream, { fromRevision, direction: BACKWARDS, maxCount }));
    } catch (err) {
      if (err instanceof StreamNotFoundError || (err as { type?: unknown } | null)?.type === ErrorType.STREAM_NOT_FOUND) return [];
      throw err;
    }
  }

  /** A stream read's event in the port's shape, with the caller's stream id. */
  private toStreamEvent(event: EsdbRecordedEvent | undefined, streamId: string): RecordedEvent | undefined {
    const recorded = this.toRecorded(event);
    return recorded && { ...recorded, streamId };
  }

  async readAll(options: { after?: Position; limit?: number } = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    if (limit <= 0) return [];
    const out: RecordedEvent[] = [];
    // A read of $all from a position includes the event at that position: skip everything up to the cursor.
    let cursor: Position | undefined = options.after;
    for (;;) {
      const page = await this.collect(
        this.client.readAll({
          fromPosition: cursor === undefined ? START : toNativePosition(cursor),
          maxCount: this.pageSize,
          direction: FORWARDS,
        }),
      );
      let progressed = false;
      for (const resolved of page) {
        const native = resolved.event?.position;
        if (!native) continue;
        const position = encodePosition(native.commit, native.prepare);
        if (cursor !== undefined && comparePositions(position, cursor) <= 0) continue;
        cursor = position;
        progressed = true;
        const event = this.toRecorded(resolved.event);
        if (!event) continue;
        out.push(event);
        if (out.length >= limit) return out;
      }
      if (page.length < this.pageSize || !progressed) return out;
    }
  }

  async headPosition(): Promise<Position | undefined> {
    this.assertOpen();
    let cursor: Position | undefined;
    for (;;) {
      const page = await this.collect(
        this.client.readAll({
          fromPosition: cursor === undefined ? END : toNativePosition(cursor),
          maxCount: this.pageSize,
          direction: BACKWARDS,
        }),
      );
      let progressed = false;
      for (const resolved of page) {
        const native = resolved.event?.position;
        if (!native) continue;
        const position = encodePosition(native.commit, native.prepare);
        if (cursor !== undefined && comparePositions(position, cursor) >= 0) continue;
        cursor = position;
        progressed = true;
        if (this.toRecorded(resolved.event)) return position;
      }
      if (page.length < this.pageSize || !progressed) return undefined;
    }
  }

  /**
   * EventStoreDB has no index on metadata: reads $all backwards from the head, a page at a time, until
   * the actor's event or the first event at or before `after` (so the read is as long as the caller's
   * projections lag behind the head; without `after` it may read the whole log).
   */
  async lastPositionByActor(actor: string, after?: Position): Promise<Position | undefined> {
    this.assertOpen();
    let cursor: Position | undefined;
    for (;;) {
      const page = await this.collect(
        this.client.readAll({
          fromPosition: cursor === undefined ? END : toNativePosition(cursor),
          maxCount: this.pageSize,
          direction: BACKWARDS,
        }),
      );
      let progressed = false;
      for (const resolved of page) {
        const native = resolved.event?.position;
        if (!native) continue;
        const position = encodePosition(native.commit, native.prepare);
        if (cursor !== undefined && comparePositions(position, cursor) >= 0) continue;
        if (comparePositions(position, after) <= 0) return undefined;
        cursor = position;
        progressed = true;
        if (this.toRecorded(resolved.event)?.metadata.userId === actor) return position;
      }
      if (page.length < this.pageSize || !progressed) return undefined;
    }
  }

  subscribe(handler: (event: RecordedEvent) => Promise<void>, options: SubscribeOptions = {}): Subscription {
    this.assertOpen();
    const inHandler = new AsyncLocalStorage<true>();
    let stopped = false;
    let current: ReturnType<EventStoreDBClient['subscribeToAll']> | undefined;
    let sleeping: { wake(): void } | undefined;
    let last: Position | undefined = options.after;

    const run = async (): Promise<void> => {
      let failures = 0;
      while (!stopped) {
        const startedAt = Date.now();
        const sub = this.client.subscribeToAll({
          fromPosition: last === undefined ? START : toNativePosition(last),
          filter: this.subscriptionFilter(),
        });
        current = sub;
        let failure: unknown;
        try {
          for await (const resolved of sub as AsyncIterable<AllStreamResolvedEvent>) {
            if (stopped) break;
            const native = resolved.event?.position;
            if (!native) continue;
            // A subscription from a position starts after it; the check also covers resubscriptions.
            if (last !== undefined && comparePositions(encodePosition(native.commit, native.prepare), last) <= 0) continue;
            const event = this.toRecorded(resolved.event);
            if (!event) continue;
            try {
              await inHandler.run(true, () => handler(event));
            } catch (err) {
              throw new HandlerFailure(err);
            }
            last = event.position;
            failures = 0;
            if (stopped) break;
          }
          if (!stopped) failure = new SubscriptionEnded();
        } catch (err) {
          if (err instanceof HandlerFailure) throw err.cause;
          failure = err;
        } finally {
          current = undefined;
          await sub.unsubscribe().catch(() => undefined);
          sub.destroy();
        }
        if (stopped) return;
        // A connection that served for a while before failing starts a fresh series of attempts.
        failures = Date.now() - startedAt > 30_000 ? 1 : failures + 1;
        if (!isTransient(failure) || failures > this.maxResubscribeAttempts) throw failure;
        const pause = backoff(Math.min(100 * 2 ** (failures - 1), 5000));
        sleeping = pause;
        await pause.done;
        sleeping = undefined;
      }
    };

    const done = run().finally(() => {
      stopped = true;
      this.subscriptions.delete(subscription);
    });
    // `done` is observed by whoever awaits it; never an unhandled rejection on its own.
    done.catch(() => undefined);

    const subscription: Subscription = {
      done,
      stop: async () => {
        if (!stopped) {
          stopped = true;
          sleeping?.wake();
          const sub = current;
          if (sub) {
            await sub.unsubscribe().catch(() => undefined);
            sub.destroy();
          }
        }
        // Called from inside the handler: the handler will not be called again, and waiting for the
        // loop here would wait for this very call.
        if (inHandler.getStore()) return;
        await done.catch(() => undefined);
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    if (this.closeClient) await this.client.dispose();
  }

  /** Appending no events writes nothing; it still checks `expected` and reports where the stream is. */
  private async appendNothing(streamId: string, expected: ExpectedRevision): Promise<AppendResult> {
    let last: EsdbRecordedEvent | undefined;
    try {
      const [resolved] = await this.collect(
        this.client.readStream(this.streamPrefix + streamId, { fromRevision: END, direction: BACKWARDS, maxCount: 1 }),
      );
      last = resolved?.event;
    } catch (err) {
      if (!(err instanceof StreamNotFoundError)) throw err;
    }
    const current = last?.revision;
    const ok = expected === 'any' || (expected === 'no_stream' ? current === undefined : current === expected);
    if (!ok) {
      throw new ConcurrencyError(`stream ${streamId} is at revision ${current ?? 'no_stream'}, expected ${String(expected)}`, {
        streamId,
      });
    }
    const head = last?.position ?? undefined;
    const position = validNative(head) ? encodePosition(head.commit, head.prepare) : ((await this.headPosition()) ?? encodePosition(0, 0));
    return { nextRevision: current ?? -1n, position };
  }

  private subscriptionFilter(): Filter {
    return this.streamPrefix === '' ? excludeSystemEvents() : streamNameFilter({ prefixes: [this.streamPrefix] });
  }

  /** Maps a stored event to the port's shape; undefined for system events and other prefixes' streams. */
  private toRecorded(event: EsdbRecordedEvent | undefined): RecordedEvent | undefined {
    if (!event) return undefined;
    if (event.type.startsWith('$') || event.streamId.startsWith('$')) return undefined;
    if (!event.streamId.startsWith(this.streamPrefix)) return undefined;
    if (event.streamId.startsWith(SNAPSHOT_MARK, this.streamPrefix.length)) return undefined;
    if (!validNative(event.position)) {
      throw new Error(`EventStoreDB did not return the position of event ${event.id} (server 22.6 or later is required)`);
    }
    return {
      id: event.id,
      type: event.type,
      data: toJsonObject(event.data, 'data', event.id),
      metadata: toJsonObject(event.metadata, 'metadata', event.id) as EventMetadata,
      streamId: event.streamId.slice(this.streamPrefix.length),
      revision: event.revision,
      position: encodePosition(event.position.commit, event.position.prepare),
    };
  }

  private async collect<E extends ResolvedEvent | AllStreamResolvedEvent>(read: StreamingRead<E>): Promise<E[]> {
    const out: E[] = [];
    for await (const resolved of read) out.push(resolved);
    return out;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the event store is closed');
  }
}
