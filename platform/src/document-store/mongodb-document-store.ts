/**
 * MongoDB adapter of the document store port (production mode, DESIGN.md section 4).
 *
 * Layout: one MongoDB collection per port collection (`collectionPrefix + name`), each document stored
 * as `{ _id: id, doc, position? }`. One MongoDB collection per read model keeps `drop()` a cheap
 * metadata operation (an old projection generation goes at once, storage freed), keeps every read
 * model's documents and future indexes apart, and needs no `name` field in every filter.
 *
 * Documents are stored as their JSON image (`JSON.parse(JSON.stringify(doc))`), exactly what the SQL
 * adapter's JSONB keeps: undefined members vanish, Dates become ISO strings, so both adapters give
 * back the same documents.
 *
 * Positions are the fixed-width strings of `position.ts`; MongoDB compares strings by their bytes,
 * which for these strings is their global order, so `$lt` on them is a position comparison.
 */
import { MongoClient, type Collection as MongoCollection, type Db, type Filter, type Sort } from 'mongodb';
import type { Position } from '../event-store/position';
import {
  prefixUpperBound,
  type Collection,
  type Document,
  type DocumentStore,
  type FindOptions,
  type IndexKind,
  type PrefixFilter,
  type RangeFilter,
  type Scalar,
  type StoredDocument,
} from './document-store';

interface Stored {
  _id: string;
  doc: Document;
  position?: string;
}

export interface MongoDocumentStoreOptions {
  /** Database name; default: the one named in the connection string, else 'papertrade'. */
  database?: string;
  /** Prepended to every collection name (namespacing inside one database). Default ''. */
  collectionPrefix?: string;
  /** Close the client in `close()`. Default true (the store owns the client). */
  closeClient?: boolean;
}

const DUPLICATE_KEY = 11000;

function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === DUPLICATE_KEY;
}

