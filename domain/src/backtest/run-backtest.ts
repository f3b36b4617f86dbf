/**
 * runBacktest: a strategy over the simulated market's path, through the paper bot's own engine
 * (trading/engine/paper-engine.ts). Pure: the path, the user's rules and the settings in, the result
 * and every fill out; no clock, no randomness.
 *
 * 1. The coin's 5-minute candles from the path's minute candles (candles.ts), from the strategy's
 *    warm-up before the start to the end; the strategy's decisions over them (strategies.ts), one pass.
 * 2. A portfolio opened with `initialCapital` at the start (a PortfolioOpened folded in with that cash:
 *    the decider's own opening uses the house's fixed starting cash, so the backtest opens it itself,
 *    no scaling), then each candle of the period in order: the engine scans exits up to its close
 *    (stops, targets and trailing stops at the first tick beyond their level), the equity is marked at
 *    the close's mid, and a decision becomes a signal the engine's bot follows exactly as the paper bot
 *    follows a SignalGenerated: its order fills at the first tick 2 s after the close with the half
 *    spread and impact, under every rule of the user's risk profile (refusals are counted).
 * 3. At the end the exits are scanned to the last tick of the period and a position still open is sold
 *    there through the portfolio decider (a market SELL at that tick, reason END_OF_TEST), so the final
 *    balance is cash.
 */
import { findCoinBySymbol, type CoinId, type CoinSymbol } from '../market/coins';
import { SIMULATION_EPOCH_MS, tickAt, tickTime } from '../market/market-path';
import { tradeIdFor, type BotMarket } from '../trading/bot-trade-decision';
import { intendedFillMs } from '../trading/engine/bot-timing';
import type { Execution } from '../trading/engine/fills';
import type { ChartAt } from '../trading/engine/market-at';
import { PaperEngine, type EngineRules, type EngineSignal, type KnownRange, type RecordedPeak } from '../trading/engine/paper-engine';
import { quoteAt, type PriceTicks } from '../trading/engine/price-ticks';
import { MICROS_PER_USD, UNITS_PER_COIN } from '../trading/money';
import { evolvePortfolio, initialPortfolioState, type PortfolioEvent, type PortfolioState } from '../trading/portfolio';
import { portfolioDecider } from '../trading/portfolio.decider';
import { innerMap } from '../shared/maps';
import { indexAtOrAfter, loadCandles, type Candles } from './candles';
import { BACKTEST_CANDLE_MINUTES, type BacktestProgress, type BacktestResult, type BacktestRun, type BacktestTrade, type StrategyId, type TradeReason, type ValidatedBacktestRequest } from './contracts';
import { curvesOf, EquitySeries, figuresOf, RunningEquity } from './metrics';
import { BUY, HOLD, NO_SIGNAL, SELL, strategyDecisions, warmUpCandles } from './strategies';

const CANDLE_MS = BACKTEST_CANDLE_MINUTES * 60_000;

/** The settings a run needs (a validated request has them). */
export type BacktestConfig = Pick<ValidatedBacktestRequest, 'strategyId' | 'symbol' | 'startMs' | 'endMs' | 'initialCapital' | 'parameters'>;

/** The market a run reads: the path's ticks and candles, the charts the entry rules read (a MarketSimulation's). */
export interface BacktestMarket {
  ticks: PriceTicks;
  charts: ChartAt;
  /** The market the entry rules read at a fill time (default: the paper engine's botMarketAt over `charts`); simulationMarket keeps it per fill time. */
  marketAt?: (coinId: CoinId, atMs: number) => BotMarket;
  /** The id a strategy's signal gets (default `{strategy}:{SYMBOL}@{candleTime}`); the live engine's signalIdFor makes house signals the live ones. */
  signalIdOf?: (symbol: string, candleTime: string) => string;
  /** The id of the SignalGenerated event that carries it (default: the signal's id); the live one is the command handler's idempotent id. */
  signalEventIdOf?: (symbol: string, candleTime: string) => string;
}

