/**
 * The plan's monthly API calls (the catalogue's `limits.apiCalls`: 1000 for Free Starter, none for
 * Premium Pro), counted with `rate-limiter-flexible` in the same stores as the sign-in limits
 * (sign-in-limits.ts): in memory for PGlite (the embedded process runs both APIs, which share this
 * one counter), in the `rate_limits` table on PostgreSQL, in MongoDB in production, so every
 * command-api instance counts against the same number and query-api reads it for GET /api/subscription.
 *
 * What counts (a product decision, DESIGN.md section 6): a signed-in user's command calls (POST, PUT,
 * DELETE to command-api), per calendar month in UTC; command-api's api-call-limit.ts says which
 * routes are left out so that a capped user can still sign in and out and upgrade.
 *
 * The month is in the key (`{userId}:2026-11`), so a new month starts from 0 whatever the store's
 * expiry does; the expiry only clears old months away (the month's end plus a day on the servers).
 * The memory store expires with a timer that cannot run past 24.8 days (sign-in-limits.ts), so there a
 * month's key never expires: one small record per active user and month, until the process restarts,
 * and a restart of the embedded process forgets the month's count (as it forgets the sign-in limits).
 */
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { planForTier } from '@papertrade/domain/plans/catalogue';
import { TooManyRequestsError } from '@papertrade/domain/shared/errors';
import { createLimiter, type LimitStore } from './sign-in-limits';

export const API_CALLS_KEY_PREFIX = 'api-calls';
/** The limiter itself never refuses (the plan's limit is checked here); the PostgreSQL store's points column is an int4. */
const NEVER_REFUSED = 2 ** 31 - 1;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The calendar month in UTC that `at` falls in, e.g. '2026-11'. */
export const monthOf = (at: Date): string => at.toISOString().slice(0, 7);

/** Milliseconds from `at` to the start of the next calendar month in UTC. */
export function msToMonthEnd(at: Date): number {
  return Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1) - at.getTime();
}

/** The 429's message: names the limit and the plan that has none. */
export function apiCallLimitMessage(limit: number): string {
  const free = planForTier('FREE').name;
  const premium = planForTier('PREMIUM').name;
  return `Monthly API call limit reached: the ${free} plan allows ${limit} API calls per calendar month (UTC), and this month's are used up. Upgrade to ${premium} for unlimited API calls, or wait until the 1st of next month.`;
}

export class ApiCallCounter {
  private readonly limiter: RateLimiterAbstract;

  /** `store` must have been through prepareLimitStore; `clock` says which month it is. */
  constructor(
    private readonly store: LimitStore,
    private readonly clock: () => Date,
  ) {
    this.limiter = createLimiter(store, API_CALLS_KEY_PREFIX, NEVER_REFUSED, 0);
  }

  private keyAt(userId: string, at: Date): string {
    return `${userId}:${monthOf(at)}`;
  }

  /** Seconds the month's key is kept: never expires in memory (see above), the month's rest and a day elsewhere. */
  private keepFor(at: Date): { customDuration: number } {
    return { customDuration: this.store.kind === 'memory' ? 0 : Math.ceil((msToMonthEnd(at) + DAY_MS) / 1000) };
  }

  /**
   * Counts one call of the user this month. With a `limit` (null: the plan sets none), a call beyond
   * it is refused with a 429 and not counted: the count stops at the limit. Concurrent calls cannot
   * slip past it, since each one's increment is atomic in the store and the refused ones are taken back.
   * Answers the calls used this month, this one included.
   */
  async spend(userId: string, limit: number | null): Promise<number> {
    const at = this.clock();
    const key = this.keyAt(userId, at);
    const { consumedPoints } = await this.limiter.consume(key, 1, this.keepFor(at));
    if (limit !== null && consumedPoints > limit) {
      await this.limiter.reward(key, 1, this.keepFor(at));
      throw new TooManyRequestsError(apiCallLimitMessage(limit), { limit, used: limit }).retryAfter(msToMonthEnd(at) / 1000);
    }
    return consumedPoints;
  }

  /** The calls the user made this month. */
  async used(userId: string): Promise<number> {
    return (await this.limiter.get(this.keyAt(userId, this.clock())))?.consumedPoints ?? 0;
  }

  /** Adds calls to this month's count without a request (for tests that start a user near the limit). */
  async record(userId: string, calls: number): Promise<void> {
    const at = this.clock();
    await this.limiter.penalty(this.keyAt(userId, at), calls, this.keepFor(at));
  }
}
