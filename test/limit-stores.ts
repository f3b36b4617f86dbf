/**
 * The stores the rate limits run on in the limit specs (platform/src/auth): in memory, and on the
 * PostgreSQL server in a schema of the spec's own, dropped afterwards; and the 429 a call answers.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { TooManyRequestsError } from '@papertrade/domain/shared/errors';
import { prepareLimitStore, type LimitStore } from '@papertrade/platform/auth/sign-in-limits';
import { POSTGRES_URL } from './services';

export interface LimitStoreBackend {
  name: string;
  services?: 'postgres';
  make(): Promise<{ store: LimitStore; close(): Promise<void> }>;
}

/** In memory, and on PostgreSQL in a schema named `{label}_…`. */
export function limitStoreBackends(label: string): LimitStoreBackend[] {
  return [
    { name: 'in memory', make: async () => ({ store: { kind: 'memory' }, close: async () => {} }) },
    {
      name: 'on PostgreSQL',
      services: 'postgres',
      async make() {
        const schema = `${label}_${randomUUID().slice(0, 8)}`;
        const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 2 });
        const store: LimitStore = { kind: 'postgres', pool, schema };
        await prepareLimitStore(store);
        return {
          store,
          close: async () => {
            await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
            await pool.end();
          },
        };
      },
    },
  ];
}

/** The 429 a call answers, or null when it passes (any other error is thrown). */
export async function refusal(call: Promise<unknown>): Promise<TooManyRequestsError | null> {
  try {
    await call;
    return null;
  } catch (error) {
    if (error instanceof TooManyRequestsError) return error;
    throw error;
  }
}