export interface BacktestOptions {
  /** The user's risk profile, as the paper bot reads it. */
  rules: EngineRules;
  /** Whose bot (trade ids derive from it and the signal, as the paper bot's); default 'backtest'. */
  userId?: string;
  onProgress?: BacktestProgress;
  /** The live monitor's recorded peaks, to replay (compare-paper); absent: peaks at the fill ticks. */
  peaks?: readonly RecordedPeak[];
  /** The candles, when the caller loaded them already (the walk-forward loads a period once); they must cover the warm-up and the period. */
  candles?: Candles;
  /**
   * Only the figures (the walk-forward's in-sample runs, which keep a set's figures and nothing else):
   * the result's curves, the trade list, the decisions, the events and the engine's outcomes are left
   * empty, the closed trades' P&L taken from the events as they come, which are then let go (the same
   * values in the same order as the trades'), and each trade is named by its signal's id, not the bot's
   * UUIDv5 of it and the user (the names never leave the run). Every figure is unchanged.
   */
  figuresOnly?: boolean;
  /** Quote every coin at each signal, as the live bot does (default: the signal's coin and those held, the same outcome; the plain path a spec compares with). */
  quoteEveryCoin?: boolean;
}

/** What a run leaves besides the result: the engine (its events, outcomes, refusals) and the equity samples. */
export interface BacktestDetail extends BacktestRun {
  events: PortfolioEvent[];
  engine: PaperEngine;
  /** The equity samples (none with figuresOnly, whose figures come from the running ones: RunningEquity). */
  equity: EquitySeries;
  /** The closed trades' P&L, USD. */
  closedPnl: number[];
  /** Decisions (candle close times, ms, and BUY / SELL / HOLD) the strategy gave in the period. */
  decisions: Array<{ timeMs: number; decision: number }>;
}

/** The candles a run of `config` reads (its warm-up included). */
export function candlesFor(config: Pick<BacktestConfig, 'strategyId' | 'parameters' | 'startMs' | 'endMs' | 'symbol'>, ticks: PriceTicks, warmUp = warmUpCandles(config.strategyId, config.parameters)): Candles {
  return candlesWithWarmUp(config, ticks, warmUp);
}

/** The coin's candles of the period with `warmUp` candles before its start (never before the history's start). */
export function candlesWithWarmUp(config: Pick<BacktestConfig, 'startMs' | 'endMs' | 'symbol'>, ticks: PriceTicks, warmUp: number): Candles {
  const coin = findCoinBySymbol(config.symbol);
  if (!coin) throw new RangeError(`no coin ${config.symbol}`);
  const from = Math.max(SIMULATION_EPOCH_MS, config.startMs - warmUp * CANDLE_MS);
  return loadCandles(ticks, coin.id, from, config.endMs, BACKTEST_CANDLE_MINUTES);
}

/** The portfolio a backtest starts from: opened with `initialCapital` at `atMs`, nothing held. */
export function openedWith(userId: string, initialCapital: number, atMs: number): PortfolioState {
  return evolvePortfolio(initialPortfolioState(), { type: 'PortfolioOpened', data: { userId, startingCashMicros: Math.round(initialCapital * MICROS_PER_USD), openedAt: new Date(atMs).toISOString() } });
}

/** A state's equity terms in one coin: its cash (USD) and the coins it holds (null: none); null when the portfolio is not open. */
interface EquityTerms {
  cashUsd: number;
  held: number | null;
}

function equityTermsOf(state: PortfolioState, symbol: string): EquityTerms | null {
  if (state.status !== 'open') return null;
  const position = state.positions[symbol as keyof typeof state.positions];
  return { cashUsd: state.cashMicros / MICROS_PER_USD, held: position ? position.units / UNITS_PER_COIN : null };
}

/** The equity (USD) of those terms at the coin's price `mid`. */
function equityAt(terms: EquityTerms | null, mid: number): number {
  return terms === null ? 0 : terms.cashUsd + (terms.held !== null ? terms.held * mid : 0);
}

export function runBacktest(config: BacktestConfig, market: BacktestMarket, options: BacktestOptions): BacktestRun {
  const { result, trades } = runBacktestDetail(config, market, options);
  return { result, trades };
}

export function runBacktestDetail(config: BacktestConfig, market: BacktestMarket, options: BacktestOptions): BacktestDetail {
  return strategyRun(config, market, options, options.candles ?? candlesFor(config, market.ticks)).finish();
}

