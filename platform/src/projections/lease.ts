/**
 * One writer per projection at a time. PostgreSQL: a session advisory lock held on a dedicated
 * connection (released when that connection ends, so a crashed projector frees it). In-process: for
 * the embedded mode, whose data folder is already locked against a second process.
 */
import pg from 'pg';

export interface Lease {
  release(): Promise<void>;
}

export interface LeaseProvider {
  /** The lease, or null when another instance holds it. */
  tryAcquire(name: string): Promise<Lease | null>;
  close(): Promise<void>;
}

export class MemoryLeaseProvider implements LeaseProvider {
  private readonly held = new Set<string>();
  async tryAcquire(name: string): Promise<Lease | null> {
    if (this.held.has(name)) return null;
    this.held.add(name);
    return { release: async () => void this.held.delete(name) };
  }
  async close(): Promise<void> {
    this.held.clear();
  }
}

export class PostgresLeaseProvider implements LeaseProvider {
  private readonly clients = new Set<pg.Client>();
  constructor(
    private readonly connectionString: string,
    /** Lock keys are namespaced so separate test schemas do not contend. */
    private readonly namespace = 'papertrade',
  ) {}

  async tryAcquire(name: string): Promise<Lease | null> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('error', () => {});
    await client.connect();
    const key = `${this.namespace}:${name}`;
    const rows = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok', [key]);
    if (!rows.rows[0]?.ok) {
      await client.end();
      return null;
    }
    this.clients.add(client);
    return {
      release: async () => {
        if (!this.clients.delete(client)) return;
        await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]).catch(() => {});
        await client.end().catch(() => {});
      },
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients].map((c) => c.end().catch(() => {})));
    this.clients.clear();
  }
}
