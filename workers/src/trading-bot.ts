/**
 * The trading bot worker, a process manager: follows SignalGenerated from its own checkpoint
 * (EventFollower, `_process-checkpoints/trading-bot`) and, for each bot that should trade, decides
 * under that user's risk rules (domain decideBotTrade) and issues PlaceSimulatedTrade on
 * `portfolio-{userId}` through the command handler.
 *
 * AI strategies (issue 19): it follows StrategySignalGenerated too. A user with an active strategy
 * trades the signals of that strategy's evaluation (onStrategySignal: the followers by configuration
 * key, workers/src/strategies/strategy-followers.ts) and no longer the house signals; a user with none
 * trades the house signals as before. Both go through the same batches, rules and fills below, and a
 * strategy's trades name the strategy (their source, so Trade History's Signal Source says which). An
 * ARBITRAGE signal is traded as a pair (domain/src/trading/engine/arbitrage-pair.ts decideArbitragePair,
 * PlaceArbitragePair on the portfolio): a BUY on the cheaper exchange and a SELL of the same amount on
 * the dearer one at the same fill tick, each at its exchange's fee, realising the net spread; a pair the
 * profile refuses is recorded like a refused BUY (signal type ARBITRAGE).
 *
 * Which bots: one indexed query per signal on the `trading-bots` read model (`status: 'ACTIVE',
 * premium: true`), plus the house demo bot (HOUSE_DEMO_USER_ID), which is active by definition: it
 * is the system's own account with no user or subscription stream to seed, so it is simply always in
 * the list (the same code path as any premium user's bot from there on). HOLD signals (most of them)
 * trade nothing and skip the query.
 *
 * The rules are the user's one risk profile (`risk-{userId}`, domain/src/trading/risk-profile.ts), and
 * those that read the market (volatility threshold, correlation limit, atr and volatility stops,
 * dynamic sizing) read the signal coin's figures and correlations at the order's fill time, computed
 * once per signal from the charts ending then (platform/src/market/market-history.ts `marketAt`,
 * domain/src/trading/engine/market-at.ts) and shared by every bot. Each BUY
 * signal a bot does not trade is recorded with the rule that refused it (RecordBotRefusal on
 * `risk-{userId}`, appended together for the batch like the trades, under the idempotency key
 * `refusal:{tradeId}`; a signal already refused for a user is not decided again); each trade carries
 * its decision in its event.
 *
 * Per signal the bots go in batches (`batchSize`, default 100; `concurrency` batches at once,
 * default 4, 2 on PGlite): a batch's risk streams and portfolios are loaded through the command
 * handler's loadMany (snapshot + tail per stream, so the cost does not grow with a user's portfolio,
 * one round trip per decider for the whole batch), each bot decides (decideBotOrder, below), and the trades are appended with handleMany: one appendMany, one
 * statement and transaction on SQL, each portfolio still under its own optimistic check (one that
 * changed meanwhile is retried alone). Per trade that is three round trips shared by a hundred
 * bots instead of three each. The feed and the signal engine do not wait for the bot, which follows
 * the event store on its own.
 *
 * Never twice: the trade id derives from signal and user (tradeIdFor), and is also the command's
 * idempotency key (scope `trading-bot`), so the event ids are derived too: a replayed signal (a
 * restart before the checkpoint moved, a crash midway through the bots) finds the earlier trade
 * and appends nothing; the portfolio decider also refuses a signal at or before the newest one
 * traded on that coin. The checkpoint moves only when every bot has had the signal; a failure that
 * may pass (the store, a conflict) makes the follower retry the whole signal.
 *
 * Stale signals (older than MAX_SIGNAL_AGE_MS when they reach the bot, e.g. a first deployment
 * replaying the history, or a worker down for an hour) trade nothing: their price is no longer the
 * market's.
 *
 * Fills (issue 17, DESIGN.md section 9): a signal's orders fill at the first tick at or after the
 * signal's time plus BOT_LATENCY_MS (domain/src/trading/engine/bot-timing.ts), every bot's at the
 * same tick: the worker waits for that tick when it is early, and when it handles the signal after
 * it (a slow round, a restart) the orders fill at the live tick and record the delay. The market is
 * read once per signal at the fill time (`quotesAt`: every coin's mid then, and the minute's volume;
 * the figures the entry rules read, from the charts ending then) and each bot decides with decideBotOrder (domain/src/trading/engine/bot-order.ts): the portfolio is
 * valued at those prices, the order decided at the price it fills at, and the command carries the mid,
 * so the portfolio decider prices the fill (half spread, impact, fee) and records it. The paper engine
 * (domain/src/trading/engine/paper-engine.ts) runs the same functions, so a replay of the same signals
 * over the same path gives the same trades.
 */
