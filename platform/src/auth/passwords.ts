/**
 * scrypt from node:crypto. The stored form is `scrypt$N$r$p$salt$hash` (base64), so parameters can be
 * raised later without breaking old hashes.
 *
 * scrypt runs in libuv's thread pool, off the event loop, but on the same cores: with the pool's four
 * threads busy on a 2-core machine (200 sign-ups at once), the event loop's thread gets a fraction of
 * a core and every other request waits. So at most SCRYPT_CONCURRENCY derivations run at once (one
 * core left to the event loop); the others queue here, not in the pool, which also keeps the pool
 * free for file and DNS work.
 */
import os from 'node:os';
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import pLimit from 'p-limit';

const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;

export const SCRYPT_CONCURRENCY = Math.max(1, os.availableParallelism() - 1);

const slots = pLimit(SCRYPT_CONCURRENCY);

/** How many derivations run and wait now (for tests and diagnostics). */
export const scryptSlots = (): { active: number; pending: number } => ({ active: slots.activeCount, pending: slots.pendingCount });

function derive(password: string, salt: Buffer, n: number, r: number, p: number, keyLength: number): Promise<Buffer> {
  return slots(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password, salt, keyLength, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key))),
      ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P, KEY_LENGTH);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p), expected.length);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Spends the same time as a real check when there is no account, so timing reveals nothing. */
let dummyHash: Promise<string> | undefined;
export async function dummyVerify(password: string): Promise<false> {
  dummyHash ??= hashPassword('not-a-real-password');
  await verifyPassword(password, await dummyHash);
  return false;
}