/** The database named in a mongodb:// or mongodb+srv:// connection string, if any. */
export function databaseFromUrl(url: string): string | undefined {
  const match = /^mongodb(?:\+srv)?:\/\/[^/]*\/([^?#]+)/.exec(url);
  return match?.[1] ? decodeURIComponent(match[1]) : undefined;
}

function checkField(field: string): string {
  if (field === '' || field.startsWith('$') || field.includes('.') || field.includes('\0')) {
    throw new RangeError(`not a top-level document field: ${JSON.stringify(field)}`);
  }
  return `doc.${field}`;
}

function checkCollectionName(name: string): string {
  if (name === '' || name.includes('$') || name.includes('\0') || name.startsWith('system.')) {
    throw new RangeError(`not a usable MongoDB collection name: ${JSON.stringify(name)}`);
  }
  return name;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function whereFilter(where: Record<string, Scalar> | undefined, range?: RangeFilter, prefix?: PrefixFilter): Filter<Stored> {
  const filter: Record<string, unknown> = {};
  if (prefix && prefix.value !== '' && prefix.fields.length > 0) {
    // A string range per field (MongoDB compares strings by their UTF-8 bytes, i.e. code points
    // without a collation), so each reads only its matches on the 'prefix' index.
    const upper = prefixUpperBound(prefix.value);
    filter.$or = prefix.fields.map((field) => ({
      [checkField(field)]:
        upper === undefined ? { $type: 'string', $regex: `^${escapeRegExp(prefix.value)}` } : { $type: 'string', $gte: prefix.value, $lt: upper },
    }));
  }
  for (const [field, value] of Object.entries(where ?? {})) filter[checkField(field)] = value;
  if (range && (range.gte !== undefined || range.lt !== undefined)) {
    // $type keeps strings and missing fields out, as the SQL adapter does.
    const condition: Record<string, unknown> = { $type: 'number' };
    for (const [op, bound] of [['$gte', range.gte], ['$lt', range.lt]] as const) {
      if (bound === undefined) continue;
      if (!Number.isFinite(bound)) throw new RangeError(`range bound must be a finite number, got ${bound}`);
      condition[op] = bound;
    }
    const key = checkField(range.field);
    filter[key] = key in filter ? { $eq: filter[key], ...condition } : condition;
  }
  return filter as Filter<Stored>;
}

function jsonImage<T extends Document>(doc: T): T {
  return JSON.parse(JSON.stringify(doc)) as T;
}

class MongoDbCollection<T extends Document> implements Collection<T> {
  constructor(
    private readonly coll: MongoCollection<Stored>,
    private readonly indexes: Map<string, Promise<void>>,
  ) {}

  /** Per MongoDB collection; a sort index ends with the id, which breaks ties in `find`. */
  ensureIndex(field: string, kind: IndexKind): Promise<void> {
    const key = `${this.coll.collectionName}:${kind}:${field}`;
    let made = this.indexes.get(key);
    if (!made) {
      const spec: Record<string, 1> = kind === 'prefix' ? { [checkField(field)]: 1 } : { [checkField(field)]: 1, _id: 1 };
      made = this.coll.createIndex(spec).then(() => undefined);
      made.catch(() => this.indexes.delete(key));
      this.indexes.set(key, made);
    }
    return made;
  }

  async get(id: string): Promise<T | null> {
    const found = await this.coll.findOne({ _id: id }, { projection: { doc: 1 } });
    return found ? (found.doc as T) : null;
  }

  async getWithPosition(id: string): Promise<StoredDocument<T> | null> {
    const found = await this.coll.findOne({ _id: id });
    if (!found) return null;
    const stored: StoredDocument<T> = { id: found._id, doc: found.doc as T };
    if (typeof found.position === 'string') stored.position = found.position as Position;
    return stored;
  }

  async getManyWithPosition(ids: string[]): Promise<Array<StoredDocument<T>>> {
    if (ids.length === 0) return [];
    const found = await this.coll.find({ _id: { $in: ids } }).toArray();
    return found.map((f) => {
      const stored: StoredDocument<T> = { id: f._id, doc: f.doc as T };
      if (typeof f.position === 'string') stored.position = f.position as Position;
      return stored;
    });
  }

  /** Replaces the document; the position of the last event applied, if any, stays (a redelivered
   *  older event must still be skipped after a plain write). */
  async put(id: string, doc: T): Promise<void> {
    await this.coll.updateOne({ _id: id }, { $set: { doc: jsonImage(doc) } }, { upsert: true });
  }

  async putIfNewer(id: string, doc: T, position: Position): Promise<boolean> {
    const filter: Filter<Stored> = { _id: id, $or: [{ position: { $exists: false } }, { position: { $lt: position } }] };
    const update = { $set: { doc: jsonImage(doc), position } };
    // First attempt: a duplicate key means the document exists, usually with this or a newer position
    // (a redelivered event), but possibly because a concurrent first write won the insert race. The
    // second attempt runs against the existing document, so its outcome is the answer.
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.coll.updateOne(filter, update, { upsert: true });
        return result.matchedCount + result.upsertedCount > 0;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        if (attempt >= 2) return false;
      }
    }
  }

  async putManyIfNewer(items: Array<{ id: string; doc: T; position: Position }>): Promise<number> {
    // One conditional upsert each: a bulkWrite would stop at (or report) the duplicate-key errors that
    // redelivered events cause, which putIfNewer already turns into "not written".
    let written = 0;
    for (const item of items) if (await this.putIfNewer(item.id, item.doc, item.position)) written++;
    return written;
  }

  async delete(id: string): Promise<void> {
    await this.coll.deleteOne({ _id: id });
  }

  async find(options: FindOptions = {}): Promise<T[]> {
    const { limit, skip } = options;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) throw new RangeError('limit must be a non-negative integer');
    if (skip !== undefined && (!Number.isInteger(skip) || skip < 0)) throw new RangeError('skip must be a non-negative integer');
    // MongoDB reads limit 0 as "no limit".
    if (limit === 0) return [];
    const sort: Record<string, 1 | -1> = {};
    for (const { field, direction } of options.sort ?? []) sort[checkField(field)] = direction === 'desc' ? -1 : 1;
    // The id breaks ties, so pages (skip/limit) are stable.
    if (!('_id' in sort)) sort._id = 1;
    let cursor = this.coll.find(whereFilter(options.where, options.range, options.prefix), { projection: { doc: 1 } }).sort(sort as Sort);
    if (skip) cursor = cursor.skip(skip);
    if (limit !== undefined) cursor = cursor.limit(limit);
    const rows = await cursor.toArray();
    return rows.map((row) => row.doc as T);
  }

  async count(where?: Record<string, Scalar>, range?: RangeFilter, prefix?: PrefixFilter): Promise<number> {
    const filter = whereFilter(where, range, prefix);
    if (Object.keys(filter).length === 0) return this.coll.countDocuments({});
    return this.coll.countDocuments(filter);
  }

  async drop(): Promise<void> {
    // Ignores a collection that does not exist; the next write creates it again.
    await this.coll.drop();
  }
}

export class MongoDbDocumentStore implements DocumentStore {
  private readonly db: Db;
  private readonly collectionPrefix: string;
  private readonly closeClient: boolean;
  /** Indexes made by this store, so ensureIndex asks the server once per collection, field and kind. */
  private readonly indexes = new Map<string, Promise<void>>();

  /** Connects with a mongodb:// connection string (e.g. `mongodb://mongodb:27017/papertrade`); owns the client. */
  static async connect(url: string, options: Omit<MongoDocumentStoreOptions, 'closeClient'> = {}): Promise<MongoDbDocumentStore> {
    const client = new MongoClient(url);
    await client.connect();
    return new MongoDbDocumentStore(client, { database: databaseFromUrl(url), ...options, closeClient: true });
  }

  constructor(
    private readonly client: MongoClient,
    options: MongoDocumentStoreOptions = {},
  ) {
    this.db = client.db(options.database ?? 'papertrade');
    this.collectionPrefix = options.collectionPrefix ?? '';
    this.closeClient = options.closeClient ?? true;
  }

  /** The database in use (tests drop it when they are done). */
  get database(): Db {
    return this.db;
  }

  collection<T extends Document = Document>(name: string): Collection<T> {
    return new MongoDbCollection<T>(this.db.collection<Stored>(checkCollectionName(this.collectionPrefix + name)), this.indexes);
  }

  async close(): Promise<void> {
    if (this.closeClient) await this.client.close();
  }
}