import { HOUSE_DEMO_USER_ID } from '@papertrade/domain/trading/house-demo';
import { TRADING_BOTS_PROJECTION, type TradingBotView } from '@papertrade/domain/trading/bot-view';
import { tradeIdFor, type BotMarket, type BotSignal, type BotSkipReason } from '@papertrade/domain/trading/bot-trade-decision';
import { findCoinBySymbol } from '@papertrade/domain/market/coins';
import { decideBotOrder, type BotOrderQuote } from '@papertrade/domain/trading/engine/bot-order';
import { decideArbitragePair, type ArbitrageSignal } from '@papertrade/domain/trading/engine/arbitrage-pair';
import { fillTimeMs, intendedFillMs, signalTimeMs } from '@papertrade/domain/trading/engine/bot-timing';
import { portfolioStreamId, type PortfolioState } from '@papertrade/domain/trading/portfolio';
import { portfolioDecider, type PortfolioCommand } from '@papertrade/domain/trading/portfolio.decider';
import { riskStreamId, type RiskState } from '@papertrade/domain/trading/risk';
import { riskDecider, type RecordBotRefusal } from '@papertrade/domain/trading/risk.decider';
import type { SignalGenerated } from '@papertrade/domain/signals/signal';
import type { StrategySignalGenerated } from '@papertrade/domain/strategies/strategy-signals';
import { strategyIdOfType } from '@papertrade/domain/strategies/strategy-catalogue';
import { ConcurrencyError, DomainError, ServiceUnavailableError } from '@papertrade/domain/shared/errors';
import type { CommandHandler, CommandMeta, Idempotency, LoadedState } from '@papertrade/platform/commands/command-handler';
import type { Logger } from '@papertrade/platform/config/logger';
import type { RecordedEvent } from '@papertrade/platform/event-store/event-store';
import type { MarketData } from '@papertrade/platform/market/market-data';
import { MarketHistory } from '@papertrade/platform/market/market-history';
import type { ReadModels } from '@papertrade/platform/projections/read-models';
import { forEachLimited } from './concurrency';
import { EventFollower, type EventFollowerDeps, type EventFollowerStatus } from './event-follower';
import { activeStrategies, followersOf } from './strategies/strategy-followers';

export const TRADING_BOT_ACTOR = 'trading-bot';
/** A signal older than this when the bot reaches it trades nothing (three 5-minute candles). */
export const MAX_SIGNAL_AGE_MS = 15 * 60_000;
export const DEFAULT_BOT_CONCURRENCY = 4;
/** Bots per batch: their streams are loaded and their trades appended in one round trip each. */
export const DEFAULT_BOT_BATCH_SIZE = 100;

export interface TradingBotDeps extends EventFollowerDeps {
  readModels: ReadModels;
  handler: CommandHandler;
  /** The market at each signal's fill time: every coin's quote, and the charts the entry rules read. */
  marketData: Pick<MarketData, 'quotesAt' | 'candles'>;
  clock: () => Date;
  /** Resolves at `timeMs` on the clock (default: a timer; tests with a clock of their own pass theirs). */
  waitUntil?: (timeMs: number) => Promise<void>;
  logger: Logger;
  /** Batches of bots in flight at once (default DEFAULT_BOT_CONCURRENCY). */
  concurrency?: number;
  batchSize?: number;
  /** Whether the house demo bot runs (default true). */
  houseDemo?: boolean;
}

export interface TradingBotStatus extends EventFollowerStatus {
  name: 'trading-bot';
  running: boolean;
  signals: number;
  botsConsidered: number;
  tradesPlaced: number;
  /** Trades found already placed (a replayed signal). */
  tradesReplayed: number;
  skipped: Partial<Record<BotSkipReason | 'STALE_SIGNAL', number>>;
  /** Signals of the users' AI strategies handled (issue 19). */
  strategySignals: number;
  /** BUY signals refused by a rule and recorded (RecordBotRefusal). */
  refusalsRecorded: number;
  /** Commands the domain refused (counted, not retried). */
  refused: number;
  lastSignalAt: string | null;
  /** Signals whose orders filled after their intended tick (the worker handled them late), and the longest delay, ms. */
  lateFills: number;
  maxDelayMs: number;
}

/** What the bot trades on a signal: a BUY or SELL order (house or strategy signal), or an arbitrage strategy's pair. */
type Order = { kind: 'signal'; signal: BotSignal } | { kind: 'pair'; signal: ArbitrageSignal };

