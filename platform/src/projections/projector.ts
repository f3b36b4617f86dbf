/**
 * Runs projections: each follows the global order from its stored checkpoint, applies events to its
 * documents idempotently, saves the checkpoint and publishes a change notice. One writer per
 * projection (a lease). `rebuild` replays into a new generation while the live one keeps serving,
 * then switches to it.
 */
import type { Bus } from '../bus/bus';
import type { Collection, Document, DocumentStore } from '../document-store/document-store';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store';
import { comparePositions, type Position } from '../event-store/position';
import type { Logger } from '../config/logger';
import type { Lease, LeaseProvider } from './lease';
import type { ProjectionDefinition } from './projection';
import {
  CHECKPOINT_COLLECTION,
  GENERATION_MAX_AGE_MS,
  META_COLLECTION,
  changeSubject,
  checkpointId,
  generationCollection,
  type Checkpoint,
  type ProjectionMeta,
} from './read-models';

const FLUSH_EVERY = 500;
const FLUSH_AFTER_MS = 5;
/**
 * The longest an applied event waits for its batch to be written while events keep coming (no pause
 * of FLUSH_AFTER_MS): under a steady stream a batch would otherwise wait for FLUSH_EVERY events, a
 * second or more at a few hundred events a second, and every read-your-writes wait with it.
 */
export const FLUSH_WITHIN_MS = 50;

/**
 * The checkpoints of one process's projections, written together: the projections are woken by the
 * same events and flush in the same turn, so their checkpoints go in one statement (the turn's
 * writes, gathered until setImmediate) instead of one each. Each writer's promise settles with the
 * statement that held its checkpoint. A checkpoint never moves back (putManyIfNewer): a writer that
 * has lost its lease and flushes late cannot undo a newer one.
 */
export class CheckpointWriter {
  private queued = new Map<string, { position: Position; settle: Array<{ resolve(): void; reject(error: unknown): void }> }>();
  private scheduled = false;
  private readonly checkpoints: Collection<Checkpoint>;

  constructor(documents: DocumentStore) {
    this.checkpoints = documents.collection<Checkpoint>(CHECKPOINT_COLLECTION);
  }

  write(id: string, position: Position): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const queued = this.queued.get(id);
      if (queued) {
        // Stryker disable next-line EqualityOperator: equivalent, an equal position is the same position
        if (comparePositions(position, queued.position) > 0) queued.position = position;
        queued.settle.push({ resolve, reject });
      } else this.queued.set(id, { position, settle: [{ resolve, reject }] });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = [...this.queued];
    this.queued = new Map();
    try {
      await this.checkpoints.putManyIfNewer(batch.map(([id, { position }]) => ({ id, doc: { position }, position })));
      for (const [, { settle }] of batch) for (const { resolve } of settle) resolve();
    } catch (error) {
      for (const [, { settle }] of batch) for (const { reject } of settle) reject(error);
    }
  }
}

/**
 * Applies one projection to one generation's collection.
 *
 * Documents are read once, changed in memory event after event, and written back together with the
 * checkpoint when FLUSH_EVERY events have been applied, the stream goes quiet for FLUSH_AFTER_MS, or
 * the oldest of them has waited FLUSH_WITHIN_MS:
 * a rebuild then costs a few round trips per batch instead of two per event. Documents are written
 * before the checkpoint and keep the position of the last event applied, so a crash in between only
 * means a redelivery that the positions skip.
 */
class GenerationRunner {
  private subscription?: Subscription;
  private applied?: Position;
  private flushed?: Position;
  private pending = 0;
  /** When the first event of the batch not yet written was received. */
  private firstPendingAt = 0;
  private readonly cache = new Map<string, CachedDocument>();
  /** Events received but not yet applied (applied in order when the batch is written). */
  private queued: RecordedEvent[] = [];
  private timer?: NodeJS.Timeout;
  /** Applying and flushing take turns: a timer's flush never runs in the middle of an event. */
  private turn: Promise<void> = Promise.resolve();
  private stopped = false;
  private restartTimer?: NodeJS.Timeout;
  /** Whether this generation is the one served (afterWrite runs only then, not while a rebuild replays). */
  live = false;
  readonly collection: Collection<Document>;
  private readonly checkpoints: Collection<Checkpoint>;

  constructor(
    readonly definition: ProjectionDefinition<Document>,
    readonly generation: number,
    private readonly deps: { eventStore: EventStore; documents: DocumentStore; bus: Bus; logger: Logger; checkpointWriter: CheckpointWriter },
  ) {
    this.collection = deps.documents.collection(generationCollection(definition.name, generation));
    this.checkpoints = deps.documents.collection<Checkpoint>(CHECKPOINT_COLLECTION);
  }

  get position(): Position | undefined {
    return this.flushed;
  }

