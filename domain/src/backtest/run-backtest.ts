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
import { findCoinBySymbol, type CoinId } from '../market/coins';
import { SIMULATION_EPOCH_MS, tickAt, tickTime } from '../market/market-path';
import { tradeIdFor, type BotMarket } from '../trading/bot-trade-decision';
import { intendedFillMs } from '../trading/engine/bot-timing';
import type { Execution } from '../trading/engine/fills';
import type { ChartAt } from '../trading/engine/market-at';
import { PaperEngine, type EngineRules, type EngineSignal, type RecordedPeak } from '../trading/engine/paper-engine';
import { quoteAt, type PriceTicks } from '../trading/engine/price-ticks';
import { MICROS_PER_USD, UNITS_PER_COIN } from '../trading/money';
import { evolvePortfolio, initialPortfolioState, type PortfolioEvent, type PortfolioState } from '../trading/portfolio';
import { portfolioDecider } from '../trading/portfolio.decider';
import { innerMap } from '../shared/maps';
import { indexAtOrAfter, loadCandles, type Candles } from './candles';
import { BACKTEST_CANDLE_MINUTES, type BacktestProgress, type BacktestResult, type BacktestRun, type BacktestTrade, type StrategyId, type TradeReason, type ValidatedBacktestRequest } from './contracts';
import { curvesOf, EquitySeries, figuresOf } from './metrics';
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
  /** Scratch for the decisions (reused by the walk-forward). */
  decisions?: Int8Array;
  /**
   * Only the figures (the walk-forward's in-sample runs, which keep a set's figures and nothing else):
   * the result's curves, the trade list, the decisions and the engine's outcomes are left empty, the
   * closed trades' P&L taken from the events directly (the same values in the same order as the
   * trades'). Every figure is unchanged.
   */
  figuresOnly?: boolean;
  /** Quote every coin at each signal, as the live bot does (default: the signal's coin and those held, the same outcome; the plain path a spec compares with). */
  quoteEveryCoin?: boolean;
}

/** What a run leaves besides the result: the engine (its events, outcomes, refusals) and the equity samples. */
export interface BacktestDetail extends BacktestRun {
  events: PortfolioEvent[];
  engine: PaperEngine;
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
  const candles = options.candles ?? candlesFor(config, market.ticks);
  const decisions = options.decisions && options.decisions.length >= candles.length ? options.decisions : new Int8Array(candles.length);
  const confidence = config.strategyId === 'house-signals' ? new Uint8Array(candles.length) : undefined;
  strategyDecisions(config.strategyId as StrategyId, config.parameters, candles, decisions, confidence);
  const decided: Parameters<typeof runDecidedBacktest>[2] = { ...options, candles, decisions };
  if (confidence) decided.confidence = confidence;
  return runDecidedBacktest({ ...config, label: config.strategyId }, market, decided);
}

/** The settings of a run whose decisions are made elsewhere: `label` names its signals (`{label}:{SYMBOL}@{candleTime}`). */
export type DecidedBacktestConfig = Pick<BacktestConfig, 'symbol' | 'startMs' | 'endMs' | 'initialCapital'> & { label: string };

/**
 * A run over decisions made by another module (the AI strategies' backtests, domain/src/strategies/
 * strategy-backtest.ts; and runBacktestDetail, over the catalogue's): `candles` cover the warm-up and
 * the period, `decisions[i]` is BUY, SELL, HOLD or NO_SIGNAL at candle i's close, `confidence[i]` the
 * signal's confidence (percent; default 100). Steps 2 and 3 of the file comment, unchanged.
 */
