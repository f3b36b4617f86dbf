/**
 * The trading read models, as pure evolves (the projectors store them; query-api values them at live
 * prices with trading-read.ts):
 *
 * - `portfolios`: one document per user (id: the user id) with the paper account as the portfolio
 *   stream's own evolve computes it (cash, positions, realised P&L: the same integer micro-dollar
 *   accounting, reused, not copied), plus the start of the current UTC day (cash and positions held
 *   at 00:00 UTC, or at a reset, and the P&L realised since) and an all-time trade summary.
 * - `trades`: one document per trade (id: `{userId}:{tradeId}`). A BUY is a lot: OPEN while it holds
 *   anything, with what it still holds (heldUnits, heldCostMicros) and what was sold of it; each SELL,
 *   stop loss or take profit that takes from it (FIFO, the event lists the lots) updates it, and the
 *   one that empties it (or a reset) CLOSES it. Stop loss and take profit closes are trades too (SELLs,
 *   id `{userId}:{positionId}:close`). Listed by userId, newest first, filtered with equality on
 *   symbol, status and type and a range on placedAtMs. Documents written before lots existed lack
 *   the lot fields; the read side takes them as a BUY holding all it bought (tradeResponse).
 * - `risk`: one document per user (id: the user id): the risk stream's state (bot settings, risk
 *   parameters, alerts not yet cleared) plus whether the parameters were ever changed.
 */
import type { DomainEvent } from '../shared/decider';
import type { CoinId, CoinSymbol } from '../market/coins';
import type { BotDecision, BotSettings, RiskParameters } from './contracts';
import type { ClosedTradeStats } from './entry-rules';
import type { TradeCloseReason, TradeStatus } from './read-contracts';
import type { LotRule, SoldLot, TradeSide } from './portfolio';
import { closedTradesOf, evolvePortfolio, lotsOf, peakOf, realisedCentsOf, tradeSourceLabel, utcDay, type PortfolioEvent, type PortfolioState, type Position } from './portfolio';
import { averagePrice } from './portfolio-valuation';
import { evolveRisk, initialRiskState, type RiskEvent, type RiskState } from './risk';
import { profileFromLegacyDocument } from './risk-profile';
import type { ExitPlan } from './stop-levels';
import type { Execution } from './engine/fills';
import type { ExchangeId } from '../exchanges/exchanges';
import type { StrategyId, StrategyType } from '../strategies/strategy-catalogue';
import { microsToCents, quantityToUnits } from './money';
import { ascendingBy } from '../shared/order';

export const PORTFOLIOS_PROJECTION = 'portfolios';
export const TRADES_PROJECTION = 'trades';
export const RISK_PROJECTION = 'risk';

const portfolioEventTypes: ReadonlySet<string> = new Set(['PortfolioOpened', 'SimulatedTradePlaced', 'PositionClosed', 'PortfolioReset', 'PortfolioPeakRecorded']);
// BotSignalRefused is not here: the risk document does not keep the bot's refusals (bot-decisions does).
const riskEventTypes: ReadonlySet<string> = new Set([
  'BotSettingsChanged',
  'BotSettingsReset',
  'RiskParametersChanged',
  'RiskAlertRaised',
  'RiskAlertAcknowledged',
  'AcknowledgedRiskAlertsCleared',
  'RiskAlertsResolved',
]);
export const isPortfolioEvent = (event: DomainEvent): event is PortfolioEvent => portfolioEventTypes.has(event.type);
export const isRiskEvent = (event: DomainEvent): event is RiskEvent => riskEventTypes.has(event.type);

// ---------------------------------------------------------------------------------------------
// portfolios

export type HeldAtDayStart = {
  symbol: CoinSymbol;
  coinId: CoinId;
  units: number;
  costBasisMicros: number;
  /** Each lot's units, oldest first: the day's start is valued per lot, as now is (absent in documents from before lots). */
  lotUnits?: number[];
};

