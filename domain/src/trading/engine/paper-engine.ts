/**
 * One engine for paper trading and backtesting (issue 17, section 4; DESIGN.md section 9): one user's
 * bot and risk monitor run over a stream of signals and the price path, in order, producing the
 * portfolio events the live workers produce. The live workers call the same functions piece by piece
 * (the trading bot: bot-timing.ts and decideBotOrder; the risk monitor: exitSpecOf, scanExits and
 * closeCommandFor), and both go through the portfolio decider; the backtester runs this over history.
 * So a backtest of a period the bot paper-traded gives the same trades, to the cent, as long as the
 * live workers were on time (a late fill records its delay, and `handledAtMs` replays it).
 *
 * Order of things, the same as live:
 * - a signal's order fills at its fill tick (bot-timing.ts): the exits of the positions held are
 *   scanned up to the tick before it first (the monitor follows the ticks as they come, the bot waits
 *   for the fill tick), then the order is decided at the fill tick's prices;
 * - a position's exits are scanned from the tick after its opening fill; a fill tick's own crossings
 *   come after the order (live, the monitor reaches a tick once the bot has filled at it; an exit and
 *   an order on the same tick is the one race the live workers can order otherwise);
 * - closes between two signals are applied in tick order.
 *
 * The rules are the user's one risk profile (`rules.profile`): the bot's entry rules at each fill tick
 * with the market read from the charts ending then (market-at.ts, the live bot's figures), and each
 * position's exits by its exit plan under that profile (exit-spec.ts: fixed, atr and volatility stops a
 * fixed level from the entry, a trailing stop following the highest tick since the entry, a manual
 * position's own levels, or none).
 *
 * The portfolio's peak (maxDrawdown measures from it) is what the live risk monitor records on the
 * ticks it sees: `peaks`, its PortfolioPeakRecorded events, are replayed at their ticks (after the
 * closes of the same tick, as the monitor appends them), so a replay of a live day decides on the same
 * peak. Without them (a backtest) the engine records the portfolio's value at each of its fill ticks,
 * a lower bound of the monitor's peak, which also sees the ticks between orders.
 * A command the portfolio decider refuses (insufficient cash, a sale of more than held) appends
 * nothing and is reported, as the worker counts it.
 */
import { coins, findCoinBySymbol, type CoinId, type CoinSymbol } from '../../market/coins';
import { tickAt } from '../../market/market-path';
import { DomainError } from '../../shared/errors';
import { isoOf } from '../../shared/time-memo';
import type { BotMarket, BotSignal, BotTradeDecision, BotTradeInput } from '../bot-trade-decision';
import type { BotDecision } from '../contracts';
import { usdToMicros } from '../money';
import { evolvePortfolio, initialPortfolioState, type PortfolioEvent, type PortfolioState, type Position } from '../portfolio';
import { portfolioDecider, raisesPeak, type PortfolioCommand } from '../portfolio.decider';
import { portfolioTotalValue } from '../portfolio-valuation';
import { decideBotOrder, type BotOrderInput, type BotOrderQuote } from './bot-order';
import { fillTimeMs, intendedFillMs, signalTimeMs } from './bot-timing';
import { newExitHit, scanExits, skipSpan, type ExitCursor, type ExitHit, type ExitSpec } from './exit-scan';
import { closeCommandFor, cursorAtOpening, exitSpecOf } from './exit-spec';
import { botMarketAt, type ChartAt } from './market-at';
import { quoteAt, type PriceTicks } from './price-ticks';

/** A signal as the bot follows it, with when it was recorded (its event's time) and, to replay a late bot, when it was handled. */
export interface EngineSignal extends BotSignal {
  recordedAt?: string;
  /** The live bot handled it then (ms): a fill after its intended tick is replayed as it happened. */
  handledAtMs?: number;
}

/** The user's rules as the bot reads them: what decideBotTrade takes besides the user, signal, portfolio, market, prices and time (the risk profile). */
export type EngineRules = Omit<BotTradeInput, 'userId' | 'signal' | 'portfolio' | 'market' | 'prices' | 'now' | 'explain'>;

/** A peak the live risk monitor recorded (a PortfolioPeakRecorded: its recordedAt, ms, and value). */
export interface RecordedPeak {
  atMs: number;
  valueMicros: number;
}