  async start(): Promise<void> {
    const stored = await this.checkpoints.get(checkpointId(this.definition.name, this.generation));
    // A restart after a failure may still be reading its checkpoint when stop() comes: stop() has no
    // subscription of this attempt to end, so this attempt must not open one.
    if (this.stopped) return;
    this.applied = this.flushed = stored?.position as Position | undefined;
    this.cache.clear();
    this.queued = [];
    this.pending = 0;
    const subscription = this.deps.eventStore.subscribe((event) => this.inTurn(() => this.apply(event)), this.applied ? { after: this.applied } : {});
    this.subscription = subscription;
    // A failing event (or store) must not stop the projection for good: resume from the checkpoint,
    // where documents keep their positions, so nothing is applied twice.
    subscription.done.catch((error: unknown) => {
      if (this.stopped || this.subscription !== subscription) return;
      this.deps.logger.error('projection failed; resuming from its checkpoint in 1 s', { projection: this.definition.name, error: String(error) });
      this.restartTimer = setTimeout(() => void this.start().catch(() => {}), 1000);
    });
  }

  private inTurn(work: () => Promise<void>): Promise<void> {
    const next = this.turn.then(work);
    this.turn = next.catch(() => {});
    return next;
  }

  /**
   * Queues the event; the batch is applied when it is written (FLUSH_EVERY events, or a pause), so the
   * documents it touches that are not in the cache are read in one round trip for the whole batch
   * rather than one read per event.
   */
  private async apply(event: RecordedEvent): Promise<void> {
    // An event has arrived, so the stream is not quiet: a batch write that takes longer than
    // FLUSH_AFTER_MS (a busy store) must not count as a pause, or every such write ends a batch.
    clearTimeout(this.timer);
    this.queued.push(event);
    this.pending++;
    if (this.pending === 1) this.firstPendingAt = performance.now();
    if (this.pending >= FLUSH_EVERY || performance.now() - this.firstPendingAt >= FLUSH_WITHIN_MS) await this.write();
    else this.timer = setTimeout(() => void this.flush().catch((error: unknown) => this.failedFlush(error)), FLUSH_AFTER_MS);
  }

  /** Applies the queued events in order, after one read of the documents they touch that are not cached. */
  private async applyQueued(): Promise<void> {
    if (this.queued.length === 0) return;
    const wanted = [...new Set(this.queued.flatMap((event) => this.definition.documentIds(event)))].filter((id) => !this.cache.has(id));
    const stored = new Map((await this.collection.getManyWithPosition(wanted)).map((d) => [d.id, d]));
    for (const id of wanted) {
      const found = stored.get(id);
      const entry: CachedDocument = { doc: found?.doc ?? null, dirty: false, existed: found !== undefined, eventTypes: [] };
      if (found?.position) entry.position = found.position;
      this.cache.set(id, entry);
    }
    while (this.queued.length > 0) {
      const event = this.queued[0]!;
      for (const id of this.definition.documentIds(event)) {
        const entry = this.cache.get(id)!;
        if (entry.position && comparePositions(entry.position, event.position) >= 0) continue;
        entry.doc = this.definition.evolve(entry.doc, { type: event.type, data: event.data }, event);
        entry.position = event.position;
        entry.dirty = true;
        if (!entry.eventTypes.includes(event.type)) entry.eventTypes.push(event.type);
      }
      this.applied = event.position;
      this.queued.shift();
    }
  }

  /**
   * A flush after a pause failed (the store, or an event the projection cannot apply): as when an
   * event fails in the subscription, start again from the checkpoint after a second.
   */
  private failedFlush(error: unknown): void {
    if (this.stopped || !this.subscription) return;
    this.deps.logger.error('projection failed; resuming from its checkpoint in 1 s', { projection: this.definition.name, error: String(error) });
    const subscription = this.subscription;
    this.subscription = undefined;
    void subscription?.stop();
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => void this.start().catch(() => {}), 1000);
  }

  /** Writes what was applied since the last flush, then the checkpoint, then one change notice. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    return this.inTurn(() => this.write());
  }

  private async write(): Promise<void> {
    // On a failure the events not applied are dropped: they come again when the projection resumes
    // from its checkpoint (which they have not passed), never in a later batch of this run.
    await this.applyQueued().catch((error: unknown) => {
      this.queued = [];
      throw error;
    });
    const position = this.applied;
    if (!position || position === this.flushed) return;
    const dirty = [...this.cache].filter(([, entry]) => entry.dirty);
    const puts = dirty.flatMap(([id, e]) => (e.doc !== null && e.position ? [{ id, doc: e.doc, position: e.position }] : []));
    await this.collection.putManyIfNewer(puts);
    for (const [id, entry] of dirty) if (entry.doc === null && entry.existed) await this.collection.delete(id);
    await this.deps.checkpointWriter.write(checkpointId(this.definition.name, this.generation), position);
    this.cache.clear();
    this.pending = 0;
    this.flushed = position;
    const ids = dirty.map(([id]) => id);
    await this.deps.bus.publish(changeSubject(this.definition.name), { position, generation: this.generation, ids: ids.slice(0, 100) }).catch(() => {});
    if (this.live && this.definition.afterWrite && dirty.length > 0) {
      const written = dirty.map(([id, e]) => ({ id, doc: e.doc, eventTypes: e.eventTypes }));
      await this.definition.afterWrite(written, { bus: this.deps.bus }).catch((error: unknown) => {
        this.deps.logger.warn('projection afterWrite failed', { projection: this.definition.name, error: String(error) });
      });
    }
  }

  async waitUntil(position: Position | undefined): Promise<void> {
    while (comparePositions(this.flushed, position) < 0) {
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.restartTimer);
    await this.subscription?.stop();
    await this.flush();
  }
}

interface CachedDocument {
  doc: Document | null;
  position?: Position;
  dirty: boolean;
  /** Whether the store held it when it was read (a delete is only sent for those). */
  existed: boolean;
  /** Types of the events applied to it since the last flush (for afterWrite). */
  eventTypes: string[];
}