/** The portfolio as the current UTC day (or a reset during it) began, and what it realised since. */
export type DayStart = {
  /** YYYY-MM-DD, UTC. */
  day: string;
  /** 00:00 UTC of `day`, or the moment of a reset (or of opening) during it, ISO-8601. */
  startedAt: string;
  cashMicros: number;
  positions: HeldAtDayStart[];
  realisedPnlMicros: number;
};

export type TradeSummaryCounts = {
  trades: number;
  buys: number;
  sells: number;
  /** Closing trades: SELLs, stop losses and take profits. */
  closes: number;
  /** Closing trades with a realised P&L above zero. */
  wins: number;
  realisedPnlMicros: number;
  /** Each closing trade's realised P&L rounded to the cent, summed: what the trade list adds up to. */
  realisedPnlCents: number;
  /** Sum of every trade's notional (quantity x fill price). */
  notionalMicros: number;
};

export type PortfolioView = {
  userId: string;
  startingCashMicros: number;
  cashMicros: number;
  realisedPnlMicros: number;
  /** As PortfolioState's: the closing trades' rounded P&L since the opening or last reset. */
  realisedPnlCents: number;
  positions: Partial<Record<CoinSymbol, Position>>;
  day: DayStart;
  summary: TradeSummaryCounts;
  /** The recorded peak value (maxDrawdown's reference); absent in documents from before it: the starting cash. */
  peakValueMicros?: number;
  /** As PortfolioState's (Kelly's statistics); absent in documents from before them. */
  closedTrades?: ClosedTradeStats;
  openedAt: string;
  updatedAt: string;
};

export const emptyTradeSummary = (): TradeSummaryCounts => ({ trades: 0, buys: 0, sells: 0, closes: 0, wins: 0, realisedPnlMicros: 0, realisedPnlCents: 0, notionalMicros: 0 });

/** The booked cents of a summary stored before they were kept: its realised P&L rounded once. */
export const summaryRealisedCents = (summary: Pick<TradeSummaryCounts, 'realisedPnlMicros'> & { realisedPnlCents?: number }) =>
  summary.realisedPnlCents ?? microsToCents(summary.realisedPnlMicros);

const dayStartOf = (day: string) => `${day}T00:00:00.000Z`;

function eventTime(event: PortfolioEvent): string {
  switch (event.type) {
    case 'PortfolioOpened':
      return event.data.openedAt;
    case 'SimulatedTradePlaced':
      return event.data.placedAt;
    case 'PositionClosed':
      return event.data.closedAt;
    case 'PortfolioReset':
      return event.data.resetAt;
    case 'PortfolioPeakRecorded':
      return event.data.recordedAt;
  }
}

function heldNow(positions: PortfolioView['positions']): HeldAtDayStart[] {
  return Object.values(positions)
    // Stryker disable next-line MethodExpression,ConditionalExpression: equivalent, a sold-out coin's key is deleted (portfolio.ts), so no value is undefined; the filter narrows the type
    .filter((p): p is Position => p !== undefined)
    .map((p) => ({ symbol: p.symbol, coinId: p.coinId, units: p.units, costBasisMicros: p.costBasisMicros, lotUnits: lotsOf(p).map((l) => l.units) }))
    // By symbol: a document read back from JSONB has its keys in another order than one built in memory.
    .sort(ascendingBy((p) => p.symbol));
}

/**
 * The day start the read side uses at `now`: the stored one when it is of today, else the portfolio
 * as it is (nothing happened today, so what it holds now it held at 00:00 UTC).
 */
export function dayStartAt(view: PortfolioView, now: Date): DayStart {
  const today = utcDay(now.toISOString());
  if (view.day.day === today) return view.day;
  return { day: today, startedAt: dayStartOf(today), cashMicros: view.cashMicros, positions: heldNow(view.positions), realisedPnlMicros: 0 };
}