/** The idempotency of one bot trade: keyed by the derived trade id. */
export function botTradeIdempotency(tradeId: string): Idempotency {
  return { scope: TRADING_BOT_ACTOR, key: tradeId, requestHash: tradeId };
}

/** The idempotency of one recorded refusal: the same signal and user, on the risk stream. */
export function botRefusalIdempotency(tradeId: string): Idempotency {
  const key = `refusal:${tradeId}`;
  return { scope: TRADING_BOT_ACTOR, key, requestHash: key };
}

/** Failures that may pass on a retry (the store, a race): the signal is handled again. */
function isTransient(error: unknown): boolean {
  return !(error instanceof DomainError) || error instanceof ConcurrencyError || error instanceof ServiceUnavailableError;
}

export class TradingBot {
  readonly follower: EventFollower;
  private running = false;
  private signals = 0;
  private botsConsidered = 0;
  private tradesPlaced = 0;
  private tradesReplayed = 0;
  private refused = 0;
  private refusalsRecorded = 0;
  private readonly history: MarketHistory;
  private readonly skipped: TradingBotStatus['skipped'] = {};
  private lastSignalAt: string | null = null;
  private lateFills = 0;
  private maxDelayMs = 0;
  private strategySignals = 0;

  constructor(private readonly deps: TradingBotDeps) {
    this.follower = new EventFollower('trading-bot', deps, (e) => e.type === 'SignalGenerated' || e.type === 'StrategySignalGenerated', (e) => (e.type === 'StrategySignalGenerated' ? this.onStrategySignal(e) : this.onSignal(e)));
    this.history = new MarketHistory(deps.marketData, deps.clock);
  }

  async start(): Promise<void> {
    this.running = true;
    await this.follower.start();
  }

  /** Stops after the signal in hand (its bots all handled), saving the checkpoint. */
  async stop(): Promise<void> {
    this.running = false;
    await this.follower.stop();
  }

  status(): TradingBotStatus {
    return {
      name: 'trading-bot',
      running: this.running,
      ...this.follower.status(),
      signals: this.signals,
      botsConsidered: this.botsConsidered,
      tradesPlaced: this.tradesPlaced,
      tradesReplayed: this.tradesReplayed,
      skipped: { ...this.skipped },
      refusalsRecorded: this.refusalsRecorded,
      refused: this.refused,
      lastSignalAt: this.lastSignalAt,
      lateFills: this.lateFills,
      maxDelayMs: this.maxDelayMs,
      strategySignals: this.strategySignals,
    };
  }

  private skip(reason: BotSkipReason | 'STALE_SIGNAL', count = 1): void {
    this.skipped[reason] = (this.skipped[reason] ?? 0) + count;
  }

  /** Every bot that should trade on `event`, each at most once (the handler of the follower). */
  async onSignal(event: RecordedEvent): Promise<void> {
    const data = event.data as SignalGenerated['data'];
    const signal: BotSignal = {
      eventId: event.id,
      signalId: data.signalId,
      type: data.type,
      symbol: data.symbol,
      price: data.price,
      confidence: data.confidence,
      candleTime: data.candleTime,
    };
    this.signals += 1;
    this.lastSignalAt = signal.candleTime;
    if (signal.type === 'HOLD') return void this.skip('HOLD_SIGNAL');
    const now = this.deps.clock();
    const signalAt = Date.parse(String(event.metadata.at ?? signal.candleTime));
    if (now.getTime() - signalAt > MAX_SIGNAL_AGE_MS) return void this.skip('STALE_SIGNAL');

    const bots = await (await this.deps.readModels.collection<TradingBotView>(TRADING_BOTS_PROJECTION)).find({ where: { status: 'ACTIVE', premium: true } });
    // A user with an active AI strategy follows its signals instead of the house's (issue 19).
    const following = new Set((await activeStrategies(this.deps.readModels)).map((v) => v.userId));
    const users = new Set(bots.map((b) => b.userId).filter((u) => !following.has(u)));
    if (this.deps.houseDemo !== false) users.add(HOUSE_DEMO_USER_ID);
    await this.tradeSignal(event, { kind: 'signal', signal }, users);
  }

