/**
 * The `portfolio-{userId}` stream: a user's paper account. Opened with STARTING_CASH_USD on first
 * use; simulated BUY and SELL fills at the market price passed in, with a fee of TRADE_FEE_RATE;
 * positions closed by the risk monitor (stop loss, take profit); reset to the starting cash.
 *
 * Accounting (FIFO lots, all amounts integer micro-dollars, see money.ts):
 * - Each BUY is a lot: its units, its cost (notional + fee, so fees included), its entry notional
 *   (fees excluded) and its fill price. A position is its lots, oldest first, and their sums.
 * - A SELL takes its units from the lots oldest first (first in, first out, as exchanges' and tax
 *   statements count), the whole of each lot it empties and a share of the last one it touches
 *   (that lot's cost and entry notional pro rata, rounded to the micro); it moves notional - fee into
 *   cash, and its realised P&L = net proceeds - the cost of what it took, so it is net of both fees.
 *   The event lists the lots taken (`lots`), so `evolve` only subtracts what the decider decided.
 *   A stop loss or take profit close sells the whole position: every lot.
 * - Hence at every event: cash + sum(cost bases) - realised P&L = starting cash (an invariant the
 *   property spec checks), and the valuation (portfolio-valuation.ts) follows from cash and lots.
 * - Events written before schema version 2 (PORTFOLIO_SCHEMA_VERSION) sold at average cost: their
 *   SELLs took the same share of every lot's cost. The upcaster marks them `lotRule: AVERAGE_COST`
 *   and `evolve` folds them that way (every lot gives up the same share, apportioned exactly), so
 *   stored history folds to the same cash, realised P&L and cost bases as it always did.
 *
 * Trades: a BUY is OPEN while its lot holds anything; the SELL (or stop loss, take profit, reset)
 * that empties its lot CLOSES it (the event lists their ids in `closedTradeIds`). A SELL is a
 * closing trade, CLOSED when placed, carrying the realised P&L.
 *
 * Exits and the peak (schema version 3, issue 17): a BUY records its position's exit plan (`exits`:
 * the bot's positions follow the risk profile, a manual one has the stop and target its person set, or
 * none; stop-levels.ts), and a bot trade the decision that placed it (`decision`: rule, text, figures).
 * Each position keeps the plan of the BUY that opened it, replaced by a later BUY that names one. The
 * state keeps the portfolio's peak value (`peakValueMicros`: the starting cash, raised by each
 * PortfolioPeakRecorded the risk monitor appends on ticks, back to the starting cash on a reset), which
 * maxDrawdown measures from, and the closed trades' wins and losses (`closedTrades`, all-time) that
 * Kelly sizing measures. Events before version 3 carry no plan: the upcaster gives a signal's BUY the
 * profile's and a manual BUY none (before issue 17 the monitor stopped manual positions by the bot's
 * settings; a manual position now keeps no automatic stop unless its person sets one).
 *
 * Idempotency by trade id: the state remembers the ids of the open trades and of the last
 * TRADE_ID_MEMORY trades, and for trades that follow a signal, the newest signal candle traded per
 * coin. A PlaceSimulatedTrade with a remembered id, or following a signal at or before the newest
 * signal already traded on that coin, appends nothing; so a bot command replayed after a restart
 * never trades twice, while the state (and its snapshot) stays bounded however long the stream
 * grows. (The command handler's Idempotency-Key covers the rest: on SQL it recognises a replayed
 * command at any age.)
 */
import { utcDayOf } from '../shared/time-memo';
import type { DomainEvent, StoredEventShape } from '../shared/decider';
import type { CoinId, CoinSymbol } from '../market/coins';
import type { SignalType } from '../signals/signal-rules';
import type { BotDecision } from './contracts';
import type { ClosedTradeStats } from './entry-rules';
import { microsToCents, quantityToUnits } from './money';
import type { Execution } from './engine/fills';
import type { ExchangeId } from '../exchanges/exchanges';
import { strategyInfo, type StrategyId, type StrategyType } from '../strategies/strategy-catalogue';
import { NO_EXITS, type ExitPlan } from './stop-levels';

/**
 * The schema version of the portfolio's events and state: 2 since sales take FIFO lots (events
 * carry `lotRule` and `lots`; positions keep their lots), 3 since BUYs carry their exit plan and the
 * state its peak value and closed-trade statistics. Snapshots of older versions are refolded. A fill's
 * `execution` (issue 17's fills: what it met) is optional on events of any version and took no
 * version of its own: it adds a record and changes the meaning of no field, so events of version 2
 * that carry it (written before the exit plans) upcast like any other of version 2. The same holds for
 * issue 19's additions: an arbitrage leg's `pair`, a source's `strategy` and signal type ARBITRAGE, and
 * lotRule PAIR appear only on events written since, and change the meaning of nothing stored before.
 */
export const PORTFOLIO_SCHEMA_VERSION = 3;

