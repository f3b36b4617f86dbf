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
import { comparePositions, positionSchema, type Position } from '../event-store/position';

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
const generationNoticeSchema = z.object({ position: z.string().optional(), generation: z.number().optional(), rebuilt: z.boolean().optional() });

/**
 * At most this many position waits at once per process (each is a request held open): beyond it a
 * wait answers "not reached" at once, so nobody can park an unbounded number of requests.
 */
export const MIN_POSITION_MAX_WAITERS = 1000;
/** How often the shared loop reads the checkpoints while anyone waits; change notices wake it sooner. */
export const POSITION_POLL_MS = 25;

export interface ReadModelsOptions {
  maxWaiters?: number;
  pollMs?: number;
  /** Milliseconds, for the age of cached pointers (tests inject a clock). */
  now?: () => number;
}

interface CachedGeneration {
  generation: number;
  /** When the read that found it started: the pointer was at least this fresh. */
  readAt: number;
}

/** One pending `waitFor`. */
interface PositionWaiter {
  projections: string[];
  position: Position;
  /** Compared with checkpoints read after it arrived: a waiter never times out before one such check. */
  checked: boolean;
  /** Its time is up; the next check settles it either way. */
  expired: boolean;
  settle(reached: boolean): void;
}

export class ReadModels {
  private readonly meta: Collection<ProjectionMeta>;
  private readonly checkpoints: Collection<Checkpoint>;
  /** Cached pointers; only used once rebuild notices are heard (see the top of the file). */
  private readonly generations = new Map<string, CachedGeneration>();
  /** The latest pointer read in flight per projection: a read a notice overtook is not cached. */
  private readonly generationReads = new Map<string, object>();
  private hearsRebuilds = false;
  private readonly now: () => number;
  private readonly waiting = new Set<PositionWaiter>();
  private readonly maxWaiters: number;
  private readonly pollMs: number;
  private pollTimer: NodeJS.Timeout | undefined;
  private polling = false;
  private pollAgain = false;
  /**
   * A position each projection's live generation is known to have applied (`reachedAtLeast`): raised
   * by change notices of the live generation and by the checkpoint reads of the position waits, dropped
   * by a rebuild. Checkpoints only move forward, so it may lag but never runs ahead.
   */
  private readonly floors = new Map<string, Position>();

  constructor(
    readonly store: DocumentStore,
    /** Public so that other per-process caches (auth/identity-cache.ts) can hear change notices too. */
    readonly bus?: Bus,
    options: ReadModelsOptions = {},
  ) {
    this.meta = store.collection<ProjectionMeta>(META_COLLECTION);
    this.checkpoints = store.collection<Checkpoint>(CHECKPOINT_COLLECTION);
    this.now = options.now ?? (() => performance.now());
    this.maxWaiters = options.maxWaiters ?? MIN_POSITION_MAX_WAITERS;
    this.pollMs = options.pollMs ?? POSITION_POLL_MS;
  }

  /** Change notices wake the position poll early instead of at its next tick. */
  async listen(): Promise<void> {
    await this.bus?.subscribe('projection.*.changed', () => {
      if (this.waiting.size > 0) this.pollSoon();
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
      if (notice.success && notice.data.rebuilt) this.floors.delete(projection);
      else if (notice.success && cached !== undefined && notice.data.generation === cached && notice.data.position !== undefined) {
        const position = positionSchema.safeParse(notice.data.position);
        if (position.success) this.raiseFloor(projection, position.data);
      }
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

  /**
   * A position every named projection has applied (the lowest of them), without reading anything
   * once notices or waits have told this process; a projection not heard of yet has its checkpoint
   * read. undefined while one of them has applied nothing.
   */
  async reachedAtLeast(projections: readonly string[]): Promise<Position | undefined> {
    let lowest: Position | undefined;
    for (const [i, projection] of projections.entries()) {
      let floor = this.floors.get(projection);
      if (floor === undefined) {
        floor = await this.checkpoint(projection);
        if (floor === undefined) return undefined;
        this.raiseFloor(projection, floor);
      }
      if (i === 0 || comparePositions(floor, lowest) < 0) lowest = floor;
    }
    return lowest;
  }

  private raiseFloor(projection: string, position: Position): void {
    if (comparePositions(position, this.floors.get(projection)) > 0) this.floors.set(projection, position);
  }

  async checkpoint(projection: string): Promise<Position | undefined> {
    const generation = await this.liveGeneration(projection);
    return (await this.checkpoints.get(checkpointId(projection, generation)))?.position as Position | undefined;
  }

  /**
   * Read-your-writes: wait until every named projection has applied `position` (at most
   * `timeoutMs`). Returns whether it got there; the caller serves what there is either way. With
   * `maxWaiters` already waiting it answers false at once, without reading anything.
   *
   * Waiters do not read the checkpoints themselves: one loop per instance (see `pollOnce`) reads each
   * checkpoint anyone waits on once per tick and settles every waiter at once, so the reads do not
   * grow with the number of waiting requests.
   */
  async waitFor(projections: string[], position: Position, timeoutMs = 2000): Promise<boolean> {
    if (this.waiting.size >= this.maxWaiters) return false;
    return new Promise<boolean>((resolve) => {
      const waiter: PositionWaiter = {
        projections,
        position,
        checked: false,
        expired: false,
        settle: (reached) => {
          if (!this.waiting.delete(waiter)) return;
          clearTimeout(timer);
          resolve(reached);
        },
      };
      const timer = setTimeout(() => {
        if (waiter.checked) waiter.settle(false);
        else waiter.expired = true;
      }, timeoutMs);
      this.waiting.add(waiter);
      this.pollSoon();
    });
  }

  /** A tick as soon as possible: now when idle, right after the current one when a read is under way. */
  private pollSoon(): void {
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(() => void this.pollOnce(), 0);
  }

  /**
   * One tick: reads the checkpoint of every projection the current waiters name, once, then settles
   * those that are reached (or out of time). Waiters that arrive during the read wait for the next
   * tick, whose read starts after they arrived. Only one tick runs at a time.
   */
  private async pollOnce(): Promise<void> {
    this.pollTimer = undefined;
    this.polling = true;
    this.pollAgain = false;
    const batch = [...this.waiting];
    const names = [...new Set(batch.flatMap((w) => w.projections))];
    let reachedBy: Map<string, Position | undefined> | undefined;
    try {
      reachedBy = new Map(await Promise.all(names.map(async (p) => [p, await this.checkpoint(p)] as const)));
    } catch {
      // The store is unreachable this tick: nobody is reached; those out of time answer false below.
    }
    for (const [projection, position] of reachedBy ?? []) if (position !== undefined) this.raiseFloor(projection, position);
    for (const waiter of batch) {
      waiter.checked = true;
      if (reachedBy && waiter.projections.every((p) => comparePositions(reachedBy.get(p), waiter.position) >= 0)) waiter.settle(true);
      else if (waiter.expired) waiter.settle(false);
    }
    this.polling = false;
    if (this.waiting.size > 0) this.pollTimer = setTimeout(() => void this.pollOnce(), this.pollAgain ? 0 : this.pollMs);
  }
}