/** The view as the portfolio stream's state, so the stream's own evolve does the accounting. */
export function portfolioStateOf(view: PortfolioView): PortfolioState {
  return {
    status: 'open',
    startingCashMicros: view.startingCashMicros,
    cashMicros: view.cashMicros,
    realisedPnlMicros: view.realisedPnlMicros,
    realisedPnlCents: realisedCentsOf(view),
    positions: view.positions,
    daily: null,
    // Idempotency memory is the decider's business; the read model does not need to grow with it.
    recentTradeIds: [],
    newTradeIds: [],
    lastSignalTraded: {},
    peakValueMicros: peakOf(view),
    closedTrades: closedTradesOf(view),
  };
}

function summarise(summary: TradeSummaryCounts, event: PortfolioEvent): TradeSummaryCounts {
  if (event.type !== 'SimulatedTradePlaced' && event.type !== 'PositionClosed') return summary;
  const d = event.data;
  // A stop loss or take profit is a sell too. A BUY realises nothing, so only a closing trade can win.
  const closing = event.type === 'PositionClosed' || event.data.side === 'SELL';
  return {
    trades: summary.trades + 1,
    buys: summary.buys + (closing ? 0 : 1),
    sells: summary.sells + (closing ? 1 : 0),
    closes: summary.closes + (closing ? 1 : 0),
    wins: summary.wins + (d.realisedPnlMicros > 0 ? 1 : 0),
    realisedPnlMicros: summary.realisedPnlMicros + d.realisedPnlMicros,
    realisedPnlCents: summaryRealisedCents(summary) + microsToCents(d.realisedPnlMicros),
    notionalMicros: summary.notionalMicros + d.notionalMicros,
  };
}

export function evolvePortfolioView(doc: PortfolioView | null, event: DomainEvent): PortfolioView | null {
  if (!isPortfolioEvent(event)) return doc;
  const at = eventTime(event);
  const today = utcDay(at);
  if (event.type === 'PortfolioOpened') {
    const cash = event.data.startingCashMicros;
    return {
      userId: event.data.userId,
      startingCashMicros: cash,
      cashMicros: cash,
      realisedPnlMicros: 0,
      realisedPnlCents: 0,
      positions: {},
      day: { day: today, startedAt: at, cashMicros: cash, positions: [], realisedPnlMicros: 0 },
      summary: doc?.summary ?? emptyTradeSummary(),
      openedAt: at,
      updatedAt: at,
    };
  }
  // Every other event follows PortfolioOpened on the same stream, so there is a document.
  if (!doc) return doc;
  // The first event of a new UTC day records what the portfolio held when the day began.
  const day: DayStart =
    doc.day.day === today ? doc.day : { day: today, startedAt: dayStartOf(today), cashMicros: doc.cashMicros, positions: heldNow(doc.positions), realisedPnlMicros: 0 };
  const next = evolvePortfolio(portfolioStateOf(doc), event);
  // Stryker disable next-line ConditionalExpression: equivalent, an open state stays open under every event but the opening, handled above; this narrows the type
  if (next.status !== 'open') return doc;
  const realised = event.type === 'SimulatedTradePlaced' || event.type === 'PositionClosed' ? event.data.realisedPnlMicros : 0;
  return {
    ...doc,
    startingCashMicros: next.startingCashMicros,
    cashMicros: next.cashMicros,
    realisedPnlMicros: next.realisedPnlMicros,
    realisedPnlCents: next.realisedPnlCents,
    positions: next.positions,
    peakValueMicros: next.peakValueMicros,
    closedTrades: next.closedTrades,
    // A reset starts the day over: the daily figures count from it (a fresh start is not a loss).
    day:
      event.type === 'PortfolioReset'
        ? { day: today, startedAt: at, cashMicros: next.cashMicros, positions: [], realisedPnlMicros: 0 }
        : { ...day, realisedPnlMicros: day.realisedPnlMicros + realised },
    summary: summarise(doc.summary, event),
    updatedAt: at,
  };
}

export const portfolioViewIds = (event: DomainEvent): string[] => (isPortfolioEvent(event) ? [event.data.userId] : []);

// ---------------------------------------------------------------------------------------------
// trades