/**
 * How a sale took its cost basis from the lots held: FIFO since schema version 2, AVERAGE_COST before;
 * PAIR for the SELL leg of an arbitrage pair, which takes exactly the lot its own BUY leg bought (the
 * pair never holds the coin, whatever else the position holds).
 */
export const lotRules = ['FIFO', 'AVERAGE_COST', 'PAIR'] as const;
export type LotRule = (typeof lotRules)[number];
/** The rule the decider applies. */
export const LOT_RULE: LotRule = 'FIFO';

/** What a sale took from one lot (a BUY's), as the FIFO rule decided. */
export interface SoldLot {
  /** The BUY whose lot it is. */
  tradeId: string;
  /** Coins taken from it, a decimal with at most 8 places. */
  quantity: number;
  /** The lot's fill price (its BUY's price). */
  entryPrice: number;
  /** The lot's cost (fees included) taken with them. */
  costMicros: number;
  /** The lot's entry notional (fees excluded) taken with them. */
  entryNotionalMicros: number;
}

export type TradeSide = 'BUY' | 'SELL';
export type CloseReason = 'STOP_LOSS' | 'TAKE_PROFIT';

/** The user's AI strategy whose signal a bot trade followed (issue 19). */
export interface TradeStrategy {
  strategyId: StrategyId;
  strategyType: StrategyType;
}

/** What a trade followed: a SignalGenerated (or a strategy's StrategySignalGenerated) event, or a person ('Manual'). */
export type TradeSource =
  | { kind: 'MANUAL' }
  | {
      kind: 'SIGNAL';
      /** The stored SignalGenerated (StrategySignalGenerated) event's id. */
      eventId: string;
      /** SignalGenerated.data.signalId. */
      signalId: string;
      /** ARBITRAGE: the two legs of an arbitrage strategy's pair. */
      signalType: SignalType | 'ARBITRAGE';
      /** SignalGenerated.data.candleTime: orders the signals of one coin. */
      candleTime: string;
      /** A user strategy's signal (issue 19): which strategy; absent for the house signals. */
      strategy?: TradeStrategy;
    };

/**
 * How a trade's source is shown: 'Manual'; a strategy's trade by the strategy's name as the AI
 * Strategies screen shows it ('RSI Mean Reversion strategy'); a house signal's by its type ('BUY signal').
 */
export function tradeSourceLabel(source: TradeSource): string {
  if (source.kind === 'MANUAL') return 'Manual';
  if (source.strategy) return `${strategyInfo(source.strategy.strategyId).name} strategy`;
  return `${source.signalType} signal`;
}

/** One leg of an arbitrage pair (issue 19): the pair both legs share, the leg, and the exchange it traded on at that exchange's fee. */
export interface ArbitrageLegRecord {
  pairId: string;
  leg: TradeSide;
  exchange: ExchangeId;
  /** The exchange's fee rate the leg paid (0.001 = 0.1 %), from the one fee table (exchanges.ts). */
  feeRate: number;
}

export type PortfolioOpened = DomainEvent<'PortfolioOpened', { userId: string; startingCashMicros: number; openedAt: string }>;

export type SimulatedTradePlaced = DomainEvent<
  'SimulatedTradePlaced',
  {
    userId: string;
    tradeId: string;
    coinId: CoinId;
    symbol: CoinSymbol;
    side: TradeSide;
    /** Coins, a decimal with at most 8 places. */
    quantity: number;
    /** The fill price, USD per coin: with `execution`, its mid plus (BUY) or less (SELL) the half spread and impact; else the price the command carried. */
    price: number;
    /** quantity x price, rounded to the micro-dollar. */
    notionalMicros: number;
    feeMicros: number;
    /** SELL: the share of the position's cost basis (fees included) sold; BUY: 0. */
    costBasisClosedMicros: number;
    /** SELL: the share of the position's entry notional (fees excluded) sold, for its average entry price; BUY: 0. */
    entryNotionalClosedMicros: number;
    /** SELL: notional - fee - costBasisClosed; BUY: 0. */
    realisedPnlMicros: number;
    source: TradeSource;
    /** The BUY trades whose lots this fill emptied (they are CLOSED); else empty. */
    closedTradeIds: string[];
    /** BUY: the rule its lot will be sold by; SELL: the rule it was allocated by (AVERAGE_COST: written before FIFO). */
    lotRule: LotRule;
    /** SELL under FIFO: the lots it took, oldest first; BUY, and SELLs at average cost: empty. */
    lots: SoldLot[];
    /** BUY: how its position exits (from version 3; the upcaster fills older BUYs); SELL: absent. */
    exits?: ExitPlan;
    /** A bot trade: the rule that decided it and its figures (from version 3); a manual trade: absent. */
    decision?: BotDecision;
    /** What the order met (issue 17: the mid, spread, impact, when it filled and was meant to); absent on fills before it. */
    execution?: Execution;
    /** A leg of an arbitrage pair (issue 19): its fee is its exchange's, not TRADE_FEE_RATE; absent on every other trade. */
    pair?: ArbitrageLegRecord;
    placedAt: string;
  }
