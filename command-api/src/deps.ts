import type { Config } from '@papertrade/platform/config/config';
import type { Logger } from '@papertrade/platform/config/logger';
import type { CommandHandler } from '@papertrade/platform/commands/command-handler';
import type { EventStore } from '@papertrade/platform/event-store/event-store';
import type { ReadModels } from '@papertrade/platform/projections/read-models';
import type { TokenService } from '@papertrade/platform/auth/tokens';
import type { SignInLimits } from '@papertrade/platform/auth/sign-in-limits';
import type { ApiCallCounter } from '@papertrade/platform/auth/api-call-counter';
import type { HeadPort } from '@papertrade/platform/http/min-position';
import type { OwnWrites } from '@papertrade/platform/http/own-writes';
import type { MarketData } from '@papertrade/platform/market/market-data';
import type { SecretVault } from '@papertrade/platform/secrets/secret-vault';
import type { ExchangeGateway } from '@papertrade/platform/exchanges/exchange-gateway';
import type { CheckoutProvider } from './subscription/checkout-provider';
import type { CheckoutLimit } from './subscription/checkout-limit';

export interface CommandApiDeps {
  config: Pick<Config, 'TRUST_PROXY' | 'RESERVATION_ORPHAN_AFTER_MS' | 'PUBLIC_URL' | 'STRIPE_WEBHOOK_SECRET' | 'ML_TRAININGS_PER_DAY'>;
  eventStore: EventStore;
  handler: CommandHandler;
  readModels: ReadModels;
  /** The event store's head (cached), to refuse an X-Min-Position no projection will reach. */
  head: HeadPort;
  tokens: TokenService;
  /** Key for request fingerprints kept in event metadata (an HMAC, so a body with a password cannot be guessed back). */
  requestHashKey: string;
  logger: Logger;
  /** Sign-in and sign-up attempts, counted where every command-api instance sees them. */
  limits: SignInLimits;
  /** The plan's monthly API calls (usage/api-call-limit.ts), counted where query-api reads them too. */
  apiCalls: ApiCallCounter;
  /** Where a manual trade's fill price comes from (never the client): the process's one market. */
  marketData: Pick<MarketData, 'price' | 'prices' | 'quotesAt'>;
  /** Stripe (STRIPE_SECRET_KEY) or the built-in test checkout (command-api/src/subscription). */
  checkout: CheckoutProvider;
  /** Exchange API keys at rest (sealed under SECRETS_KEY), resolved on first use. */
  exchangeSecrets: () => SecretVault;
  /** Where a connection test fetches the balance (ccxt). */
  exchangeGateway: ExchangeGateway;
  /** Checkout calls per account (subscription/checkout-limit.ts). */
  checkoutLimit: CheckoutLimit;
  /**
   * The caller's last write, so that a premium or admin guard about to refuse first sees the effect
   * of the caller's own payment or plan change (platform/src/auth/guards.ts). Without it the guards
   * judge by the cached user alone.
   */
  ownWrites?: OwnWrites;
}
