/**
 * Where the live generation of each projection is, and how far it has got. Shared by the projector
 * (which writes it) and by both APIs (which read through it).
 */
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
  private readonly waiting = new Set<PositionWaiter>();
  private readonly maxWaiters: number;
  private readonly pollMs: number;
  private pollTimer: NodeJS.Timeout | undefined;
  private polling = false;
  private pollAgain = false;

  constructor(
    readonly store: DocumentStore,
    private readonly bus?: Bus,
    options: ReadModelsOptions = {},
  ) {
    this.meta = store.collection<ProjectionMeta>(META_COLLECTION);
    this.checkpoints = store.collection<Checkpoint>(CHECKPOINT_COLLECTION);
    this.maxWaiters = options.maxWaiters ?? MIN_POSITION_MAX_WAITERS;
    this.pollMs = options.pollMs ?? POSITION_POLL_MS;
  }

  /** Change notices wake the position poll early instead of at its next tick. */
  async listen(): Promise<void> {
    await this.bus?.subscribe('projection.*.changed', () => {
      if (this.waiting.size > 0) this.pollSoon();
    });
  }

  async liveGeneration(projection: string): Promise<number> {
    return (await this.meta.get(projection))?.liveGeneration ?? 1;
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
    for (const waiter of batch) {
      waiter.checked = true;
      if (reachedBy && waiter.projections.every((p) => comparePositions(reachedBy.get(p), waiter.position) >= 0)) waiter.settle(true);
      else if (waiter.expired) waiter.settle(false);
    }
    this.polling = false;
    if (this.waiting.size > 0) this.pollTimer = setTimeout(() => void this.pollOnce(), this.pollAgain ? 0 : this.pollMs);
  }
}
