/**
 * Section 3 of both specifications, entity by entity, against the real answers of the embedded app
 * (PGlite, the simulated market at the real clock, the projector, the market feed and the socket
 * relay): a client written to the spec reads these names, so each entity is a zod schema written from
 * the spec's words (its names, and its types where the spec gives them), and a field that disappears
 * or changes type fails here. More fields in an answer are welcome (the schemas are not strict).
 *
 * The data is made the way the product makes it: sign-up and sign-in, a Premium bought through the
 * built-in test checkout and cancelled, a manual trade through POST /api/trades, a trade on a signal and
 * risk alerts through the deciders (as the trading bot and the risk monitor issue them), signals through
 * the signal decider (as the signal engine evaluates a candle), bot settings through their endpoint.
 *
 * Decisions recorded here (the spec leaves them open):
 * - Candle `timestamp` is the candle's open time in ms since the Unix epoch (UTC), like `time`; its
 *   time label is `timeLabel`, that moment in UTC ("Mar 4, 14:05" below a day's width, "Mar 4, 2026" from a day up).
 * - Signal `timestamp` is when it was generated, ISO-8601; "newest first" is by that time.
 * - Where the spec names a field that can be unknown, null stands for "not known": a trade's `pnl`
 *   (a closed BUY's P&L is on the SELL that closed it), a risk alert's `symbol` (the spec's "optional"),
 *   a usage `limit` (no limit), `endsAt` and `daysRemaining` (not cancelled), a name never given.
 *
 * - Backtest figures are fractions (winRate 0.5 is half); sharpeRatio and profitFactor are null where undefined.
 *
 * Entities whose endpoints do not exist yet are listed as pending, each naming the issue that builds it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { z } from 'zod';
import { coinIds } from '@papertrade/domain/market/coins';
import { signalsStreamId } from '@papertrade/domain/signals/signal';
import { signalDecider } from '@papertrade/domain/signals/signal.decider';
import type { IndicatorReadings } from '@papertrade/domain/signals/signal-rules';
import { portfolioStreamId } from '@papertrade/domain/trading/portfolio';
import { portfolioDecider } from '@papertrade/domain/trading/portfolio.decider';
import { riskStreamId } from '@papertrade/domain/trading/risk';
import { riskDecider, type RaiseRiskAlert } from '@papertrade/domain/trading/risk.decider';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { TokenService } from '@papertrade/platform/auth/tokens';
import { accountLookup } from '@papertrade/platform/auth/guards';
import { RealtimeRelay } from '@papertrade/query-api/realtime/relay';
import { RecordingClient } from '@papertrade/query-api/realtime/relay-test-client';
import { botStatusGreeting } from '@papertrade/query-api/trading/bot-status-greeting';
import { silentLogger } from '@papertrade/platform/config/logger';
import { JobRunner } from '@papertrade/workers/jobs/job-runner';
import { backtestJobs } from '@papertrade/workers/jobs/backtest-jobs';
import { inProcessBacktestEngine } from '@papertrade/workers/jobs/backtest-engine';
import { createMarketFeed } from '../bin/compose';
import { signalIdFor } from '../workers/src/signal-engine';
import { useHarness } from './api-harness';
import { waitUntil } from './wait';

// ---------------------------------------------------------------------------------------------
// Section 3, written from the spec's words. Types: the spec's where it gives them, else what the
// name plainly is (a price is a number, a flag a boolean, a time an ISO-8601 instant).

const num = z.number().finite();
const iso = z.iso.datetime();
const tier = z.enum(['FREE', 'PREMIUM']);
const status = z.enum(['ACTIVE', 'INACTIVE', 'CANCELLED', 'EXPIRED']);
const side = z.enum(['BUY', 'SELL']);
const severity = z.enum(['low', 'medium', 'high', 'critical']);
/** "id to symbol" of dashboard-and-sign-in.md section 3. */
const COIN_SYMBOLS = {
  ethereum: 'ETH',
  bitcoin: 'BTC',
  binancecoin: 'BNB',
  cardano: 'ADA',
  solana: 'SOL',
  polygon: 'MATIC',
  chainlink: 'LINK',
  'avalanche-2': 'AVAX',
  polkadot: 'DOT',
  uniswap: 'UNI',
} as const;