/** A run of the strategy's own decisions (and, for the house rules, their confidence) over `candles`. */
function strategyRun(config: BacktestConfig, market: BacktestMarket, options: BacktestOptions, candles: Candles): DecidedRun {
  const decisions = new Int8Array(candles.length);
  const confidence = config.strategyId === 'house-signals' ? new Uint8Array(candles.length) : undefined;
  strategyDecisions(config.strategyId as StrategyId, config.parameters, candles, decisions, confidence);
  const decided: DecidedOptions = { ...options, candles, decisions };
  if (confidence) decided.confidence = confidence;
  return new DecidedRun({ ...config, label: config.strategyId }, market, decided);
}

/** The settings of a run whose decisions are made elsewhere: `label` names its signals (`{label}:{SYMBOL}@{candleTime}`). */
export type DecidedBacktestConfig = Pick<BacktestConfig, 'symbol' | 'startMs' | 'endMs' | 'initialCapital'> & { label: string };

/**
 * A run over decisions made by another module (the AI strategies' backtests, domain/src/strategies/
 * strategy-backtest.ts; and runBacktestDetail, over the catalogue's): `candles` cover the warm-up and
 * the period, `decisions[i]` is BUY, SELL, HOLD or NO_SIGNAL at candle i's close, `confidence[i]` the
 * signal's confidence (percent; default 100). Steps 2 and 3 of the file comment, unchanged.
 */
export function runDecidedBacktest(config: DecidedBacktestConfig, market: BacktestMarket, options: DecidedOptions): BacktestDetail {
  return new DecidedRun(config, market, options).finish();
}

/** What runDecidedBacktest takes besides the settings and the market. */
export type DecidedOptions = Omit<BacktestOptions, 'candles'> & { candles: Candles; decisions: Int8Array; confidence?: ArrayLike<number> };

/**
 * One decided run taken a stretch of candles at a time (runDecidedBacktest takes them all at once):
 * the walk-forward steps its parameter sets together, a day of candles each in turn, so the day's
 * path, charts and texts are read by every set while they are at hand (runBacktestsTogether).
 */
class DecidedRun {
  private readonly coinId: CoinId;
  private readonly symbol: CoinSymbol;
  private readonly userId: string;
  private readonly endTick: number;
  private readonly lastTick: number;
  private readonly engine: PaperEngine;
  /** The equity samples, or with figuresOnly what the figures read of them. */
  private readonly equity: EquitySeries | RunningEquity;
  private readonly given: Array<{ timeMs: number; decision: number }> = [];
  private readonly signalIdOf: (symbol: string, candleTime: string) => string;
  private readonly texts: Array<CandleTexts | undefined>;
  private readonly textsByTime: Map<number, CandleTexts>;
  private readonly first: number;
  private readonly span: number;
  /** The next candle, and whether the period ended before the candles did. */
  private i: number;
  private over = false;
  private signals = 0;
  private notFollowed = 0;
  /** With figuresOnly: the closed trades' P&L and the fills of the events folded so far (the engine keeps none). */
  private readonly closedPnl: number[] = [];
  private fills = 0;
  // The state's equity terms, read again only when the engine's state changes (a trade, a close).
  private marked: PortfolioState | null = null;
  private terms: EquityTerms | null = null;
  /** The candle in hand's range, handed to the engine's exit scan (one object, updated in place). */
  private readonly known: KnownRange;

  constructor(
    private readonly config: DecidedBacktestConfig,
    private readonly market: BacktestMarket,
    private readonly options: DecidedOptions,
  ) {
    const coin = findCoinBySymbol(config.symbol);
    if (!coin) throw new RangeError(`no coin ${config.symbol}`);
    this.coinId = coin.id as CoinId;
    this.symbol = coin.symbol;
    this.known = { coinId: this.coinId, from: -1, high: Number.NaN, low: Number.NaN };
    this.userId = options.userId ?? 'backtest';
    this.endTick = tickAt(config.endMs); // exclusive
    this.lastTick = this.endTick - 1;
    this.engine = new PaperEngine({ ticks: market.ticks, charts: market.charts, userId: this.userId, rules: options.rules, portfolio: openedWith(this.userId, config.initialCapital, config.startMs), quoteHeldOnly: !options.quoteEveryCoin, keepOutcomes: !options.figuresOnly, explain: !options.figuresOnly, ...(market.marketAt ? { marketAt: market.marketAt } : {}), ...(options.peaks ? { peaks: options.peaks } : {}) });
    this.equity = options.figuresOnly ? new RunningEquity(config.initialCapital) : new EquitySeries();
    this.signalIdOf = market.signalIdOf ?? ((symbol: string, candleTime: string) => `${config.label}:${symbol}@${candleTime}`);
    this.texts = textsOf(options.candles, market, config.label, coin.symbol);
    this.textsByTime = textsByTimeOf(market, config.label, coin.symbol);
    this.first = indexAtOrAfter(options.candles, config.startMs);
    this.i = this.first;
    this.span = Math.max(1, options.candles.length - this.first);
  }