>;

export type PositionClosed = DomainEvent<
  'PositionClosed',
  {
    userId: string;
    /** The id of the BUY that opened the position (what the risk monitor names). */
    positionId: string;
    coinId: CoinId;
    symbol: CoinSymbol;
    reason: CloseReason;
    quantity: number;
    /** The fill price: with `execution`, the crossing tick's mid less the half spread and impact; before it, the level's price. */
    price: number;
    notionalMicros: number;
    feeMicros: number;
    costBasisClosedMicros: number;
    /**
     * The position's entry notional (fees excluded), for the average entry price the trade history
     * shows for this close. Optional only so events appended before it existed still read.
     */
    entryNotionalClosedMicros?: number;
    realisedPnlMicros: number;
    closedTradeIds: string[];
    /** As SimulatedTradePlaced's: FIFO closes list every lot of the position, oldest first. */
    lotRule: LotRule;
    lots: SoldLot[];
    /** The crossing tick (mid, spread, impact, when, the level crossed); absent on closes before issue 17. */
    execution?: Execution;
    closedAt: string;
  }
>;

export interface ClosedByReset {
  positionId: string;
  coinId: CoinId;
  symbol: CoinSymbol;
  quantity: number;
  costBasisMicros: number;
  entryNotionalMicros: number;
}

export type PortfolioReset = DomainEvent<
  'PortfolioReset',
  {
    userId: string;
    /** The positions discarded (not sold: a reset is a fresh start, not a trade). */
    closedPositions: ClosedByReset[];
    closedTradeIds: string[];
    cashBeforeMicros: number;
    realisedPnlBeforeMicros: number;
    startingCashMicros: number;
    resetAt: string;
  }
>;

/** The portfolio's value reached a new peak (the risk monitor, on a tick): maxDrawdown measures from it. */
export type PortfolioPeakRecorded = DomainEvent<'PortfolioPeakRecorded', { userId: string; valueMicros: number; recordedAt: string }>;

export type PortfolioEvent = PortfolioOpened | SimulatedTradePlaced | PositionClosed | PortfolioReset | PortfolioPeakRecorded;

/** What is left of one BUY in a position. */
export interface Lot {
  /** The BUY that bought it. */
  tradeId: string;
  /** Integer units of 1e-8 coin still held, > 0 (an emptied lot is removed). */
  units: number;
  /** What those units cost, fees included (micros). */
  costMicros: number;
  /** What those units cost at the fill price, fees excluded (micros). */
  entryNotionalMicros: number;
  /** The BUY's fill price, USD per coin. */
  price: number;
}

export interface Position {
  /** The id of the BUY that opened it. */
  positionId: string;
  coinId: CoinId;
  symbol: CoinSymbol;
  /** Integer units of 1e-8 coin, always > 0 (a position at zero is removed). */
  units: number;
  /** What the units held cost, fees included (micros). */
  costBasisMicros: number;
  /** What the units held cost at their fill prices, fees excluded (micros). */
  entryNotionalMicros: number;
  /** The BUYs whose lots are held, oldest first (the ids of `lots`). */
  openTradeIds: string[];
  /**
   * The lots, oldest first; they add up to units, costBasisMicros and entryNotionalMicros. Absent only
   * in read-model documents written before lots existed (lotsOf reads those as one lot).
   */
  lots: Lot[];
  /** How it exits (stop-levels.ts). Absent only in read-model documents written before exit plans (exitsOf). */
  exits?: ExitPlan;
  openedAt: string;
}

/**
 * A position's exit plan. A read-model document folded before plans existed has none: it reads as the
 * profile's (what the risk monitor applied to every position then); a rebuild reads the events.
 */
export const exitsOf = (position: Pick<Position, 'exits'>): ExitPlan => position.exits ?? { kind: 'PROFILE', atr: null, sigma: null };

/** The realised P&L of one UTC day (a day with only gains has a positive figure). */
export interface DailyRealised {
  /** YYYY-MM-DD, UTC. */
  day: string;
  realisedPnlMicros: number;
}

export type PortfolioState =
  | { status: 'unopened' }
  | {
      status: 'open';
      startingCashMicros: number;
      cashMicros: number;
      /** Realised P&L since the portfolio was opened or last reset (micros). */
      realisedPnlMicros: number;
      /**
       * The same as the trades show it: each closing trade's realised P&L rounded to the cent, summed,
       * so the trade list's P&L adds up to the realised P&L shown (see read-contracts.ts).
       */
      realisedPnlCents: number;
      positions: Partial<Record<CoinSymbol, Position>>;
      /** The newest UTC day with realised P&L; an older day means nothing realised today. */
      daily: DailyRealised | null;
      /**
       * The trade ids placed, oldest first, in two parts (open ones are also kept in their positions):
       * the last TRADE_ID_MEMORY of `recentTradeIds` then `newTradeIds` are remembered (see
       * rememberTradeId). A state folded before the second part existed has only the first.
       */
      recentTradeIds: string[];
      newTradeIds?: string[];
      /** Per coin, the candle time of the newest signal a trade followed. */
      lastSignalTraded: Partial<Record<CoinSymbol, string>>;
      /** The highest value recorded since the opening or the last reset (at least the starting cash), micros. */
      peakValueMicros: number;
      /** Every closing trade's outcome since the opening (a reset keeps them: they are the user's record). */
      closedTrades: ClosedTradeStats;
    };