export interface PaperEngineOptions {
  ticks: PriceTicks;
  /** The charts the entry rules' figures come from (a market simulation's `chart`, the path's candles). */
  charts: ChartAt;
  userId: string;
  rules: EngineRules;
  /** A position's levels (default: its exit plan under the profile, exitSpecOf); null: no automatic exit. */
  exitSpec?: (position: Position) => ExitSpec | null;
  /** The live monitor's recorded peaks, to replay (see the module comment); absent: peaks at the fill ticks. */
  peaks?: readonly RecordedPeak[];
  /** The portfolio to start from (default: none yet, opened by the first trade); its positions are scanned from their opening fills. */
  portfolio?: PortfolioState;
  /**
   * The market the entry rules read at a fill time (default: botMarketAt over `charts`). A backtest
   * trying many parameter sets over one period passes botMarketAt memoised per coin and fill time:
   * the same figures, computed once.
   */
  marketAt?: (coinId: CoinId, atMs: number) => BotMarket;
  /**
   * Quote only the signal's coin and the coins held (default: every coin, as the live bot quotes).
   * Those prices are all a decision reads (the order its coin's, the portfolio's value the held
   * coins'), so the outcome is the same; a backtest, whose portfolio holds one coin, asks for one
   * coin's ticks per signal instead of ten.
   */
  quoteHeldOnly?: boolean;
  /** Keep every signal's outcome in `outcomes` (default true); a run that reads only the events and the state (a walk-forward's in-sample sets) passes false and keeps no garbage. */
  keepOutcomes?: boolean;
  /** Word each decision (default true); false: decisions keep their rules only (BotTradeInput.explain), every trade the same. */
  explain?: boolean;
}

/** An open position as advanceTo scans it. */
interface WatchedPosition {
  position: Position;
  coinId: CoinId;
  cursor: ExitCursor;
  /** Its levels (null: no automatic exit), or undefined: asked at each scan. */
  spec: ExitSpec | null | undefined;
}

/**
 * A range the caller knows ticks lie in (a backtest's candle: its ticks `from` to the tick advanceTo
 * is asked for, of `coinId`, are within [low, high]). Updated in place by its owner.
 */
export interface KnownRange {
  coinId: CoinId;
  from: number;
  high: number;
  low: number;
}

/** What became of one signal. */
export type SignalOutcome =
  | { signalId: string; fillTick: number; action: 'TRADE' | 'SKIP'; decision: BotTradeDecision; events: PortfolioEvent[] }
  | { signalId: string; fillTick: number; action: 'REFUSED'; decision: BotTradeDecision; error: string };

/** A BUY or SELL signal a rule refused, as the live bot records it (BotSignalRefused's data). */
export interface EngineRefusal {
  userId: string;
  signalId: string;
  signalEventId: string;
  symbol: string;
  signalType: 'BUY' | 'SELL';
  candleTime: string;
  decision: BotDecision;
  /** The fill tick's time: the refusal is decided there, as a trade would have filled. */
  refusedAt: string;
}

export class PaperEngine {
  state: PortfolioState;
  /** Every event the engine appended, in order. */
  readonly events: PortfolioEvent[] = [];
  readonly outcomes: SignalOutcome[] = [];
  /** The signals a rule refused, in order. */
  readonly refusals: EngineRefusal[] = [];
  private readonly cursors = new Map<string, ExitCursor>();
  private readonly hit: ExitHit = newExitHit();
  private readonly exitSpec: (position: Position) => ExitSpec | null;
  /** Exits are scanned up to here. */
  private scanned: number;
  /** The recorded peaks in time order, and the next one to replay. */
  private readonly peaks: readonly RecordedPeak[] | null;
  private nextPeak = 0;
  /** The positions object watchedPositions listed last, and its list. */
  private watchedOf: Partial<Record<CoinSymbol, Position>> | null | undefined = undefined;
  private watched: readonly WatchedPosition[] = [];

  constructor(private readonly options: PaperEngineOptions) {
    this.state = options.portfolio ?? initialPortfolioState();
    // The default plan's levels are a function of the position (an immutable state's object) and the
    // profile: watchedPositions keeps them with the position while it is the same object.
    this.exitSpec = options.exitSpec ?? ((position) => exitSpecOf(position, options.rules.profile));
    this.scanned = -1;
    this.peaks = options.peaks ? [...options.peaks].sort((a, b) => a.atMs - b.atMs) : null;
  }

