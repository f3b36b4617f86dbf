/**
 * The event store port. Every adapter (SQL for PostgreSQL and PGlite, EventStoreDB) implements it and
 * passes `event-store.conformance.ts`.
 *
 * Positions are opaque strings made by the adapter. Callers compare them only with `comparePositions`
 * from `position.ts`; adapters guarantee that their position strings order like the global log
 * (fixed-width encoding), which is what lets the document store and query-api compare checkpoints
 * without knowing which event store wrote them.
 */
import type { ConcurrencyError } from '@papertrade/domain/shared/errors';
import type { Position } from './position';

export type ExpectedRevision = 'any' | 'no_stream' | bigint;

export interface NewEvent {
  /** UUID; the command helper derives it from the idempotency key when there is one. */
  id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
}

export interface EventMetadata {
  /** The actor: a user id, or 'system' / 'anonymous'. */
  userId: string;
  correlationId: string;
  causationId: string;
  /** ISO-8601 time from the injected clock. */
  at: string;
  schemaVersion: number;
  idempotencyKey?: string;
  /** sha-256 of the command body, kept beside the key so a replayed key with another body is caught. */
  requestHash?: string;
  [key: string]: unknown;
}

export interface RecordedEvent extends NewEvent {
  streamId: string;
  /** 0-based revision of this event in its stream. */
  revision: bigint;
  position: Position;
}

export interface AppendResult {
  /** Revision of the last event now in the stream. */
  nextRevision: bigint;
  /** Global position of the last event appended. */
  position: Position;
}

export interface Subscription {
  /** Stops the subscription and resolves once the handler is no longer called. */
  stop(): Promise<void>;
  /** Resolves (or rejects) when the subscription ends: stopped, or the handler threw. */
  readonly done: Promise<void>;
}

export interface SubscribeOptions {
  /** Deliver events strictly after this position; from the very start when absent. */
  after?: Position;
  /** How many events to fetch per catch-up read. */
  batchSize?: number;
}

/** A decider's folded state as of one revision of a stream, kept beside the stream. */
export interface StreamSnapshot {
  /** Revision of the last event folded into `state`. */
  revision: bigint;
  /** The decider's `schemaVersion` when the state was folded; a snapshot of another version is ignored. */
  schemaVersion: number;
  /** A JSON value. */
  state: unknown;
}

export interface LoadStreamOptions {
  /** The snapshot to start from: its name (the decider's) and the only schema version accepted. */
  snapshot?: { name: string; schemaVersion: number };
  /**
   * Event ids to look for anywhere in the stream, answered in `found` (the command helper's
   * idempotency check). Adapters that cannot look an id up directly (EventStoreDB) search back from
   * the end of the stream until the first event older than `eventIdsSince` (ISO time); the SQL adapter
   * finds them at any age.
   */
  eventIds?: string[];
  eventIdsSince?: string;
}

export interface LoadedStream {
  /** Present when a snapshot of that name and schema version exists. */
  snapshot?: StreamSnapshot;
  /** The events after the snapshot's revision (every event when there is no snapshot), in revision order. */
  events: RecordedEvent[];
  /** Revision of the stream's last event; undefined when the stream does not exist. */
  revision: bigint | undefined;
  /** Events of the stream whose ids were asked for in `eventIds`, in revision order. */
  found: RecordedEvent[];
}

/** Options of `loadStreams`: those of `loadStream`, the event ids to look up given per stream. */
export interface LoadStreamsOptions {
  snapshot?: LoadStreamOptions['snapshot'];
  /** Per stream id, the event ids to look for (as `eventIds` of loadStream). */
  eventIds?: ReadonlyMap<string, string[]>;
  eventIdsSince?: string;
}

/** Options of `readStreamPage`. */
export interface ReadStreamPageOptions {
  /**
   * Forwards: the first (lowest) revision read, default 0. Backwards: the first (highest) revision
   * read, default the stream's last. A revision past the end reads nothing forwards and from the last
   * event backwards.
   */
  fromRevision?: bigint;
  /** The most events answered; 0 answers only `lastRevision` (the stream's length, cheaply). */
  maxCount: number;
  /** Default 'forwards'. */
  direction?: 'forwards' | 'backwards';
}

/** One page of a stream, with where the stream ends. */
export interface StreamPage {
  /** In the direction read: ascending revisions forwards, descending backwards. */
  events: RecordedEvent[];
  /**
   * Revision of the stream's last event (the stream holds lastRevision + 1 events: revisions are
   * 0-based and gap-free); undefined when the stream does not exist.
   */
  lastRevision: bigint | undefined;
}

/** One stream's part of `appendMany`. */
export interface StreamAppend {
  streamId: string;
  events: NewEvent[];
  expected: ExpectedRevision;
}