export const emptyClosedTrades = (): ClosedTradeStats => ({ closes: 0, wins: 0, losses: 0, winMicros: 0, lossMicros: 0 });

/** A close's realised P&L counted into the statistics Kelly reads. */
export function countClose(stats: ClosedTradeStats, pnlMicros: number): ClosedTradeStats {
  return {
    closes: stats.closes + 1,
    wins: stats.wins + (pnlMicros > 0 ? 1 : 0),
    losses: stats.losses + (pnlMicros < 0 ? 1 : 0),
    winMicros: stats.winMicros + Math.max(0, pnlMicros),
    lossMicros: stats.lossMicros + Math.max(0, -pnlMicros),
  };
}

/** How many recent trade ids the state remembers besides the open ones (see the module comment). */
export const TRADE_ID_MEMORY = 500;

export const initialPortfolioState = (): PortfolioState => ({ status: 'unopened' });

export const utcDay = (iso: string) => utcDayOf(iso);

function addRealised(daily: DailyRealised | null, at: string, pnl: number): DailyRealised {
  const day = utcDay(at);
  return daily && daily.day === day ? { day, realisedPnlMicros: daily.realisedPnlMicros + pnl } : { day, realisedPnlMicros: pnl };
}

/** A state's remembered trade ids (its two parts). */
export interface TradeIdMemory {
  recentTradeIds: string[];
  newTradeIds?: string[];
}

/**
 * How many of the newest ids the second part holds before they move into the first: a trade copies
 * the second part (fewer than TRADE_ID_BATCH ids) and, one trade in TRADE_ID_BATCH, the first (up to
 * TRADE_ID_MEMORY), instead of copying TRADE_ID_MEMORY ids at every trade (a tenth of a backtest).
 */
export const TRADE_ID_BATCH = 32;
const NONE: readonly string[] = [];

/** Where the remembered ids begin in the first part: the two parts' last TRADE_ID_MEMORY. */
function windowStart(older: readonly string[], newer: readonly string[]): number {
  return Math.max(0, older.length + newer.length - TRADE_ID_MEMORY);
}

/** The remembered ids, oldest first, as one array (for questions about all of them; the deciders ask remembersTradeId). */
export function rememberedTradeIds(memory: TradeIdMemory): string[] {
  const newer = memory.newTradeIds ?? NONE;
  return [...memory.recentTradeIds.slice(windowStart(memory.recentTradeIds, newer)), ...newer];
}

/**
 * The remembered ids of a chain of states counted (a multiset): once alreadyPlaced has asked about a
 * state's ids and then about the ids of the state `remember` made from it (a run of trades on one
 * portfolio: the paper engine, a backtest), the ids are counted and the counts handed on from each
 * memory to the next (a state's arrays are never changed), so the question no longer searches 500
 * ids, which was a tenth of a backtest. One-off questions (a state folded from its stream, many users'
 * states in turn) search the arrays as before: counting them would cost more than the search.
 * Chains may be followed in turns (a walk-forward steps its parameter sets' portfolios together): each
 * uncounted memory made by `remember` records the one it was made from, and the questions asked, a
 * memory named by its second part (a new array at every trade), or by its first when it has none.
 *
 * A chain's counts are kept with its memory's first part (which changes once in TRADE_ID_BATCH trades,
 * so a trade updates the record in place instead of keying the counts anew): `newer` is the second
 * part they count with; a memory with another second part (an earlier state of the chain, another
 * branch) is not counted.
 *
 * Mutation testing: when and whether a memory is counted changes no answer (a memory not counted is
 * answered from its list; remembered-trade-ids.unit.spec.ts compares every answer with a plain list),
 * so the mutants of that bookkeeping are marked "the counts' memo" where they are.
 */
interface Counted {
  newer: readonly string[] | undefined;
  counts: IdCounts;
}

/**
 * A multiset of ids as a set of the ids and, for an id held more than once, how many times more
 * (none in a chain of trades: the decider refuses an id it remembers; a stream may still hold one
 * twice from before). A trade is then a delete and an add, and a question one lookup, where a count
 * per id took five lookups a trade (each a likely cache miss when a hundred chains run in turns).
 */
