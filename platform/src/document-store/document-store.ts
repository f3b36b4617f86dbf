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

export interface FindOptions {
  /** Equality on top-level fields. */
  where?: Record<string, Scalar>;
  /** With `where`, e.g. a user's trades (where) of a date range (range on a timestamp in ms). */
  range?: RangeFilter;
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
  count(where?: Record<string, Scalar>, range?: RangeFilter): Promise<number>;
  /** Removes every document of the collection (used to drop an old projection generation). */
  drop(): Promise<void>;
}

export interface DocumentStore {
  collection<T extends Document = Document>(name: string): Collection<T>;
  close(): Promise<void>;
}
