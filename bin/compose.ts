/**
 * The composition root: turns configuration into the dependencies of each service. Used by the
 * embedded single process (bin/start.ts) and by each service started on its own (bin/start-service.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { loadConfig, type Config } from '@papertrade/platform/config/config';
import { createLogger, type Logger } from '@papertrade/platform/config/logger';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { TokenService } from '@papertrade/platform/auth/tokens';
import { IDENTITY_MAX_AGE_MS, IdentityCache } from '@papertrade/platform/auth/identity-cache';
import { DEFAULT_SIGN_IN_LIMITS, SignInLimits } from '@papertrade/platform/auth/sign-in-limits';
import { ApiCallCounter } from '@papertrade/platform/auth/api-call-counter';
import { cachedHead, type HeadPort } from '@papertrade/platform/http/min-position';
import { OwnWrites } from '@papertrade/platform/http/own-writes';
import { createMarketData } from '@papertrade/platform/market/create-market-data';
import { resolveMarketSeed } from '@papertrade/platform/market/market-seed';
import { resolveSecretsKey } from '@papertrade/platform/secrets/secrets-key';
import { SecretVault } from '@papertrade/platform/secrets/secret-vault';
import { CcxtExchangeGateway } from '@papertrade/platform/exchanges/ccxt-exchange';
import type { ExchangeGateway } from '@papertrade/platform/exchanges/exchange-gateway';
import type { MarketData } from '@papertrade/platform/market/market-data';
import { CachedMarketData } from '@papertrade/platform/market/cached-market-data';
import { SimulatedMarketData } from '@papertrade/platform/market/simulated-market-data';
import { READ_CACHE_MAX_AGE_MS, ReadModelCache } from '@papertrade/platform/projections/read-model-cache';
import { Projector } from '@papertrade/platform/projections/projector';
import { createInfrastructure, type Infrastructure } from '@papertrade/platform/runtime/infrastructure';
import type { CommandApiDeps } from '@papertrade/command-api/deps';
import { StripeCheckout, TestCheckout, type CheckoutProvider } from '@papertrade/command-api/subscription/checkout-provider';
import { CheckoutLimit } from '@papertrade/command-api/subscription/checkout-limit';
import type { QueryApiDeps } from '@papertrade/query-api/deps';
import { ChatLimit } from '@papertrade/query-api/assistant/chat-limit';
import type { ChatModel } from '@papertrade/platform/assistant/chat-model';
import { GroundedChatModel } from '@papertrade/platform/assistant/grounded-chat-model';
import { OpenAiCompatibleChatModel } from '@papertrade/platform/assistant/openai-chat-model';
import { projections } from '@papertrade/projectors/projections';
import type { RegistrationDeps } from '@papertrade/command-api/auth/register-account';
import { MarketFeed, marketTickSource } from '@papertrade/workers/market-feed';
import { StrategyEngine } from '@papertrade/workers/strategies/strategy-engine';
import { storedStrategyModels } from '@papertrade/workers/strategies/strategy-models';
import { SignalEngine } from '@papertrade/workers/signal-engine';
import { DEFAULT_BOT_CONCURRENCY, TradingBot } from '@papertrade/workers/trading-bot';
import { RiskMonitor } from '@papertrade/workers/risk-monitor';
import { SubscriptionExpiry } from '@papertrade/workers/subscription-expiry';
import { JobRunner } from '@papertrade/workers/jobs/job-runner';
import { modelTrainingJob } from '@papertrade/workers/ml/model-training-job';
import { backtestJobs } from '@papertrade/workers/jobs/backtest-jobs';
import { inProcessBacktestEngine } from '@papertrade/workers/jobs/backtest-engine';
import { BacktestRunnerThread } from '@papertrade/workers/jobs/backtest-runner-thread';
import { WalkForwardPool } from '@papertrade/workers/backtest/walk-forward-pool';
import { intervalSourceOf } from '@papertrade/workers/ml/training-candles';
import { ensureHouseModel } from '@papertrade/workers/ml/house-model';
import { AutoRetrainer } from '@papertrade/workers/ml/auto-retrain';
import { TestnetMirror } from '@papertrade/workers/testnet-mirror';

export interface Runtime {
  config: Config;
  /**
   * One process runs everything (bin/start.ts), where defaults for one laptop apply: its projector's
   * change notices reach its APIs on the in-process bus.
   */
  embedded: boolean;
  logger: Logger;
  infra: Infrastructure;
  clock: () => Date;
  jwtSecret: string;
  /** One cached head per process, shared by the APIs it runs. */
  head: HeadPort;
  /** One market per process (it caches what it computes or fetches), shared by query-api and the workers. */
  marketData: MarketData;
  /** One per process: in the embedded mode its memory store is what both APIs count and read. */
  apiCalls: ApiCallCounter;
  /**
   * The exchange secrets' vault under SECRETS_KEY, resolved on first use (generated in the embedded
   * data folder; required elsewhere, so command-api and workers resolve it at start and refuse to
   * start without it: bin/start-service.ts). Processes that hold no exchange secret never ask.
   */
  exchangeSecrets(): SecretVault;
  /** ccxt, pointed at EXCHANGE_API_URL when set (tests). */
  exchangeGateway: ExchangeGateway;
}