export type TradeView = {
  userId: string;
  tradeId: string;
  type: TradeSide;
  symbol: CoinSymbol;
  coinId: CoinId;
  /** Integer units of 1e-8 coin. */
  units: number;
  /** The fill price. */
  price: number;
  notionalMicros: number;
  feeMicros: number;
  /** BUY: its notional; SELL: the entry notional (fees excluded) of what it sold. */
  entryNotionalMicros: number;
  /** BUY: notional + fee; SELL: the cost basis (fees included) it closed. */
  costMicros: number;
  /** SELL: realised P&L; BUY: null (see read-contracts.ts). */
  realisedPnlMicros: number | null;
  /** BUY: its fill price; SELL: the lots' fill prices weighted by what it took of each (absent in older documents). */
  entryPrice?: number;
  /** BUY: the units its lot still holds (0 once CLOSED); SELL: null (absent in older documents). */
  heldUnits?: number | null;
  /** BUY: what those units cost, fees included; SELL: null. */
  heldCostMicros?: number | null;
  /** BUY: the units sales took from its lot; SELL: null. */
  soldUnits?: number | null;
  /** SELL: the rule its cost was allocated by; BUY: null. */
  lotRule?: LotRule | null;
  /** SELL under FIFO: the lots it took, oldest first (the BUY's id, units, fill price); else empty. */
  lots?: Array<{ tradeId: string; units: number; entryPrice: number }>;
  /** A bot trade: the rule that decided it and its figures; else null (absent in older documents). */
  decision?: BotDecision | null;
  /** BUY: the exit plan it set (stop-levels.ts); else null (absent in older documents). */
  exits?: ExitPlan | null;
  /** What the fill met (engine/fills.ts); null for fills before issue 17 (absent in older documents). */
  execution?: Execution | null;
  status: TradeStatus;
  closeReason: TradeCloseReason | null;
  source: string;
  signalId: string | null;
  /** A trade on a user strategy's signal (issue 19): which strategy; else null (absent in older documents). */
  strategyId?: StrategyId | null;
  strategyType?: StrategyType | null;
  /** A leg of an arbitrage pair: the pair both legs share and the exchange this leg traded on; else null (absent in older documents). */
  pairId?: string | null;
  exchange?: ExchangeId | null;
  placedAt: string;
  /** placedAt in epoch ms: the sort key and the date-range filter. */
  placedAtMs: number;
  closedAt: string | null;
};

export const tradeViewId = (userId: string, tradeId: string) => `${userId}:${tradeId}`;
/** The trade a stop loss or take profit close is listed as. */
export const closeTradeId = (positionId: string) => `${positionId}:close`;

/** The BUYs a fill touches: the lots it took (FIFO) and those it closed (every rule). */
function lotIds(d: { closedTradeIds: string[]; lots?: SoldLot[] }): string[] {
  return [...new Set([...(d.lots ?? []).map((l) => l.tradeId), ...d.closedTradeIds])];
}

export function tradeViewIds(event: DomainEvent): string[] {
  if (!isPortfolioEvent(event)) return [];
  switch (event.type) {
    case 'PortfolioOpened':
      return [];
    case 'SimulatedTradePlaced':
      return [event.data.tradeId, ...lotIds(event.data)].map((id) => tradeViewId(event.data.userId, id));
    case 'PositionClosed':
      return [closeTradeId(event.data.positionId), ...lotIds(event.data)].map((id) => tradeViewId(event.data.userId, id));
    case 'PortfolioReset':
      return event.data.closedTradeIds.map((id) => tradeViewId(event.data.userId, id));
    case 'PortfolioPeakRecorded':
      return [];
  }
}

const heldUnitsOf = (doc: TradeView) => doc.heldUnits ?? doc.units;
const heldCostOf = (doc: TradeView) => doc.heldCostMicros ?? doc.costMicros;

/**
 * A BUY's document after a fill that took from its lot (FIFO: `lots` says how much) or closed it.
 * A fill that empties the lot CLOSES it; what was sold of it counts every unit a fill took, and a
 * close under the old rule (which did not say) the whole of what it still held.
 */
