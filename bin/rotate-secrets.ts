/**
 * `npm run rotate-secrets`: re-encrypts every stored exchange secret under a new SECRETS_KEY.
 *
 * - Embedded (the default, `DATA_DIR`): the old key is the data folder's `secrets-key` (or SECRETS_KEY);
 *   the new one is NEW_SECRETS_KEY when given, else generated. It is written first to
 *   `secrets-key.next` (0600), every record is re-encrypted, then it replaces `secrets-key`. Stop the
 *   app first (the data folder is locked to one process). A run cut short is resumed by running it
 *   again: the `.next` key is reused and records already under it are left as they are.
 * - Cluster and production (EVENT_STORE / READ_STORE not pglite): the old key is SECRETS_KEY and the new
 *   one NEW_SECRETS_KEY, both required (e.g. `openssl rand -hex 32`). Stop command-api and workers,
 *   run this, then start them with SECRETS_KEY set to the new key.
 *
 * Neither key is printed; the output is the counts. Exit 0 on success, 1 on failure, 2 on a usage error.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '@papertrade/platform/config/config';
import { generateSecretsKeyText, parseSecretsKey, resolveSecretsKey, secretsKeyId, SECRETS_KEY_FILE } from '@papertrade/platform/secrets/secrets-key';
import { createRuntime } from './compose';
import { runMain } from './lifecycle';

export const NEXT_KEY_FILE = `${SECRETS_KEY_FILE}.next`;

class UsageError extends Error {}

async function main(): Promise<void> {
  if (process.argv.slice(2).length > 0) throw new UsageError('usage: npm run rotate-secrets (the new key from NEW_SECRETS_KEY, or generated in the embedded mode); no arguments');
  const env = { ...process.env, LOG: 'off' };
  const config = loadConfig(env);
  const embedded = config.EVENT_STORE === 'pglite' && config.READ_STORE === 'pglite';
  const given = process.env.NEW_SECRETS_KEY?.trim();
  let nextText: string;
  const nextFile = path.resolve(config.DATA_DIR, NEXT_KEY_FILE);
  if (embedded) {
    // A rotation cut short left its new key here: reuse it, so the records it already re-encrypted stay readable.
    if (fs.existsSync(nextFile)) nextText = fs.readFileSync(nextFile, 'utf8').trim();
    else {
      nextText = given || generateSecretsKeyText();
      parseSecretsKey(nextText, 'NEW_SECRETS_KEY');
      fs.mkdirSync(path.dirname(nextFile), { recursive: true, mode: 0o700 });
      fs.writeFileSync(nextFile, nextText, { mode: 0o600, flag: 'wx' });
    }
  } else {
    if (!config.SECRETS_KEY) throw new UsageError('SECRETS_KEY (the current key) is required outside the embedded mode');
    if (!given) throw new UsageError('NEW_SECRETS_KEY (the new key, e.g. `openssl rand -hex 32`) is required outside the embedded mode');
    nextText = given;
  }
  const next = parseSecretsKey(nextText, 'NEW_SECRETS_KEY');
  const current = resolveSecretsKey(config, { embedded });
  if (secretsKeyId(current) === secretsKeyId(next)) throw new UsageError('NEW_SECRETS_KEY is the current key');
  const rt = await createRuntime('rotate-secrets', { embedded, env, holdsSecrets: true });
  try {
    const { rotated, alreadyRotated } = await rt.exchangeSecrets().rotateTo(next);
    if (embedded && !config.SECRETS_KEY) {
      // The new key becomes the data folder's key only once every record is under it.
      fs.renameSync(nextFile, path.resolve(config.DATA_DIR, SECRETS_KEY_FILE));
      console.log(`Re-encrypted ${rotated} stored secret(s) (${alreadyRotated} already under the new key); the data folder's ${SECRETS_KEY_FILE} is the new key (id ${secretsKeyId(next)}).`);
    } else {
      if (embedded) fs.rmSync(nextFile, { force: true });
      console.log(`Re-encrypted ${rotated} stored secret(s) (${alreadyRotated} already under the new key). Start command-api and workers with SECRETS_KEY set to the new key (id ${secretsKeyId(next)}).`);
    }
  } finally {
    await rt.infra.close();
  }
}

if (process.argv[1]?.endsWith('rotate-secrets.ts')) {
  runMain(() =>
    main().catch((error: unknown) => {
      if (error instanceof UsageError) {
        console.error(error.message);
        process.exit(2);
      }
      throw error;
    }),
  );
}
