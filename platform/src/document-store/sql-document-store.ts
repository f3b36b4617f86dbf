/**
 * Read-model documents as JSONB rows, for both the PostgreSQL server and PGlite. One table holds
 * every collection; the position column is text in the "C" collation so that the fixed-width
 * position strings compare byte by byte, in global order.
 */
import type { Position } from '../event-store/position';
import { quoteIdent, type Row, type SqlClient } from '../sql/sql-client';
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

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The statements of fixed text run prepared on PostgreSQL (sql-client.ts QueryOptions); find and count vary, so they do not. */
const PREPARED = { prepare: true } as const;

function field(name: string): string {
  if (!FIELD.test(name)) throw new Error(`unsafe field name: ${name}`);
  return name;
}

export interface SqlDocumentStoreOptions {
  schema?: string;
  /**
   * Refresh the planner's statistics (ANALYZE) after this many documents were written, and once at
   * start. For PGlite, which has no autovacuum: without statistics the planner takes every
   * collection for a few hundred rows and sorts a whole collection instead of reading an index
   * (a page of 100,000 users: 800 ms instead of 10 ms). PostgreSQL's autovacuum does this itself.
   */
  analyzeEveryWrites?: number;
}

export class SqlDocumentStore implements DocumentStore {
  private writesSinceAnalyze = 0;
  private analyzing: Promise<void> | undefined;

  private constructor(
    private readonly sql: SqlClient,
    private readonly analyzeEveryWrites?: number,
  ) {}

  /** Counts written documents; past the threshold, one ANALYZE runs (never two at once). */
  private wrote(count: number): void {
    if (this.analyzeEveryWrites === undefined || count === 0) return;
    this.writesSinceAnalyze += count;
    if (this.writesSinceAnalyze < this.analyzeEveryWrites || this.analyzing) return;
    this.writesSinceAnalyze = 0;
    this.analyzing = this.sql
      .exec('ANALYZE documents')
      .catch(() => undefined) // statistics are an optimisation: a failure only keeps the old ones
      .finally(() => (this.analyzing = undefined));
  }

  static async create(sql: SqlClient, options: SqlDocumentStoreOptions = {}): Promise<SqlDocumentStore> {
    const schema = options.schema ? `CREATE SCHEMA IF NOT EXISTS ${quoteIdent(options.schema)};` : '';
    await sql.exec(`${schema}
      CREATE TABLE IF NOT EXISTS documents (
        collection text NOT NULL,
        id text NOT NULL,
        doc jsonb NOT NULL,
        position text COLLATE "C",
        PRIMARY KEY (collection, id)
      );
      CREATE INDEX IF NOT EXISTS documents_doc ON documents USING gin (doc jsonb_path_ops);`);
    if (options.analyzeEveryWrites !== undefined) await sql.exec('ANALYZE documents');
    return new SqlDocumentStore(sql, options.analyzeEveryWrites);
  }

  /** Indexes made (or found) by this store: ensureIndex costs a statement once per field and kind. */
  private readonly indexes = new Map<string, Promise<void>>();

  collection<T extends Document = Document>(name: string): Collection<T> {
    return new SqlCollection<T>(this.sql, name, (f, kind) => this.ensureIndex(f, kind), (n) => this.wrote(n));
  }

  /**
   * One table holds every collection, so an index on a field serves every collection (and every
   * projection generation) that has it; rows without the field index as null and cost nothing.
   * The expressions are exactly those `find` and `count` write, or the planner would not use them.
   */
  private ensureIndex(name: string, kind: IndexKind): Promise<void> {
    const key = `${kind}:${field(name)}`;
    let made = this.indexes.get(key);
    if (!made) {
      const expression = kind === 'prefix' ? prefixExpression(name) : `doc->'${name}'`;
      made = this.sql
        .exec(`CREATE INDEX IF NOT EXISTS ${quoteIdent(`documents_${kind}_${name}`.toLowerCase())} ON documents (collection, (${expression}))`)
        .then(() => undefined);
      // A failure (e.g. a concurrent CREATE INDEX) is tried again by the next call.
      made.catch(() => this.indexes.delete(key));
      this.indexes.set(key, made);
    }
    return made;
  }