const dashboard = {
  /** User: email, firstName, username, subscriptionTier (FREE or PREMIUM), subscriptionStatus (ACTIVE seen), isAdmin (boolean). */
  user: z.object({ email: z.string(), firstName: z.string().nullable(), username: z.string(), subscriptionTier: tier, subscriptionStatus: status, isAdmin: z.boolean() }),
  /** Coin: name, symbol, icon, color. */
  coin: z.object({ name: z.string(), symbol: z.string(), icon: z.string(), color: z.string() }),
  /** Coin price: price, changePercent24h. */
  coinPrice: z.object({ price: num, changePercent24h: num.nullable() }),
  /** Candle: timestamp, time label, open, high, low, close, volume, optional sma20, sma50, ema20. */
  candle: z.object({
    timestamp: z.number().int(),
    timeLabel: z.string().min(1),
    open: num,
    high: num,
    low: num,
    close: num,
    volume: num,
    sma20: num.optional(),
    sma50: num.optional(),
    ema20: num.optional(),
  }),
  /** Signal: id, type (BUY, SELL or HOLD), symbol, description, price, confidence (percent), timestamp. */
  signal: z.object({ id: z.string(), type: z.enum(['BUY', 'SELL', 'HOLD']), symbol: z.string(), description: z.string().min(1), price: num, confidence: z.number().min(0).max(100), timestamp: iso }),
  /** Indicators: rsi, macd, macdSignal, ma20, volume level (HIGH, LOW or NORMAL). */
  indicators: z.object({ rsi: num, macd: num, macdSignal: num, ma20: num, volume: z.enum(['HIGH', 'LOW', 'NORMAL']) }),
  /** Trade: id, type (BUY or SELL), amount, price, pnl, timestamp; export also reads symbol, entryPrice, quantity, status. */
  trade: z.object({ id: z.string(), type: side, amount: num, price: num, pnl: num.nullable(), timestamp: iso, symbol: z.string(), entryPrice: num, quantity: num, status: z.string() }),
  /** Portfolio: totalValue, dailyPnL, totalPnl, ethHoldings, latestPrice (price, change24h, changePercent24h), mlStatus (accuracy), signalCounts (total, buy, sell, hold). */
  portfolio: z.object({
    totalValue: num,
    dailyPnL: num,
    totalPnl: num,
    ethHoldings: num,
    latestPrice: z.object({ price: num, change24h: num.nullable(), changePercent24h: num.nullable() }),
    // Pending with the ML status (see below): absent until a model exists.
    mlStatus: z.object({ accuracy: num }).optional(),
    signalCounts: z.object({ total: z.number().int(), buy: z.number().int(), sell: z.number().int(), hold: z.number().int() }),
  }),
  /** Risk settings: maxPositionSize (percent), stopLossPercent, takeProfitPercent, dailyLossLimit. */
  riskSettings: z.object({ maxPositionSize: num, stopLossPercent: num, takeProfitPercent: num, dailyLossLimit: num }),
  /** Active risk trade: riskPercentage, unrealizedPnL. */
  activeRiskTrade: z.object({ riskPercentage: num, unrealizedPnL: num }),
  /** Risk alert: severity (low, medium, high, critical), acknowledged. */
  riskAlert: z.object({ severity, acknowledged: z.boolean() }),
  /** Real-time message: type BOT_STATUS (with a status), MARKET_UPDATE or ML_UPDATE. */
  botStatusMessage: z.object({ type: z.literal('BOT_STATUS'), data: z.object({ status: z.string().min(1) }) }),
  marketUpdateMessage: z.object({ type: z.literal('MARKET_UPDATE') }),
  /** ML status: modelType, trainingDataDays, accuracy, lastTraining (null before the first training ends). */
  mlStatus: z.object({ modelType: z.string().min(1), trainingDataDays: z.number().int().positive(), accuracy: z.number().min(0).max(100).nullable(), lastTraining: iso.nullable() }),
  /** ML model type: id, name, description, complexity, accuracy, trainingTime. */
  mlModelType: z.object({ id: z.string(), name: z.string().min(1), description: z.string().min(1), complexity: z.string().min(1), accuracy: z.number().nullable(), trainingTime: z.string().min(1) }),
  mlUpdateMessage: z.object({ type: z.literal('ML_UPDATE') }),
  chatMessage: z.object({ id: z.string(), content: z.string(), role: z.enum(['assistant', 'user']), timestamp: iso }),
  chatReply: z.object({ response: z.string().min(1) }),
};

