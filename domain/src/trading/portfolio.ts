/**
 * The `portfolio-{userId}` stream: a user's paper account. Opened with STARTING_CASH_USD on first
 * use; simulated BUY and SELL fills at the market price passed in, with a fee of TRADE_FEE_RATE;
 * positions closed by the risk monitor (stop loss, take profit); reset to the starting cash.
 *
 * Accounting (average cost, all amounts integer micro-dollars, see money.ts):
 * - A BUY moves notional + fee out of cash into the position's cost basis, so the cost basis is
 *   what the position really cost, fees included.
 * - A SELL (or a stop loss / take profit close) moves notional - fee into cash and takes the sold
 *   share of the cost basis out of the position; realised P&L = net proceeds - cost basis closed,
 *   so it is net of both fees.
 * - Hence at every event: cash + sum(cost bases) - realised P&L = starting cash (an invariant the
 *   property spec checks), and the valuation (portfolio-valuation.ts) follows from cash and positions.
 *
 * Trades: a BUY is OPEN while its position is open; when a sell, a stop loss, a take profit or a
 * reset takes the position to zero, every open BUY of it becomes CLOSED (the event lists their ids).
 * A SELL is a closing trade, CLOSED when placed, carrying the realised P&L.
 *
 * Idempotency by trade id: the state remembers the ids of the open trades and of the last
 * TRADE_ID_MEMORY trades, and for trades that follow a signal, the newest signal candle traded per
 * coin. A PlaceSimulatedTrade with a remembered id, or following a signal at or before the newest
 * signal already traded on that coin, appends nothing; so a bot command replayed after a restart
 * never trades twice, while the state (and its snapshot) stays bounded however long the stream
 * grows. (The command handler's Idempotency-Key covers the rest: on SQL it recognises a replayed
 * command at any age.)
 */
import type { DomainEvent } from '../shared/decider';
import type { CoinId, CoinSymbol } from '../market/coins';
import type { SignalType } from '../signals/signal-rules';
import { quantityToUnits } from './money';

export type TradeSide = 'BUY' | 'SELL';
export type CloseReason = 'STOP_LOSS' | 'TAKE_PROFIT';

/** What a trade followed: a SignalGenerated event, or a person ('Manual'). */
export type TradeSource =
  | { kind: 'MANUAL' }
  | {
      kind: 'SIGNAL';
      /** The stored SignalGenerated event's id. */
      eventId: string;
      /** SignalGenerated.data.signalId. */
      signalId: string;
      signalType: SignalType;
      /** SignalGenerated.data.candleTime: orders the signals of one coin. */
      candleTime: string;
    };

/** How a trade's source is shown: 'Manual', or the signal's type (e.g. 'BUY signal'). */
export function tradeSourceLabel(source: TradeSource): string {
  return source.kind === 'MANUAL' ? 'Manual' : `${source.signalType} signal`;
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
    /** The fill price, USD per coin: the market price the command carried. */
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
    /** The open BUY trades this fill closed (a SELL that took the position to zero); else empty. */
    closedTradeIds: string[];
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
    /** The fill price: the stop or target price the command carried. */
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

export type PortfolioEvent = PortfolioOpened | SimulatedTradePlaced | PositionClosed | PortfolioReset;

export interface Position {
  /** The id of the BUY that opened it. */
  positionId: string;
  coinId: CoinId;
  symbol: CoinSymbol;
  /** Integer units of 1e-8 coin, always > 0 (a position at zero is removed). */
  units: number;
  /** What the units held cost, fees included (micros). */
  costBasisMicros: number;
  /** What the units held cost at their fill prices, fees excluded (micros): the average entry price's numerator. */
  entryNotionalMicros: number;
  openTradeIds: string[];
  openedAt: string;
}

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
      positions: Partial<Record<CoinSymbol, Position>>;
      /** The newest UTC day with realised P&L; an older day means nothing realised today. */
      daily: DailyRealised | null;
      /** The last TRADE_ID_MEMORY trade ids placed, oldest first (open ones are also kept in their positions). */
      recentTradeIds: string[];
      /** Per coin, the candle time of the newest signal a trade followed. */
      lastSignalTraded: Partial<Record<CoinSymbol, string>>;
    };