class IdCounts {
  private readonly ids = new Set<string>();
  private extra: Map<string, number> | null = null;

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string): void {
    const size = this.ids.size;
    this.ids.add(id);
    if (this.ids.size !== size) return;
    const extra = (this.extra ??= new Map());
    extra.set(id, (extra.get(id) ?? 0) + 1);
  }

  /** One of `id` less (it is held). */
  remove(id: string): void {
    const more = this.extra?.get(id);
    if (more === undefined) this.ids.delete(id);
    else if (more > 1) this.extra!.set(id, more - 1);
    else this.extra!.delete(id);
  }
}
const idCounts = new WeakMap<readonly string[], Counted>();
/** No memory's second part: a record whose counts moved on to a new first part. */
const MOVED: readonly string[] = [];
/** An uncounted memory's key -> the key of the memory `remember` made it from (for memories asked about). */
const madeFrom = new WeakMap<readonly string[], readonly string[]>();
/** The keys of the uncounted memories asked about. */
const asked = new WeakSet<readonly string[]>();
const COUNT_FROM = 32;

/** The counts of `memory`, when its chain is counted. */
// Stryker disable next-line BlockStatement: equivalent, the counts' memo (see above Counted)
function countsOf(memory: TradeIdMemory): Counted | undefined {
  const counted = idCounts.get(memory.recentTradeIds);
  // Stryker disable next-line ConditionalExpression: equivalent, the counts' memo (see above Counted)
  return counted !== undefined && counted.newer === memory.newTradeIds ? counted : undefined;
}

const keyOf = (memory: TradeIdMemory): readonly string[] => memory.newTradeIds ?? memory.recentTradeIds;

/** Whether the memory holds `id`. */
export function remembersTradeId(memory: TradeIdMemory, id: string): boolean {
  const counted = countsOf(memory);
  // Stryker disable next-line ConditionalExpression: equivalent, the counts' memo (see above Counted)
  if (counted !== undefined) return counted.counts.has(id);
  const older = memory.recentTradeIds;
  const newer = memory.newTradeIds ?? NONE;
  const key = keyOf(memory);
  const start = windowStart(older, newer);
  const from = madeFrom.get(key);
  // Stryker disable next-line all: equivalent, the counts' memo (see above Counted)
  const chained = from !== undefined && asked.has(from) && older.length - start + newer.length >= COUNT_FROM;
  // Stryker disable next-line BooleanLiteral,ConditionalExpression,BlockStatement: equivalent, the counts' memo (see above Counted)
  if (!chained) {
    asked.add(key);
    return newer.includes(id) || older.indexOf(id, start) >= 0;
  }
  const counts = new IdCounts();
  // Stryker disable next-line EqualityOperator: equivalent, one step more counts `undefined`, never a trade id
  for (let k = start; k < older.length; k++) counts.add(older[k]!);
  for (const x of newer) counts.add(x);
  idCounts.set(older, { newer: memory.newTradeIds, counts });
  return counts.has(id);
}

/**
 * The memory after placing `id`: the last TRADE_ID_MEMORY ids of the two parts then `id` (the oldest
 * one drops out once there are that many). `id` joins the second part or, when that would reach
 * TRADE_ID_BATCH, the remembered ids move into a new first part and the second starts empty.
 */
export function rememberTradeId(memory: TradeIdMemory, id: string): { recentTradeIds: string[]; newTradeIds: string[] } {
  const older = memory.recentTradeIds;
  const newer = memory.newTradeIds ?? NONE;
  const start = windowStart(older, newer);
  // The id that drops out: the oldest remembered one, when TRADE_ID_MEMORY are remembered already. It
  // is in the first part: the second holds fewer than TRADE_ID_BATCH, far fewer than TRADE_ID_MEMORY.
  // Stryker disable next-line ArithmeticOperator: equivalent, with start > 0 the window is exactly TRADE_ID_MEMORY (windowStart), so both read full
  const full = older.length - start + newer.length >= TRADE_ID_MEMORY;
  const gone = full ? older[start]! : undefined;
  let next: { recentTradeIds: string[]; newTradeIds: string[] };
  if (newer.length + 1 < TRADE_ID_BATCH) {
    const added = newer.slice();
    added.push(id);
    next = { recentTradeIds: older, newTradeIds: added };
  } else {
    const moved = older.slice(full ? start + 1 : start);
    for (const x of newer) moved.push(x);
    moved.push(id);
    next = { recentTradeIds: moved, newTradeIds: [] };
  }
  const counted = countsOf(memory);
  // Stryker disable next-line ConditionalExpression: equivalent, the counts' memo (see above Counted)
  if (counted === undefined) {
    const key = keyOf(memory);
    // Stryker disable next-line ConditionalExpression: equivalent, the counts' memo (see above Counted)
    if (asked.has(key)) madeFrom.set(next.newTradeIds, key);
    return next;
  }
  // The counts move on to the new memory: the one it was made from is no longer counted.
  const counts = counted.counts;
  // Stryker disable next-line ConditionalExpression: equivalent, removing `undefined` removes nothing (no trade id is undefined)
  if (gone !== undefined) counts.remove(gone);
  counts.add(id);
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: equivalent, the counts' memo (see above Counted)
  if (next.recentTradeIds === older) counted.newer = next.newTradeIds;
  // Stryker disable next-line BlockStatement: equivalent, the counts' memo (see above Counted)
  else {
    counted.newer = MOVED;
    // Stryker disable next-line ObjectLiteral: equivalent, the counts' memo (see above Counted)
    idCounts.set(next.recentTradeIds, { newer: next.newTradeIds, counts });
  }
  return next;
}

