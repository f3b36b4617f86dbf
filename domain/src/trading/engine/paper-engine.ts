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
 * A command the portfolio decider refuses (insufficient cash, a sale of more than held) appends
 * nothing and is reported, as the worker counts it.
 */
import { coins, findCoinBySymbol, type CoinId } from '../../market/coins';
import { tickAt } from '../../market/market-path';
import { DomainError } from '../../shared/errors';
import type { BotSignal, BotTradeDecision, BotTradeInput } from '../bot-trade-decision';
import { evolvePortfolio, initialPortfolioState, type PortfolioEvent, type PortfolioState, type Position } from '../portfolio';
import { portfolioDecider, type PortfolioCommand } from '../portfolio.decider';
import { decideBotOrder, type BotOrderQuote } from './bot-order';
import { fillTimeMs, intendedFillMs, signalTimeMs } from './bot-timing';
import { newExitHit, scanExits, type ExitCursor, type ExitHit, type ExitSpec } from './exit-scan';
import { closeCommandFor, cursorAtOpening, exitSpecOf } from './exit-spec';
import { quoteAt, type PriceTicks } from './price-ticks';

/** A signal as the bot follows it, with when it was recorded (its event's time) and, to replay a late bot, when it was handled. */
export interface EngineSignal extends BotSignal {
  recordedAt?: string;
  /** The live bot handled it then (ms): a fill after its intended tick is replayed as it happened. */
  handledAtMs?: number;
}

/** The user's rules as the bot reads them: what decideBotTrade takes besides the user, signal, portfolio, prices and time. */
export type EngineRules = Omit<BotTradeInput, 'userId' | 'signal' | 'portfolio' | 'prices' | 'now'>;

export interface PaperEngineOptions {
  ticks: PriceTicks;
  userId: string;
  rules: EngineRules;
  /** A position's levels (default: the bot settings' stop loss and take profit, exitSpecOf). */
  exitSpec?: (position: Position) => ExitSpec;
  /** The portfolio to start from (default: none yet, opened by the first trade); its positions are scanned from their opening fills. */
  portfolio?: PortfolioState;
}

/** What became of one signal. */
export type SignalOutcome =
  | { signalId: string; fillTick: number; action: 'TRADE' | 'SKIP'; decision: BotTradeDecision; events: PortfolioEvent[] }
  | { signalId: string; fillTick: number; action: 'REFUSED'; decision: BotTradeDecision; error: string };

export class PaperEngine {
  state: PortfolioState;
  /** Every event the engine appended, in order. */
  readonly events: PortfolioEvent[] = [];
  readonly outcomes: SignalOutcome[] = [];
  private readonly cursors = new Map<string, ExitCursor>();
  private readonly hit: ExitHit = newExitHit();
  private readonly exitSpec: (position: Position) => ExitSpec;
  /** Exits are scanned up to here. */
  private scanned: number;

  constructor(private readonly options: PaperEngineOptions) {
    this.state = options.portfolio ?? initialPortfolioState();
    this.exitSpec = options.exitSpec ?? ((position) => exitSpecOf(position, options.rules.settings));
    this.scanned = -1;
  }

  /** The signal's order: exits up to the tick before its fill, then the bot's decision at the fill tick. */
  onSignal(signal: EngineSignal): SignalOutcome {
    const intendedMs = intendedFillMs(signalTimeMs(signal.candleTime, signal.recordedAt));
    const fillMs = signal.handledAtMs === undefined ? intendedMs : fillTimeMs(intendedMs, signal.handledAtMs);
    const fillTick = tickAt(fillMs);
    this.advanceTo(fillTick - 1);
    const quotes: BotOrderQuote[] = coins.map((c) => {
      const q = quoteAt(this.options.ticks, c.id, fillTick);
      return { coinId: c.id, symbol: c.symbol, price: q.mid, filledAt: new Date(q.timeMs).toISOString(), minuteVolumeUsd: q.minuteVolumeUsd };
    });
    const decision = decideBotOrder({ ...this.options.rules, userId: this.options.userId, signal, portfolio: this.state, quotes, intendedMs, fillMs });
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
    }
    this.outcomes.push(outcome);
    return outcome;
  }

  /** Scans every open position's exits up to `tick` and closes the crossed ones, in tick order. */
  advanceTo(tick: number): void {
    if (tick <= this.scanned) return;
    const hits: Array<{ position: Position; hit: ExitHit }> = [];
    for (const position of this.openPositions()) {
      const coinId = findCoinBySymbol(position.symbol)!.id as CoinId;
      let cursor = this.cursors.get(position.positionId);
      if (!cursor) {
        cursor = cursorAtOpening(position);
        this.cursors.set(position.positionId, cursor);
      }
      if (scanExits(this.options.ticks, coinId, this.exitSpec(position), cursor, tick, this.hit)) hits.push({ position, hit: { ...this.hit } });
    }
    hits.sort((a, b) => a.hit.tick - b.hit.tick);
    for (const { position, hit } of hits) {
      const coinId = findCoinBySymbol(position.symbol)!.id as CoinId;
      const command = closeCommandFor(this.options.userId, position, hit, quoteAt(this.options.ticks, coinId, hit.tick).minuteVolumeUsd);
      this.apply(command);
      this.cursors.delete(position.positionId);
    }
    this.scanned = tick;
  }

  private openPositions(): Position[] {
    return this.state.status === 'open' ? Object.values(this.state.positions).filter((p): p is Position => p !== undefined) : [];
  }

  private apply(command: PortfolioCommand): PortfolioEvent[] {
    const events = portfolioDecider.decide(command, this.state);
    for (const event of events) this.state = evolvePortfolio(this.state, event);
    this.events.push(...events);
    // A position that is gone (sold, closed) needs no cursor.
    const open = new Set(this.openPositions().map((p) => p.positionId));
    for (const id of this.cursors.keys()) if (!open.has(id)) this.cursors.delete(id);
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
