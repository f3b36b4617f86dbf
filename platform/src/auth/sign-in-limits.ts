/**
 * Limits on sign-in and sign-up attempts, kept with `rate-limiter-flexible` in memory (embedded: one
 * process), in PostgreSQL (cluster) or in MongoDB (production), so that every command-api instance
 * counts against the same limits.
 *
 * A stranger must not be able to lock an owner out, so failures are counted per account *and*
 * address: five wrong passwords from one address block that address for that account for 15 minutes,
 * not the account. Against a spread-out guessing attack, failures are also counted per account from
 * any address: past 50 in an hour only the addresses the account has signed in from before may
 * still try. Each address gets 20 attempts a minute (sign-ups spend one too), and 10 sign-ups an hour.
 *
 * Keys are hashed: the store never holds an email or an address in plain text, and a key always fits.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { MongoClient } from 'mongodb';
import { RateLimiterMemory, RateLimiterMongo, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { TooManyRequestsError } from '@papertrade/domain/shared/errors';

export interface SignInLimitSettings {
  /** Failed sign-ins per account from one address, per window (5 in 15 minutes). */
  failuresPerAccountAndAddress: number;
  accountAndAddressWindowMs: number;
  /** Failed sign-ins per account from any address, per window (50 an hour); then only known addresses. */
  failuresPerAccount: number;
  accountWindowMs: number;
  /** Sign-in and sign-up attempts per address, per window (20 a minute). */
  attemptsPerAddress: number;
  addressWindowMs: number;
  /** Sign-ups per address, per window (10 an hour). */
  signupsPerAddress: number;
  signupWindowMs: number;
  /** How long a successful sign-in keeps its address known to the account (90 days). */
  knownAddressMs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimitSettings = {
  failuresPerAccountAndAddress: 5,
  accountAndAddressWindowMs: 15 * 60_000,
  failuresPerAccount: 50,
  accountWindowMs: 60 * 60_000,
  attemptsPerAddress: 20,
  addressWindowMs: 60_000,
  signupsPerAddress: 10,
  signupWindowMs: 60 * 60_000,
  knownAddressMs: 90 * 24 * 60 * 60_000,
};

/** Where the counters live. */
export type LimitStore =
  | { kind: 'memory' }
  | { kind: 'postgres'; pool: pg.Pool; schema?: string | undefined }
  | { kind: 'mongodb'; client: MongoClient; dbName?: string | undefined };

export const RATE_LIMIT_TABLE = 'rate_limits';

export const MESSAGES = {
  address: 'Too many sign-in attempts from this address; please wait a minute and try again',
  accountAndAddress: 'Too many failed sign-in attempts for this account; please try again in 15 minutes',
  account: 'Too many failed sign-in attempts for this account from new places; please try again later from a device you have signed in with before',
  signups: 'Too many sign-ups from this address; please try again later',
} as const;

const hashed = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('base64url');

/**
 * The memory store expires keys with a timer, and Node fires a timer of more than 2^31-1 ms (about 24.8
 * days) at once: longer windows are cut to that there (one process's memory forgets on restart anyway).
 */
const MAX_TIMER_MS = 2 ** 31 - 1;
const seconds = (store: LimitStore, ms: number) => (store.kind === 'memory' ? Math.min(ms, MAX_TIMER_MS) : ms) / 1000;

/** A rate-limiter-flexible limiter on `store` (also the monthly API call counter's, api-call-counter.ts). */
export function createLimiter(store: LimitStore, keyPrefix: string, points: number, windowMs: number): RateLimiterAbstract {
  const options = { keyPrefix, points, duration: seconds(store, windowMs) };
  switch (store.kind) {
    case 'memory':
      return new RateLimiterMemory(options);
    case 'postgres':
      // The table is created once by prepareLimitStore.
      return new RateLimiterPostgres({ ...options, storeClient: store.pool, storeType: 'pool', tableName: RATE_LIMIT_TABLE, schemaName: store.schema, tableCreated: true, clearExpiredByTimeout: true });
    case 'mongodb':
      return new RateLimiterMongo({ ...options, storeClient: store.client, dbName: store.dbName, tableName: RATE_LIMIT_TABLE });
  }
}

/** Seconds until a blocked key may try again (at least 1). */
const retryAfter = (res: RateLimiterRes | null) => Math.max(1, Math.ceil((res?.msBeforeNext ?? 1000) / 1000));