/** The watermarks with `symbol`'s set (copied, then set: a spread with a computed key in one literal is V8's slow path). */
function withSignalTraded(last: Partial<Record<CoinSymbol, string>>, symbol: CoinSymbol, candleTime: string): Partial<Record<CoinSymbol, string>> {
  const next = { ...last };
  next[symbol] = candleTime;
  return next;
}

function withPosition(positions: Partial<Record<CoinSymbol, Position>>, symbol: CoinSymbol, position: Position | null) {
  const next = { ...positions };
  if (position) next[symbol] = position;
  else delete next[symbol];
  return next;
}

type OpenPortfolio = Extract<PortfolioState, { status: 'open' }>;

function opened(startingCashMicros: number): OpenPortfolio {
  // The fields in copyOpen's order: one object shape for every state.
  return {
    status: 'open',
    startingCashMicros,
    cashMicros: startingCashMicros,
    realisedPnlMicros: 0,
    realisedPnlCents: 0,
    positions: {},
    daily: null,
    recentTradeIds: [],
    newTradeIds: [],
    lastSignalTraded: {},
    peakValueMicros: startingCashMicros,
    closedTrades: emptyClosedTrades(),
  };
}

/**
 * A copy of an open state, every field named in one order: the next state is this copy with its
 * changes set. A spread of the state (`{ ...state, cashMicros }`) made the same object through V8's
 * generic object-cloning path, about a microsecond a trade, a tenth of a walk-forward (bench/README.md).
 * A field that a state folded from an older document lacks is copied as undefined, which every reader
 * takes as absent (peakOf, closedTradesOf, realisedCentsOf, the memory's second part).
 */
function copyOpen(s: OpenPortfolio): OpenPortfolio {
  return {
    status: 'open',
    startingCashMicros: s.startingCashMicros,
    cashMicros: s.cashMicros,
    realisedPnlMicros: s.realisedPnlMicros,
    realisedPnlCents: s.realisedPnlCents,
    positions: s.positions,
    daily: s.daily,
    recentTradeIds: s.recentTradeIds,
    newTradeIds: s.newTradeIds,
    lastSignalTraded: s.lastSignalTraded,
    peakValueMicros: s.peakValueMicros,
    closedTrades: s.closedTrades,
  };
}

/**
 * A position's lots. A position read from a document written before lots existed has none: it reads
 * as one lot holding all of it, named by its oldest open BUY, at its average entry price.
 */
export function lotsOf(position: Omit<Position, 'lots'> & { lots?: Lot[] }): Lot[] {
  if (position.lots) return position.lots;
  return [
    {
      tradeId: position.openTradeIds[0] ?? position.positionId,
      units: position.units,
      costMicros: position.costBasisMicros,
      entryNotionalMicros: position.entryNotionalMicros,
      price: (position.entryNotionalMicros * 100) / position.units,
    },
  ];
}

/** The booked realised cents of a state folded before they were kept: the realised P&L rounded once. */
export function realisedCentsOf(state: { realisedPnlMicros: number; realisedPnlCents?: number }): number {
  return state.realisedPnlCents ?? microsToCents(state.realisedPnlMicros);
}

/** The lots after a FIFO (or an arbitrage pair's) sale: what the event says it took from each, emptied lots removed. */
function takeFifo(lots: Lot[], sold: SoldLot[]): Lot[] {
  const taken = new Map(sold.map((s) => [s.tradeId, s]));
  return lots
    .map((lot) => {
      const s = taken.get(lot.tradeId);
      if (!s) return lot;
      return { ...lot, units: lot.units - quantityToUnits(s.quantity), costMicros: lot.costMicros - s.costMicros, entryNotionalMicros: lot.entryNotionalMicros - s.entryNotionalMicros };
    })
    .filter((lot) => lot.units > 0);
}

/**
 * `total` split over `weights` in proportion, in whole numbers that add up to it exactly (the largest
 * remainders get the units left over; equal ones the earlier weight). Exact integer arithmetic.
 */
export function apportion(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, w) => a + BigInt(w), 0n);
  if (sum === 0n) return weights.map(() => 0);
  const t = BigInt(total);
  const parts = weights.map((w, i) => ({ i, floor: (t * BigInt(w)) / sum, rest: (t * BigInt(w)) % sum }));
  let left = t - parts.reduce((a, p) => a + p.floor, 0n);
  // Largest remainder first; equal ones stay in order (a stable sort).
  for (const p of [...parts].sort((a, b) => Number(b.rest - a.rest))) {
    if (left <= 0n) break;
    p.floor += 1n;
    left -= 1n;
  }
  return parts.map((p) => Number(p.floor));
}