export function runDecidedBacktest(config: DecidedBacktestConfig, market: BacktestMarket, options: Omit<BacktestOptions, 'candles' | 'decisions'> & { candles: Candles; decisions: Int8Array; confidence?: ArrayLike<number> }): BacktestDetail {
  const coin = findCoinBySymbol(config.symbol);
  if (!coin) throw new RangeError(`no coin ${config.symbol}`);
  const coinId = coin.id as CoinId;
  const userId = options.userId ?? 'backtest';
  const { candles, decisions, confidence } = options;

  const endTick = tickAt(config.endMs); // exclusive
  const lastTick = endTick - 1;
  const engine = new PaperEngine({ ticks: market.ticks, charts: market.charts, userId, rules: options.rules, portfolio: openedWith(userId, config.initialCapital, config.startMs), quoteHeldOnly: !options.quoteEveryCoin, keepOutcomes: !options.figuresOnly, explain: !options.figuresOnly, ...(market.marketAt ? { marketAt: market.marketAt } : {}), ...(options.peaks ? { peaks: options.peaks } : {}) });
  const equity = new EquitySeries(Math.max(16, Math.ceil((config.endMs - config.startMs) / CANDLE_MS) + 2));
  const given: Array<{ timeMs: number; decision: number }> = [];
  const signalIdOf = market.signalIdOf ?? ((symbol: string, candleTime: string) => `${config.label}:${symbol}@${candleTime}`);

  const first = indexAtOrAfter(candles, config.startMs);
  const n = candles.length;
  const span = Math.max(1, n - first);
  let signals = 0;
  let notFollowed = 0;
  // The state's equity terms, read again only when the engine's state changes (a trade, a close).
  let marked: PortfolioState | null = null;
  let terms: EquityTerms | null = null;
  for (let i = first; i < n; i++) {
    const closeMs = candles.time[i]! + CANDLE_MS;
    const closeTick = tickAt(closeMs);
    if (closeTick - 1 > lastTick) break;
    engine.advanceTo(closeTick - 1);
    if (engine.state !== marked) {
      marked = engine.state;
      terms = equityTermsOf(marked, coin.symbol);
    }
    equity.push(closeMs, equityAt(terms, candles.close[i]!));
    const d = decisions[i]!;
    if (d !== NO_SIGNAL) {
      if (!options.figuresOnly) given.push({ timeMs: closeMs, decision: d });
      const fillTick = tickAt(intendedFillMs(closeMs));
      if (fillTick < endTick) {
        const texts = textsOf(candles, market, config.label, coin.symbol, i, signalIdOf);
        const candleTime = texts.candleTime;
        const id = texts.signalId;
        if (texts.tradeUserId !== userId) {
          texts.tradeUserId = userId;
          texts.tradeId = tradeIdFor(id, userId);
        }
        const signal: EngineSignal = { eventId: texts.eventId, signalId: id, type: d === BUY ? 'BUY' : d === SELL ? 'SELL' : 'HOLD', symbol: coin.symbol, price: candles.close[i]!, confidence: confidence ? confidence[i]! : 100, candleTime, tradeId: texts.tradeId };
        const outcome = engine.onSignal(signal);
        if (d !== HOLD) {
          signals++;
          if (outcome.action !== 'TRADE') notFollowed++;
        }
      }
    }
    if (options.onProgress && (i - first) % 4096 === 0) options.onProgress((i - first) / span);
  }
  engine.advanceTo(lastTick);

  // The end of the test: what is still held is sold at the last tick, through the same decider.
  const events = [...engine.events];
  let state = engine.state;
  const endPnl: number[] = [];
  if (state.status === 'open') {
    const position = state.positions[coin.symbol];
    if (position) {
      const q = quoteAt(market.ticks, coinId, lastTick);
      const filledAt = new Date(tickTime(lastTick)).toISOString();
      const sale = portfolioDecider.decide(
        {
          type: 'PlaceSimulatedTrade',
          data: { userId, tradeId: `end-of-test:${position.positionId}`, symbol: coin.symbol, side: 'SELL', amount: position.units / UNITS_PER_COIN, price: q.mid, source: { kind: 'MANUAL' }, market: { filledAt, minuteVolumeUsd: q.minuteVolumeUsd } },
          metadata: { now: filledAt },
        },
        state,
      );
      for (const e of sale) state = evolvePortfolio(state, e);
      events.push(...sale);
      for (const e of sale) if (e.type === 'SimulatedTradePlaced') endPnl.push(e.data.realisedPnlMicros / MICROS_PER_USD);
    }
  }
  const finalBalance = equityAt(equityTermsOf(state, coin.symbol), market.ticks.price(coinId, lastTick));
  equity.push(config.endMs, finalBalance);

  const trades = options.figuresOnly ? [] : tradesOfEvents(events, options.rules.profile.stopLossType === 'trailing');
  const closedPnl = options.figuresOnly ? closedPnlOfEvents(events) : trades.filter((t) => t.pnl !== null).map((t) => t.pnl as number);
  const figures = figuresOf(equity, closedPnl, config.initialCapital, finalBalance);
  const result: BacktestResult = {
    ...figures,
    fills: options.figuresOnly ? fillsOfEvents(events) : trades.length,
    signals,
    refusedSignals: notFollowed,
    ...(options.figuresOnly ? { equityCurve: [], drawdownCurve: [] } : curvesOf(equity, config.initialCapital)),
  };
  options.onProgress?.(1);
  return { result, trades, events, engine, equity, closedPnl, decisions: given };
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
function textsOf(candles: Candles, market: BacktestMarket, label: string, symbol: string, i: number, signalIdOf: (symbol: string, candleTime: string) => string): CandleTexts {
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
  // By label, then symbol: a key joined from the two would be a new string to hash at every signal.
  const byLabel = innerMap(byKey, label);
  let texts = byLabel.get(symbol);
  if (!texts) {
    texts = new Array<CandleTexts | undefined>(candles.length);
    byLabel.set(symbol, texts);
  }
  let t = texts[i];
  if (!t) {
    const candleTime = new Date(candles.time[i]!).toISOString();
    const signalId = signalIdOf(symbol, candleTime);
    t = { candleTime, signalId, eventId: market.signalEventIdOf ? market.signalEventIdOf(symbol, candleTime) : signalId, tradeUserId: null, tradeId: '' };
    texts[i] = t;
  }
  return t;
}

/** The P&L of the closed trades of `events`, USD, in order: tradesOfEvents' non-null `pnl`s without the trades. */
function closedPnlOfEvents(events: readonly PortfolioEvent[]): number[] {
  const pnl: number[] = [];
  for (const e of events) {
    if (e.type === 'SimulatedTradePlaced') {
      if (e.data.side === 'SELL') pnl.push(usd(e.data.realisedPnlMicros));
    } else if (e.type === 'PositionClosed') pnl.push(usd(e.data.realisedPnlMicros));
  }
  return pnl;
}

/** How many trades tradesOfEvents makes of `events`. */
function fillsOfEvents(events: readonly PortfolioEvent[]): number {
  let n = 0;
  for (const e of events) if (e.type === 'SimulatedTradePlaced' || e.type === 'PositionClosed') n++;
  return n;
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
