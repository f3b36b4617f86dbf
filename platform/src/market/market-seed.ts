/**
 * The simulated market's seed: a secret per deployment. Whoever knows it knows every future price
 * (the market is a pure function of it), so it is never written in the source, never logged, never
 * served, and never put in an event.
 *
 * Where it comes from (`resolveMarketSeed`):
 * - `MARKET_SEED` in the environment, when set (at least 16 characters): how a cluster's services
 *   share one market (each process must compute the same prices);
 * - otherwise, in the embedded mode only, the file `market-seed` in the data folder, generated
 *   (32 random bytes, base64url) on first start with mode 0600 in a folder of mode 0700, as the
 *   JWT secret is; every later start reads it, so the market's past stays the same across restarts;
 * - otherwise (a cluster or production service without MARKET_SEED) the service refuses to start.
 * Only the simulated market needs one: with MARKET_DATA=coingecko there is nothing to resolve.
 *
 * The domain's ChaCha key is the SHA-256 digest of the seed's UTF-8 bytes (`marketKeyFromSeed`).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { chachaKeyFromBytes, type ChaChaKey } from '@papertrade/domain/market/chacha';

export const MARKET_SEED_FILE = 'market-seed';
export const MARKET_SEED_MIN_LENGTH = 16;

export function marketKeyFromSeed(seed: string): ChaChaKey {
  if (seed.length < MARKET_SEED_MIN_LENGTH) throw new RangeError(`MARKET_SEED must be at least ${MARKET_SEED_MIN_LENGTH} characters`);
  return chachaKeyFromBytes(createHash('sha256').update(seed, 'utf8').digest());
}

export interface MarketSeedSource {
  MARKET_DATA: 'simulated' | 'coingecko';
  MARKET_SEED?: string | undefined;
  DATA_DIR: string;
}

/** The market seed this process uses (undefined when the market is not simulated); see the file's header. */
export function resolveMarketSeed(config: MarketSeedSource, options: { embedded: boolean }): string | undefined {
  if (config.MARKET_DATA !== 'simulated') return undefined;
  if (config.MARKET_SEED) return config.MARKET_SEED;
  if (!options.embedded) {
    throw new Error(`MARKET_SEED is required outside the embedded mode when MARKET_DATA=simulated (at least ${MARKET_SEED_MIN_LENGTH} characters, the same for every service)`);
  }
  const file = path.resolve(config.DATA_DIR, MARKET_SEED_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // 'wx': two processes racing on a fresh folder cannot both write one (the data folder's lock comes later).
    try {
      fs.writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const seed = fs.readFileSync(file, 'utf8').trim();
  if (seed.length < MARKET_SEED_MIN_LENGTH) throw new Error(`${file} holds no usable market seed (at least ${MARKET_SEED_MIN_LENGTH} characters); remove it to generate a new one`);
  return seed;
}
