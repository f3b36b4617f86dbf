/**
 * The audit's reads, shared by the HTTP routes (audit-routes.ts) and the CLI (bin/audit.ts). Unlike
 * the rest of query-api these read event streams, not read models: an audit must show what was
 * recorded and rebuild state from it, independently of the projections it may be checking. They
 * only read (readStream); every event leaves through toAuditEvent, which redacts secrets.
 */
import type { EventStore, RecordedEvent } from '@papertrade/platform/event-store/event-store';
import type { MarketData } from '@papertrade/platform/market/market-data';
import { MAX_CHART_DAYS } from '@papertrade/domain/market/candle-interval';
import type { CoinId } from '@papertrade/domain/market/coins';
import { valuePortfolio } from '@papertrade/domain/trading/portfolio-valuation';
import type { Prices } from '@papertrade/domain/trading/portfolio-valuation';
import { heldPositions, inGlobalOrder, portfolioAsOf, priceAtFromCandles, subscriptionAsOf, timelineStreams } from '@papertrade/domain/audit/as-of';
import {
  toAuditEvent,
  totalPages,
  type AsOfPrice,
  type PortfolioAsOfResponse,
  type StreamResponse,
  type SubscriptionAsOfResponse,
  type TimelineEntry,
  type TimelineResponse,
} from '@papertrade/domain/audit/contracts';
import { redactSecrets } from '@papertrade/domain/audit/redaction';
import { portfolioStreamId } from '@papertrade/domain/trading/portfolio';
import { subscriptionStreamId } from '@papertrade/domain/auth/subscription';
import { STARTING_CASH_MICROS } from '@papertrade/domain/trading/money';

export type AuditEventSource = Pick<EventStore, 'readStream'>;

export interface AuditReadDeps {
  events: AuditEventSource;
  marketData: MarketData;
  clock: () => Date;
}

export interface Paging {
  page: number;
  pageSize: number;
}

const DAY_MS = 86_400_000;

function pageOf<T>(items: readonly T[], paging: Paging): { slice: T[]; total: number; totalPages: number } {
  const start = (paging.page - 1) * paging.pageSize;
  return { slice: items.slice(start, start + paging.pageSize), total: items.length, totalPages: totalPages(items.length, paging.pageSize) };
}

/** null when the stream does not exist. */
export async function readAuditStream(deps: Pick<AuditReadDeps, 'events'>, stream: string, paging: Paging): Promise<StreamResponse | null> {
  const events = await deps.events.readStream(stream);
  if (events.length === 0) return null;
  const { slice, total, totalPages: pages } = pageOf(events, paging);
  return { stream, events: slice.map(toAuditEvent), page: paging.page, pageSize: paging.pageSize, total, totalPages: pages };
}

/** Every timeline event of a user (trades, bot, risk, subscription), in the global order. */
export async function timelineEvents(deps: Pick<AuditReadDeps, 'events'>, userId: string): Promise<TimelineEntry[]> {
  const streams = timelineStreams(userId);
  const read = await Promise.all(
    streams.map(async ({ streamId, category }) => (await deps.events.readStream(streamId)).map((e) => ({ recorded: e, category, position: e.position as string }))),
  );
  return inGlobalOrder(read).map(({ recorded, category }) => ({ ...toAuditEvent(recorded), category }));
}

export async function readTimeline(deps: Pick<AuditReadDeps, 'events'>, userId: string, paging: Paging): Promise<TimelineResponse> {
  const { slice, total, totalPages: pages } = pageOf(await timelineEvents(deps, userId), paging);
  return { userId, entries: slice, page: paging.page, pageSize: paging.pageSize, total, totalPages: pages };
}

/**
 * The market price of `symbol` at asOf: the open of the market's candle containing asOf (see
 * priceAtFromCandles), from the MarketData port's candles over the range from asOf to now. When the
 * market cannot say (older than its history, or unavailable) the price is null and says why; the
 * position is then valued at its average entry price, as the valuation does for unknown prices.
 */
export async function priceAsOf(deps: Pick<AuditReadDeps, 'marketData' | 'clock'>, coin: { symbol: string; coinId: CoinId }, asOf: Date): Promise<AsOfPrice> {
  const base = { symbol: coin.symbol, coinId: coin.coinId, source: deps.marketData.source };
  const ageDays = (deps.clock().getTime() - asOf.getTime()) / DAY_MS;
  // A little beyond asOf so that its candle is inside the range however the market aligns candles.
  const days = Math.max(ageDays * 1.05 + 1 / 24, 1 / 24);
  if (days > MAX_CHART_DAYS) return { ...base, price: null, candleTime: null, intervalMinutes: null, note: `older than the market's ${MAX_CHART_DAYS}-day history; valued at the average entry price` };
  try {
    const series = await deps.marketData.candles(coin.coinId, days);
    const interval = series.interval.minutes;
    const found = priceAtFromCandles(series.candles, asOf, interval);
    if (!found) return { ...base, price: null, candleTime: null, intervalMinutes: interval, note: 'no candle of the market contains asOf; valued at the average entry price' };
    return { ...base, price: found.price, candleTime: found.candleTime, intervalMinutes: interval };
  } catch (error) {
    return { ...base, price: null, candleTime: null, intervalMinutes: null, note: `the market could not answer (${(error as Error).message}); valued at the average entry price` };
  }
}

export async function portfolioAsOfResponse(deps: AuditReadDeps, userId: string, asOf: Date): Promise<PortfolioAsOfResponse> {
  const events = await deps.events.readStream(portfolioStreamId(userId));
  const { state, applied, later } = portfolioAsOf(events, asOf);
  const positions = heldPositions(state);
  const prices = await Promise.all(positions.map((p) => priceAsOf(deps, p, asOf)));
  const given: Prices = Object.fromEntries(prices.filter((p) => p.price !== null).map((p) => [p.symbol, p.price]));
  const { positions: _valued, ...valuation } = valuePortfolio(state, given);
  return {
    userId,
    asOf: asOf.toISOString(),
    opened: state.status === 'open',
    state: {
      startingCashMicros: state.status === 'open' ? state.startingCashMicros : STARTING_CASH_MICROS,
      cashMicros: state.status === 'open' ? state.cashMicros : STARTING_CASH_MICROS,
      realisedPnlMicros: state.status === 'open' ? state.realisedPnlMicros : 0,
      positions: positions.map((p) => ({ ...p })),
    },
    valuation,
    prices,
    events: applied.map(toAuditEvent),
    laterEvents: later,
  };
}

export async function subscriptionAsOfResponse(deps: Pick<AuditReadDeps, 'events'>, userId: string, asOf: Date): Promise<SubscriptionAsOfResponse> {
  const events: RecordedEvent[] = await deps.events.readStream(subscriptionStreamId(userId));
  const { state, applied, later } = subscriptionAsOf(events, asOf);
  // The whole folded state (tier and status, and whatever else the decider keeps), redacted like the events.
  return { userId, asOf: asOf.toISOString(), state: redactSecrets(state), events: applied.map(toAuditEvent), laterEvents: later };
}
