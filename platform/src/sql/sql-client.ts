/**
 * One small seam over the two PostgreSQL engines we run: the `pg` server driver and PGlite (WASM
 * PostgreSQL in-process). The SQL adapters (event store, document store) speak only this.
 */
import pg from 'pg';
import type { PGlite, Transaction } from '@electric-sql/pglite';

export type Row = Record<string, unknown>;

export interface SqlExecutor {
  query<R extends Row = Row>(text: string, params?: unknown[]): Promise<R[]>;
}

export interface SqlClient extends SqlExecutor {
  readonly engine: 'postgres' | 'pglite';
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Runs statements without parameters (DDL); several may be separated by ';'. */
  exec(text: string): Promise<void>;
  close(): Promise<void>;
}

export interface PostgresOptions {
  connectionString: string;
  /** Schema holding our tables; created when missing. Tests use one schema per suite. */
  schema?: string;
  max?: number;
  /**
   * The subscription horizon (pg_snapshot_xmin) is server-wide: a session idle in a transaction
   * would stall every subscriber, so sessions that forget to commit are cut off.
   */
  idleInTransactionTimeoutMs?: number;
}

export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe SQL identifier: ${name}`);
  return `"${name}"`;
}

export class PostgresClient implements SqlClient {
  readonly engine = 'postgres' as const;
  readonly pool: pg.Pool;

  constructor(options: PostgresOptions) {
    const settings = [`-c idle_in_transaction_session_timeout=${options.idleInTransactionTimeoutMs ?? 30_000}`];
    if (options.schema) settings.push(`-c search_path=${quoteIdent(options.schema)},public`);
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.max ?? 10,
      options: settings.join(' '),
    });
    // An idle client that errors (server restart) must not crash the process; the next query reconnects.
    this.pool.on('error', () => {});
  }

  async query<R extends Row = Row>(text: string, params: unknown[] = []): Promise<R[]> {
    const result = await this.pool.query(text, params);
    return result.rows as R[];
  }

  async exec(text: string): Promise<void> {
    await this.pool.query(text);
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const tx: SqlExecutor = {
        query: async <R extends Row = Row>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as R[],
      };
      const result = await fn(tx);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

export class PgliteClient implements SqlClient {
  readonly engine = 'pglite' as const;
  constructor(
    readonly db: PGlite,
    private readonly ownsDb = true,
  ) {}

  async query<R extends Row = Row>(text: string, params: unknown[] = []): Promise<R[]> {
    return (await this.db.query<R>(text, params)).rows;
  }

  async exec(text: string): Promise<void> {
    await this.db.exec(text);
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx: Transaction) =>
      fn({ query: async <R extends Row = Row>(text: string, params: unknown[] = []) => (await tx.query<R>(text, params)).rows }),
    );
  }

  async close(): Promise<void> {
    if (this.ownsDb && !this.db.closed) await this.db.close();
  }
}

/** Normalise the integer types the two drivers return (string, number or bigint) at the edge. */
export function toBigInt(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' || typeof value === 'string') return BigInt(value);
  throw new TypeError(`expected an integer, got ${typeof value}`);
}