/** How many recent trade ids the state remembers besides the open ones (see the module comment). */
export const TRADE_ID_MEMORY = 500;

export const initialPortfolioState = (): PortfolioState => ({ status: 'unopened' });

export const utcDay = (iso: string) => new Date(iso).toISOString().slice(0, 10);

function addRealised(daily: DailyRealised | null, at: string, pnl: number): DailyRealised {
  const day = utcDay(at);
  return daily && daily.day === day ? { day, realisedPnlMicros: daily.realisedPnlMicros + pnl } : { day, realisedPnlMicros: pnl };
}

function remember(ids: string[], id: string): string[] {
  const next = ids.length >= TRADE_ID_MEMORY ? ids.slice(ids.length - TRADE_ID_MEMORY + 1) : ids.slice();
  next.push(id);
  return next;
}

function withPosition(positions: Partial<Record<CoinSymbol, Position>>, symbol: CoinSymbol, position: Position | null) {
  const next = { ...positions };
  if (position) next[symbol] = position;
  else delete next[symbol];
  return next;
}

function opened(startingCashMicros: number): Extract<PortfolioState, { status: 'open' }> {
  return {
    status: 'open',
    startingCashMicros,
    cashMicros: startingCashMicros,
    realisedPnlMicros: 0,
    positions: {},
    daily: null,
    recentTradeIds: [],
    lastSignalTraded: {},
  };
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
      const lastSignalTraded = d.source.kind === 'SIGNAL' ? { ...state.lastSignalTraded, [d.symbol]: d.source.candleTime } : state.lastSignalTraded;
      const recentTradeIds = remember(state.recentTradeIds, d.tradeId);
      if (d.side === 'BUY') {
        const position: Position = held
          ? {
              ...held,
              units: held.units + units,
              costBasisMicros: held.costBasisMicros + d.notionalMicros + d.feeMicros,
              entryNotionalMicros: held.entryNotionalMicros + d.notionalMicros,
              openTradeIds: [...held.openTradeIds, d.tradeId],
            }
          : {
              positionId: d.tradeId,
              coinId: d.coinId,
              symbol: d.symbol,
              units,
              costBasisMicros: d.notionalMicros + d.feeMicros,
              entryNotionalMicros: d.notionalMicros,
              openTradeIds: [d.tradeId],
              openedAt: d.placedAt,
            };
        return {
          ...state,
          cashMicros: state.cashMicros - d.notionalMicros - d.feeMicros,
          positions: withPosition(state.positions, d.symbol, position),
          recentTradeIds,
          lastSignalTraded,
        };
      }
      const remaining = held ? held.units - units : 0;
      const position: Position | null =
        held && remaining > 0
          ? {
              ...held,
              units: remaining,
              costBasisMicros: held.costBasisMicros - d.costBasisClosedMicros,
              entryNotionalMicros: held.entryNotionalMicros - d.entryNotionalClosedMicros,
            }
          : null;
      return {
        ...state,
        cashMicros: state.cashMicros + d.notionalMicros - d.feeMicros,
        realisedPnlMicros: state.realisedPnlMicros + d.realisedPnlMicros,
        positions: withPosition(state.positions, d.symbol, position),
        daily: addRealised(state.daily, d.placedAt, d.realisedPnlMicros),
        recentTradeIds,
        lastSignalTraded,
      };
    }
    case 'PositionClosed': {
      if (state.status !== 'open') return state;
      const d = event.data;
      return {
        ...state,
        cashMicros: state.cashMicros + d.notionalMicros - d.feeMicros,
        realisedPnlMicros: state.realisedPnlMicros + d.realisedPnlMicros,
        positions: withPosition(state.positions, d.symbol, null),
        daily: addRealised(state.daily, d.closedAt, d.realisedPnlMicros),
      };
    }
    case 'PortfolioReset': {
      if (state.status !== 'open') return state;
      // Trade-id memory, signal watermarks and the day's realised loss survive a reset: a reset must
      // neither let a replayed bot command trade again nor wipe the daily loss limit's count.
      return { ...state, cashMicros: event.data.startingCashMicros, startingCashMicros: event.data.startingCashMicros, realisedPnlMicros: 0, positions: {} };
    }
  }
}

export const portfolioStreamId = (userId: string) => `portfolio-${userId}`;