const premium = {
  /** Signal: type (BUY, SELL or other), description, price, confidence. */
  signal: z.object({ type: z.string(), description: z.string().min(1), price: num, confidence: num }),
  /** Trade: id, timestamp, type (BUY or SELL), amount (ETH), price, signal, pnl, status (OPEN or CLOSED, default OPEN). */
  trade: z.object({ id: z.string(), timestamp: iso, type: side, amount: num, price: num, signal: z.string().nullable(), pnl: num.nullable(), status: z.enum(['OPEN', 'CLOSED']) }),
  /** Bot settings: maxPositionSize, stopLoss, takeProfit, dailyLossLimit, enableNotifications, autoRetrain. */
  botSettings: z.object({ maxPositionSize: num, stopLoss: num, takeProfit: num, dailyLossLimit: num, enableNotifications: z.boolean(), autoRetrain: z.boolean() }),
  /** Risk parameters (twelve), and the risk summary's stopLossPercent, takeProfitPercent, dailyLossLimit. */
  riskParameters: z.object({
    maxPositionSize: num,
    maxConcurrentTrades: num,
    maxDailyLoss: num,
    maxDrawdown: num,
    stopLossType: z.enum(['fixed', 'trailing', 'atr', 'volatility']),
    stopLossValue: num,
    takeProfitRatio: num,
    riskRewardRatio: num,
    kellyCriterionEnabled: z.boolean(),
    dynamicPositionSizing: z.boolean(),
    correlationLimit: num,
    volatilityThreshold: num,
  }),
  riskSummary: z.object({ stopLossPercent: num, takeProfitPercent: num, dailyLossLimit: num }),
  /**
   * Active risk trade: id, symbol, entryPrice, currentPrice, quantity, stopLoss, takeProfit, riskAmount, riskPercentage, unrealizedPnL, timeInTrade (seconds).
   * stopLoss and takeProfit are null for a position without them (issue 17: a manual position keeps no automatic stop unless its person sets one).
   */
  activeRiskTrade: z.object({
    id: z.string(),
    symbol: z.string(),
    entryPrice: num,
    currentPrice: num,
    quantity: num,
    stopLoss: num.nullable(),
    takeProfit: num.nullable(),
    riskAmount: num,
    riskPercentage: num,
    unrealizedPnL: num,
    timeInTrade: z.number().int().nonnegative(),
  }),
  /** Risk alert: id, severity, symbol (optional), timestamp, message, value, threshold, acknowledged. */
  riskAlert: z.object({ id: z.string(), severity, symbol: z.string().nullable().optional(), timestamp: iso, message: z.string(), value: num, threshold: num, acknowledged: z.boolean() }),
  /** Subscription: tier, subscriptionStatus, isCancelled, endsAt (day, month, year, formatted), daysRemaining, usage (four, each with used and limit). */
  subscription: z.object({
    tier,
    subscriptionStatus: status,
    isCancelled: z.boolean(),
    endsAt: z.object({ day: z.number().int(), month: z.number().int(), year: z.number().int(), formatted: z.string() }).nullable(),
    daysRemaining: z.number().int().nullable(),
    usage: z.object(
      Object.fromEntries(['tradingStrategies', 'exchanges', 'apiCalls', 'trades'].map((k) => [k, z.object({ used: num, limit: num.nullable() })])) as Record<
        'tradingStrategies' | 'exchanges' | 'apiCalls' | 'trades',
        z.ZodObject<{ used: typeof num; limit: z.ZodNullable<typeof num> }>
      >,
    ),
  }),
  /** Admin-visible user: id, username, email, firstName, lastName, subscriptionTier, subscriptionStatus, createdAt. */
  adminUser: z.object({
    id: z.string(),
    username: z.string(),
    email: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    subscriptionTier: tier,
    subscriptionStatus: status,
    createdAt: z.string().refine((s) => Number.isFinite(Date.parse(s)), 'a date'),
  }),
  /** Admin stats response: totalUsers. */
  adminStats: z.object({ totalUsers: z.number().int() }),
  /**
   * Strategy: id, name, description, type (neural, technical, arbitrage), active, accuracy, profitFactor, sharpeRatio, winRate, maxDrawdown,
   * configuration; Strategy configuration per type (section 5's fields). Decision: the figures are null below 20 round trips ("not enough trades").
   */
  strategy: z.object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    type: z.enum(['neural', 'technical', 'arbitrage']),
    active: z.boolean(),
    accuracy: num.nullable(),
    profitFactor: num.nullable(),
    sharpeRatio: num.nullable(),
    winRate: num.nullable(),
    maxDrawdown: num.nullable(),
    configuration: z.union([
      z.object({ learningRate: num, epochs: num, confidenceThreshold: num }),
      z.object({ rsiPeriod: num, rsiOverbought: num, stopLoss: num, takeProfit: num }),
      z.object({ minSpread: num, maxPositionSize: num }),
    ]),
  }),
  /** Strategy performance: summary (totalReturn, totalTrades, winRate, sharpeRatio) and performance (date, cumulativeReturn). */
  strategyPerformance: z.object({
    summary: z.object({ totalReturn: num, totalTrades: z.number().int().nonnegative(), winRate: num.nullable(), sharpeRatio: num.nullable() }),
    performance: z.array(z.object({ date: z.string(), cumulativeReturn: num })),
  }),
  /** Backtest strategy definition: id, name, description, parameters (each with min, max, default). */
  backtestStrategy: z.object({ id: z.string(), name: z.string(), description: z.string(), parameters: z.record(z.string(), z.object({ min: num, max: num, default: num })) }),
  /**
   * Backtest result: totalReturn, winRate and maxDrawdown (fractions), totalTrades, finalBalance, sharpeRatio, performanceMetrics (winningTrades,
   * losingTrades, averageWin, averageLoss, profitFactor, volatility). Decision: sharpeRatio and profitFactor are null where they are undefined
   * (fewer than two varying daily returns; no losing trade), as JSON has no Infinity.
   */
  backtestResult: z.object({
    totalReturn: num.min(-1),
    winRate: num.min(0).max(1),
    maxDrawdown: num.min(0).max(1),
    totalTrades: z.number().int().nonnegative(),
    finalBalance: num,
    sharpeRatio: num.nullable(),
    performanceMetrics: z.object({ winningTrades: z.number().int(), losingTrades: z.number().int(), averageWin: num, averageLoss: num, profitFactor: num.nullable(), volatility: num }),
  }),
  /** Backtest history item: id, configId, totalTrades, winRate, totalReturn (null until the run completes). */
  backtestHistoryItem: z.object({ id: z.string(), configId: z.string(), totalTrades: z.number().int().nullable(), winRate: num.nullable(), totalReturn: num.nullable() }),
};