  async close(): Promise<void> {
    await this.sql.close();
  }
}

class SqlCollection<T extends Document> implements Collection<T> {
  constructor(
    private readonly sql: SqlClient,
    private readonly name: string,
    private readonly makeIndex: (field: string, kind: IndexKind) => Promise<void>,
    private readonly wrote: (count: number) => void,
  ) {}

  ensureIndex(name: string, kind: IndexKind): Promise<void> {
    return this.makeIndex(name, kind);
  }

  async get(id: string): Promise<T | null> {
    return (await this.getWithPosition(id))?.doc ?? null;
  }

  async getWithPosition(id: string): Promise<StoredDocument<T> | null> {
    const rows = await this.sql.query<{ doc: T; position: string | null } & Row>(
      'SELECT doc, position FROM documents WHERE collection = $1 AND id = $2',
      [this.name, id],
      PREPARED,
    );
    const row = rows[0];
    if (!row) return null;
    return row.position === null ? { id, doc: row.doc } : { id, doc: row.doc, position: row.position as Position };
  }

  async getManyWithPosition(ids: string[]): Promise<Array<StoredDocument<T>>> {
    if (ids.length === 0) return [];
    const rows = await this.sql.query<{ id: string; doc: T; position: string | null } & Row>(
      'SELECT id, doc, position FROM documents WHERE collection = $1 AND id = ANY($2::text[])',
      [this.name, ids],
      PREPARED,
    );
    return rows.map((row) => (row.position === null ? { id: row.id, doc: row.doc } : { id: row.id, doc: row.doc, position: row.position as Position }));
  }

  async put(id: string, doc: T): Promise<void> {
    await this.sql.query(
      `INSERT INTO documents (collection, id, doc, position) VALUES ($1, $2, $3::jsonb, NULL)
       ON CONFLICT (collection, id) DO UPDATE SET doc = excluded.doc`,
      [this.name, id, JSON.stringify(doc)],
      PREPARED,
    );
    this.wrote(1);
  }

  async putIfNewer(id: string, doc: T, position: Position): Promise<boolean> {
    const rows = await this.sql.query(
      `INSERT INTO documents (collection, id, doc, position) VALUES ($1, $2, $3::jsonb, $4)
       ON CONFLICT (collection, id) DO UPDATE SET doc = excluded.doc, position = excluded.position
       WHERE documents.position IS NULL OR documents.position < excluded.position
       RETURNING 1 AS written`,
      [this.name, id, JSON.stringify(doc), position],
      PREPARED,
    );
    this.wrote(rows.length);
    return rows.length > 0;
  }

  async putManyIfNewer(items: Array<{ id: string; doc: T; position: Position }>): Promise<number> {
    let written = 0;
    // One statement (one commit) per chunk, of one text whatever the count (arrays), so it runs
    // prepared; ids are unique within a call, as ON CONFLICT requires.
    for (let start = 0; start < items.length; start += 500) {
      const chunk = items.slice(start, start + 500);
      const rows = await this.sql.query(
        `INSERT INTO documents (collection, id, doc, position)
         SELECT $1, item.id, item.doc, item.position FROM unnest($2::text[], $3::jsonb[], $4::text[]) AS item(id, doc, position)
         ON CONFLICT (collection, id) DO UPDATE SET doc = excluded.doc, position = excluded.position
         WHERE documents.position IS NULL OR documents.position < excluded.position
         RETURNING 1 AS written`,
        [this.name, chunk.map((item) => item.id), chunk.map((item) => JSON.stringify(item.doc)), chunk.map((item) => item.position)],
        PREPARED,
      );
      written += rows.length;
    }
    this.wrote(written);
    return written;
  }

  async delete(id: string): Promise<void> {
    await this.sql.query('DELETE FROM documents WHERE collection = $1 AND id = $2', [this.name, id], PREPARED);
  }

