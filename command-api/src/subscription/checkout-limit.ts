/**
 * Checkout calls per account (CHECKOUT_MAX_PER_ACCOUNT in CHECKOUT_ACCOUNT_WINDOW_MS, 10 an hour by
 * default), counted with `rate-limiter-flexible` in the sign-in limits' store (memory, PostgreSQL or
 * MongoDB), so every command-api instance counts against the same number. The account's one open
 * checkout already keeps a burst to one session; this bounds what a burst still costs (a Stripe
 * call to check a session, an event store read) and a loop that opens a session, lets it expire and
 * opens another. Every call spends one, a repeat that answers the open session included.
 */
import { createHash } from 'node:crypto';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { TooManyRequestsError } from '@papertrade/domain/shared/errors';
import { createLimiter, type LimitStore } from '@papertrade/platform/auth/sign-in-limits';

export const CHECKOUT_LIMIT_MESSAGE = 'Too many checkouts from this account; please wait and try again later (your open checkout, if any, is still there)';

export class CheckoutLimit {
  private readonly limiter: RateLimiterAbstract;

  /** `store` must have been through prepareLimitStore. */
  constructor(store: LimitStore, settings: { perAccount: number; windowMs: number }) {
    this.limiter = createLimiter(store, 'checkouts-account', settings.perAccount, settings.windowMs);
  }

  /** Spends one checkout of the account, or refuses with a 429 and Retry-After. */
  async spend(userId: string): Promise<void> {
    try {
      await this.limiter.consume(createHash('sha256').update(userId).digest('base64url'));
    } catch (error) {
      if (error instanceof RateLimiterRes) throw new TooManyRequestsError(CHECKOUT_LIMIT_MESSAGE).retryAfter(Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
      throw error;
    }
  }
}