/** Parses `value` with `schema`, failing with the field the spec names and what the API sent. */
function expectEntity<T>(name: string, schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    const shown = issues.length > 6 ? [...issues.slice(0, 6), `and ${issues.length - 6} more`] : issues;
    expect.fail(`${name} does not match spec section 3: ${shown.join('; ')}\n${JSON.stringify(value).slice(0, 600)}`);
  }
  return parsed.data;
}

describe('API entities of spec section 3 (both documents) against real answers', function () {
  this.timeout(180_000);
  const harness = useHarness({ MARKET_TICK_MS: '200' });
  const id = randomUUID().slice(0, 8);
  const free = { email: `free.${id}@example.com`, username: `free_${id}`, token: '' };
  const buyer = { email: `premium.${id}@example.com`, username: `premium_${id}`, userId: '', token: '' };
  /** The last position the test appended outside the callers' own commands (read with X-Min-Position). */
  let position = '';
  let sessionId = '';

  const handler = () => new CommandHandler(harness().rt.infra.eventStore, () => new Date());
  const meta = { actor: 'test', correlationId: 'spec-entities' };
  const get = async (path: string, token?: string) => {
    const res = await harness().request('GET', path, { ...(token ? { token } : {}), headers: position ? { 'x-min-position': position } : {} });
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.equal(200);
    return res.body as unknown;
  };
  async function evaluate(symbol: string, candleTime: string, readings: IndicatorReadings) {
    const result = await handler().handle(signalDecider, signalsStreamId(symbol), { type: 'EvaluateSignal', data: { signalId: signalIdFor(symbol, candleTime), symbol, candleTime, readings } }, meta);
    if (result.position) position = String(result.position);
  }

  before(async function () {
    const h = harness();
    // Signup payload: email, username, firstName, lastName, password, confirmPassword.
    for (const who of [free, buyer]) {
      const res = await h.request('POST', '/api/auth/signup', { body: { email: who.email, username: who.username, firstName: 'Ada', lastName: 'Lovelace', password: 'secret1', confirmPassword: 'secret1' } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }
    free.token = await h.login(free.email, 'secret1');
    buyer.token = await h.login(buyer.email, 'secret1');
    buyer.userId = (await h.request('GET', '/api/auth/me', { token: buyer.token })).body.id;

    // Premium through the built-in test checkout; the payment page reports { sessionId }.
    const checkout = await h.request('POST', '/api/subscription/checkout', { token: buyer.token, body: { planId: 'premium' } });
    expect(checkout.status, JSON.stringify(checkout.body)).to.equal(200);
    sessionId = checkout.body.sessionId;
    // Pay needs the owner's bearer token since issue 16 (the page's script sends it and takes the JSON answer).
    expect((await fetch(`${h.url}/test-checkout/${sessionId}/pay`, { method: 'POST', headers: { accept: 'application/json', authorization: `Bearer ${buyer.token}` } })).status).to.equal(200);
    // The payment page's report: the payment success payload, { sessionId }.
    const success = await h.request('POST', '/api/subscription/success', { token: buyer.token, body: { sessionId } });
    expect(success.status, JSON.stringify(success.body)).to.equal(200);

    // Signals as the engine writes them: a BUY, then a HOLD of conflicting votes, a minute apart.
    const bullish: IndicatorReadings = { price: 3000, rsi: 25, macd: { macd: 2, signal: 1, histogram: 1 }, sma20: 2900, sma50: 2800, ema20: 2950, ema20Previous: 2940, volumeRatio: 2 };
    const split: IndicatorReadings = { price: 3010, rsi: 20, macd: { macd: 0, signal: 1, histogram: -1 }, sma20: 2900, sma50: 3100, ema20: 2951, ema20Previous: 2950, volumeRatio: 1 };
    await evaluate('ETH', '2026-01-01T00:00:00.000Z', bullish);
    await evaluate('ETH', '2026-01-01T00:05:00.000Z', split);
  });

  describe('dashboard-and-sign-in.md section 3', function () {
    it('User, and the login payload and response (token, user)', async function () {
      const login = await harness().request('POST', '/api/auth/login', { body: { email: free.email, password: 'secret1' } });
      expect(login.status).to.equal(200);
      const body = expectEntity('Login response', z.object({ token: z.string().min(1), user: dashboard.user }), login.body);
      expect(body.user).to.include({ email: free.email, username: free.username, firstName: 'Ada', subscriptionTier: 'FREE', subscriptionStatus: 'ACTIVE', isAdmin: false });
      expectEntity('User', dashboard.user, await get('/api/auth/me', free.token));
    });

    it('Coin: the supported map keyed by coin id (name, symbol, icon, color), with the spec\'s ids and symbols', async function () {
      const coins = expectEntity('Coin map', z.record(z.string(), dashboard.coin), await get('/api/coins/supported'));
      expect(Object.fromEntries(Object.entries(coins).map(([coinId, c]) => [coinId, c.symbol]))).to.deep.equal(COIN_SYMBOLS);
    });

    it('Coin price: price and changePercent24h, per coin and for one coin', async function () {
      const prices = expectEntity('Coin prices', z.record(z.string(), dashboard.coinPrice), await get('/api/coins/prices'));
      expect(Object.keys(prices).sort()).to.deep.equal([...coinIds].sort());
      expectEntity('Coin price', dashboard.coinPrice, await get('/api/coins/bitcoin/price'));
      expectEntity('Coin price', dashboard.coinPrice, await get('/api/price?symbol=ETH'));
    });

    it('Candle: timestamp (epoch ms, the date derives from it), a time label, open, high, low, close, volume', async function () {
      for (const days of [0.04, 1, 30]) {
        const body = expectEntity('Candles', z.object({ candles: z.array(dashboard.candle).min(1) }), await get(`/api/coins/ethereum/ohlc?days=${days}`));
        for (const candle of body.candles) expect(new Date(candle.timestamp).getTime(), 'a date from timestamp').to.equal(candle.timestamp);
        const last = body.candles.at(-1)!;
        expect(Math.abs(last.timestamp - Date.now())).to.be.below(days * 86_400_000 + 86_400_000);
      }
    });

    it('Signal: id, type, symbol, description, price, confidence (percent), timestamp; newest first', async function () {
      const body = expectEntity('Signals', z.object({ signals: z.array(dashboard.signal).min(2) }), await get('/api/signals?symbol=ETH'));
      const times = body.signals.map((s) => Date.parse(s.timestamp));
      expect(times).to.deep.equal([...times].sort((a, b) => b - a));
      expect(body.signals[0]).to.deep.include({ type: 'HOLD', symbol: 'ETH', price: 3010 });
      expect(body.signals[0]!.confidence).to.be.below(50); // votes that cancel out are not confidence
    });

    it('Indicators: rsi, macd, macdSignal, ma20 (numbers) and the volume level', async function () {
      expectEntity('Indicators', dashboard.indicators, await get('/api/indicators'));
      expectEntity('Indicators', dashboard.indicators, await get('/api/indicators?symbol=MATIC'));
    });

    it('Trade (and what the export reads), Portfolio, Risk settings, Active risk trade, Risk alert', async function () {
      const placed = await harness().request('POST', '/api/trades', { token: buyer.token, body: { symbol: 'ETH', type: 'BUY', amount: 0.5 } });
      expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
      const alert: RaiseRiskAlert = {
        type: 'RaiseRiskAlert',
        data: { userId: buyer.userId, alertId: `dl-${id}`, conditionKey: `dl-${id}`, kind: 'DAILY_LOSS', severity: 'high', symbol: null, message: 'Daily loss at 85% of the limit', value: 425, threshold: 500 },
        metadata: { now: new Date().toISOString() },
      };
      const raised = await handler().handle(riskDecider, riskStreamId(buyer.userId), alert, meta);
      position = String(raised.position);

      const trades = expectEntity('Trades', z.object({ trades: z.array(dashboard.trade).min(1) }), await get('/api/trades', buyer.token));
      expect(trades.trades[0]).to.include({ type: 'BUY', amount: 0.5, symbol: 'ETH', status: 'OPEN' });
      const portfolio = expectEntity('Portfolio', dashboard.portfolio, await get('/api/portfolio', buyer.token));
      expect(portfolio.ethHoldings).to.equal(0.5);
      expectEntity('Risk settings', dashboard.riskSettings, await get('/api/risk', buyer.token));
      expectEntity('Active risk trades', z.object({ trades: z.array(dashboard.activeRiskTrade).min(1) }), await get('/api/risk/active-trades', buyer.token));
      expectEntity('Risk alerts', z.object({ alerts: z.array(dashboard.riskAlert).min(1) }), await get('/api/risk/alerts', buyer.token));
    });

    it('Real-time message: BOT_STATUS with a status, MARKET_UPDATE', async function () {
      const relay = new RealtimeRelay({ bus: harness().rt.infra.bus, tokens: new TokenService(harness().rt.jwtSecret, harness().rt.clock), accounts: accountLookup(harness().rt.infra.readModels), logger: harness().rt.logger, greet: botStatusGreeting(harness().rt.infra.readModels) });
      await relay.start();
      const server = http.createServer();
      relay.attach(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const feed = createMarketFeed(harness().rt);
      feed.start();
      const client = await RecordingClient.open(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`, ['papertrade', `bearer.${buyer.token}`]);
      try {
        await waitUntil(() => client.of('AUTHENTICATED').length === 1, { message: 'AUTHENTICATED' });
        const start = await harness().request('POST', '/api/bot/start', { token: buyer.token });
        expect(start.status, JSON.stringify(start.body)).to.equal(200);
        const botStatus = await waitUntil(() => client.of('BOT_STATUS').find((m) => (m.data as { status?: string }).status === 'ACTIVE'), { message: 'BOT_STATUS ACTIVE' });
        expectEntity('BOT_STATUS message', dashboard.botStatusMessage, botStatus);
        expectEntity('MARKET_UPDATE message', dashboard.marketUpdateMessage, await waitUntil(() => client.of('MARKET_UPDATE')[0], { message: 'a MARKET_UPDATE', timeoutMs: 20_000 }));
      } finally {
        client.close();
        await feed.stop();
        await relay.close();
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('ML status (modelType, trainingDataDays, accuracy, lastTraining) and ML model type (id, name, description, complexity, accuracy, trainingTime)', async function () {
      // Before any training: accuracy and lastTraining are null (the panel says 'Never'), never an invented figure.
      expectEntity('ML status', dashboard.mlStatus, await get('/api/ml-status'));
      const types = expectEntity('ML model types', z.object({ types: z.array(dashboard.mlModelType).min(3) }), await get('/api/ml/model-types'));
      expect(types.types.map((t) => t.id)).to.include('neural_network');
    });

    it('Real-time ML_UPDATE: to the user whose model changed (here: a training asked for)', async function () {
      const relay = new RealtimeRelay({ bus: harness().rt.infra.bus, tokens: new TokenService(harness().rt.jwtSecret, harness().rt.clock), accounts: accountLookup(harness().rt.infra.readModels), logger: harness().rt.logger, greet: botStatusGreeting(harness().rt.infra.readModels) });
      await relay.start();
      const server = http.createServer();
      relay.attach(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const client = await RecordingClient.open(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`, ['papertrade', `bearer.${free.token}`]);
      try {
        await waitUntil(() => client.of('AUTHENTICATED').length === 1, { message: 'AUTHENTICATED' });
        const created = await harness().request('POST', '/api/ml/create-model', { token: free.token, body: { modelType: 'logistic_regression', trainingDays: 30, parameters: {} } });
        expect(created.status, JSON.stringify(created.body)).to.equal(202);
        const update = await waitUntil(() => client.of('ML_UPDATE')[0], { message: 'ML_UPDATE' });
        expectEntity('ML_UPDATE message', dashboard.mlUpdateMessage, update);
        // The status the update announces is readable: the user's own model, training.
        expectEntity('ML status while training', dashboard.mlStatus, await get('/api/ml-status', free.token));
      } finally {
        client.close();
        await relay.close();
        await new Promise((resolve) => server.close(resolve));
      }
    });
    it('Chat message (id, content, role, timestamp): the window sends the last ones as history to POST /api/ai-chat, whose answer has `response`', async function () {
      const at = new Date().toISOString();
      const history = [
        { id: randomUUID(), content: 'What is the signal for ETH?', role: 'user', timestamp: at },
        { id: randomUUID(), content: 'The latest ETH signal is ...', role: 'assistant', timestamp: at },
      ].map((m) => expectEntity('Chat message', dashboard.chatMessage, m));
      const res = await harness().request('POST', '/api/ai-chat', { token: buyer.token, body: { message: 'and BTC?', history }, headers: { 'x-min-position': position } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expectEntity('Chat reply', dashboard.chatReply, res.body);
    });
    it.skip('Client storage (authToken in local storage): the browser\'s, not an API answer; web/e2e/auth.e2e.spec.ts checks it');
  });

  describe('premium-and-account.md section 3', function () {
    it('Payment success payload: { sessionId } names the checkout it reports (sent in setup; again here, activating nothing twice)', async function () {
      const res = await harness().request('POST', '/api/subscription/success', { token: buyer.token, body: { sessionId } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ sessionId, activatedNow: false, tier: 'PREMIUM', subscriptionStatus: 'ACTIVE' });
    });

    it('Signal: type, description, price, confidence', async function () {
      expectEntity('Signals', z.object({ signals: z.array(premium.signal).min(2) }), await get('/api/signals'));
    });

    it('Trade: id, timestamp, type, amount, price, signal (blank for a manual trade), pnl, status', async function () {
      // A trade on a signal, as the trading bot places it.
      const signals = (await get('/api/signals?symbol=ETH')) as { signals: Array<{ id: string; type: 'BUY' | 'SELL' | 'HOLD'; candleTime: string }> };
      const followed = signals.signals.find((s) => s.type === 'BUY')!;
      const result = await handler().handle(
        portfolioDecider,
        portfolioStreamId(buyer.userId),
        {
          type: 'PlaceSimulatedTrade',
          data: { userId: buyer.userId, tradeId: randomUUID(), symbol: 'SOL', side: 'BUY', amount: 1, price: 150, source: { kind: 'SIGNAL', eventId: randomUUID(), signalId: followed.id, signalType: 'BUY', candleTime: followed.candleTime } },
          metadata: { now: new Date().toISOString() },
        },
        meta,
      );
      position = String(result.position);
      const body = expectEntity('Trades', z.object({ trades: z.array(premium.trade).min(2) }), await get('/api/trades', buyer.token));
      expect(body.trades.map((t) => t.signal)).to.have.members(['BUY signal', null]);
    });

    it('Bot settings: maxPositionSize, stopLoss, takeProfit, dailyLossLimit, enableNotifications, autoRetrain (the answer of a change and the read)', async function () {
      const res = await harness().request('POST', '/api/settings/bot', { token: buyer.token, body: { stopLoss: 3, takeProfit: 6 } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      // Reads send X-Min-Position (which replaces waiting for the caller's own write): this write's.
      position = String(res.body.position);
      expect(expectEntity('Bot settings (POST answer)', premium.botSettings, res.body.settings)).to.include({ stopLoss: 3, takeProfit: 6 });
      const risk = (await get('/api/risk', buyer.token)) as { settings: unknown };
      expect(expectEntity('Bot settings (GET /api/risk)', premium.botSettings, risk.settings)).to.include({ stopLoss: 3, takeProfit: 6 });
    });

    it('Risk parameters (and the risk summary), Active risk trade, Risk alert', async function () {
      expectEntity('Risk parameters', premium.riskParameters, await get('/api/risk/parameters', buyer.token));
      expectEntity('Risk summary', premium.riskSummary, await get('/api/risk', buyer.token));
      expectEntity('Active risk trades', z.object({ trades: z.array(premium.activeRiskTrade).min(1) }), await get('/api/risk/active-trades', buyer.token));
      expectEntity('Risk alerts', z.object({ alerts: z.array(premium.riskAlert).min(1) }), await get('/api/risk/alerts', buyer.token));
    });

    it('Subscription: tier, subscriptionStatus, isCancelled, endsAt (day, month, year, formatted), daysRemaining, usage', async function () {
      expectEntity('Subscription', premium.subscription, await get('/api/subscription', free.token));
      const cancel = await harness().request('POST', '/api/subscription/cancel', { token: buyer.token });
      expect(cancel.status, JSON.stringify(cancel.body)).to.equal(200);
      if (cancel.body.position) position = String(cancel.body.position);
      const cancelled = expectEntity('Subscription', premium.subscription, await get('/api/subscription', buyer.token));
      expect(cancelled).to.deep.include({ tier: 'PREMIUM', isCancelled: true });
      expect(cancelled.endsAt).to.not.equal(null);
      expect(cancelled.daysRemaining).to.be.a('number');
    });

    it('Admin-visible user and admin stats (totalUsers)', async function () {
      const admin = await harness().admin();
      const users = expectEntity('Admin users', z.array(premium.adminUser).min(3), await get('/api/admin/users', admin.token));
      expect(users.find((u) => u.email === buyer.email)).to.include({ username: buyer.username, firstName: 'Ada', lastName: 'Lovelace', subscriptionTier: 'PREMIUM' });
      expect(expectEntity('Admin stats', premium.adminStats, await get('/api/admin/stats', admin.token)).totalUsers).to.be.at.least(3);
    });

    it('Strategy (id, name, description, type, active, accuracy, profitFactor, sharpeRatio, winRate, maxDrawdown, configuration) and Strategy configuration', async function () {
      const toggled = await harness().request('POST', '/api/strategies/rsi-technical/toggle', { token: buyer.token, body: { active: true } });
      expect(toggled.status, JSON.stringify(toggled.body)).to.equal(200);
      if (toggled.body.position) position = String(toggled.body.position);
      const { strategies } = expectEntity('Strategies', z.object({ strategies: z.array(premium.strategy).length(3) }), await get('/api/strategies', buyer.token));
      expect(strategies.map((s) => s.type)).to.deep.equal(['neural', 'technical', 'arbitrage']);
      expect(strategies[1]).to.deep.include({ active: true, configuration: { rsiPeriod: 14, rsiOverbought: 70, stopLoss: 2, takeProfit: 4 } });
    });
    it('Strategy performance (summary, performance series)', async function () {
      expectEntity('Strategy performance', premium.strategyPerformance, await get('/api/strategies/rsi-technical/performance', buyer.token));
    });
    it('Backtest request (strategyId, symbol, startDate, endDate, initialCapital, parameters), result, history item and strategy definition', async function () {
      const h = harness();
      const strategies = expectEntity('Backtest strategy definitions', z.array(premium.backtestStrategy).min(4), await get('/api/backtest/strategies'));
      const rsi = strategies.find((s) => s.id === 'rsi-mean-reversion')!;
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      const request = { strategyId: rsi.id, symbol: 'ETH', startDate: day(Date.now() - 9 * 86_400_000), endDate: day(Date.now() - 2 * 86_400_000), initialCapital: 10000, parameters: { rsiPeriod: rsi.parameters.rsiPeriod!.default } };
      const res = await h.request('POST', '/api/backtest/run', { token: buyer.token, body: request });
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      position = String(res.body.position);
      // A job runner with the backtest kinds, as the workers run it.
      const runner = new JobRunner({ handler: handler(), readModels: h.rt.infra.readModels, bus: h.rt.infra.bus, clock: () => new Date(), logger: silentLogger }, {
        kinds: backtestJobs({ handler: handler(), events: h.rt.infra.eventStore, engine: inProcessBacktestEngine(h.rt.marketData), logger: silentLogger }),
        pollMs: 100,
      });
      await runner.start();
      try {
        const done = await waitUntil(async () => {
          const run = (await get(`/api/backtest/${String(res.body.id)}`, buyer.token)) as { status: string; result: unknown };
          return run.status === 'COMPLETED' || run.status === 'FAILED' ? run : null;
        }, { timeoutMs: 120_000, intervalMs: 200, message: 'the backtest to end' });
        expect(done.status).to.equal('COMPLETED');
        expectEntity('Backtest result', premium.backtestResult, done.result);
        const history = expectEntity('Backtest history', z.array(premium.backtestHistoryItem).min(1), await get('/api/backtest/history', buyer.token));
        expect(history[0]!.id).to.equal(res.body.id);
      } finally {
        await runner.stop();
      }
    });
    it('API settings (binanceKey, binanceSecret, coinbaseKey, coinbaseSecret, enablePaperTrading, enableRealTrading): the spec\'s payload is taken as it is', async function () {
      const body = { binanceKey: 'entity-binance-key-0001', binanceSecret: 'entity-binance-secret-0001', coinbaseKey: 'entity-coinbase-key-0001', coinbaseSecret: 'entity-coinbase-secret-01', enablePaperTrading: true, enableRealTrading: false };
      const res = await harness().request('POST', '/api/settings/api', { token: buyer.token, body });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      position = String(res.body.position);
      expect(res.body.tradingMode).to.deep.equal({ paperTrading: true, realTrading: false });
      // Decision: the keys are never answered; what comes back is each key's last four characters.
      expect(JSON.stringify(res.body)).not.to.contain(body.binanceSecret);
    });

    it('Exchange (id, name, status, apiKey, secretKey, testnet, balance, fees): apiKey masked to its last four, secretKey never answered (null)', async function () {
      const exchange = z.object({
        id: z.string(),
        name: z.string(),
        status: z.enum(['disconnected', 'connected', 'error']),
        apiKey: z.string().nullable(),
        secretKey: z.null(),
        testnet: z.boolean(),
        balance: z.unknown(),
        fees: z.number(),
      });
      const body = expectEntity('Exchanges', z.object({ exchanges: z.array(exchange).length(3) }), await get('/api/exchanges', buyer.token));
      expect(body.exchanges.map((e) => [e.name, e.fees])).to.deep.equal([['Binance', 0.1], ['Coinbase Pro', 0.5], ['Kraken', 0.26]]);
      expect(body.exchanges.find((e) => e.id === 'binance')).to.deep.include({ apiKey: '••••0001', secretKey: null, testnet: true, status: 'disconnected' });
    });
  });
});