  /** The signal's order: exits up to the tick before its fill, then the bot's decision at the fill tick. */
  onSignal(signal: EngineSignal): SignalOutcome {
    const intendedMs = intendedFillMs(signalTimeMs(signal.candleTime, signal.recordedAt));
    const fillMs = signal.handledAtMs === undefined ? intendedMs : fillTimeMs(intendedMs, signal.handledAtMs);
    const fillTick = tickAt(fillMs);
    this.advanceTo(fillTick - 1);
    const coin = findCoinBySymbol(signal.symbol);
    const quotes: BotOrderQuote[] = [];
    // With quoteHeldOnly: the coins held, listed once (a lookup of every coin in the positions was about 2 % of a walk-forward).
    let held: string[] | null = null;
    if (this.options.quoteHeldOnly) {
      held = [];
      if (this.state.status === 'open') for (const symbol in this.state.positions) if (this.state.positions[symbol as CoinSymbol] !== undefined) held.push(symbol);
    }
    for (const c of coins) {
      if (held !== null && c !== coin && !held.includes(c.symbol)) continue;
      const q = quoteAt(this.options.ticks, c.id, fillTick);
      quotes.push({ coinId: c.id, symbol: c.symbol, price: q.mid, filledAt: isoOf(q.timeMs), minuteVolumeUsd: q.minuteVolumeUsd });
    }
    if (!this.peaks) this.recordPeak(quotes, fillMs);
    // The live bot reads the market for BUY signals only (the rules that read it are entry rules).
    const market = signal.type === 'BUY' && coin ? (this.options.marketAt ? this.options.marketAt(coin.id, fillMs) : botMarketAt(this.options.charts, coin.id, fillMs)) : null;
    // Field by field, not spread from the rules: a spread object was a sixth of a backtest's time.
    const input: BotOrderInput = { userId: this.options.userId, signal, profile: this.options.rules.profile, portfolio: this.state, market, quotes, intendedMs, fillMs, explain: this.options.explain !== false };
    const decision = decideBotOrder(input);
    let outcome: SignalOutcome;
    if (decision.action === 'TRADE') {
      try {
        outcome = { signalId: signal.signalId, fillTick, action: 'TRADE', decision, events: this.apply(decision.command) };
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        outcome = { signalId: signal.signalId, fillTick, action: 'REFUSED', decision, error: error.message };
      }
    } else {
      outcome = { signalId: signal.signalId, fillTick, action: 'SKIP', decision, events: [] };
      if (decision.decision && signal.type !== 'HOLD') {
        const { signalId, eventId: signalEventId, symbol, type: signalType, candleTime } = signal;
        this.refusals.push({ userId: this.options.userId, signalId, signalEventId, symbol, signalType, candleTime, decision: decision.decision, refusedAt: isoOf(fillMs) });
      }
    }
    if (this.options.keepOutcomes !== false) this.outcomes.push(outcome);
    return outcome;
  }

  /** Empties `events`: a run that folds them as it goes (a walk-forward's in-sample set, which keeps its figures only) holds none. */
  forgetEvents(): void {
    this.events.length = 0;
  }

  /**
   * Scans every open position's exits up to `tick` and closes the crossed ones, in tick order, with the
   * recorded peaks up to it (each after the closes of its tick). With `known`, a position of its coin
   * scanned up to the tick before `known.from` whose levels the range cannot reach moves past the
   * ticks without reading them (the same cursor as scanning them gives: exit-scan.ts skipSpan); any
   * other is scanned. A backtest passes each candle's range: most candles cross no level.
   */
  advanceTo(tick: number, known?: KnownRange): void {
    if (tick <= this.scanned) return;
    let hits: Array<{ position: Position; hit: ExitHit }> | null = null; // allocated at the first hit
    const watched = this.watchedPositions();
    // Indexed, not for-of with destructuring: this runs at every candle of a backtest, and the iterator was most of what it allocated.
    for (let k = 0; k < watched.length; k++) {
      const w = watched[k]!;
      const spec = w.spec === undefined ? this.exitSpec(w.position) : w.spec;
      if (!spec) continue;
      if (known !== undefined && w.coinId === known.coinId && w.cursor.tick === known.from - 1 && skipSpan(spec, w.cursor, known.high, known.low, tick)) continue;
      if (scanExits(this.options.ticks, w.coinId, spec, w.cursor, tick, this.hit)) (hits ??= []).push({ position: w.position, hit: { ...this.hit } });
    }
    // (Only when there are hits: `hits ?? []` made an array at every candle of a backtest.)
    if (hits !== null) {
      hits.sort((a, b) => a.hit.tick - b.hit.tick);
      for (const { position, hit } of hits) {
        this.replayPeaks(hit.tick - 1);
        const coinId = findCoinBySymbol(position.symbol)!.id as CoinId;
        const command = closeCommandFor(this.options.userId, position, hit, quoteAt(this.options.ticks, coinId, hit.tick).minuteVolumeUsd);
        this.apply(command);
        this.cursors.delete(position.positionId);
      }
    }
    this.replayPeaks(tick);
    this.scanned = tick;
  }