/**
 * The lots after a sale at average cost (events before FIFO): every lot gave up the same share of its
 * units, cost and entry notional, apportioned exactly so they still add up to the position the event
 * leaves. What an emptied lot still carried (a rounding) stays with the newest lot left.
 */
function takeAverageCost(lots: Lot[], units: number, costMicros: number, entryNotionalMicros: number): Lot[] {
  const unitsTaken = apportion(units, lots.map((l) => l.units));
  const costTaken = apportion(costMicros, lots.map((l) => l.costMicros));
  const entryTaken = apportion(entryNotionalMicros, lots.map((l) => l.entryNotionalMicros));
  const after = lots.map((lot, i) => ({ ...lot, units: lot.units - unitsTaken[i]!, costMicros: lot.costMicros - costTaken[i]!, entryNotionalMicros: lot.entryNotionalMicros - entryTaken[i]! }));
  const kept = after.filter((l) => l.units > 0);
  const last = kept[kept.length - 1];
  if (last) {
    for (const gone of after.filter((l) => l.units <= 0)) {
      last.costMicros += gone.costMicros;
      last.entryNotionalMicros += gone.entryNotionalMicros;
    }
  }
  return kept;
}

/**
 * The position with these lots, when they add up to it (they always do for states folded from
 * events); otherwise (a document folded from lots it never had) the position as one lot.
 */
function withLots(position: Omit<Position, 'lots'>, lots: Lot[]): Position {
  const adds =
    lots.length > 0 &&
    lots.reduce((a, l) => a + l.units, 0) === position.units &&
    lots.reduce((a, l) => a + l.costMicros, 0) === position.costBasisMicros &&
    lots.reduce((a, l) => a + l.entryNotionalMicros, 0) === position.entryNotionalMicros;
  const { lots: _ignored, ...rest } = position as Position;
  return { ...rest, lots: adds ? lots : lotsOf(rest) };
}

/** A sale's (or close's) realised P&L added to `state`'s micros and cents (as the trade shows it) and day, set on `next`. */
function realise(next: OpenPortfolio, state: OpenPortfolio, at: string, pnl: number): void {
  next.realisedPnlMicros = state.realisedPnlMicros + pnl;
  next.realisedPnlCents = realisedCentsOf(state) + microsToCents(pnl);
  next.daily = addRealised(state.daily, at, pnl);
}

