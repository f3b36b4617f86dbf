/**
 * Who a token's user is (tier, admin flag), kept per process so that an authenticated request does
 * not read the users read model every time.
 *
 * Freshness: the projector's change notice for the users projection drops the ids it names, so an
 * admin's change shows as soon as the notice arrives. The bus is at most once, so an entry is also
 * re-read once it is IDENTITY_MAX_AGE_MS old: a lost notice costs at most that much staleness. A
 * notice that may have left ids out (it lists at most NOTICE_ID_LIMIT) or a rebuild switch drops
 * everything. A read that a notice overtook is returned but not kept, so an older read can never
 * outlive the notice. Misses are never kept: an account that is not in the read model yet (a
 * sign-in right after sign-up) must show up as soon as it is projected.
 *
 * Callers that must see a given position (X-Min-Position) wait for it and then `refresh`.
 */
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { USERS_PROJECTION, type UserView } from '@papertrade/domain/auth/user-view';
import type { Bus } from '../bus/bus';
import { changeSubject, generationCollection, type ReadModels } from '../projections/read-models';

export const IDENTITY_CACHE_MAX_ENTRIES = 10_000;
export const IDENTITY_MAX_AGE_MS = 2000;
/** projector.ts lists at most this many changed ids in a notice: one listing this many may have had more. */
export const NOTICE_ID_LIMIT = 100;

/** Reads one user from the read model; null when it is not there. */
export type UserReader = (userId: string) => Promise<UserView | null>;

export interface IdentityCacheOptions {
  /** Milliseconds, for the age of entries (tests inject a clock). */
  now?: () => number;
  maxEntries?: number;
  maxAgeMs?: number;
}

/** A users change notice as the projector publishes it; anything else drops everything. */
const noticeSchema = z.object({ ids: z.array(z.string()).optional(), rebuilt: z.boolean().optional() });

interface Entry {
  user: UserView;
  /** When the read that found it started: the entry is at least this fresh. */
  readAt: number;
}

export class IdentityCache {
  private readonly entries: LRUCache<string, Entry>;
  /** The latest read in flight per user id; a notice removes it, and then its result is not kept. */
  private readonly reads = new Map<string, object>();
  private readonly now: () => number;
  private readonly maxAgeMs: number;

  constructor(
    private readonly read: UserReader,
    options: IdentityCacheOptions = {},
  ) {
    this.entries = new LRUCache<string, Entry>({ max: options.maxEntries ?? IDENTITY_CACHE_MAX_ENTRIES });
    this.now = options.now ?? (() => performance.now());
    this.maxAgeMs = options.maxAgeMs ?? IDENTITY_MAX_AGE_MS;
  }

  /** A cache over the live generation of the users projection. */
  static over(readModels: ReadModels, options: IdentityCacheOptions = {}): IdentityCache {
    return new IdentityCache(usersReader(readModels), options);
  }

  /** How many users are held (for tests and health). */
  get size(): number {
    return this.entries.size;
  }

  /** The user from the cache when the entry is young enough, else from the read model. */
  async get(userId: string): Promise<UserView | null> {
    const entry = this.entries.get(userId);
    if (entry && this.now() - entry.readAt < this.maxAgeMs) return entry.user;
    return this.refresh(userId);
  }

  /** Reads the user from the read model whatever the cache holds, and keeps what it found. */
  async refresh(userId: string): Promise<UserView | null> {
    const read = {};
    const readAt = this.now();
    this.reads.set(userId, read);
    try {
      const user = await this.read(userId);
      if (this.reads.get(userId) === read) {
        if (user) this.entries.set(userId, { user, readAt });
        else this.entries.delete(userId);
      }
      return user;
    } finally {
      if (this.reads.get(userId) === read) this.reads.delete(userId);
    }
  }

  drop(userIds: Iterable<string>): void {
    for (const id of userIds) {
      this.entries.delete(id);
      this.reads.delete(id);
    }
  }

  dropAll(): void {
    this.entries.clear();
    this.reads.clear();
  }

  /** Applies a users change notice (`{ position, generation, ids }` or `{ rebuilt, generation }`). */
  applyNotice(payload: unknown): void {
    const notice = noticeSchema.safeParse(payload);
    const ids = notice.success && !notice.data.rebuilt ? notice.data.ids : undefined;
    if (!ids || ids.length >= NOTICE_ID_LIMIT) this.dropAll();
    else this.drop(ids);
  }

  /** Subscribes to the users change notices; resolves once subscribed, with the unsubscribe function. */
  listen(bus: Bus): Promise<() => void> {
    return bus.subscribe(changeSubject(USERS_PROJECTION), (_subject, payload) => this.applyNotice(payload));
  }
}

/**
 * Reads a user from the live generation. A miss is checked again on a freshly read generation
 * pointer: after a rebuild switch the old generation is dropped, and a pointer cached before the
 * switch must not make an existing account look deleted.
 */
export function usersReader(readModels: ReadModels): UserReader {
  const inGeneration = (generation: number, userId: string) => readModels.store.collection<UserView>(generationCollection(USERS_PROJECTION, generation)).get(userId);
  return async (userId) => {
    const generation = await readModels.liveGeneration(USERS_PROJECTION);
    const user = await inGeneration(generation, userId);
    if (user) return user;
    const fresh = await readModels.liveGeneration(USERS_PROJECTION, { fresh: true });
    return fresh === generation ? null : inGeneration(fresh, userId);
  };
}