  /**
   * A signal of an AI strategy (issue 19, domain/src/strategies/strategy-signals.ts): the bots of the
   * users whose active strategy has that evaluation (the configuration, and for neural the model) trade
   * it like a house signal, under the same risk rules and fills, the trades naming the strategy. An
   * ARBITRAGE signal is traded as a pair (see the module comment).
   */
  async onStrategySignal(event: RecordedEvent): Promise<void> {
    const data = event.data as StrategySignalGenerated['data'];
    this.signals += 1;
    this.strategySignals += 1;
    const strategy = { strategyId: strategyIdOfType(data.strategyType), strategyType: data.strategyType };
    let order: Order;
    if (data.type === 'ARBITRAGE') {
      const a = data.arbitrage;
      if (!a) return void this.skip('HOLD_SIGNAL'); // an ARBITRAGE signal always carries its pair; none asks nothing
      order = {
        kind: 'pair',
        signal: {
          eventId: event.id, signalId: data.signalId, symbol: data.symbol, candleTime: data.candleTime, strategy,
          buy: { exchange: a.buyExchange, mid: a.buyPrice }, sell: { exchange: a.sellExchange, mid: a.sellPrice },
          ...(a.referencePrice !== undefined ? { referencePrice: a.referencePrice } : {}),
          maxPositionUsd: a.sizeUsd,
        },
      };
    } else {
      order = { kind: 'signal', signal: { eventId: event.id, signalId: data.signalId, type: data.type, symbol: data.symbol, price: data.price, confidence: data.confidence, candleTime: data.candleTime, strategy } };
    }
    const signal = order.signal;
    this.lastSignalAt = signal.candleTime;
    const now = this.deps.clock();
    const signalAt = Date.parse(String(event.metadata.at ?? signal.candleTime));
    if (now.getTime() - signalAt > MAX_SIGNAL_AGE_MS) return void this.skip('STALE_SIGNAL');
    const [bots, follow] = await Promise.all([
      (await this.deps.readModels.collection<TradingBotView>(TRADING_BOTS_PROJECTION)).find({ where: { status: 'ACTIVE', premium: true } }),
      followersOf(this.deps.readModels, data.configKey),
    ]);
    const withBot = new Set(bots.map((b) => b.userId));
    const users = new Set(follow.filter((u) => withBot.has(u)));
    await this.tradeSignal(event, order, users);
  }

  /** Every bot in `users` trades `order`'s signal, each at most once. */
  private async tradeSignal(event: RecordedEvent, order: Order, users: Set<string>): Promise<void> {
    const { signal } = order;
    this.botsConsidered += users.size;
    if (users.size === 0) return; // no order: nothing to wait for or read

    // Every bot's order fills at the same tick: the intended one, or the live one when that has passed.
    // (A signal is never known after the bot has it: a time after now, a clock's skew, waits no longer.)
    const handledMs = this.deps.clock().getTime();
    const intendedMs = intendedFillMs(Math.min(handledMs, signalTimeMs(signal.candleTime, typeof event.metadata.at === 'string' ? event.metadata.at : undefined)));
    const fillMs = fillTimeMs(intendedMs, handledMs);
    if (fillMs > this.deps.clock().getTime()) await this.waitUntil(fillMs);
    if (fillMs > intendedMs) {
      this.lateFills += 1;
      this.maxDelayMs = Math.max(this.maxDelayMs, fillMs - intendedMs);
    }
    // The market figures are the entry rules' (a BUY's); a pair reads only the quotes.
    const [quotes, market] = await Promise.all([this.deps.marketData.quotesAt(fillMs), order.kind === 'signal' && order.signal.type === 'BUY' ? this.market(signal.symbol, fillMs) : Promise.resolve(null)]);

    const all = [...users];
    const size = this.deps.batchSize ?? DEFAULT_BOT_BATCH_SIZE;
    const batches = Array.from({ length: Math.ceil(all.length / size) }, (_, i) => all.slice(i * size, (i + 1) * size));
    const failures: unknown[] = [];
    const batchFailures = await forEachLimited(batches, this.deps.concurrency ?? DEFAULT_BOT_CONCURRENCY, async (batch) => {
      failures.push(...(await this.tradeBatch(batch, order, quotes, market, intendedMs, fillMs)));
    });
    failures.push(...batchFailures);
    const transient = failures.filter(isTransient);
    for (const error of failures.filter((e) => !isTransient(e))) {
      this.refused += 1;
      this.deps.logger.warn('bot trade refused', { signalId: signal.signalId, error: error instanceof Error ? error.message : String(error) });
    }
    // The bots that traded are not traded again (derived ids): the retry only reaches the others.
    if (transient.length > 0) throw transient[0];
  }

  /** Resolves once the clock reads `timeMs` (a timer, checked against the clock again when it fires). */
  private async waitUntil(timeMs: number): Promise<void> {
    if (this.deps.waitUntil) return this.deps.waitUntil(timeMs);
    for (let left = timeMs - this.deps.clock().getTime(); left > 0; left = timeMs - this.deps.clock().getTime()) {
      await new Promise((resolve) => setTimeout(resolve, left));
    }
  }