  /** Takes the candles before index `end` (and within the period). */
  stepTo(end: number): void {
    const { candles, decisions, confidence, onProgress, figuresOnly } = this.options;
    const engine = this.engine;
    const stop = Math.min(end, candles.length);
    for (; this.i < stop && !this.over; this.i++) {
      const i = this.i;
      const closeMs = candles.time[i]! + CANDLE_MS;
      const closeTick = tickAt(closeMs);
      if (closeTick - 1 > this.lastTick) {
        this.over = true;
        break;
      }
      // The candle's ticks are within its high and low: a position the range cannot close is not scanned tick by tick.
      const known = this.known;
      known.from = tickAt(candles.time[i]!);
      known.high = candles.high[i]!;
      known.low = candles.low[i]!;
      engine.advanceTo(closeTick - 1, known);
      if (engine.state !== this.marked) {
        this.marked = engine.state;
        this.terms = equityTermsOf(this.marked, this.symbol);
      }
      this.equity.push(closeMs, equityAt(this.terms, candles.close[i]!));
      const d = decisions[i]!;
      if (d !== NO_SIGNAL) {
        if (!figuresOnly) this.given.push({ timeMs: closeMs, decision: d });
        const fillTick = tickAt(intendedFillMs(closeMs));
        if (fillTick < this.endTick) {
          const texts = this.textsAt(i, !figuresOnly);
          // A figures-only run's trades are never seen (their ids name them in the run alone): the signal's
          // id names its trade, unique as the bot's UUIDv5 of it is (those were about 3 % of a walk-forward).
          const signal: EngineSignal = { eventId: texts.eventId, signalId: texts.signalId, type: d === BUY ? 'BUY' : d === SELL ? 'SELL' : 'HOLD', symbol: this.symbol, price: candles.close[i]!, confidence: confidence ? confidence[i]! : 100, candleTime: texts.candleTime, tradeId: figuresOnly ? texts.signalId : texts.tradeId };
          const outcome = engine.onSignal(signal);
          if (d !== HOLD) {
            this.signals++;
            if (outcome.action !== 'TRADE') this.notFollowed++;
          }
        }
      }
      if (onProgress && (i - this.first) % 4096 === 0) onProgress((i - this.first) / this.span);
    }
    if (figuresOnly) {
      this.fold(engine.events);
      engine.forgetEvents();
    }
  }

  /** Folds events into the closed trades' P&L and the fill count (figuresOnly). */
  private fold(events: readonly PortfolioEvent[]): void {
    for (const e of events) {
      if (e.type === 'SimulatedTradePlaced') {
        this.fills++;
        if (e.data.side === 'SELL') this.closedPnl.push(usd(e.data.realisedPnlMicros));
      } else if (e.type === 'PositionClosed') {
        this.fills++;
        this.closedPnl.push(usd(e.data.realisedPnlMicros));
      }
    }
  }

  /** Candle `i`'s texts, with the trade id of this run's user when `withTradeId`. */
  private textsAt(i: number, withTradeId: boolean): CandleTexts {
    let t = this.texts[i];
    if (!t) {
      const timeMs = this.options.candles.time[i]!;
      t = this.textsByTime.get(timeMs);
      if (!t) {
        const candleTime = new Date(timeMs).toISOString();
        const signalId = this.signalIdOf(this.symbol, candleTime);
        t = { candleTime, signalId, eventId: this.market.signalEventIdOf ? this.market.signalEventIdOf(this.symbol, candleTime) : signalId, tradeUserId: null, tradeId: '' };
        if (this.textsByTime.size >= MAX_TEXTS_BY_TIME) this.textsByTime.clear();
        this.textsByTime.set(timeMs, t);
      }
      this.texts[i] = t;
    }
    if (withTradeId && t.tradeUserId !== this.userId) {
      t.tradeUserId = this.userId;
      t.tradeId = tradeIdFor(t.signalId, this.userId);
    }
    return t;
  }

