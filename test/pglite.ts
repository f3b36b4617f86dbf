/**
 * PGlite's initdb costs seconds; tests copy a data folder initialised once per machine instead.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { PgliteClient, type SqlClient } from '@papertrade/platform/sql/sql-client';

const version: string = JSON.parse(
  fs.readFileSync(new URL('../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8'),
).version;
const templateDir = path.join(os.tmpdir(), `papertrade-pglite-template-${version}`);
let building: Promise<void> | undefined;

async function ensureTemplate(): Promise<void> {
  if (fs.existsSync(path.join(templateDir, 'PG_VERSION'))) return;
  building ??= (async () => {
    const staging = `${templateDir}.${process.pid}.${randomUUID()}`;
    const db = new PGlite(staging);
    await db.waitReady;
    await db.close();
    try {
      fs.renameSync(staging, templateDir);
    } catch {
      fs.rmSync(staging, { recursive: true, force: true }); // another process won the race
    }
  })();
  await building;
}

/** Copies the template into `dir` (created), ready for `new PGlite(dir)`. */
export async function preparePgliteDir(dir: string): Promise<void> {
  await ensureTemplate();
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  fs.cpSync(templateDir, dir, { recursive: true });
}

/** A fresh PGlite in its own temporary folder; `cleanup` closes it and removes the folder. */
export async function freshPglite(): Promise<{ db: PGlite; dir: string; cleanup(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'papertrade-pglite-'));
  const dataDir = path.join(dir, 'pg');
  await preparePgliteDir(dataDir);
  const db = new PGlite(dataDir);
  await db.waitReady;
  return {
    db,
    dir,
    cleanup: async () => {
      if (!db.closed) await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh PGlite's SqlClient for the suite it is called in (its `before` opens it, its `after` closes
 * it): `const client = pgliteClientForSuite();` then `client()` in the tests.
 */
export function pgliteClientForSuite(): () => SqlClient {
  let opened: { client: SqlClient; cleanup(): Promise<void> } | undefined;
  before(async function () {
    const pglite = await freshPglite();
    opened = { client: new PgliteClient(pglite.db, false), cleanup: pglite.cleanup };
  });
  after(async function () {
    await opened?.cleanup();
  });
  return () => {
    if (!opened) throw new Error('the suite has not opened its PGlite yet');
    return opened.client;
  };
}
