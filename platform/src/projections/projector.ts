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
  META_COLLECTION,
  changeSubject,
  checkpointId,
  generationCollection,
  type Checkpoint,
  type ProjectionMeta,
} from './read-models';

const FLUSH_EVERY = 250;
const FLUSH_AFTER_MS = 5;

/** Applies one projection to one generation's collection. */
class GenerationRunner {
  private subscription?: Subscription;
  private applied?: Position;
  private flushed?: Position;
  private pending = 0;
  private changedIds = new Set<string>();
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  readonly collection: Collection<Document>;
  private readonly checkpoints: Collection<Checkpoint>;

  constructor(
    readonly definition: ProjectionDefinition<Document>,
    readonly generation: number,
    private readonly deps: { eventStore: EventStore; documents: DocumentStore; bus: Bus; logger: Logger },
  ) {
    this.collection = deps.documents.collection(generationCollection(definition.name, generation));
    this.checkpoints = deps.documents.collection<Checkpoint>(CHECKPOINT_COLLECTION);
  }

  get position(): Position | undefined {
    return this.flushed;
  }

  private stopped = false;
  private restartTimer?: NodeJS.Timeout;

  async start(): Promise<void> {
    const stored = await this.checkpoints.get(checkpointId(this.definition.name, this.generation));
    this.applied = this.flushed = stored?.position as Position | undefined;
    this.changedIds.clear();
    this.pending = 0;
    const subscription = this.deps.eventStore.subscribe((event) => this.apply(event), this.applied ? { after: this.applied } : {});
    this.subscription = subscription;
    // A failing event (or store) must not stop the projection for good: resume from the checkpoint,
    // where documents keep their positions, so nothing is applied twice.
    subscription.done.catch((error: unknown) => {
      if (this.stopped) return;
      this.deps.logger.error('projection failed; resuming from its checkpoint in 1 s', { projection: this.definition.name, error: String(error) });
      this.restartTimer = setTimeout(() => {
        if (!this.stopped) void this.start().catch(() => {});
      }, 1000);
    });
  }

  private async apply(event: RecordedEvent): Promise<void> {
    for (const id of this.definition.documentIds(event)) {
      const stored = await this.collection.getWithPosition(id);
      if (stored?.position && comparePositions(stored.position, event.position) >= 0) continue;
      const next = this.definition.evolve(stored?.doc ?? null, { type: event.type, data: event.data }, event);
      if (next === null) {
        if (stored) await this.collection.delete(id);
      } else {
        await this.collection.putIfNewer(id, next, event.position);
      }
      this.changedIds.add(id);
    }
    this.applied = event.position;
    this.pending++;
    if (this.pending >= FLUSH_EVERY) {
      await this.flush();
    } else {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.flush().catch(() => {}), FLUSH_AFTER_MS);
    }
  }

  /** Saves the checkpoint and publishes one notice for everything applied since the last flush. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.flushing = this.flushing.then(async () => {
      const position = this.applied;
      if (!position || position === this.flushed) return;
      const ids = [...this.changedIds];
      this.changedIds.clear();
      this.pending = 0;
      await this.checkpoints.put(checkpointId(this.definition.name, this.generation), { position });
      this.flushed = position;
      await this.deps.bus.publish(changeSubject(this.definition.name), { position, generation: this.generation, ids: ids.slice(0, 100) }).catch(() => {});
    });
    return this.flushing;
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

  constructor(
    private readonly deps: ProjectorDeps,
    private readonly definitions: ProjectionDefinition<Document>[],
  ) {
    this.meta = deps.documents.collection<ProjectionMeta>(META_COLLECTION);
  }

  /** Starts every projection whose lease this instance gets; retries the others every 2 s. */
  async start(): Promise<void> {
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
    const runner = new GenerationRunner(definition, generation, this.deps);
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
    const next = new GenerationRunner(definition, to, this.deps);
    await next.collection.drop();
    await this.deps.documents.collection(CHECKPOINT_COLLECTION).delete(checkpointId(name, to));
    await next.start();
    await next.waitUntil(await this.deps.eventStore.headPosition());
    // Hand over: stop the old writer, let the new one reach the very latest event, then switch.
    await current.runner.stop();
    await next.waitUntil(await this.deps.eventStore.headPosition());
    await this.meta.put(name, { liveGeneration: to });
    this.live.set(name, { runner: next, lease: current.lease });
    await current.runner.collection.drop();
    await this.deps.documents.collection(CHECKPOINT_COLLECTION).delete(checkpointId(name, from));
    await this.deps.bus.publish(changeSubject(name), { position: next.position, generation: to, rebuilt: true }).catch(() => {});
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
