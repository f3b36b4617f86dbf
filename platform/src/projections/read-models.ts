/**
 * Where the live generation of each projection is, and how far it has got. Shared by the projector
 * (which writes it) and by both APIs (which read through it).
 *
 * The live-generation pointer changes only when a rebuild switches, so once `listen()` has
 * subscribed to change notices it is kept for at most GENERATION_MAX_AGE_MS and dropped by the
 * rebuild notice (or by any notice naming another generation). A lost notice therefore means at
 * most that long on the old generation. Without a bus nothing would say that it switched, so the
 * pointer is read every time, as before.
 */
import { z } from 'zod';
import type { Bus } from '../bus/bus';
import type { Collection, Document, DocumentStore } from '../document-store/document-store';
import { comparePositions, type Position } from '../event-store/position';

export type ProjectionMeta = { liveGeneration: number };
export type Checkpoint = { position: string };

export const META_COLLECTION = '_projections';
export const CHECKPOINT_COLLECTION = '_checkpoints';

export const generationCollection = (projection: string, generation: number) => `${projection}__g${generation}`;
export const checkpointId = (projection: string, generation: number) => `${projection}@${generation}`;
export const changeSubject = (projection: string) => `projection.${projection}.changed`;

/** How long a live-generation pointer read is reused (when change notices are heard). */
export const GENERATION_MAX_AGE_MS = 2000;

/** The part of a change notice (projector.ts) that concerns the pointer. */
const generationNoticeSchema = z.object({ generation: z.number().optional(), rebuilt: z.boolean().optional() });

export interface ReadModelsOptions {
  /** Milliseconds, for the age of cached pointers (tests inject a clock). */
  now?: () => number;
}

interface CachedGeneration {
  generation: number;
  /** When the read that found it started: the pointer was at least this fresh. */
  readAt: number;
}

export class ReadModels {
  private readonly meta: Collection<ProjectionMeta>;
  private readonly checkpoints: Collection<Checkpoint>;
  private readonly waiters = new Set<() => void>();
  /** Cached pointers; only used once rebuild notices are heard (see the top of the file). */
  private readonly generations = new Map<string, CachedGeneration>();
  /** The latest pointer read in flight per projection: a read a notice overtook is not cached. */
  private readonly generationReads = new Map<string, object>();
  private hearsRebuilds = false;
  private readonly now: () => number;

  constructor(
    readonly store: DocumentStore,
    /** Public so that other per-process caches (auth/identity-cache.ts) can hear change notices too. */
    readonly bus?: Bus,
    options: ReadModelsOptions = {},
  ) {
    this.meta = store.collection<ProjectionMeta>(META_COLLECTION);
    this.checkpoints = store.collection<Checkpoint>(CHECKPOINT_COLLECTION);
    this.now = options.now ?? (() => performance.now());
  }

  /** Wake position waiters on change notices instead of only polling. */
  async listen(): Promise<void> {
    await this.bus?.subscribe('projection.*.changed', () => {
      for (const wake of [...this.waiters]) wake();
    });
    await this.listenForRebuilds();
  }

  private async listenForRebuilds(): Promise<void> {
    if (!this.bus) return;
    await this.bus.subscribe('projection.*.changed', (subject, payload) => {
      const projection = subject.split('.')[1];
      if (projection === undefined) return;
      const notice = generationNoticeSchema.safeParse(payload);
      const cached = this.generations.get(projection)?.generation;
      if (!notice.success || notice.data.rebuilt || notice.data.generation !== cached) this.forgetGeneration(projection);
    });
    this.hearsRebuilds = true;
  }

  /** Drops the cached pointer of `projection`, and any read of it in flight. */
  forgetGeneration(projection: string): void {
    this.generations.delete(projection);
    this.generationReads.delete(projection);
  }

  /** The live generation; `fresh` reads the pointer even when a cached one is young enough. */
  async liveGeneration(projection: string, options: { fresh?: boolean } = {}): Promise<number> {
    const cached = this.generations.get(projection);
    if (cached && !options.fresh && this.now() - cached.readAt < GENERATION_MAX_AGE_MS) return cached.generation;
    const read = {};
    const readAt = this.now();
    this.generationReads.set(projection, read);
    const generation = (await this.meta.get(projection))?.liveGeneration ?? 1;
    if (this.generationReads.get(projection) === read) {
      this.generationReads.delete(projection);
      if (this.hearsRebuilds) this.generations.set(projection, { generation, readAt });
    }
    return generation;
  }

  async collection<T extends Document>(projection: string): Promise<Collection<T>> {
    return this.store.collection<T>(generationCollection(projection, await this.liveGeneration(projection)));
  }

  async checkpoint(projection: string): Promise<Position | undefined> {
    const generation = await this.liveGeneration(projection);
    return (await this.checkpoints.get(checkpointId(projection, generation)))?.position as Position | undefined;
  }

  /**
   * Read-your-writes: wait until every named projection has applied `position` (at most
   * `timeoutMs`). Returns whether it got there; the caller serves what there is either way.
   */
  async waitFor(projections: string[], position: Position, timeoutMs = 2000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const reached = await Promise.all(projections.map(async (p) => comparePositions(await this.checkpoint(p), position) >= 0));
      if (reached.every(Boolean)) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(left, 25));
        this.waiters.add(done);
      });
    }
  }
}
