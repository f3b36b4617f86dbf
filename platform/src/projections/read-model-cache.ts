/**
 * Read-model reads kept per process, for the reads a dashboard polls (portfolio, trades, risk,
 * signals): the same user asks for the same documents every few seconds, and on PGlite each read
 * holds the one database thread for a few hundred microseconds.
 *
 * What a cached read is keyed on:
 * - Change notices (projector.ts publishes one per written batch, naming up to 100 document ids):
 *   a notice drops the entries of the groups its ids map to (`groupOf`; by default the id itself, so
 *   a document read is dropped by its own id; `ANY_CHANGE` entries by any notice of their projection),
 *   and a notice that may have left ids out, or a rebuild, drops the whole projection. A read that a
 *   notice of its projection overtook is returned but not kept, so an older read never outlives the
 *   notice.
 * - The position the read had reached: before reading, the cache takes a position its projection is
 *   known to have applied (`ReadModels.reachedAtLeast`), so the entry holds at least every event up to
 *   it. A request that must see a position (X-Min-Position, or the caller's own last write; see
 *   `ReadFreshness`) is served an entry only when that position is at or before the entry's, or, for
 *   the caller's own writes, when the caller wrote nothing after the entry's position (the event
 *   store's lastPositionByActor, answered from memory in the embedded mode). Read-your-own-writes and
 *   X-Min-Position therefore hold whether or not a notice has arrived yet.
 * - Age: the bus is at most once (NATS), so an entry is read again once `maxAgeMs` old: a lost notice
 *   costs at most that much staleness for other actors' writes (the bot's trades, alerts). With the
 *   in-process bus nothing is lost and the composition root gives a longer age.
 *
 * Values are shared by every request that hits them, so they are deep-frozen when kept: a route that
 * changed one would throw rather than change another request's answer.
 */
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { Collection, Document } from '../document-store/document-store';
import { comparePositions, type Position } from '../event-store/position';
import type { ReadModels } from './read-models';

/** How long an entry is served without a notice when notices may be lost (as identity-cache.ts). */
export const READ_CACHE_MAX_AGE_MS = 2000;
/**
 * How much is kept, in documents (a document read counts 1, a list its length: `sizeOf`), least
 * recently used first out: a client may ask for many pages of up to 100 trades, and a document is
 * about a kilobyte in memory, so this bounds the cache near 50 MB.
 */
export const READ_CACHE_MAX_DOCUMENTS = 50_000;
/** projector.ts lists at most this many changed ids in a notice: one listing this many may have had more. */
const NOTICE_ID_LIMIT = 100;
/** The group of entries that any change notice of their projection drops (lists, counts over many documents). */
export const ANY_CHANGE = '\u0000any';

/**
 * What a request needs a read to reflect, set by the position middlewares (http/read-freshness.ts):
 * - `atLeast` alone (X-Min-Position): every event up to it.
 * - `atLeast` with `actor` (read-your-own-writes): the actor's writes, which are all at or before
 *   `atLeast`; an entry from before `atLeast` still serves when the actor wrote nothing after it.
 * - `bypass`: a wait that ran out, or the caller's last write could not be looked up: read the store.
 * Nothing set: any entry young enough and not dropped by a notice.
 */
export interface ReadFreshness {
  atLeast?: Position;
  actor?: string;
  bypass?: boolean;
}

/** The group of a changed document's id; undefined when it cannot tell (the notice then drops the whole projection). */
export type GroupOf = (id: string) => string | undefined;

/** The last write of an actor after a position (the event store's `lastPositionByActor`). */
export type LastWriteOf = (actor: string, after?: Position) => Promise<Position | undefined>;

export interface ReadModelCacheOptions {
  /** In documents (READ_CACHE_MAX_DOCUMENTS). */
  maxDocuments?: number;
  maxAgeMs?: number;
  /** Milliseconds, for entry ages (tests inject a clock). */
  now?: () => number;
  /** Per projection: the group a changed document id belongs to (see `groupBy`). */
  groupOf?: Record<string, GroupOf>;
}