/** Embedded mode generates a secret into the data folder; every other mode must be given one. */
function jwtSecret(config: Config, embedded: boolean): string {
  if (config.JWT_SECRET) return config.JWT_SECRET;
  if (!embedded) throw new Error('JWT_SECRET is required outside the embedded mode (at least 32 characters)');
  const file = path.resolve(config.DATA_DIR, 'jwt-secret');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
  }
  return fs.readFileSync(file, 'utf8').trim();
}

/**
 * `holdsSecrets`: the process keeps exchange secrets (command-api, workers, the embedded app): its
 * SECRETS_KEY is resolved before anything opens, so a service without one refuses to start.
 */
export async function createRuntime(service: string, options: { embedded: boolean; env?: NodeJS.ProcessEnv; holdsSecrets?: boolean }): Promise<Runtime> {
  const config = loadConfig(options.env ?? process.env);
  const logger = createLogger(service, { silent: config.LOG === 'off' });
  const secret = jwtSecret(config, options.embedded);
  // Before the stores open: a service without its market seed refuses to start, as without JWT_SECRET.
  const marketSeed = resolveMarketSeed(config, { embedded: options.embedded });
  let secretsKey = options.holdsSecrets ? resolveSecretsKey(config, { embedded: options.embedded }) : undefined;
  const infra = await createInfrastructure(config, { service, logger });
  const head = cachedHead(() => infra.eventStore.headPosition());
  const clock = () => new Date();
  const marketData = createMarketData(config, clock, marketSeed);
  let vault: SecretVault | undefined;
  const exchangeSecrets = () => (vault ??= new SecretVault(infra.documents, (secretsKey ??= resolveSecretsKey(config, { embedded: options.embedded })), clock));
  const exchangeGateway = new CcxtExchangeGateway({ ...(config.EXCHANGE_API_URL ? { apiOrigin: config.EXCHANGE_API_URL } : {}), timeoutMs: config.EXCHANGE_TIMEOUT_MS });
  return { config, logger, infra, clock, jwtSecret: secret, head, marketData, apiCalls: new ApiCallCounter(infra.limitStore, clock), embedded: options.embedded, exchangeSecrets, exchangeGateway };
}

export function registrationDeps(rt: Runtime): RegistrationDeps {
  return { eventStore: rt.infra.eventStore, handler: new CommandHandler(rt.infra.eventStore, rt.clock), orphanAfterMs: rt.config.RESERVATION_ORPHAN_AFTER_MS };
}

export const TEST_CHECKOUT_REFUSED =
  'STRIPE_SECRET_KEY is required outside the embedded mode: without it the built-in test checkout would give Premium to anyone for nothing. Set STRIPE_SECRET_KEY (and STRIPE_WEBHOOK_SECRET), or TEST_CHECKOUT=on for a deployment where payments are only a test';

/**
 * Stripe when STRIPE_SECRET_KEY is set; otherwise the built-in test checkout (no real money), which
 * only the embedded default uses unasked: every other mode must say TEST_CHECKOUT=on, so that a
 * production deployment that forgot its Stripe key refuses to start rather than give Premium away.
 */