/** A limiter's refusal is a RateLimiterRes; anything else (the store failed) is a real error. */
async function spend(l: RateLimiterAbstract, key: string, message: string): Promise<void> {
  try {
    await l.consume(key);
  } catch (error) {
    if (error instanceof RateLimiterRes) throw new TooManyRequestsError(message).retryAfter(retryAfter(error));
    throw error;
  }
}

export class SignInLimits {
  private readonly perAddress: RateLimiterAbstract;
  private readonly perAccountAndAddress: RateLimiterAbstract;
  private readonly perAccount: RateLimiterAbstract;
  private readonly signups: RateLimiterAbstract;
  private readonly known: RateLimiterAbstract;
  private readonly knownForSeconds: number;

  /** `store` must have been through prepareLimitStore. */
  constructor(
    store: LimitStore,
    readonly settings: SignInLimitSettings,
  ) {
    this.perAddress = createLimiter(store, 'attempts-address', settings.attemptsPerAddress, settings.addressWindowMs);
    this.perAccountAndAddress = createLimiter(store, 'failures-account-address', settings.failuresPerAccountAndAddress, settings.accountAndAddressWindowMs);
    this.perAccount = createLimiter(store, 'failures-account', settings.failuresPerAccount, settings.accountWindowMs);
    this.signups = createLimiter(store, 'signups-address', settings.signupsPerAddress, settings.signupWindowMs);
    this.known = createLimiter(store, 'known-address', 1, settings.knownAddressMs);
    this.knownForSeconds = seconds(store, settings.knownAddressMs);
  }

  /** Every sign-in and sign-up attempt from an address spends one of its attempts. */
  async spendAttempt(address: string): Promise<void> {
    await spend(this.perAddress, hashed(address), MESSAGES.address);
  }

  async spendSignup(address: string): Promise<void> {
    await spend(this.signups, hashed(address), MESSAGES.signups);
  }

  /** Refuses (429) before the password is checked when this account may not be tried from here now. */
  async checkAccount(account: string, address: string): Promise<void> {
    const [here, anywhere] = await Promise.all([this.perAccountAndAddress.get(hashed(account, address)), this.perAccount.get(hashed(account))]);
    if (here && here.consumedPoints >= this.settings.failuresPerAccountAndAddress) {
      throw new TooManyRequestsError(MESSAGES.accountAndAddress).retryAfter(retryAfter(here));
    }
    if (anywhere && anywhere.consumedPoints >= this.settings.failuresPerAccount && !(await this.isKnown(account, address))) {
      throw new TooManyRequestsError(MESSAGES.account).retryAfter(retryAfter(anywhere));
    }
  }

  async recordFailure(account: string, address: string): Promise<void> {
    await Promise.all([
      this.perAccountAndAddress.penalty(hashed(account, address), 1),
      this.perAccount.penalty(hashed(account), 1),
    ]);
  }

  /** A success clears this address's failures for the account and makes the address known to it. */
  async recordSuccess(account: string, address: string): Promise<void> {
    await Promise.all([this.perAccountAndAddress.delete(hashed(account, address)), this.known.set(hashed(account, address), 1, this.knownForSeconds)]);
  }

  private async isKnown(account: string, address: string): Promise<boolean> {
    return ((await this.known.get(hashed(account, address)))?.consumedPoints ?? 0) > 0;
  }
}

/** Creates the PostgreSQL table once, before any limiter uses it (concurrent CREATE TABLEs race in PostgreSQL). */
export async function prepareLimitStore(store: LimitStore): Promise<void> {
  if (store.kind !== 'postgres') return;
  const table = store.schema ? `"${store.schema}"."${RATE_LIMIT_TABLE}"` : `"${RATE_LIMIT_TABLE}"`;
  if (store.schema) await store.pool.query(`CREATE SCHEMA IF NOT EXISTS "${store.schema}"`).catch(ignoreConcurrentCreate);
  // The columns rate-limiter-flexible's PostgreSQL store reads and writes.
  await store.pool
    .query(`CREATE TABLE IF NOT EXISTS ${table} (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`)
    .catch(ignoreConcurrentCreate);
}

function ignoreConcurrentCreate(error: unknown): void {
  // Two processes creating the same table or schema at once: one of them gets a unique violation.
  if ((error as { code?: string }).code !== '23505' && (error as { code?: string }).code !== '42P06') throw error;
}
