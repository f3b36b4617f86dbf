/**
 * One small seam over the two PostgreSQL engines we run: the `pg` server driver and PGlite (WASM
 * PostgreSQL in-process). The SQL adapters (event store, document store) speak only this.
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import pLimit from 'p-limit';
import type { PGlite, Transaction } from '@electric-sql/pglite';

export type Row = Record<string, unknown>;

export interface QueryOptions {
  /**
   * Keep the statement prepared on each connection (PostgreSQL: a named statement, parsed once per
   * connection, its plan cached). For the hot statements of fixed text whose plan does not depend on
   * the values (equality lookups, the appends): after five runs PostgreSQL may use one generic plan
   * for all values. PGlite runs in this process and ignores it.
   */
  prepare?: boolean;
}

export interface SqlExecutor {
  query<R extends Row = Row>(text: string, params?: unknown[], options?: QueryOptions): Promise<R[]>;
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

/** Statement names by text: a hash of the text, so two texts never share a name on a connection. */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `p_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}

function pgQuery(text: string, params: unknown[], options: QueryOptions | undefined): pg.QueryConfig {
  return options?.prepare ? { name: statementName(text), text, values: params } : { text, values: params };
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

  async query<R extends Row = Row>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<R[]> {
    const result = await this.pool.query(pgQuery(text, params, options));
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
        query: async <R extends Row = Row>(text: string, params: unknown[] = [], options?: QueryOptions) => (await client.query(pgQuery(text, params, options))).rows as R[],
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

  private ended: Promise<void> | undefined;

  /** Ends the pool; once, when the stores of a process share it (runtime/infrastructure.ts) and each closes. */
  async close(): Promise<void> {
    await (this.ended ??= this.pool.end());
  }
}

/** How long PGlite may run statements back to back before the event loop gets a turn. */
export const PGLITE_BUSY_MS = 50;

/**
 * PGlite runs each statement synchronously on the event loop's thread (WASM). Its own queue starts
 * the next statement as soon as the previous one settles, in the same microtask run, so with many
 * requests queued (200 sign-ups) it can hold the thread for seconds: no timer fires, no socket is
 * read, every other request waits. This client queues statements itself (one statement or
 * transaction inside PGlite at a time, which is what PGlite does anyway) and, once PGlite has run
 * for PGLITE_BUSY_MS without the event loop turning, yields with setImmediate before the next
 * statement, inside transactions too.
 */
export class PgliteClient implements SqlClient {
  readonly engine = 'pglite' as const;
  private readonly turn = pLimit(1);
  /** When the current run of statements without an event loop turn began. */
  private busySince = 0;
  /** A setImmediate is pending that marks the next event loop turn. */
  private awaitingTurn = false;

  private readonly busyMs: number;

  constructor(
    readonly db: PGlite,
    private readonly ownsDb = true,
    options: { busyMs?: number } = {},
  ) {
    this.busyMs = options.busyMs ?? PGLITE_BUSY_MS;
  }

  async query<R extends Row = Row>(text: string, params: unknown[] = []): Promise<R[]> {
    return this.turn(async () => {
      await this.yieldIfBusy();
      return (await this.db.query<R>(text, params)).rows;
    });
  }

  async exec(text: string): Promise<void> {
    await this.turn(async () => {
      await this.yieldIfBusy();
      await this.db.exec(text);
    });
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.turn(async () => {
      await this.yieldIfBusy();
      return this.db.transaction(async (tx: Transaction) =>
        fn({
          query: async <R extends Row = Row>(text: string, params: unknown[] = []) => {
            await this.yieldIfBusy();
            return (await tx.query<R>(text, params)).rows;
          },
        }),
      );
    });
  }

  /** Before a statement: a turn for the event loop if it has not had one for `busyMs`. */
  private async yieldIfBusy(): Promise<void> {
    if (!this.awaitingTurn) {
      // The loop has turned since the last mark (or this is the first statement): a new run starts.
      this.busySince = performance.now();
      this.awaitingTurn = true;
      setImmediate(() => (this.awaitingTurn = false));
    }
    if (performance.now() - this.busySince >= this.busyMs) await new Promise<void>((resolve) => setImmediate(resolve));
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