export function checkoutKind(config: Pick<Config, 'STRIPE_SECRET_KEY' | 'TEST_CHECKOUT'>, embedded: boolean): CheckoutProvider['kind'] {
  if (config.STRIPE_SECRET_KEY) return 'stripe';
  if ((config.TEST_CHECKOUT ?? (embedded ? 'on' : 'off')) === 'on') return 'test';
  throw new Error(`Invalid configuration: ${TEST_CHECKOUT_REFUSED}`);
}

export function checkoutProvider(config: Config, handler: CommandHandler, embedded: boolean): CheckoutProvider {
  return checkoutKind(config, embedded) === 'stripe' ? StripeCheckout.fromConfig(config.STRIPE_SECRET_KEY!, config.STRIPE_API_URL) : new TestCheckout(handler);
}

/** The caller's last write on any stream (the event store's index on the actor), for read-your-own-writes. */
export function ownWritesOf(rt: Runtime): OwnWrites {
  return new OwnWrites(rt.infra.readModels, (actor, after) => rt.infra.eventStore.lastPositionByActor(actor, after));
}

export function commandApiDeps(rt: Runtime): CommandApiDeps {
  const { config } = rt;
  const handler = new CommandHandler(rt.infra.eventStore, rt.clock);
  return {
    config,
    eventStore: rt.infra.eventStore,
    handler,
    checkout: checkoutProvider(config, handler, rt.embedded),
    checkoutLimit: new CheckoutLimit(rt.infra.limitStore, { perAccount: config.CHECKOUT_MAX_PER_ACCOUNT, windowMs: config.CHECKOUT_ACCOUNT_WINDOW_MS }),
    readModels: rt.infra.readModels,
    ownWrites: ownWritesOf(rt),
    head: rt.head,
    tokens: new TokenService(rt.jwtSecret, rt.clock),
    requestHashKey: `request-hash:${rt.jwtSecret}`,
    logger: rt.logger,
    marketData: rt.marketData,
    apiCalls: rt.apiCalls,
    exchangeSecrets: rt.exchangeSecrets,
    exchangeGateway: rt.exchangeGateway,
    limits: new SignInLimits(rt.infra.limitStore, {
      failuresPerAccountAndAddress: config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      accountAndAddressWindowMs: config.LOGIN_ACCOUNT_WINDOW_MS,
      failuresPerAccount: config.LOGIN_MAX_FAILURES_ANY_ADDRESS,
      accountWindowMs: config.LOGIN_ANY_ADDRESS_WINDOW_MS,
      attemptsPerAddress: config.LOGIN_MAX_ATTEMPTS_PER_IP,
      addressWindowMs: config.LOGIN_IP_WINDOW_MS,
      signupsPerAddress: config.SIGNUP_MAX_PER_IP,
      signupWindowMs: config.SIGNUP_IP_WINDOW_MS,
      knownAddressMs: DEFAULT_SIGN_IN_LIMITS.knownAddressMs,
    }),
  };
}

/**
 * In the embedded process the projector's change notices reach the APIs on the in-process bus and
 * none is lost, so a kept read is dropped by its notice and the age limit is only a safety net;
 * across processes (NATS, at most once) a lost notice is bounded by the 2 s of the identity cache.
 */
const IN_PROCESS_READ_CACHE_MAX_AGE_MS = 60_000;

/** The per-process cache of the polled reads, subscribed to the change notices (read-model-cache.ts). */
export function readCacheOf(rt: Runtime): ReadModelCache {
  const cache = new ReadModelCache(rt.infra.readModels, (actor, after) => rt.infra.eventStore.lastPositionByActor(actor, after), {
    maxAgeMs: rt.embedded && rt.config.BUS === 'memory' ? IN_PROCESS_READ_CACHE_MAX_AGE_MS : READ_CACHE_MAX_AGE_MS,
  });
  // Not awaited (queryApiDeps is synchronous): the in-process bus subscribes at once; until a NATS
  // subscription is in place, entries are still read again after READ_CACHE_MAX_AGE_MS.
  cache.listen().catch((error: unknown) => rt.logger.warn('read cache could not subscribe to change notices', { error: String(error) }));
  return cache;
}

