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

export class ReadModels {
  private readonly meta: Collection<ProjectionMeta>;
  private readonly checkpoints: Collection<Checkpoint>;
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly store: DocumentStore,
    private readonly bus?: Bus,
  ) {
    this.meta = store.collection<ProjectionMeta>(META_COLLECTION);
    this.checkpoints = store.collection<Checkpoint>(CHECKPOINT_COLLECTION);
  }

  /** Wake position waiters on change notices instead of only polling. */
  async listen(): Promise<void> {
    await this.bus?.subscribe('projection.*.changed', () => {
      for (const wake of [...this.waiters]) wake();
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
