/** Each PostgreSQL suite works in a schema of its own, dropped afterwards. */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PostgresClient } from '@papertrade/platform/sql/sql-client';
import { POSTGRES_URL } from './services';

export function uniqueSchema(label: string): string {
  return `t_${label}_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

export function postgresClient(schema: string, max = 10): PostgresClient {
  return new PostgresClient({ connectionString: POSTGRES_URL, schema, max });
}