interface Entry {
  value: unknown;
  /** Documents it holds, for the cache's bound. */
  size: number;
  /** Position the projection had applied when the read started. */
  floor: Position | undefined;
  readAt: number;
  projection: string;
  group: string;
}

const noticeSchema = z.object({ ids: z.array(z.string()).optional(), rebuilt: z.boolean().optional() });

const keyOf = (projection: string, group: string, key: string) => `${projection}\u0000${group}\u0000${key}`;
const groupKeyOf = (projection: string, group: string) => `${projection}\u0000${group}`;

export class ReadModelCache {
  private readonly entries: LRUCache<string, Entry>;
  /** Keys of the entries of each (projection, group), to drop a group at once. */
  private readonly groups = new Map<string, Set<string>>();
  /** Groups of each projection, to drop a projection at once. */
  private readonly projectionGroups = new Map<string, Set<string>>();
  /** Notices heard per projection: a read that saw the number change is not kept. */
  private readonly epochs = new Map<string, number>();
  private readonly maxAgeMs: number;
  private readonly now: () => number;
  private readonly groupOf: Record<string, GroupOf>;
  private hits = 0;
  private misses = 0;

  constructor(
    private readonly readModels: ReadModels,
    private readonly lastWriteOf: LastWriteOf,
    options: ReadModelCacheOptions = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? READ_CACHE_MAX_AGE_MS;
    this.now = options.now ?? (() => performance.now());
    this.groupOf = { ...options.groupOf };
    this.entries = new LRUCache<string, Entry>({
      maxSize: options.maxDocuments ?? READ_CACHE_MAX_DOCUMENTS,
      sizeCalculation: (entry) => entry.size,
      dispose: (entry, key) => this.unindex(entry, key),
    });
  }

  /** Entries held, hits and misses (for specs and the bench). */
  stats(): { size: number; hits: number; misses: number } {
    return { size: this.entries.size, hits: this.hits, misses: this.misses };
  }

  /** Subscribes to every projection's change notices on the read models' bus; resolves once subscribed. */
  async listen(): Promise<() => void> {
    if (!this.readModels.bus) return () => undefined;
    return this.readModels.bus.subscribe('projection.*.changed', (subject, payload) => {
      const projection = subject.split('.')[1];
      if (projection !== undefined) this.applyNotice(projection, payload);
    });
  }

  /**
   * How the ids named by `projection`'s notices map to the groups its reads are kept under (by
   * default a changed id drops the group of that name: a document read with `get`).
   */
  groupBy(projection: string, groupOf: GroupOf): void {
    this.groupOf[projection] = groupOf;
  }

  /** Applies a change notice of `projection` (`{ position, generation, ids }` or `{ rebuilt }`). */
  applyNotice(projection: string, payload: unknown): void {
    this.epochs.set(projection, (this.epochs.get(projection) ?? 0) + 1);
    const notice = noticeSchema.safeParse(payload);
    const ids = notice.success && !notice.data.rebuilt ? notice.data.ids : undefined;
    if (!ids || ids.length >= NOTICE_ID_LIMIT) {
      for (const group of [...(this.projectionGroups.get(projection) ?? [])]) this.dropGroup(projection, group);
      return;
    }
    const groupOf = this.groupOf[projection];
    const groups = ids.map((id) => (groupOf ? groupOf(id) : id));
    if (groups.some((g) => g === undefined)) {
      for (const group of [...(this.projectionGroups.get(projection) ?? [])]) this.dropGroup(projection, group);
      return;
    }
    for (const group of groups) this.dropGroup(projection, group!);
    this.dropGroup(projection, ANY_CHANGE);
  }

  /** One document by id (null when there is none), through the cache. */
  get<D extends Document>(projection: string, id: string, freshness: ReadFreshness): Promise<D | null> {
    return this.read<D, D | null>(projection, id, 'doc', (collection) => collection.get(id), freshness);
  }