function lotTaken(doc: TradeView, d: { closedTradeIds: string[]; lots?: SoldLot[] }, reason: TradeCloseReason, at: string): TradeView {
  if (doc.status === 'CLOSED') return doc;
  const sold = d.lots?.find((l) => l.tradeId === doc.tradeId);
  const soldUnits = sold ? quantityToUnits(sold.quantity) : 0;
  const next: TradeView = {
    ...doc,
    heldUnits: heldUnitsOf(doc) - soldUnits,
    heldCostMicros: heldCostOf(doc) - (sold?.costMicros ?? 0),
    soldUnits: (doc.soldUnits ?? 0) + soldUnits,
  };
  if (!d.closedTradeIds.includes(doc.tradeId)) return next;
  // Closed: nothing held, whatever the old rule's partial sales left on this document.
  return { ...next, soldUnits: (doc.soldUnits ?? 0) + heldUnitsOf(doc), heldUnits: 0, heldCostMicros: 0, status: 'CLOSED', closeReason: reason, closedAt: at };
}

function discarded(doc: TradeView, at: string): TradeView {
  return doc.status === 'CLOSED' ? doc : { ...doc, heldUnits: 0, heldCostMicros: 0, status: 'CLOSED', closeReason: 'RESET', closedAt: at };
}

/** What a closing fill took, for its document: the rule, the lots and their weighted fill price. */
function sale(d: { lotRule?: LotRule; lots?: SoldLot[]; entryNotionalClosedMicros?: number }, units: number) {
  const lots = (d.lots ?? []).map((l) => ({ tradeId: l.tradeId, units: quantityToUnits(l.quantity), entryPrice: l.entryPrice }));
  const lotRule: LotRule = d.lotRule === 'FIFO' || d.lotRule === 'PAIR' ? d.lotRule : 'AVERAGE_COST';
  // Under FIFO (and a pair's own lot) the exact fill prices of the lots; before it (at average cost,
  // which names no lot), the entry notional, all that was recorded.
  const entryPrice = lots.length > 0 ? averagePrice(lots.map((l) => ({ units: l.units, price: l.entryPrice }))) : undefined;
  return { lotRule, lots, entryPrice, units };
}

/**
 * One trade document. An event touches the trade it places (no document yet) and the BUYs whose lots
 * it takes from or closes (their documents exist: their BUY came earlier on the same stream). The
 * projector applies an event to a document once (it skips positions it has passed), so an existing
 * document is always such a BUY.
 */