export interface EventStore {
  /** Appends atomically to one stream; throws `ConcurrencyError` when `expected` does not hold. */
  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /**
   * Appends to several distinct streams, each atomically under its own expectation as `append` would;
   * the answer has one entry per stream, in order: its result, or the `ConcurrencyError` of a stream
   * whose expectation did not hold (the others are appended all the same). SQL writes them all in one
   * statement (one round trip, one transaction); EventStoreDB has no multi-stream write, so it appends
   * stream by stream. Any other failure rejects the call, after which some streams may have been
   * appended (on EventStoreDB) or none (SQL): callers make the events idempotent.
   */
  appendMany(appends: StreamAppend[]): Promise<Array<AppendResult | ConcurrencyError>>;
  /** All events of one stream in revision order; [] for a stream that does not exist. */
  readStream(streamId: string): Promise<RecordedEvent[]>;
  /**
   * Up to `maxCount` events of one stream from a revision, forwards or backwards, and the stream's
   * last revision, in one round trip where the store allows (SQL: one statement; EventStoreDB: two
   * reads in flight at once). Its cost follows `maxCount`, not the stream's length, so a reader that
   * shows a page of a long stream reads a page (the audit, query-api/src/audit/audit-reads.ts).
   */
  readStreamPage(streamId: string, options: ReadStreamPageOptions): Promise<StreamPage>;
  /**
   * Snapshot + the events after it (+ looked-up event ids) in one round trip, so a command's cost does
   * not grow with the length of its stream.
   */
  loadStream(streamId: string, options?: LoadStreamOptions): Promise<LoadedStream>;
  /** `loadStream` of several distinct streams (one round trip on SQL), in the order asked. */
  loadStreams(streamIds: string[], options?: LoadStreamsOptions): Promise<LoadedStream[]>;
  /** Keeps `snapshot` as the stream's snapshot of that name unless a newer revision is stored already. */
  saveSnapshot(streamId: string, name: string, snapshot: StreamSnapshot): Promise<void>;
  /** Up to `limit` events of the global order strictly after `after` (from the start when absent). */
  readAll(options?: { after?: Position; limit?: number }): Promise<RecordedEvent[]>;
  /**
   * Position of the last committed event (undefined for an empty store). Subscribers reach it once
   * every event before it is visible, so waiting for it means waiting for everything appended so far.
   */
  headPosition(): Promise<Position | undefined>;
  /**
   * Position of the last committed event whose actor (`metadata.userId`) is `actor`, when it is after
   * `after`; undefined when there is none after it. Read-your-own-writes (platform/src/http/own-writes.ts):
   * a client that has just had a command answered finds the projections it reads are at least this far.
   * The SQL adapter answers with one index probe whatever `after`; EventStoreDB, which has no index on
   * metadata, reads the global order backwards from the head down to `after`, so callers pass the lowest
   * checkpoint of the projections they wait for and the read is as long as the projections' lag.
   */
  lastPositionByActor(actor: string, after?: Position): Promise<Position | undefined>;
  /**
   * Catch-up then live: the handler is called for each event after `after`, in global order, one at a
   * time (awaited), never twice within one subscription. A throwing handler ends the subscription.
   */
  subscribe(handler: (event: RecordedEvent) => Promise<void>, options?: SubscribeOptions): Subscription;
  close(): Promise<void>;
}

/** The largest revision a store may hold (PostgreSQL's bigint): "from the end" of a backwards read. */
export const MAX_REVISION = (1n << 63n) - 1n;

/**
 * What every adapter refuses in an appendMany before anything is written: a stream named twice, or a
 * stream given no event (EventStoreDB has no multi-stream write, so the others would be written first).
 */
export function checkAppendMany(appends: readonly StreamAppend[]): void {
  if (new Set(appends.map((a) => a.streamId)).size !== appends.length) throw new RangeError('appendMany needs distinct streams');
  if (appends.some((a) => a.events.length === 0)) throw new RangeError('append needs at least one event');
}

/** `readStreamPage`'s options checked and filled in (every adapter refuses the same things). */
export function streamPageRequest(options: ReadStreamPageOptions): { fromRevision: bigint; maxCount: number; backwards: boolean } {
  const backwards = (options.direction ?? 'forwards') === 'backwards';
  if (options.direction !== undefined && options.direction !== 'forwards' && options.direction !== 'backwards') throw new RangeError(`direction must be forwards or backwards, got ${String(options.direction)}`);
  if (!Number.isSafeInteger(options.maxCount) || options.maxCount < 0) throw new RangeError(`maxCount must be a whole number from 0, got ${String(options.maxCount)}`);
  const fromRevision = options.fromRevision ?? (backwards ? MAX_REVISION : 0n);
  if (typeof fromRevision !== 'bigint' || fromRevision < 0n) throw new RangeError(`fromRevision must be a revision from 0, got ${String(fromRevision)}`);
  return { fromRevision: fromRevision > MAX_REVISION ? MAX_REVISION : fromRevision, maxCount: options.maxCount, backwards };
}