  /** The rest of the period (its exits, the end-of-test sale) and the result. */
  finish(): BacktestDetail {
    const { config, market, options, engine, equity, coinId, userId, lastTick } = this;
    this.stepTo(Number.POSITIVE_INFINITY);
    engine.advanceTo(lastTick);

    // The end of the test: what is still held is sold at the last tick, through the same decider.
    // (With figuresOnly the events folded already are gone: `events` holds the rest.)
    const events = [...engine.events];
    let state = engine.state;
    if (state.status === 'open') {
      const position = state.positions[this.symbol];
      if (position) {
        const q = quoteAt(market.ticks, coinId, lastTick);
        const filledAt = new Date(tickTime(lastTick)).toISOString();
        const sale = portfolioDecider.decide(
          {
            type: 'PlaceSimulatedTrade',
            data: { userId, tradeId: `end-of-test:${position.positionId}`, symbol: this.symbol, side: 'SELL', amount: position.units / UNITS_PER_COIN, price: q.mid, source: { kind: 'MANUAL' }, market: { filledAt, minuteVolumeUsd: q.minuteVolumeUsd } },
            metadata: { now: filledAt },
          },
          state,
        );
        for (const e of sale) state = evolvePortfolio(state, e);
        events.push(...sale);
      }
    }
    const finalBalance = equityAt(equityTermsOf(state, this.symbol), market.ticks.price(coinId, lastTick));
    equity.push(config.endMs, finalBalance);

    if (options.figuresOnly) this.fold(events);
    const trades = options.figuresOnly ? [] : tradesOfEvents(events, options.rules.profile.stopLossType === 'trailing');
    const closedPnl = options.figuresOnly ? this.closedPnl : trades.filter((t) => t.pnl !== null).map((t) => t.pnl as number);
    const figures = figuresOf(equity, closedPnl, config.initialCapital, finalBalance);
    const result: BacktestResult = {
      ...figures,
      fills: options.figuresOnly ? this.fills : trades.length,
      signals: this.signals,
      refusedSignals: this.notFollowed,
      ...(equity instanceof EquitySeries ? curvesOf(equity, config.initialCapital) : { equityCurve: [], drawdownCurve: [] }),
    };
    options.onProgress?.(1);
    return { result, trades, events: options.figuresOnly ? [] : events, engine, equity: equity instanceof EquitySeries ? equity : new EquitySeries(1), closedPnl, decisions: this.given };
  }
}

/**
 * Runs of one strategy's parameter sets over the same candles (a walk-forward window's in-sample
 * sets), taken together a day of candles at a time, each set's decisions its own: the same results,
 * in the same order, as one runBacktestDetail after another. `onDay(fraction)` after each day.
 */
export function runBacktestsTogether(configs: readonly BacktestConfig[], market: BacktestMarket, options: BacktestOptions & { candles: Candles }, onDay?: (fraction: number) => void): BacktestDetail[] {
  const candles = options.candles;
  const runs = configs.map((config) => strategyRun(config, market, options, candles));
  const day = 86_400_000 / CANDLE_MS;
  for (let end = day; end < candles.length + day; end += day) {
    for (const run of runs) run.stepTo(end);
    onDay?.(Math.min(1, end / candles.length));
  }
  return runs.map((run) => run.finish());
}

const usd = (micros: number) => micros / MICROS_PER_USD;

/** A candle's signal texts: its ISO time, its signal's id and event id, and the trade id of the user asked last. */
interface CandleTexts {
  candleTime: string;
  signalId: string;
  eventId: string;
  tradeUserId: string | null;
  tradeId: string;
}

/**
 * The texts of candle `i`'s signal, kept per candles, market and strategy: the walk-forward's sets
 * decide over one window's candles again and again, and the same texts (the same strings) come back
 * (formatting them and hashing new strings for the trade-id and time lookups was a tenth of a set).
 */
