/**
 * The write path: load the stream, fold it with `evolve` (upcasting older schema versions), `decide`,
 * append with the expected revision, and retry a bounded number of times when another writer got
 * there first.
 *
 * Snapshots: a command's cost must not grow with its stream, so the decider's state is kept beside the
 * stream every SNAPSHOT_EVERY events (with its revision and the decider's `schemaVersion`; one of another
 * version is ignored and rebuilt) and a load is snapshot + the events after it, in one round trip.
 *
 * Streams in memory: after a command has appended, the state it produced is kept (a bounded LRU per
 * handler; loads alone keep nothing, so read-only folds such as a sign-in's account never sit here),
 * and the next command on that stream is decided on it and appended with its revision as the
 * expectation, without loading the stream first: one round trip instead of two. The expectation
 * is what makes this safe: if anyone else (another process, another handler) appended meanwhile, the
 * append fails with a conflict and the command is loaded and decided again. A command refused on a
 * kept state (a domain error, or nothing to append) is decided again on a fresh load before the
 * refusal is answered, since a stale state may be what refused it. Idempotent requests always load
 * (their ids are looked up in the stored stream), and `load` serves a kept state only when asked.
 *
 * Idempotency lives here, not in any store's de-duplication: an `Idempotency-Key` (scoped to actor,
 * method and path) yields UUIDv5 event ids; the load looks those ids up in the stream (at any age on
 * SQL; at least IDEMPOTENCY_WINDOW_MS back on EventStoreDB), and when they are there nothing is
 * appended and the same ids are answered; the same key with a different body is a 422.
 */
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { v5 as uuidv5 } from 'uuid';
import type { Decider, DomainEvent, Fold } from '@papertrade/domain/shared/decider';
import { ConcurrencyError, IdempotencyConflictError } from '@papertrade/domain/shared/errors';
import type { AppendResult, EventStore, LoadedStream, NewEvent, RecordedEvent } from '../event-store/event-store';
import type { Position } from '../event-store/position';

const NAMESPACE = '5b0a4f0e-3c57-4f43-9a43-7f1c8f4f8e2a';

/** A snapshot is saved once this many events follow the last one. */
export const SNAPSHOT_EVERY = 20;
/** The most events one idempotent request may append to a stream (their ids are looked up on load). */
const MAX_EVENTS_PER_REQUEST = 16;
/** How far back an Idempotency-Key is guaranteed to be recognised on every adapter (SQL: forever). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** How many streams' states a handler keeps in memory by default (see the module comment). */
export const KEPT_STREAMS = 2000;

export interface CommandHandlerOptions {
  /** Attempts of a command whose append meets a conflict before it answers 412 (default 5). */
  maxAttempts?: number;
  /** Streams whose state is kept after a write (default KEPT_STREAMS; 0 keeps none). */
  keptStreams?: number;
}

/** A stream as the handler loaded it: the folded state and what the append and idempotency need. */
export interface LoadedState<S> {
  state: S;
  /** Revision of the last event; undefined for a stream that does not exist. */
  revision: bigint | undefined;
  /** Revision folded into the snapshot the load started from (undefined: folded from the start). */
  snapshotRevision: bigint | undefined;
  /** Events of an earlier request with the same idempotency key (empty when none, or no key). */
  previous: RecordedEvent[];
  /** The idempotency key the load looked up, so `handle` only reuses a load made for its own key. */
  lookedUp: string | undefined;
  /** Taken from memory, not the store: the stream may have moved on since (see the module comment). */
  kept?: boolean;
}

interface KeptStream {
  state: unknown;
  revision: bigint;
  snapshotRevision: bigint | undefined;
}

export interface Idempotency {
  /** actor, method and path: the same key from another user or endpoint is another request. */
  scope: string;
  key: string;
  /** sha-256 of the canonical request body. */
  requestHash: string;
}

export interface CommandMeta {
  actor: string;
  correlationId: string;
  causationId?: string;
  idempotency?: Idempotency;
}

export interface CommandResult<E> {
  eventIds: string[];
  events: E[];
  /** Global position of the last event appended (or found, for a replay); absent when nothing was appended. */
  position?: Position;
  replayed: boolean;
}

/** Deterministic ids for everything one idempotent request writes (label tells the parts apart). */
export function idempotentId(idempotency: Idempotency, label: string): string {
  return uuidv5(`${idempotency.scope}\n${idempotency.key}\n${label}`, NAMESPACE);
}