  async find(options: FindOptions = {}): Promise<T[]> {
    const params: unknown[] = [this.name];
    let text = 'SELECT doc FROM documents WHERE collection = $1';
    if (options.where && Object.keys(options.where).length > 0) {
      params.push(JSON.stringify(checkedWhere(options.where)));
      text += ` AND doc @> $${params.length}::jsonb`;
    }
    text += rangeClause(options.range, params);
    text += prefixClause(options.prefix, params);
    const order = (options.sort ?? []).map((s) => `doc->'${field(s.field)}' ${s.direction === 'desc' ? 'DESC' : 'ASC'}`);
    text += ` ORDER BY ${[...order, 'id'].join(', ')}`;
    if (options.limit !== undefined) {
      params.push(options.limit);
      text += ` LIMIT $${params.length}`;
    }
    if (options.skip) {
      params.push(options.skip);
      text += ` OFFSET $${params.length}`;
    }
    const rows = await this.sql.query<{ doc: T } & Row>(text, params);
    return rows.map((r) => r.doc);
  }

  async count(where?: Record<string, Scalar>, range?: RangeFilter, prefix?: PrefixFilter): Promise<number> {
    const params: unknown[] = [this.name];
    let text = 'SELECT count(*)::int AS n FROM documents WHERE collection = $1';
    if (where && Object.keys(where).length > 0) {
      params.push(JSON.stringify(checkedWhere(where)));
      text += ` AND doc @> $2::jsonb`;
    }
    text += rangeClause(range, params);
    text += prefixClause(prefix, params);
    const rows = await this.sql.query<{ n: number } & Row>(text, params);
    return Number(rows[0]?.n ?? 0);
  }

  async drop(): Promise<void> {
    await this.sql.query('DELETE FROM documents WHERE collection = $1', [this.name]);
  }
}

/**
 * The range as SQL on the jsonb value, so it compares as the sort does (jsonb numbers numerically);
 * the type check keeps a string or a missing field out, which jsonb ordering would otherwise rank
 * against numbers by type.
 */
function rangeClause(range: RangeFilter | undefined, params: unknown[]): string {
  if (!range || (range.gte === undefined && range.lt === undefined)) return '';
  const value = `doc->'${field(range.field)}'`;
  let text = ` AND jsonb_typeof(${value}) = 'number'`;
  for (const [op, bound] of [['>=', range.gte], ['<', range.lt]] as const) {
    if (bound === undefined) continue;
    if (!Number.isFinite(bound)) throw new RangeError(`range bound must be a finite number, got ${bound}`);
    params.push(JSON.stringify(bound));
    text += ` AND ${value} ${op} $${params.length}::jsonb`;
  }
  return text;
}

/** The text of a field in byte (code point) order: what the prefix index holds. */
function prefixExpression(name: string): string {
  return `(doc->>'${field(name)}') COLLATE "C"`;
}

/**
 * Any of the fields in [value, upper bound): a range per field, so that with the 'prefix' indexes the
 * planner reads only the matches of each (a bitmap OR) instead of every document of the collection.
 */
function prefixClause(prefix: PrefixFilter | undefined, params: unknown[]): string {
  if (!prefix || prefix.value === '' || prefix.fields.length === 0) return '';
  params.push(prefix.value);
  const lower = params.length;
  const upperValue = prefixUpperBound(prefix.value);
  let upper: number | undefined;
  if (upperValue !== undefined) {
    params.push(upperValue);
    upper = params.length;
  }
  const each = prefix.fields.map((name) => {
    const expression = prefixExpression(name);
    // jsonb_typeof keeps numbers and booleans (whose ->> text could match) out, as MongoDB does.
    const typed = `jsonb_typeof(doc->'${name}') = 'string'`;
    return upper === undefined
      ? `(${expression} >= $${lower} AND starts_with(doc->>'${name}', $${lower}) AND ${typed})`
      : `(${expression} >= $${lower} AND ${expression} < $${upper} AND ${typed})`;
  });
  return ` AND (${each.join(' OR ')})`;
}

function checkedWhere(where: Record<string, Scalar>): Record<string, Scalar> {
  for (const key of Object.keys(where)) field(key);
  return where;
}
