/**
 * The document store port for read models. Adapters: SQL (PostgreSQL and PGlite, JSONB) and MongoDB.
 * Each passes `document-store.conformance.ts`.
 */
import type { Position } from '../event-store/position';

export type Document = Record<string, unknown>;

export type Scalar = string | number | boolean | null;

/**
 * A numeric range on one top-level field (from `gte` inclusive to `lt` exclusive; either may be
 * left open). Documents whose field is missing or not a number never match.
 */
export interface RangeFilter {
  field: string;
  gte?: number;
  lt?: number;
}

/**
 * Documents where at least one of `fields` is a string starting with `value`, compared code point by
 * code point (callers store and search a normalised form, e.g. lower case). An empty value matches
 * everything. Adapters answer it as an index range (value up to the value with its last character
 * incremented), so with `ensureIndex(field, 'prefix')` on each field it reads only the matches.
 */
export interface PrefixFilter {
  fields: string[];
  value: string;
}

/**
 * 'prefix': for PrefixFilter on a string field. 'sort': for sorting (and paging) on a field in
 * either direction, the id breaking ties as `find` does.
 */
export type IndexKind = 'prefix' | 'sort';

export interface FindOptions {
  /** Equality on top-level fields. */
  where?: Record<string, Scalar>;
  /** With `where`, e.g. a user's trades (where) of a date range (range on a timestamp in ms). */
  range?: RangeFilter;
  /** With the above: a prefix of any of some string fields (a search box). */
  prefix?: PrefixFilter;
  /** Sort by top-level fields; numbers sort numerically, strings by code point. */
  sort?: Array<{ field: string; direction: 'asc' | 'desc' }>;
  limit?: number;
  skip?: number;
}

export interface StoredDocument<T extends Document = Document> {
  id: string;
  doc: T;
  /** Position of the last event applied to this document (projections), if any. */
  position?: Position;
}

export interface Collection<T extends Document = Document> {
  get(id: string): Promise<T | null>;
  getWithPosition(id: string): Promise<StoredDocument<T> | null>;
  /** `getWithPosition` of many ids in one round trip: the documents found, in no particular order. */
  getManyWithPosition(ids: string[]): Promise<Array<StoredDocument<T>>>;
  /** Unconditional upsert. */
  put(id: string, doc: T): Promise<void>;
  /**
   * Upsert only when the stored position is absent or strictly older than `position`.
   * Returns false (and writes nothing) when the document already holds this or a newer position:
   * a redelivered event is harmless, never an error.
   */
  putIfNewer(id: string, doc: T, position: Position): Promise<boolean>;
  /**
   * `putIfNewer` for many documents at once (ids unique within the call), as few round trips and
   * commits as the store allows. Returns how many were written.
   */
  putManyIfNewer(items: Array<{ id: string; doc: T; position: Position }>): Promise<number>;
  delete(id: string): Promise<void>;
  find(options?: FindOptions): Promise<T[]>;
  count(where?: Record<string, Scalar>, range?: RangeFilter, prefix?: PrefixFilter): Promise<number>;
  /**
   * Makes sure an index serves this field for `kind`; idempotent and cheap once done (the adapter
   * remembers it), so a reader may call it before every query. Results never depend on it, only
   * the time they take.
   */
  ensureIndex(field: string, kind: IndexKind): Promise<void>;
  /** Removes every document of the collection (used to drop an old projection generation). */
  drop(): Promise<void>;
}

export interface DocumentStore {
  collection<T extends Document = Document>(name: string): Collection<T>;
  close(): Promise<void>;
}

/**
 * The exclusive upper bound of the strings starting with `value`: the value with its last code point
 * incremented (UTF-8 and UTF-16 code point order agree for these). Undefined when there is none
 * (empty, or the last character is the highest code point): then only the lower bound applies, and
 * adapters check the prefix itself.
 */
export function prefixUpperBound(value: string): string | undefined {
  const chars = Array.from(value);
  const last = chars.pop();
  if (last === undefined) return undefined;
  const code = last.codePointAt(0)!;
  if (code >= 0x10ffff) return undefined;
  // Skip the surrogate range, which is not a code point of its own.
  const next = code + 1 === 0xd800 ? 0xe000 : code + 1;
  return chars.join('') + String.fromCodePoint(next);
}