export function evolvePortfolio(state: PortfolioState, event: PortfolioEvent): PortfolioState {
  switch (event.type) {
    case 'PortfolioOpened':
      return opened(event.data.startingCashMicros);
    case 'SimulatedTradePlaced': {
      if (state.status !== 'open') return state;
      const d = event.data;
      const units = quantityToUnits(d.quantity);
      const held = state.positions[d.symbol];
      // An arbitrage pair holds nothing afterwards: it moves no coin's signal watermark, so a strategy's
      // BUY or SELL on the same candle still trades (the pair's own replays are known by their trade ids).
      const lastSignalTraded = d.source.kind === 'SIGNAL' && !d.pair ? withSignalTraded(state.lastSignalTraded, d.symbol, d.source.candleTime) : state.lastSignalTraded;
      const memory = rememberTradeId(state, d.tradeId);
      if (d.side === 'BUY') {
        const lot: Lot = { tradeId: d.tradeId, units, costMicros: d.notionalMicros + d.feeMicros, entryNotionalMicros: d.notionalMicros, price: d.price };
        // A BUY that names a plan sets the position's; one without (a manual add) keeps the position's.
        const exits = d.exits ?? NO_EXITS;
        const position: Position = held
          ? withLots(
              {
                ...held,
                exits: exits.kind === 'NONE' ? exitsOf(held) : exits,
                units: held.units + units,
                costBasisMicros: held.costBasisMicros + lot.costMicros,
                entryNotionalMicros: held.entryNotionalMicros + lot.entryNotionalMicros,
                openTradeIds: [...held.openTradeIds, d.tradeId],
              },
              [...lotsOf(held), lot],
            )
          : {
              positionId: d.tradeId,
              coinId: d.coinId,
              symbol: d.symbol,
              units,
              costBasisMicros: lot.costMicros,
              entryNotionalMicros: lot.entryNotionalMicros,
              openTradeIds: [d.tradeId],
              lots: [lot],
              exits,
              openedAt: d.placedAt,
            };
        const next = copyOpen(state);
        next.cashMicros = state.cashMicros - d.notionalMicros - d.feeMicros;
        next.positions = withPosition(state.positions, d.symbol, position);
        next.recentTradeIds = memory.recentTradeIds;
        next.newTradeIds = memory.newTradeIds;
        next.lastSignalTraded = lastSignalTraded;
        return next;
      }
      const remaining = held ? held.units - units : 0;
      let position: Position | null = null;
      if (held && remaining > 0) {
        // Events written before FIFO (no lotRule, or the upcaster's AVERAGE_COST) sold at average cost;
        // FIFO and PAIR sales list the lots they took.
        const lots = d.lotRule === 'FIFO' || d.lotRule === 'PAIR' ? takeFifo(lotsOf(held), d.lots) : takeAverageCost(lotsOf(held), units, d.costBasisClosedMicros, d.entryNotionalClosedMicros);
        const closed = new Set(d.closedTradeIds);
        position = withLots(
          {
            ...held,
            units: remaining,
            costBasisMicros: held.costBasisMicros - d.costBasisClosedMicros,
            entryNotionalMicros: held.entryNotionalMicros - d.entryNotionalClosedMicros,
            openTradeIds: held.openTradeIds.filter((id) => !closed.has(id)),
          },
          lots,
        );
      }
      const next = copyOpen(state);
      next.cashMicros = state.cashMicros + d.notionalMicros - d.feeMicros;
      realise(next, state, d.placedAt, d.realisedPnlMicros);
      next.positions = withPosition(state.positions, d.symbol, position);
      next.recentTradeIds = memory.recentTradeIds;
      next.newTradeIds = memory.newTradeIds;
      next.lastSignalTraded = lastSignalTraded;
      next.closedTrades = countClose(closedTradesOf(state), d.realisedPnlMicros);
      return next;
    }
    case 'PositionClosed': {
      if (state.status !== 'open') return state;
      const d = event.data;
      const next = copyOpen(state);
      next.cashMicros = state.cashMicros + d.notionalMicros - d.feeMicros;
      realise(next, state, d.closedAt, d.realisedPnlMicros);
      next.positions = withPosition(state.positions, d.symbol, null);
      next.closedTrades = countClose(closedTradesOf(state), d.realisedPnlMicros);
      return next;
    }
    case 'PortfolioReset': {
      if (state.status !== 'open') return state;
      // Trade-id memory, signal watermarks and the day's realised loss survive a reset: a reset must
      // neither let a replayed bot command trade again nor wipe the daily loss limit's count.
      const next = copyOpen(state);
      next.cashMicros = event.data.startingCashMicros;
      next.startingCashMicros = event.data.startingCashMicros;
      next.realisedPnlMicros = 0;
      next.realisedPnlCents = 0;
      next.positions = {};
      // The peak starts over with the account; the closed trades stay (they are the user's record).
      next.peakValueMicros = event.data.startingCashMicros;
      return next;
    }
    case 'PortfolioPeakRecorded': {
      if (state.status !== 'open') return state;
      const next = copyOpen(state);
      next.peakValueMicros = Math.max(peakOf(state), event.data.valueMicros);
      return next;
    }
  }
}

/** The recorded peak of a state (a state folded from a read-model document before peaks: its starting cash). */
export const peakOf = (state: { startingCashMicros: number; peakValueMicros?: number }) => state.peakValueMicros ?? state.startingCashMicros;
/** The closed-trade statistics of a state (one folded from a document before them: none). */
export const closedTradesOf = (state: { closedTrades?: ClosedTradeStats }) => state.closedTrades ?? emptyClosedTrades();

/**
 * Stored events in the current shape (DESIGN.md section 2: a changed shape gets a new schemaVersion
 * and an upcaster). Version 1 fills were allocated at average cost and carry no lots: they read as
 * `lotRule: AVERAGE_COST, lots: []`, which is what they did, and `evolve` folds them that way.
 */
export function upcastPortfolioEvent(event: StoredEventShape): PortfolioEvent {
  let current = { type: event.type, data: event.data } as PortfolioEvent;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, a current event has every field the upcasts below add (a BUY its exit plan, a fill its lots)
  if (event.schemaVersion >= PORTFOLIO_SCHEMA_VERSION) return current;
  if (event.schemaVersion < 2 && (current.type === 'SimulatedTradePlaced' || current.type === 'PositionClosed')) {
    current = { ...current, data: { ...current.data, lotRule: 'AVERAGE_COST', lots: [] } } as PortfolioEvent;
  }
  // Version 2 and older BUYs carry no exit plan: a signal's BUY was the bot's (it follows the profile),
  // a manual BUY gets none (see the module comment).
  // Stryker disable next-line ConditionalExpression: equivalent, no other event has a side, and no BUY before version 3 has an exit plan
  if (current.type === 'SimulatedTradePlaced' && current.data.side === 'BUY' && current.data.exits === undefined) {
    const exits: ExitPlan = current.data.source.kind === 'SIGNAL' ? { kind: 'PROFILE', atr: null, sigma: null } : NO_EXITS;
    current = { ...current, data: { ...current.data, exits } };
  }
  return current;
}

export const portfolioStreamId = (userId: string) => `portfolio-${userId}`;
