/**
 * The AI chat's per-user rate limit (issue 20): CHAT_MAX_PER_USER questions per CHAT_WINDOW_MS (20 a
 * minute by default), counted with `rate-limiter-flexible` in the sign-in limits' store (memory in the
 * embedded process, the `rate_limits` table on PostgreSQL, MongoDB), so every query-api instance counts
 * against the same number. A question costs reads and, with a language model configured, its tokens:
 * past the limit a 429 names it, with Retry-After. Keys are hashed user ids.
 */
import { createHash } from 'node:crypto';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { TooManyRequestsError } from '@papertrade/domain/shared/errors';
import { createLimiter, type LimitStore } from '@papertrade/platform/auth/sign-in-limits';

export interface ChatLimitSettings {
  perUser: number;
  windowMs: number;
}

export function chatLimitMessage({ perUser, windowMs }: ChatLimitSettings): string {
  const window = windowMs % 60_000 === 0 ? (windowMs === 60_000 ? 'a minute' : `${windowMs / 60_000} minutes`) : `${Math.ceil(windowMs / 1000)} seconds`;
  return `Too many chat messages: the AI chat answers at most ${perUser} questions per user in ${window}; please wait and try again`;
}

export class ChatLimit {
  private readonly limiter: RateLimiterAbstract;

  /** `store` must have been through prepareLimitStore. */
  constructor(
    store: LimitStore,
    private readonly settings: ChatLimitSettings,
  ) {
    this.limiter = createLimiter(store, 'ai-chat-user', settings.perUser, settings.windowMs);
  }

  /** Spends one question of the user, or refuses with a 429 and Retry-After. */
  async spend(userId: string): Promise<void> {
    try {
      await this.limiter.consume(createHash('sha256').update(userId).digest('base64url'));
    } catch (error) {
      if (error instanceof RateLimiterRes) {
        throw new TooManyRequestsError(chatLimitMessage(this.settings), { limit: this.settings.perUser, windowMs: this.settings.windowMs }).retryAfter(Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
      }
      throw error;
    }
  }
}