export function evolveTradeView(doc: TradeView | null, event: DomainEvent): TradeView | null {
  if (!isPortfolioEvent(event)) return doc;
  switch (event.type) {
    case 'PortfolioOpened':
      return doc;
    case 'SimulatedTradePlaced': {
      const d = event.data;
      if (doc) return lotTaken(doc, d, 'SELL', d.placedAt);
      const buy = d.side === 'BUY';
      const units = quantityToUnits(d.quantity);
      const entryNotionalMicros = buy ? d.notionalMicros : d.entryNotionalClosedMicros;
      const sold = buy ? undefined : sale(d, units);
      const signal = d.source.kind === 'SIGNAL' ? d.source : undefined;
      return {
        userId: d.userId,
        tradeId: d.tradeId,
        type: d.side,
        symbol: d.symbol,
        coinId: d.coinId,
        units,
        price: d.price,
        notionalMicros: d.notionalMicros,
        feeMicros: d.feeMicros,
        entryNotionalMicros,
        costMicros: buy ? d.notionalMicros + d.feeMicros : d.costBasisClosedMicros,
        realisedPnlMicros: buy ? null : d.realisedPnlMicros,
        entryPrice: sold ? (sold.entryPrice ?? (entryNotionalMicros * 100) / units) : d.price,
        heldUnits: buy ? units : null,
        heldCostMicros: buy ? d.notionalMicros + d.feeMicros : null,
        soldUnits: buy ? 0 : null,
        lotRule: sold ? sold.lotRule : null,
        lots: sold ? sold.lots : [],
        decision: d.decision ?? null,
        exits: buy ? (d.exits ?? null) : null,
        execution: d.execution ?? null,
        status: buy ? 'OPEN' : 'CLOSED',
        closeReason: buy ? null : 'SELL',
        source: tradeSourceLabel(d.source),
        signalId: signal ? signal.signalId : null,
        strategyId: signal?.strategy?.strategyId ?? null,
        strategyType: signal?.strategy?.strategyType ?? null,
        pairId: d.pair?.pairId ?? null,
        exchange: d.pair?.exchange ?? null,
        placedAt: d.placedAt,
        placedAtMs: Date.parse(d.placedAt),
        closedAt: buy ? null : d.placedAt,
      };
    }
    case 'PositionClosed': {
      const d = event.data;
      if (doc) return lotTaken(doc, d, d.reason, d.closedAt);
      const units = quantityToUnits(d.quantity);
      // Events from before entryNotionalClosedMicros existed: the cost basis less the 0.1 % buying
      // fee is the closest estimate (the exact figure was not recorded).
      const entryNotionalMicros = d.entryNotionalClosedMicros ?? Math.round(d.costBasisClosedMicros / 1.001);
      const sold = sale(d, units);
      return {
        userId: d.userId,
        tradeId: closeTradeId(d.positionId),
        type: 'SELL',
        symbol: d.symbol,
        coinId: d.coinId,
        units,
        price: d.price,
        notionalMicros: d.notionalMicros,
        feeMicros: d.feeMicros,
        entryNotionalMicros,
        costMicros: d.costBasisClosedMicros,
        realisedPnlMicros: d.realisedPnlMicros,
        entryPrice: sold.entryPrice ?? (entryNotionalMicros * 100) / units,
        heldUnits: null,
        heldCostMicros: null,
        soldUnits: null,
        lotRule: sold.lotRule,
        lots: sold.lots,
        execution: d.execution ?? null,
        status: 'CLOSED',
        closeReason: d.reason,
        source: d.reason === 'STOP_LOSS' ? 'Stop loss' : 'Take profit',
        signalId: null,
        placedAt: d.closedAt,
        placedAtMs: Date.parse(d.closedAt),
        closedAt: d.closedAt,
      };
    }
    case 'PortfolioReset':
      return doc ? discarded(doc, event.data.resetAt) : doc;
    case 'PortfolioPeakRecorded':
      return doc;
  }
}

// ---------------------------------------------------------------------------------------------
// risk

export type RiskView = {
  /** The one risk profile (risk-profile.ts). */
  profile: RiskState['profile'];
  /** Raised and not yet cleared, oldest first. */
  alerts: RiskState['alerts'];
  userId: string;
  /** False until the user saves a risk parameter set (GET /api/risk/parameters says so). */
  parametersCustomised: boolean;
  /** Documents written before the one profile kept two sets instead (riskProfileOf joins them). */
  settings?: BotSettings;
  parameters?: RiskParameters;
};

export const emptyRiskView = (userId: string): RiskView => ({ ...initialRiskState(), userId, parametersCustomised: false });

/** A document's profile: its own, or (written before the one profile) its two sets joined (risk-profile.ts). */
export const riskProfileOf = (doc: Pick<RiskView, 'settings' | 'parameters'> & { profile?: RiskView['profile'] }) => doc.profile ?? profileFromLegacyDocument(doc);

/**
 * The risk stream's events in their current shape (the risk decider's upcaster runs first, in the
 * projection: trading.projection.ts) folded by the stream's own evolve; the refusals go to their own
 * read model (bot-decisions-view.ts), not here.
 */
export function evolveRiskView(doc: RiskView | null, event: DomainEvent): RiskView | null {
  if (!isRiskEvent(event)) return doc;
  const current = doc ?? emptyRiskView(event.data.userId);
  const state: RiskState = { profile: riskProfileOf(current), alerts: current.alerts };
  return {
    ...evolveRisk(state, event as RiskEvent),
    userId: current.userId,
    parametersCustomised: current.parametersCustomised || event.type === 'RiskParametersChanged',
  };
}

export const riskViewIds = (event: DomainEvent): string[] => (isRiskEvent(event) ? [event.data.userId] : []);