  /** The signal coin's figures and correlations at the fill time, once for every bot (null: the history is unavailable, and BUYs are refused). */
  private async market(symbol: string, fillMs: number): Promise<BotMarket | null> {
    const coin = findCoinBySymbol(symbol);
    if (!coin) return null;
    try {
      return await this.history.marketAt(coin.id, fillMs);
    } catch (error) {
      this.deps.logger.warn('market history unavailable to the trading bot; BUY entries are refused', { symbol, error: String(error) });
      return null;
    }
  }

  /**
   * One batch of bots: their risk streams and portfolios loaded in two round trips (snapshot + tail
   * each, with the trade's idempotency ids looked up), each decided, and the trades appended together
   * (the event store's appendMany: one round trip on SQL). A bot whose portfolio changed meanwhile (a
   * manual trade, the risk monitor) is retried alone by the command handler. Errors are returned per
   * bot, for onSignal to sort into refusals and retries.
   */
  private async tradeBatch(userIds: string[], order: Order, quotes: readonly BotOrderQuote[], market: BotMarket | null, intendedMs: number, fillMs: number): Promise<unknown[]> {
    const { signal } = order;
    // A refusal is decided at the fill tick, as a trade would have filled: its record carries that time.
    const now = new Date(fillMs).toISOString();
    const { handler } = this.deps;
    const asked = userIds.map((userId) => {
      const tradeId = tradeIdFor(signal.signalId, userId);
      return { userId, tradeId, streamId: portfolioStreamId(userId), idempotency: botTradeIdempotency(tradeId), refusal: botRefusalIdempotency(tradeId) };
    });
    const [risks, portfolios] = await Promise.all([
      handler.loadMany(riskDecider, asked.map(({ userId, refusal }) => ({ streamId: riskStreamId(userId), idempotency: refusal }))),
      handler.loadMany(portfolioDecider, asked.map(({ streamId, idempotency }) => ({ streamId, idempotency }))),
    ]);
    const items: Array<{ streamId: string; command: PortfolioCommand; meta: CommandMeta; loaded: LoadedState<PortfolioState> }> = [];
    const refusals: Array<{ streamId: string; command: RecordBotRefusal; meta: CommandMeta; loaded: LoadedState<RiskState> }> = [];
    asked.forEach(({ userId, streamId, idempotency, refusal }, i) => {
      const risk = risks[i]!;
      const portfolio = portfolios[i]!;
      // Decided before (a replayed signal): traded, or refused and recorded.
      if (portfolio.previous.length > 0 || risk.previous.length > 0) return void (this.tradesReplayed += 1);
      const decision =
        order.kind === 'pair'
          ? decideArbitragePair({ userId, signal: order.signal, profile: risk.state.profile, portfolio: portfolio.state, quotes, intendedMs, fillMs })
          : decideBotOrder({ userId, signal: order.signal, profile: risk.state.profile, portfolio: portfolio.state, market, quotes, intendedMs, fillMs });
      // What a refusal names: a BUY or SELL signal, or an arbitrage pair.
      const signalType = order.kind === 'pair' ? 'ARBITRAGE' : order.signal.type;
      const meta = (key: Idempotency): CommandMeta => ({ actor: TRADING_BOT_ACTOR, correlationId: signal.signalId, causationId: signal.eventId, idempotency: key });
      if (decision.action === 'TRADE') return void items.push({ streamId, command: decision.command, meta: meta(idempotency), loaded: portfolio });
      this.skip(decision.reason);
      if (decision.decision && signalType !== 'HOLD') {
        refusals.push({
          streamId: riskStreamId(userId),
          command: {
            type: 'RecordBotRefusal',
            data: { userId, signalId: signal.signalId, signalEventId: signal.eventId, symbol: signal.symbol, signalType, candleTime: signal.candleTime, decision: decision.decision },
            metadata: { now },
          },
          meta: meta(refusal),
          loaded: risk,
        });
      }
    });
    const [results, recorded] = await Promise.all([
      items.length > 0 ? handler.handleMany(portfolioDecider, items) : Promise.resolve([]),
      refusals.length > 0 ? handler.handleMany(riskDecider, refusals) : Promise.resolve([]),
    ]);
    const failures: unknown[] = [];
    for (const result of results) {
      if (result instanceof Error) failures.push(result);
      else if (result.replayed) this.tradesReplayed += 1;
      else if (result.events.some((e) => e.type === 'SimulatedTradePlaced')) this.tradesPlaced += 1;
    }
    for (const result of recorded) {
      if (result instanceof Error) failures.push(result);
      else if (!result.replayed) this.refusalsRecorded += result.events.length;
    }
    return failures;
  }
}
