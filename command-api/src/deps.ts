import type { Config } from '@papertrade/platform/config/config';
import type { Logger } from '@papertrade/platform/config/logger';
import type { CommandHandler } from '@papertrade/platform/commands/command-handler';
import type { EventStore } from '@papertrade/platform/event-store/event-store';
import type { ReadModels } from '@papertrade/platform/projections/read-models';
import type { TokenService } from '@papertrade/platform/auth/tokens';
import type { SlidingWindowCounter } from '@papertrade/platform/http/rate-limiter';
import type { HeadPort } from '@papertrade/platform/http/min-position';

export interface CommandApiDeps {
  config: Pick<
    Config,
    'TRUST_PROXY' | 'RESERVATION_ORPHAN_AFTER_MS' | 'LOGIN_MAX_FAILURES_PER_ACCOUNT' | 'LOGIN_ACCOUNT_WINDOW_MS' | 'LOGIN_MAX_ATTEMPTS_PER_IP' | 'LOGIN_IP_WINDOW_MS'
  >;
  eventStore: EventStore;
  handler: CommandHandler;
  readModels: ReadModels;
  /** The event store's head (cached), to refuse an X-Min-Position no projection will reach. */
  head: HeadPort;
  tokens: TokenService;
  /** Key for request fingerprints kept in event metadata (an HMAC, so a body with a password cannot be guessed back). */
  requestHashKey: string;
  logger: Logger;
  limits: { perAccount: SlidingWindowCounter; perIp: SlidingWindowCounter };
}