export interface ProjectorDeps {
  eventStore: EventStore;
  documents: DocumentStore;
  bus: Bus;
  leases: LeaseProvider;
  logger: Logger;
}

export class Projector {
  private readonly live = new Map<string, { runner: GenerationRunner; lease: Lease }>();
  private readonly meta: Collection<ProjectionMeta>;
  private retryTimer?: NodeJS.Timeout;
  private stopped = false;
  private readonly runnerDeps: ProjectorDeps & { checkpointWriter: CheckpointWriter };
  /** How long a rebuild keeps the old generation after switching: the longest a reader keeps the pointer. */
  private readonly oldGenerationGraceMs = GENERATION_MAX_AGE_MS;

  constructor(
    private readonly deps: ProjectorDeps,
    private readonly definitions: ProjectionDefinition<Document>[],
  ) {
    this.meta = deps.documents.collection<ProjectionMeta>(META_COLLECTION);
    this.runnerDeps = { ...deps, checkpointWriter: new CheckpointWriter(deps.documents) };
  }

  /** Starts every projection whose lease this instance gets; retries the others every 2 s. Also after a stop. */
  async start(): Promise<void> {
    this.stopped = false;
    for (const definition of this.definitions) await this.tryStart(definition);
    const retry = () => {
      if (this.stopped) return;
      this.retryTimer = setTimeout(async () => {
        for (const d of this.definitions) if (!this.live.has(d.name)) await this.tryStart(d).catch(() => {});
        retry();
      }, 2000);
      this.retryTimer.unref();
    };
    retry();
  }

  private async tryStart(definition: ProjectionDefinition<Document>): Promise<void> {
    if (this.live.has(definition.name) || this.stopped) return;
    const lease = await this.deps.leases.tryAcquire(`projection:${definition.name}`);
    if (!lease) return;
    const meta = await this.meta.get(definition.name);
    const generation = meta?.liveGeneration ?? 1;
    if (!meta) await this.meta.put(definition.name, { liveGeneration: generation });
    const runner = new GenerationRunner(definition, generation, this.runnerDeps);
    runner.live = true;
    await runner.start();
    this.live.set(definition.name, { runner, lease });
    this.deps.logger.info('projection started', { projection: definition.name, generation, from: runner.position ?? 'start' });
  }

  /** Position every running projection has checkpointed (for tests and health). */
  positions(): Record<string, Position | undefined> {
    return Object.fromEntries([...this.live].map(([name, { runner }]) => [name, runner.position]));
  }

  /** Resolves when every running projection has checkpointed the store's current head. */
  async caughtUp(): Promise<void> {
    const head = await this.deps.eventStore.headPosition();
    await Promise.all([...this.live.values()].map(({ runner }) => runner.waitUntil(head)));
  }

  /**
   * Replays every event into a new generation; the live one keeps serving meanwhile. When the new one
   * has caught up, writing moves to it, the pointer switches atomically (one document) and the old
   * generation is dropped.
   */
  async rebuild(name: string): Promise<{ from: number; to: number }> {
    const current = this.live.get(name);
    if (!current) throw new Error(`projection ${name} is not running in this instance`);
    const definition = current.runner.definition;
    const from = current.runner.generation;
    const to = from + 1;
    const next = new GenerationRunner(definition, to, this.runnerDeps);
    await next.collection.drop();
    await this.deps.documents.collection(CHECKPOINT_COLLECTION).delete(checkpointId(name, to));
    await next.start();
    await next.waitUntil(await this.deps.eventStore.headPosition());
    // Hand over: stop the old writer, let the new one reach the very latest event, then switch.
    await current.runner.stop();
    await next.waitUntil(await this.deps.eventStore.headPosition());
    await this.meta.put(name, { liveGeneration: to });
    next.live = true;
    this.live.set(name, { runner: next, lease: current.lease });
    // Readers keep the pointer up to GENERATION_MAX_AGE_MS (or until this notice): the old generation
    // is dropped only after that, so no read meets a dropped collection (it read empty just after a
    // rebuild until the notice arrived).
    await this.deps.bus.publish(changeSubject(name), { position: next.position, generation: to, rebuilt: true }).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, this.oldGenerationGraceMs));
    await current.runner.collection.drop();
    await this.deps.documents.collection(CHECKPOINT_COLLECTION).delete(checkpointId(name, from));
    this.deps.logger.info('projection rebuilt', { projection: name, from, to });
    return { from, to };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    for (const { runner, lease } of this.live.values()) {
      await runner.stop();
      await lease.release();
    }
    this.live.clear();
  }
}