/**
 * Who a token's user is, per process (platform/src/auth/identity-cache.ts), listening to the users
 * change notices. The embedded process loses no notice either, so there an entry is re-read after
 * 60 s rather than IDENTITY_MAX_AGE_MS: every signed-in poll passes through it, and 100 users
 * re-read every 2 s were 50 PGlite reads a second.
 */
export function identitiesOf(rt: Runtime): IdentityCache {
  const identities = IdentityCache.over(rt.infra.readModels, { maxAgeMs: rt.embedded && rt.config.BUS === 'memory' ? IN_PROCESS_READ_CACHE_MAX_AGE_MS : IDENTITY_MAX_AGE_MS });
  const bus = rt.infra.readModels.bus;
  if (bus) identities.listen(bus).catch((error: unknown) => rt.logger.warn('identity cache could not subscribe to change notices', { error: String(error) }));
  return identities;
}

/** The AI chat's model: an OpenAI-compatible endpoint when CHAT_API_URL is set, else the grounded assistant (offline). */
export function chatModelOf(rt: Runtime): ChatModel {
  const { CHAT_API_URL, CHAT_API_KEY, CHAT_MODEL, CHAT_TIMEOUT_MS } = rt.config;
  if (!CHAT_API_URL) return new GroundedChatModel();
  return new OpenAiCompatibleChatModel({ url: CHAT_API_URL, apiKey: CHAT_API_KEY, model: CHAT_MODEL!, timeoutMs: CHAT_TIMEOUT_MS }, rt.logger);
}

export function queryApiDeps(rt: Runtime): QueryApiDeps {
  return {
    readModels: rt.infra.readModels,
    readCache: readCacheOf(rt),
    head: rt.head,
    ownWrites: ownWritesOf(rt),
    tokens: new TokenService(rt.jwtSecret, rt.clock),
    logger: rt.logger,
    clock: rt.clock,
    trustProxy: rt.config.TRUST_PROXY,
    marketData: CachedMarketData.over(rt.marketData, rt.clock),
    events: rt.infra.eventStore,
    apiCalls: rt.apiCalls,
    chat: chatModelOf(rt),
    chatLimit: new ChatLimit(rt.infra.limitStore, { perUser: rt.config.CHAT_MAX_PER_USER, windowMs: rt.config.CHAT_WINDOW_MS }),
    ...whatIfRunnerOf(rt),
  };
}

/**
 * The assistant's what-if runner: the backtester on a worker thread of this process (started on the
 * first what-if, one run at a time), over the simulated market's path bounded by now; none where the
 * market is another one.
 */
function whatIfRunnerOf(rt: Runtime): Pick<QueryApiDeps, 'whatIf'> {
  const simulated = rt.marketData instanceof SimulatedMarketData ? rt.marketData : null;
  if (!simulated) return {};
  const thread = new BacktestRunnerThread();
  const never = new AbortController().signal;
  return {
    whatIf: ({ config, profile, userId }) =>
      thread.run({ key: Array.from(simulated.key), lastTick: simulated.ticks.lastTick(), config, rules: { profile }, userId, liveSignalIds: config.strategyId === 'house-signals' }, () => {}, never),
  };
}

/** The market feed worker: a tick per coin on the bus every MARKET_TICK_MS (workers/src/market-feed.ts). */
export function createMarketFeed(rt: Runtime): MarketFeed {
  return new MarketFeed({
    bus: rt.infra.bus,
    ticks: marketTickSource(rt.marketData),
    intervalMs: rt.config.MARKET_TICK_MS,
    logger: rt.logger,
  });
}

export function createProjector(rt: Runtime): Projector {
  const { eventStore, documents, bus, leases } = rt.infra;
  return new Projector({ eventStore, documents, bus, leases, logger: rt.logger }, projections);
}

/** Every worker of the workers service (and of the embedded process), started and stopped together. */
export interface Workers {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** One status per worker, for GET /api/health. */
  statuses(): unknown[];
  tradingBot: TradingBot;
  riskMonitor: RiskMonitor;
  subscriptionExpiry: SubscriptionExpiry;
  jobRunner: JobRunner;
  testnetMirror: TestnetMirror;
  autoRetrain: AutoRetrainer;
}

