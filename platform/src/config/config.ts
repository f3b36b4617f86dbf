/** Environment configuration, validated once at start. */
import { z } from 'zod';

const flag = z
  .enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true' || v === 'on' || v === 'yes');

/** An optional setting given empty (e.g. `STRIPE_SECRET_KEY=`) counts as not given. */
const emptyAsAbsent = (v: unknown) => (v === '' ? undefined : v);

const count = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('./data'),
  EVENT_STORE: z.enum(['pglite', 'postgres', 'eventstoredb']).default('pglite'),
  READ_STORE: z.enum(['pglite', 'postgres', 'mongodb']).default('pglite'),
  BUS: z.enum(['memory', 'nats']).default('memory'),
  DATABASE_URL: z.string().optional(),
  /** Schema for our tables on a shared PostgreSQL (tests and the cluster test isolate with it). */
  DATABASE_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]*$/).optional(),
  NATS_URL: z.string().optional(),
  /** Prefix for bus subjects (isolates test runs sharing a NATS server). */
  NATS_PREFIX: z.string().optional(),
  EVENTSTORE_URL: z.string().optional(),
  MONGODB_URL: z.string().optional(),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  TRUST_PROXY: flag,
  DEMO_SEED: z.enum(['on', 'off']).default('on'),
  ADMIN_EMAIL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  /** Failed sign-ins per account from one address in LOGIN_ACCOUNT_WINDOW_MS (see platform/src/auth/sign-in-limits.ts). */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: count(5),
  LOGIN_ACCOUNT_WINDOW_MS: count(15 * 60 * 1000),
  /** Failed sign-ins per account from any address in LOGIN_ANY_ADDRESS_WINDOW_MS; past it only known addresses may try. */
  LOGIN_MAX_FAILURES_ANY_ADDRESS: count(50),
  LOGIN_ANY_ADDRESS_WINDOW_MS: count(60 * 60 * 1000),
  /** Sign-in and sign-up attempts per address in LOGIN_IP_WINDOW_MS. */
  LOGIN_MAX_ATTEMPTS_PER_IP: count(20),
  LOGIN_IP_WINDOW_MS: count(60 * 1000),
  SIGNUP_MAX_PER_IP: count(10),
  SIGNUP_IP_WINDOW_MS: count(60 * 60 * 1000),
  RESERVATION_ORPHAN_AFTER_MS: count(60 * 1000),
  /** Open real-time sockets (/ws) one client address may hold at once (query-api/src/realtime/relay.ts). */
  REALTIME_MAX_SOCKETS_PER_ADDRESS: count(20),
  /** Where prices come from (platform/src/market): the deterministic simulated market, or CoinGecko's public API. */
  MARKET_DATA: z.enum(['simulated', 'coingecko']).default('simulated'),
  /**
   * The simulated market's secret seed (platform/src/market/market-seed.ts): every process with the
   * same seed sees the same market, and whoever knows it knows every future price. No default:
   * generated into the data folder in the embedded mode, required from the environment elsewhere.
   */
  MARKET_SEED: z.preprocess(emptyAsAbsent, z.string().min(16, 'MARKET_SEED must be at least 16 characters').optional()),
  COINGECKO_URL: z.url({ protocol: /^https?$/ }).default('https://api.coingecko.com/api/v3'),
  /** How often the market feed worker publishes every coin's price on the bus (workers/src/market-feed.ts). */
  MARKET_TICK_MS: count(5000),
  /** Model trainings (create or retrain) a user may request per UTC day (issue 19). */
  ML_TRAININGS_PER_DAY: count(10),
  /** How long a long job's claim lasts unless its worker renews it (workers/src/jobs/job-runner.ts). */
  JOB_LEASE_MS: count(30_000),
  /** Train the house model (what visitors see) on first start: off for suites that do not want the CPU spent. */
  HOUSE_MODEL: z.enum(['on', 'off']).default('on'),
  /**
   * The AI chat (query-api/src/assistant): without CHAT_API_URL the grounded assistant answers (offline);
   * with it, an OpenAI-compatible Chat Completions endpoint (base URL, e.g. https://api.openai.com/v1),
   * CHAT_MODEL naming the model (required with it) and CHAT_API_KEY its bearer key (never logged).
   */
  CHAT_API_URL: z.preprocess(emptyAsAbsent, z.url({ protocol: /^https?$/ }).optional()),
  CHAT_API_KEY: z.preprocess(emptyAsAbsent, z.string().min(1).optional()),
  CHAT_MODEL: z.preprocess(emptyAsAbsent, z.string().min(1).max(200).optional()),
  /** How long one reply of the language model may take, all tool rounds together. */
  CHAT_TIMEOUT_MS: count(20_000),
  /** Chat questions per user in CHAT_WINDOW_MS (query-api/src/assistant/chat-limit.ts). */
  CHAT_MAX_PER_USER: count(20),
  CHAT_WINDOW_MS: count(60_000),
  WEB_DIST: z.string().optional(),
  /**
   * Stripe (command-api/src/subscription): with a secret key checkout goes to Stripe; without one
   * (the embedded default) a built-in test checkout page stands in ("Test payment — no real money").
   */
  STRIPE_SECRET_KEY: z.preprocess(emptyAsAbsent, z.string().min(1).optional()),
  /** The webhook endpoint's signing secret (whsec_...); without it POST /api/stripe/webhook answers 503. */
  STRIPE_WEBHOOK_SECRET: z.preprocess(emptyAsAbsent, z.string().min(1).optional()),
  /**
   * The built-in test checkout without Stripe ("Test payment — no real money": anyone signed in gets
   * Premium for nothing). The embedded default uses it when no STRIPE_SECRET_KEY is set; every other
   * mode refuses to start without a Stripe key unless this is `on` (bin/compose.ts checkoutProvider).
   */
  TEST_CHECKOUT: z.preprocess(emptyAsAbsent, z.enum(['on', 'off']).optional()),
  /** Checkout calls per account in CHECKOUT_ACCOUNT_WINDOW_MS (each may be a call to Stripe). */
  CHECKOUT_MAX_PER_ACCOUNT: count(10),
  CHECKOUT_ACCOUNT_WINDOW_MS: count(60 * 60 * 1000),
  /** Another Stripe API base URL (a local fake in tests, stripe-mock); default Stripe's own. */
  STRIPE_API_URL: z.preprocess(emptyAsAbsent, z.url({ protocol: /^https?$/ }).optional()),
  /** The public origin of the web app, for checkout's return URLs; default the request's own origin. */
  PUBLIC_URL: z.preprocess(emptyAsAbsent, z.url({ protocol: /^https?$/ }).optional()),
  /**
   * The key that encrypts exchange API secrets at rest (platform/src/secrets/secrets-key.ts): 32 bytes
   * as 64 hex characters or base64. No default: generated into the data folder in the embedded mode,
   * required by command-api and workers elsewhere.
   */
  SECRETS_KEY: z.preprocess(emptyAsAbsent, z.string().optional()),
  /**
   * Tests only: every exchange API URL's origin is replaced by this one (a local fake exchange,
   * test/fake-exchange-server.ts). Never set in production: ccxt then speaks to the exchanges themselves.
   */
  EXCHANGE_API_URL: z.preprocess(emptyAsAbsent, z.url({ protocol: /^https?$/ }).optional()),
  /** How long a request to an exchange may take before it counts as a timeout (ms). */
  EXCHANGE_TIMEOUT_MS: count(10_000),
  LOG: z.enum(['on', 'off']).default('on'),
});

export type Config = z.infer<typeof configSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const config = result.data;
  if (config.EVENT_STORE === 'postgres' || config.READ_STORE === 'postgres') requireVar(config, 'DATABASE_URL');
  if (config.EVENT_STORE === 'eventstoredb') requireVar(config, 'EVENTSTORE_URL');
  if (config.READ_STORE === 'mongodb') requireVar(config, 'MONGODB_URL');
  if (config.BUS === 'nats') requireVar(config, 'NATS_URL');
  if (config.CHAT_API_URL && !config.CHAT_MODEL) throw new Error('Invalid configuration: CHAT_MODEL is required with CHAT_API_URL (the model the endpoint should answer with)');
  return config;
}

function requireVar(config: Config, name: 'DATABASE_URL' | 'EVENTSTORE_URL' | 'MONGODB_URL' | 'NATS_URL') {
  if (!config[name]) throw new Error(`Invalid configuration: ${name} is required for the selected adapters`);
}
