/**
 * SECRETS_KEY: the key that encrypts exchange API secrets at rest (AES-256-GCM, secret-box.ts).
 *
 * Format: 32 random bytes written as 64 hexadecimal characters, or as base64 / base64url (43 or 44
 * characters). Anything that does not decode to exactly 32 bytes is refused, so a passphrase typed in
 * by hand cannot weaken the cipher. Generate one with `openssl rand -hex 32`.
 *
 * Where it comes from (`resolveSecretsKey`), as the JWT secret and the market seed:
 * - `SECRETS_KEY` in the environment when set: a cluster's command-api and workers share it;
 * - otherwise, in the embedded mode only, the file `secrets-key` in the data folder, generated (32
 *   random bytes, hex) on first start with mode 0600 in a folder of mode 0700;
 * - otherwise (a cluster or production service that holds exchange secrets, i.e. command-api and
 *   workers, without SECRETS_KEY) the service refuses to start.
 * It is never logged, served or put in an event. `npm run rotate-secrets` re-encrypts every stored
 * secret under a new key (bin/rotate-secrets.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const SECRETS_KEY_FILE = 'secrets-key';
export const SECRETS_KEY_BYTES = 32;

export const SECRETS_KEY_FORMAT = '32 bytes as 64 hex characters or as base64 (e.g. `openssl rand -hex 32`)';

/** The 32-byte key a SECRETS_KEY text stands for; throws (without echoing the text) when it is not one. */
export function parseSecretsKey(text: string, name = 'SECRETS_KEY'): Buffer {
  const trimmed = text.trim();
  let key: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) key = Buffer.from(trimmed, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(trimmed)) key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (!key || key.length !== SECRETS_KEY_BYTES) throw new Error(`${name} must be ${SECRETS_KEY_FORMAT}`);
  return key;
}

/** A short public name of a key (the first 8 bytes of its SHA-256, hex): which key encrypted a record, never the key. */
export function secretsKeyId(key: Buffer): string {
  return createHash('sha256').update('papertrade secrets key id\n').update(key).digest('hex').slice(0, 16);
}

export interface SecretsKeySource {
  SECRETS_KEY?: string | undefined;
  DATA_DIR: string;
}

export function generateSecretsKeyText(): string {
  return randomBytes(SECRETS_KEY_BYTES).toString('hex');
}

/** This process's secrets key; see the file's header. */
export function resolveSecretsKey(config: SecretsKeySource, options: { embedded: boolean }): Buffer {
  if (config.SECRETS_KEY) return parseSecretsKey(config.SECRETS_KEY);
  if (!options.embedded) {
    throw new Error(`SECRETS_KEY is required outside the embedded mode (it encrypts exchange API secrets): ${SECRETS_KEY_FORMAT}, the same for command-api and workers`);
  }
  const file = path.resolve(config.DATA_DIR, SECRETS_KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      fs.writeFileSync(file, generateSecretsKeyText(), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return parseSecretsKey(fs.readFileSync(file, 'utf8'), file);
}