export function createWorkers(rt: Runtime): Workers {
  const { eventStore, documents, leases, bus, readModels } = rt.infra;
  const handler = new CommandHandler(eventStore, rt.clock);
  const feed = createMarketFeed(rt);
  // The users' AI strategies, evaluated once per distinct configuration after each coin's house signal.
  const strategies = new StrategyEngine({ readModels, handler, documents, logger: rt.logger });
  const signals = new SignalEngine({ marketData: rt.marketData, handler, clock: rt.clock, logger: rt.logger, strategies });
  // PGlite runs one query at a time: more batches of bots in flight only queue ahead of the projector
  // and the APIs sharing it; a server pool gains from a few.
  const concurrency = rt.config.EVENT_STORE === 'pglite' ? 2 : DEFAULT_BOT_CONCURRENCY;
  const tradingBot = new TradingBot({ eventStore, documents, leases, readModels, handler, marketData: rt.marketData, clock: rt.clock, logger: rt.logger, concurrency });
  const riskMonitor = new RiskMonitor({ bus, readModels, leases, handler, marketData: rt.marketData, clock: rt.clock, logger: rt.logger });
  const subscriptionExpiry = new SubscriptionExpiry({ readModels, handler, clock: rt.clock, logger: rt.logger });
  // Long jobs (model training, backtests, walk-forwards): every workers process runs one runner; the jobs spread over them.
  const backtestThread = new BacktestRunnerThread();
  // The walk-forward's threads start with the first walk-forward, not with every workers process.
  let pool: WalkForwardPool | undefined;
  const walkForwardPool = { run: (...args: Parameters<WalkForwardPool['run']>) => (pool ??= new WalkForwardPool()).run(...args) };
  const jobRunner = new JobRunner(
    { handler, readModels, bus, clock: rt.clock, logger: rt.logger },
    {
      kinds: [
        modelTrainingJob({ handler, documents, candles: intervalSourceOf(rt.marketData), clock: rt.clock, logger: rt.logger }),
        ...backtestJobs({ handler, events: eventStore, engine: inProcessBacktestEngine(rt.marketData, { thread: backtestThread, walkForwardPool, models: storedStrategyModels(eventStore, documents) }), logger: rt.logger }),
      ],
      leaseMs: rt.config.JOB_LEASE_MS,
    },
  );
  // Settings' autoRetrain: each user's own model trained again once a day, through the same trainer.
  const autoRetrain = new AutoRetrainer({ readModels, handler, clock: rt.clock, logger: rt.logger });
  // Mirror to testnet: the bot's paper trades as market orders on the user's connected testnets.
  const testnetMirror = new TestnetMirror({ eventStore, documents, leases, readModels, handler, secrets: rt.exchangeSecrets, gateway: rt.exchangeGateway, clock: rt.clock, logger: rt.logger });
  return {
    tradingBot,
    riskMonitor,
    subscriptionExpiry,
    jobRunner,
    testnetMirror,
    autoRetrain,
    async start() {
      await riskMonitor.start(); // listening before the first tick goes out
      feed.start();
      signals.start();
      await tradingBot.start();
      await testnetMirror.start();
      subscriptionExpiry.start();
      await jobRunner.start();
      autoRetrain.start();
      if (rt.config.HOUSE_MODEL === 'on') {
        void ensureHouseModel({ handler, clock: rt.clock, logger: rt.logger }).catch((error: unknown) => rt.logger.warn('house model request failed; the next start asks again', { error: String(error) }));
      }
    },
    async stop() {
      await feed.stop();
      await signals.stop();
      await tradingBot.stop();
      await testnetMirror.stop();
      await riskMonitor.stop();
      await subscriptionExpiry.stop();
      await jobRunner.stop();
      await autoRetrain.stop();
      await backtestThread.close();
      await pool?.close();
    },
    statuses: () => [feed.status(), signals.status(), tradingBot.status(), riskMonitor.status(), subscriptionExpiry.status(), jobRunner.status(), testnetMirror.status(), autoRetrain.status()],
  };
}