  /**
   * The open positions with their coins and scan cursors, kept while the state's positions are the
   * same object (a backtest asks at every candle, and most candles change nothing).
   */
  private watchedPositions(): readonly WatchedPosition[] {
    const positions = this.state.status === 'open' ? this.state.positions : null;
    // Stryker disable next-line ConditionalExpression: equivalent, as `false` the list is made again on every call and holds the same entries (below: each position's cursor from this.cursors, its levels from the position and the profile); `true` (a stale list) is also the `!==` mutant's case, which stays.
    if (positions === this.watchedOf) return this.watched;
    const watched: WatchedPosition[] = [];
    const before = this.watched;
    for (const symbol in positions ?? {}) {
      const position = positions![symbol as CoinSymbol];
      if (position === undefined) continue;
      // The same position object as before (a trade in another coin, a peak): its entry as it was.
      let kept: WatchedPosition | undefined;
      for (let k = 0; k < before.length && kept === undefined; k++) if (before[k]!.position === position) kept = before[k];
      // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent, an entry not kept is made again below from the same position and cursor (the same levels: exitSpecOf of the position and the profile); `true` (keeping nothing found) is also the `||` mutant's case, which stays.
      if (kept !== undefined && this.cursors.get(position.positionId) === kept.cursor) {
        watched.push(kept);
        continue;
      }
      let cursor = this.cursors.get(position.positionId);
      if (!cursor) {
        cursor = cursorAtOpening(position);
        this.cursors.set(position.positionId, cursor);
      }
      // The default levels are a function of the position and the profile: kept with it (a custom exitSpec is asked each time).
      watched.push({ position, coinId: findCoinBySymbol(position.symbol)!.id as CoinId, cursor, spec: this.options.exitSpec ? undefined : this.exitSpec(position) });
    }
    this.watchedOf = positions;
    this.watched = watched;
    return watched;
  }

  /** The recorded peaks at ticks up to `tick`, in order. */
  private replayPeaks(tick: number): void {
    const peaks = this.peaks;
    if (!peaks) return;
    for (; this.nextPeak < peaks.length && tickAt(peaks[this.nextPeak]!.atMs) <= tick; this.nextPeak++) {
      const { atMs, valueMicros } = peaks[this.nextPeak]!;
      this.apply({ type: 'RecordPortfolioPeak', data: { userId: this.options.userId, valueMicros }, metadata: { now: new Date(atMs).toISOString() } });
    }
  }

  /** A peak of the portfolio valued at the fill tick's mids (the decider appends it only above the recorded one). */
  private recordPeak(quotes: readonly BotOrderQuote[], fillMs: number): void {
    if (this.state.status !== 'open') return;
    const prices: Partial<Record<CoinSymbol, number>> = {};
    for (const q of quotes) prices[q.symbol] = q.price;
    const valueMicros = usdToMicros(portfolioTotalValue(this.state, prices));
    // Below the recorded peak's step the decider appends nothing: not asked (the same state).
    if (valueMicros > 0 && raisesPeak(this.state, valueMicros)) this.apply({ type: 'RecordPortfolioPeak', data: { userId: this.options.userId, valueMicros }, metadata: { now: isoOf(fillMs) } });
  }

  private apply(command: PortfolioCommand): PortfolioEvent[] {
    const events = portfolioDecider.decide(command, this.state);
    for (const event of events) {
      this.state = evolvePortfolio(this.state, event);
      this.events.push(event);
    }
    // A position that is gone (sold, closed) needs no cursor.
    if (this.cursors.size > 0) {
      const positions = this.state.status === 'open' ? this.state.positions : {};
      for (const id of this.cursors.keys()) {
        let open = false;
        for (const symbol in positions) if (positions[symbol as CoinSymbol]?.positionId === id) open = true;
        if (!open) this.cursors.delete(id);
      }
    }
    return events;
  }
}

/** Runs `signals` in order and the exits up to `untilTick`; the engine afterwards holds the events and the state. */
export function runPaperEngine(options: PaperEngineOptions, signals: readonly EngineSignal[], untilTick: number): PaperEngine {
  const engine = new PaperEngine(options);
  for (const signal of signals) engine.onSignal(signal);
  engine.advanceTo(untilTick);
  return engine;
}