const candleTexts = new WeakMap<BacktestMarket, WeakMap<Candles, Map<string, Map<string, Array<CandleTexts | undefined>>>>>();
/**
 * The same texts by candle time, kept per market, strategy and coin across loads of candles: a walk-
 * forward loads each window's candles anew, and its windows' in-sample periods overlap by two thirds
 * (formatting a window's texts and looking up its trade ids again were about 5 % of it). Bounded: emptied when full.
 */
const textsByTime = new WeakMap<BacktestMarket, Map<string, Map<string, Map<number, CandleTexts>>>>();
const MAX_TEXTS_BY_TIME = 400_000;
function textsByTimeOf(market: BacktestMarket, label: string, symbol: string): Map<number, CandleTexts> {
  let ofMarket = textsByTime.get(market);
  if (!ofMarket) {
    ofMarket = new Map();
    textsByTime.set(market, ofMarket);
  }
  return innerMap(innerMap(ofMarket, label), symbol);
}

function textsOf(candles: Candles, market: BacktestMarket, label: string, symbol: string): Array<CandleTexts | undefined> {
  // Per market: its own id functions name the signals (a compare-paper market names them as the live engine did).
  let ofMarket = candleTexts.get(market);
  if (!ofMarket) {
    ofMarket = new WeakMap();
    candleTexts.set(market, ofMarket);
  }
  let byKey = ofMarket.get(candles);
  if (!byKey) {
    byKey = new Map();
    ofMarket.set(candles, byKey);
  }
  // By label, then symbol: a key joined from the two would be a new string to hash at every run.
  const byLabel = innerMap(byKey, label);
  let texts = byLabel.get(symbol);
  if (!texts) {
    texts = new Array<CandleTexts | undefined>(candles.length);
    byLabel.set(symbol, texts);
  }
  return texts;
}

/**
 * The fills of portfolio events as trades (the backtest's, and the paper bot's for the comparison).
 * `trailing`: the profile's stop is a trailing one, so a profile position's STOP_LOSS is TRAILING_STOP.
 */
export function tradesOfEvents(events: readonly PortfolioEvent[], trailing: boolean): BacktestTrade[] {
  const plans = new Map<string, string>();
  const trades: BacktestTrade[] = [];
  for (const e of events) {
    if (e.type === 'SimulatedTradePlaced') {
      const d = e.data;
      if (d.side === 'BUY') plans.set(d.tradeId, d.exits?.kind ?? 'NONE');
      const x = d.execution;
      const reason: TradeReason = d.tradeId.startsWith('end-of-test:') ? 'END_OF_TEST' : 'SIGNAL';
      trades.push({
        tradeId: d.tradeId,
        time: x?.filledAt ?? d.placedAt,
        side: d.side,
        symbol: d.symbol,
        amount: d.quantity,
        price: d.price,
        fee: usd(d.feeMicros),
        pnl: d.side === 'SELL' ? usd(d.realisedPnlMicros) : null,
        reason,
        ...(d.source.kind === 'SIGNAL' ? { signalId: d.source.signalId } : {}),
        ...(d.decision ? { rule: d.decision.rule } : {}),
        execution: executionOf(x, d.price, d.placedAt),
      });
    } else if (e.type === 'PositionClosed') {
      const d = e.data;
      const reason: TradeReason = d.reason === 'TAKE_PROFIT' ? 'TAKE_PROFIT' : trailing && plans.get(d.positionId) === 'PROFILE' ? 'TRAILING_STOP' : 'STOP_LOSS';
      trades.push({
        tradeId: `close:${d.positionId}`,
        time: d.execution?.filledAt ?? d.closedAt,
        side: 'SELL',
        symbol: d.symbol,
        amount: d.quantity,
        price: d.price,
        fee: usd(d.feeMicros),
        pnl: usd(d.realisedPnlMicros),
        reason,
        execution: executionOf(d.execution, d.price, d.closedAt),
      });
    }
  }
  return trades;
}

function executionOf(e: Execution | undefined, price: number, at: string): BacktestTrade['execution'] {
  if (!e) return { mid: price, halfSpread: 0, impact: 0, filledAt: at, intendedAt: null, delayMs: null, level: null };
  return { mid: e.mid, halfSpread: e.halfSpread, impact: e.impact, filledAt: e.filledAt, intendedAt: e.intendedAt ?? null, delayMs: e.delayMs ?? null, level: e.level ?? null };
}
