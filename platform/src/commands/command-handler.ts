/**
 * The write path: load the stream, fold it with `evolve` (upcasting older schema versions), `decide`,
 * append with the expected revision, and retry a bounded number of times when another writer got
 * there first.
 *
 * Idempotency lives here, not in any store's de-duplication: an `Idempotency-Key` (scoped to actor,
 * method and path) yields UUIDv5 event ids; when the loaded stream already holds them, nothing is
 * appended and the same ids are answered; the same key with a different body is a 422.
 */
import { randomUUID } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import type { Decider, DomainEvent } from '@papertrade/domain/shared/decider';
import { ConcurrencyError, IdempotencyConflictError } from '@papertrade/domain/shared/errors';
import type { EventStore, RecordedEvent } from '../event-store/event-store';
import type { Position } from '../event-store/position';

const NAMESPACE = '5b0a4f0e-3c57-4f43-9a43-7f1c8f4f8e2a';

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

export class CommandHandler {
  constructor(
    private readonly eventStore: EventStore,
    private readonly clock: () => Date,
    private readonly maxAttempts = 5,
  ) {}

  now(): string {
    return this.clock().toISOString();
  }

  async load<S, C, E extends DomainEvent>(decider: Decider<S, C, E>, streamId: string): Promise<{ state: S; recorded: RecordedEvent[] }> {
    const recorded = await this.eventStore.readStream(streamId);
    const state = recorded.reduce((s, r) => decider.evolve(s, toDomainEvent(decider, r)), decider.initialState());
    return { state, recorded };
  }

  /**
   * `command` may be a function of the loaded state, for commands that need a lookup before they
   * can be decided (it runs again on every retry). `loaded` is a stream the caller has just read
   * with `load`: the first attempt uses it instead of reading again (a stale one only costs a retry).
   */
  async handle<S, C, E extends DomainEvent>(
    decider: Decider<S, C, E>,
    streamId: string,
    command: C | ((state: S) => C | Promise<C>),
    meta: CommandMeta,
    loaded?: { state: S; recorded: RecordedEvent[] },
  ): Promise<CommandResult<E>> {
    for (let attempt = 1; ; attempt++) {
      const { state, recorded } = attempt === 1 && loaded ? loaded : await this.load(decider, streamId);
      const { idempotency } = meta;
      if (idempotency) {
        const firstId = idempotentId(idempotency, `${streamId}#0`);
        const previous = recorded.filter((r) => r.metadata.idempotencyKey === idempotency.key && r.metadata.idempotencyScope === idempotency.scope);
        if (previous.some((r) => r.id === firstId)) {
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
      }
      const resolved = typeof command === 'function' ? await (command as (s: S) => C | Promise<C>)(state) : command;
      const events = decider.decide(resolved, state);
      if (events.length === 0) return { eventIds: [], events, replayed: false };
      const at = this.now();
      const toStore = events.map((event, i) => ({
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
      const expected = recorded.length === 0 ? 'no_stream' : BigInt(recorded.length - 1);
      try {
        const result = await this.eventStore.append(streamId, toStore, expected);
        return { eventIds: toStore.map((e) => e.id), events, position: result.position, replayed: false };
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= this.maxAttempts) {
          if (error instanceof ConcurrencyError) {
            throw new ConcurrencyError('The resource was changed by another request at the same time; please retry');
          }
          throw error;
        }
        await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
      }
    }
  }
}