export function toDomainEvent<E extends DomainEvent>(decider: Pick<Decider<unknown, unknown, E>, 'upcast'>, recorded: RecordedEvent): E {
  const shape = { type: recorded.type, data: recorded.data, schemaVersion: Number(recorded.metadata.schemaVersion ?? 1) };
  return decider.upcast ? decider.upcast(shape) : ({ type: shape.type, data: shape.data } as E);
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/** The answer to a request whose Idempotency-Key already appended `previous`: those events again, or a conflict when its body differs. */
function replayed<E extends DomainEvent>(decider: Pick<Decider<unknown, unknown, E>, 'upcast'>, previous: RecordedEvent[], idempotency: Idempotency): CommandResult<E> {
  if (previous[0]!.metadata.requestHash !== idempotency.requestHash) {
    throw new IdempotencyConflictError('This Idempotency-Key was already used with a different request body');
  }
  return {
    eventIds: previous.map((r) => r.id),
    events: previous.map((r) => toDomainEvent(decider, r)),
    position: previous[previous.length - 1]!.position,
    replayed: true,
  };
}

/** Refuses more events than an idempotent request's ids cover. */
function checkIdempotentSize(idempotency: Idempotency | undefined, events: readonly DomainEvent[]): void {
  if (idempotency && events.length > MAX_EVENTS_PER_REQUEST) {
    throw new RangeError(`an idempotent command may append at most ${MAX_EVENTS_PER_REQUEST} events to one stream`);
  }
}

export class CommandHandler {
  private readonly maxAttempts: number;
  private readonly kept: LRUCache<string, KeptStream> | undefined;

  constructor(
    private readonly eventStore: EventStore,
    private readonly clock: () => Date,
    options: CommandHandlerOptions = {},
  ) {
    this.maxAttempts = options.maxAttempts ?? 5;
    const keptStreams = options.keptStreams ?? KEPT_STREAMS;
    this.kept = keptStreams > 0 ? new LRUCache<string, KeptStream>({ max: keptStreams }) : undefined;
  }

  private static keyOf(decider: { name: string; schemaVersion: number }, streamId: string): string {
    return `${decider.name}\u0000${decider.schemaVersion}\u0000${streamId}`;
  }

  private keep(decider: { name: string; schemaVersion: number }, streamId: string, stream: KeptStream): void {
    this.kept?.set(CommandHandler.keyOf(decider, streamId), stream);
  }

  private forget(decider: { name: string; schemaVersion: number }, streamId: string): void {
    this.kept?.delete(CommandHandler.keyOf(decider, streamId));
  }

  /** The state this handler's last write to the stream produced, if it is still kept. */
  private keptState<S>(decider: { name: string; schemaVersion: number }, streamId: string): LoadedState<S> | undefined {
    const stream = this.kept?.get(CommandHandler.keyOf(decider, streamId));
    if (!stream) return undefined;
    return { state: stream.state as S, revision: stream.revision, snapshotRevision: stream.snapshotRevision, previous: [], lookedUp: undefined, kept: true };
  }

  now(): string {
    return this.clock().toISOString();
  }

  /**
   * Snapshot + tail (+ the events of an earlier request with the same idempotency key), folded. A
   * tail of SNAPSHOT_EVERY events or more is saved as the fold's snapshot, so folds that only read
   * (no command appends under their name) stay cheap too. `options.kept`: a state kept in memory will
   * do (no round trip when there is one); it may be stale, so only for a decision that a `handle`
   * with this load then checks by its append's expectation.
   */
  async load<S, E extends DomainEvent>(
    decider: Fold<S, E>,
    streamId: string,
    meta?: Pick<CommandMeta, 'idempotency'>,
    options: { kept?: boolean } = {},
  ): Promise<LoadedState<S>> {
    if (options.kept && !meta?.idempotency) {
      const kept = this.keptState<S>(decider, streamId);
      if (kept) return kept;
    }
    return (await this.loadMany(decider, [{ streamId, ...(meta?.idempotency ? { idempotency: meta.idempotency } : {}) }]))[0]!;
  }

  /**
   * `load` of several distinct streams of one decider in one round trip (the event store's
   * loadStreams), each with its own idempotency key if any; in the order asked.
   */
  async loadMany<S, E extends DomainEvent>(decider: Fold<S, E>, requests: Array<{ streamId: string; idempotency?: Idempotency }>): Promise<Array<LoadedState<S>>> {
    const idsOf = (streamId: string, idempotency: Idempotency) => Array.from({ length: MAX_EVENTS_PER_REQUEST }, (_, i) => idempotentId(idempotency, `${streamId}#${i}`));
    const eventIds = new Map<string, string[]>();
    for (const { streamId, idempotency } of requests) if (idempotency) eventIds.set(streamId, idsOf(streamId, idempotency));
    const streams = requests.length === 1
      ? [await this.eventStore.loadStream(requests[0]!.streamId, {
          snapshot: { name: decider.name, schemaVersion: decider.schemaVersion },
          ...(eventIds.size > 0 ? { eventIds: eventIds.get(requests[0]!.streamId)!, eventIdsSince: this.idempotencySince() } : {}),
        })]
      : await this.eventStore.loadStreams(
          requests.map((r) => r.streamId),
          { snapshot: { name: decider.name, schemaVersion: decider.schemaVersion }, ...(eventIds.size > 0 ? { eventIds, eventIdsSince: this.idempotencySince() } : {}) },
        );
    return Promise.all(requests.map(({ streamId, idempotency }, i) => this.fold(decider, streamId, streams[i]!, idempotency, eventIds.get(streamId))));
  }

  private idempotencySince(): string {
    return new Date(this.clock().getTime() - IDEMPOTENCY_WINDOW_MS).toISOString();
  }

  private async fold<S, E extends DomainEvent>(decider: Fold<S, E>, streamId: string, loaded: LoadedStream, idempotency: Idempotency | undefined, ids: string[] | undefined): Promise<LoadedState<S>> {
    let state = loaded.snapshot ? (loaded.snapshot.state as S) : decider.initialState();
    for (const recorded of loaded.events) state = decider.evolve(state, toDomainEvent(decider, recorded));
    let snapshotRevision = loaded.snapshot?.revision;
    if (loaded.events.length >= SNAPSHOT_EVERY && loaded.revision !== undefined) {
      const saved = await this.eventStore
        .saveSnapshot(streamId, decider.name, { revision: loaded.revision, schemaVersion: decider.schemaVersion, state })
        .then(() => true, () => false);
      if (saved) snapshotRevision = loaded.revision;
    }
    // Only a request whose first event is there counts (ids are per request and stream).
    const previous = idempotency && ids && loaded.found[0]?.id === ids[0] ? loaded.found : [];
    return { state, revision: loaded.revision, snapshotRevision, previous, lookedUp: idempotency?.key };
  }

  /**
   * `command` may be a function of the loaded state, for commands that need a lookup before they
   * can be decided (it runs again on every retry). `loaded` is a stream the caller has just read
   * with `load` (with the same meta): the first attempt uses it instead of reading again (a stale one
   * only costs a retry).
   */
  async handle<S, C, E extends DomainEvent>(
    decider: Decider<S, C, E>,
    streamId: string,
    command: C | ((state: S) => C | Promise<C>),
    meta: CommandMeta,
    loaded?: LoadedState<S>,
  ): Promise<CommandResult<E>> {
    const { idempotency } = meta;
    /** Set once a kept state refused the command: decide again on the stored stream. */
    let mustLoad = false;
    for (let attempt = 1; ; ) {
      let current: LoadedState<S> | undefined;
      if (attempt === 1 && !mustLoad) {
        if (loaded !== undefined && loaded.lookedUp === idempotency?.key) current = loaded;
        else if (!idempotency) current = this.keptState<S>(decider, streamId);
      }
      current ??= await this.load(decider, streamId, meta);
      const { state, revision, previous } = current;
      if (idempotency && previous.length > 0) return replayed(decider, previous, idempotency);
      let events: E[];
      try {
        const resolved = typeof command === 'function' ? await (command as (s: S) => C | Promise<C>)(state) : command;
        events = decider.decide(resolved, state);
      } catch (error) {
        if (!current.kept) throw error;
        mustLoad = true;
        continue;
      }
      if (events.length === 0) {
        if (!current.kept) return { eventIds: [], events, replayed: false };
        mustLoad = true;
        continue;
      }
      checkIdempotentSize(idempotency, events);
      const toStore = this.toStore(decider, streamId, events, meta);
      const expected = revision === undefined ? 'no_stream' : revision;
      try {
        const result = await this.eventStore.append(streamId, toStore, expected);
        await this.appended(decider, streamId, current, events, result.nextRevision);
        return { eventIds: toStore.map((e) => e.id), events, position: result.position, replayed: false };
      } catch (error) {
        if (error instanceof ConcurrencyError) this.forget(decider, streamId);
        if (!(error instanceof ConcurrencyError) || attempt >= this.maxAttempts) {
          if (error instanceof ConcurrencyError) {
            throw new ConcurrencyError('The resource was changed by another request at the same time; please retry');
          }
          throw error;
        }
        await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
        attempt++;
      }
    }
  }

  /**
   * Commands of one decider on distinct streams, each decided on the state the caller has just loaded
   * for it with `loadMany` (with the same idempotency key), appended together with the event store's
   * appendMany: one round trip on SQL for the lot. Each stream keeps its own optimistic check; one
   * whose expectation failed (another writer got there first) is handled again on its own through
   * `handle`. One answer per item, in order: its result, or the error its command failed with.
   */
  async handleMany<S, C, E extends DomainEvent>(
    decider: Decider<S, C, E>,
    items: Array<{ streamId: string; command: C; meta: CommandMeta; loaded: LoadedState<S> }>,
  ): Promise<Array<CommandResult<E> | Error>> {
    const answers: Array<CommandResult<E> | Error | undefined> = new Array(items.length);
    const pending: Array<{ index: number; events: E[]; toStore: NewEvent[] }> = [];
    const alone = async (index: number) => {
      const { streamId, command, meta } = items[index]!;
      // Decided again on the stored stream: what was kept of it is what just failed.
      this.forget(decider, streamId);
      answers[index] = await this.handle(decider, streamId, command, meta).catch(asError);
    };
    const retries: Array<Promise<void>> = [];
    items.forEach(({ streamId, command, meta, loaded }, index) => {
      const { idempotency } = meta;
      if (loaded.lookedUp !== idempotency?.key) return void retries.push(alone(index));
      try {
        if (idempotency && loaded.previous.length > 0) return void (answers[index] = replayed(decider, loaded.previous, idempotency));
        const events = decider.decide(command, loaded.state);
        checkIdempotentSize(idempotency, events);
        if (events.length === 0) answers[index] = { eventIds: [], events, replayed: false };
        else pending.push({ index, events, toStore: this.toStore(decider, streamId, events, meta) });
      } catch (error) {
        answers[index] = asError(error);
      }
    });
    if (pending.length > 0) {
      // A failure of the whole write (the store) is every pending command's failure.
      const results: Array<AppendResult | ConcurrencyError | Error> = await this.eventStore
        .appendMany(
          pending.map(({ index, toStore }) => {
            const { streamId, loaded } = items[index]!;
            return { streamId, events: toStore, expected: loaded.revision === undefined ? 'no_stream' : loaded.revision };
          }),
        )
        .catch((error: unknown) => pending.map(() => asError(error)));
      await Promise.all(
        pending.map(async ({ index, events, toStore }, i) => {
          const result = results[i]!;
          if (result instanceof ConcurrencyError) return alone(index);
          if (result instanceof Error) return void (answers[index] = result);
          const { streamId, loaded } = items[index]!;
          await this.appended(decider, streamId, loaded, events, result.nextRevision);
          answers[index] = { eventIds: toStore.map((e) => e.id), events, position: result.position, replayed: false };
        }),
      );
    }
    await Promise.all(retries);
    return answers.map((a) => a ?? new Error('no answer'));
  }

  /** The events to store for `events` decided under `meta` (derived ids when idempotent). */
  private toStore<E extends DomainEvent>(decider: { schemaVersion: number }, streamId: string, events: E[], meta: CommandMeta): NewEvent[] {
    const { idempotency } = meta;
    const at = this.now();
    return events.map((event, i) => ({
      id: idempotency ? idempotentId(idempotency, `${streamId}#${i}`) : randomUUID(),
      type: event.type,
      data: event.data,
      metadata: {
        userId: meta.actor,
        correlationId: meta.correlationId,
        causationId: meta.causationId ?? meta.correlationId,
        at,
        schemaVersion: decider.schemaVersion,
        ...(idempotency ? { idempotencyKey: idempotency.key, idempotencyScope: idempotency.scope, requestHash: idempotency.requestHash } : {}),
      },
    }));
  }

  /**
   * After an append: the state it produced is kept in memory, and saved as the stream's snapshot when
   * SNAPSHOT_EVERY events follow the last one.
   */
  private async appended<S, C, E extends DomainEvent>(decider: Decider<S, C, E>, streamId: string, loaded: LoadedState<S>, appended: E[], revision: bigint): Promise<void> {
    const snapshotDue = revision - (loaded.snapshotRevision ?? -1n) >= BigInt(SNAPSHOT_EVERY);
    if (!snapshotDue && !this.kept) return;
    const state = appended.reduce((s, e) => decider.evolve(s, e), loaded.state);
    let snapshotRevision = loaded.snapshotRevision;
    // A snapshot only saves work: a failure to save one must not fail the command that was appended.
    if (snapshotDue) {
      const saved = await this.eventStore.saveSnapshot(streamId, decider.name, { revision, schemaVersion: decider.schemaVersion, state }).then(() => true, () => false);
      if (saved) snapshotRevision = revision;
    }
    this.keep(decider, streamId, { state, revision, snapshotRevision });
  }
}