  /**
   * Any read of one projection's collection, kept under (group, key): e.g. a user's page of trades
   * under (the user's id, the query). `load` must depend on nothing but the collection and the key.
   */
  read<D extends Document, T>(projection: string, group: string, key: string, load: (collection: Collection<D>) => Promise<T>, freshness: ReadFreshness): Promise<T> {
    const fullKey = keyOf(projection, group, key);
    const entry = freshness.bypass ? undefined : this.entries.get(fullKey);
    if (!entry || this.now() - entry.readAt >= this.maxAgeMs) return this.readStore(projection, group, fullKey, load);
    // The common case decides without waiting for anything: the entry holds the position asked for.
    if (freshness.atLeast === undefined || comparePositions(entry.floor, freshness.atLeast) >= 0) {
      this.hits++;
      return Promise.resolve(entry.value as T);
    }
    return this.actorWroteNothingSince(entry, freshness).then((fresh) => {
      if (!fresh) return this.readStore(projection, group, fullKey, load);
      this.hits++;
      return entry.value as T;
    });
  }

  private async readStore<D extends Document, T>(projection: string, group: string, fullKey: string, load: (collection: Collection<D>) => Promise<T>): Promise<T> {
    this.misses++;
    const epoch = this.epochs.get(projection) ?? 0;
    const readAt = this.now();
    const floor = await this.readModels.reachedAtLeast([projection]);
    const value = await load(await this.readModels.collection<D>(projection));
    if ((this.epochs.get(projection) ?? 0) === epoch) {
      const entry: Entry = { value: deepFreeze(value), size: sizeOf(value), floor, readAt, projection, group };
      this.entries.set(fullKey, entry);
      this.index(entry, fullKey);
    }
    return value;
  }

  /** For an entry older than `atLeast`: whether the actor whose writes `atLeast` bounds wrote nothing after it. */
  private async actorWroteNothingSince(entry: Entry, freshness: ReadFreshness): Promise<boolean> {
    if (freshness.actor === undefined) return false;
    try {
      return (await this.lastWriteOf(freshness.actor, entry.floor)) === undefined;
    } catch {
      return false;
    }
  }

  private index(entry: Entry, fullKey: string): void {
    const groupKey = groupKeyOf(entry.projection, entry.group);
    let keys = this.groups.get(groupKey);
    if (!keys) {
      keys = new Set();
      this.groups.set(groupKey, keys);
      let projectionGroups = this.projectionGroups.get(entry.projection);
      if (!projectionGroups) {
        projectionGroups = new Set();
        this.projectionGroups.set(entry.projection, projectionGroups);
      }
      projectionGroups.add(entry.group);
    }
    keys.add(fullKey);
  }

  /** LRU dispose (eviction, replacement, delete): forget the key in its group. */
  private unindex(entry: Entry, fullKey: string): void {
    const groupKey = groupKeyOf(entry.projection, entry.group);
    const keys = this.groups.get(groupKey);
    if (!keys) return;
    // A replaced entry's key is indexed again by `read` right after.
    keys.delete(fullKey);
    if (keys.size === 0) {
      this.groups.delete(groupKey);
      this.projectionGroups.get(entry.projection)?.delete(entry.group);
    }
  }

  private dropGroup(projection: string, group: string): void {
    const keys = this.groups.get(groupKeyOf(projection, group));
    if (!keys) return;
    for (const key of [...keys]) this.entries.delete(key);
  }
}

/** Documents in a read's value: a list's length, the lists an object holds (a page and its total), else one. */
function sizeOf(value: unknown): number {
  if (Array.isArray(value)) return Math.max(1, value.length);
  if (value === null || typeof value !== 'object') return 1;
  let size = 1;
  for (const child of Object.values(value)) if (Array.isArray(child)) size += child.length;
  return size;
}

/** Freezes a JSON-like value and everything in it. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as Record<string, unknown>)) deepFreeze(child);
  }
  return value;
}
