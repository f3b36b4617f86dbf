/**
 * The audit's reads, shared by the HTTP routes (audit-routes.ts) and the CLI (bin/audit.ts). Unlike
 * the rest of query-api these read event streams, not read models: an audit must show what was
 * recorded and rebuild state from it, independently of the projections it may be checking. They
 * only read (readStreamPage); every event leaves through toAuditEvent, which redacts secrets.
 *
 * What each read costs (rows read from the store), so that it does not grow with a user's history:
 * - a stream's page: the page (revisions are gap-free, so page p starts at revision (p-1) x size)
 *   and the stream's last revision for the total, one statement;
 * - a timeline page (four streams merged in the global order): each stream's length, then, for a
 *   page after the first, where the page starts in each stream (splitAt: about 4 x 4 x log(start)
 *   one-event reads), then at most a page from each stream from there;
 * - as of a time: the stream's prefix up to asOf, read AUDIT_READ_BATCH events at a time until the
 *   first later event (the replay needs every event before asOf, and the answer lists them); the
 *   events after it are counted from the stream's last revision, not read. A snapshot would not
 *   bound this: the answer names every event the state was folded from.
 */
import type { EventStore, RecordedEvent } from '@papertrade/platform/event-store/event-store';
import { comparePositions, type Position } from '@papertrade/platform/event-store/position';
import type { MarketData } from '@papertrade/platform/market/market-data';
import { MAX_CHART_DAYS } from '@papertrade/domain/market/candle-interval';
import type { CoinId } from '@papertrade/domain/market/coins';
import { valuePortfolio } from '@papertrade/domain/trading/portfolio-valuation';
import type { Prices } from '@papertrade/domain/trading/portfolio-valuation';
import { heldPositions, inGlobalOrder, portfolioAsOf, prefixAsOf, priceAtFromCandles, subscriptionAsOf, timelineStreams } from '@papertrade/domain/audit/as-of';
import {
  toAuditEvent,
  totalPages,
  type AsOfPrice,
  type PortfolioAsOfResponse,
  type StreamResponse,
  type SubscriptionAsOfResponse,
  type TimelineCategory,
  type TimelineEntry,
  type TimelineResponse,
} from '@papertrade/domain/audit/contracts';
import { redactSecrets } from '@papertrade/domain/audit/redaction';
import { portfolioStreamId } from '@papertrade/domain/trading/portfolio';
import { subscriptionStreamId } from '@papertrade/domain/auth/subscription';
import { STARTING_CASH_MICROS } from '@papertrade/domain/trading/money';

export type AuditEventSource = Pick<EventStore, 'readStreamPage'>;

export interface AuditReadDeps {
  events: AuditEventSource;
  marketData: MarketData;
  clock: () => Date;
}

export interface Paging {
  page: number;
  pageSize: number;
}

/** Events per read where a read goes on until a condition holds (an as-of prefix). */
export const AUDIT_READ_BATCH = 500;

const DAY_MS = 86_400_000;

const lengthOf = (lastRevision: bigint | undefined) => (lastRevision === undefined ? 0 : Number(lastRevision) + 1);

/** null when the stream does not exist. */
export async function readAuditStream(deps: Pick<AuditReadDeps, 'events'>, stream: string, paging: Paging): Promise<StreamResponse | null> {
  const start = (paging.page - 1) * paging.pageSize;
  const { events, lastRevision } = await deps.events.readStreamPage(stream, { fromRevision: BigInt(start), maxCount: paging.pageSize });
  if (lastRevision === undefined) return null;
  const total = lengthOf(lastRevision);
  return { stream, events: events.map(toAuditEvent), page: paging.page, pageSize: paging.pageSize, total, totalPages: totalPages(total, paging.pageSize) };
}

/** One of the streams a timeline merges, and how many events it held when the read began. */
export interface TimelineSource {
  streamId: string;
  category: TimelineCategory;
  length: number;
}

/** The user's timeline streams with their lengths (one cheap read each, all at once). */
export async function timelineSources(deps: Pick<AuditReadDeps, 'events'>, userId: string): Promise<TimelineSource[]> {
  return Promise.all(
    timelineStreams(userId).map(async ({ streamId, category }) => ({ streamId, category, length: lengthOf((await deps.events.readStreamPage(streamId, { maxCount: 0 })).lastRevision) })),
  );
}

/**
 * How many events of each stream are among the first `k` of their merge in the global order, reading
 * single events rather than the streams. Each stream is in global order already, so the first k of
 * the merge are a prefix of each. A round looks, in each stream with events left, at the event
 * `step` = floor(k / streams left) (at least 1) past what is taken, and takes the `step` events of the
 * stream whose looked-at event comes first: at most step + (streams - 1) x (step - 1) <= k events come
 * at or before it, so all of them are among the first k. k shrinks by about k / streams a round.
 */
export async function splitAt(deps: Pick<AuditReadDeps, 'events'>, sources: readonly TimelineSource[], k: number): Promise<number[]> {
  const taken = sources.map(() => 0);
  const seen = new Map<string, Position>();
  const positionAt = async (i: number, revision: number): Promise<Position> => {
    const key = `${i}:${revision}`;
    let position = seen.get(key);
    if (position === undefined) {
      const [event] = (await deps.events.readStreamPage(sources[i]!.streamId, { fromRevision: BigInt(revision), maxCount: 1 })).events;
      if (!event) throw new Error(`${sources[i]!.streamId} has no event at revision ${revision}`);
      position = event.position;
      seen.set(key, position);
    }
    return position;
  };
  let remaining = Math.min(k, sources.reduce((n, s) => n + s.length, 0));
  while (remaining > 0) {
    const left = sources.flatMap((s, i) => (taken[i]! < s.length ? [i] : []));
    const step = Math.max(1, Math.floor(remaining / left.length));
    const looked = await Promise.all(
      left.map(async (i) => {
        const size = Math.min(step, sources[i]!.length - taken[i]!);
        return { i, size, position: await positionAt(i, taken[i]! + size - 1) };
      }),
    );
    const first = looked.reduce((a, b) => (comparePositions(b.position, a.position) < 0 ? b : a));
    taken[first.i]! += first.size;
    remaining -= first.size;
  }
  return taken;
}

/** Up to `count` events of the merge from each stream's `from` (reading at most `count` from each). */
async function mergedFrom(deps: Pick<AuditReadDeps, 'events'>, sources: readonly TimelineSource[], from: readonly number[], count: number): Promise<TimelineEntry[]> {
  const read = await Promise.all(
    sources.map(async (s, i) => {
      const available = Math.min(count, s.length - from[i]!);
      if (available <= 0) return [];
      const { events } = await deps.events.readStreamPage(s.streamId, { fromRevision: BigInt(from[i]!), maxCount: available });
      return events.map((e) => ({ recorded: e, category: s.category, position: e.position as string }));
    }),
  );
  return inGlobalOrder(read)
    .slice(0, count)
    .map(({ recorded, category }) => ({ ...toAuditEvent(recorded), category }));
}

/** One page of a user's timeline (trades, bot, risk, subscription events in the global order). */
export async function readTimeline(deps: Pick<AuditReadDeps, 'events'>, userId: string, paging: Paging): Promise<TimelineResponse> {
  const sources = await timelineSources(deps, userId);
  const total = sources.reduce((n, s) => n + s.length, 0);
  const start = (paging.page - 1) * paging.pageSize;
  const entries = start < total ? await mergedFrom(deps, sources, await splitAt(deps, sources, start), paging.pageSize) : [];
  return { userId, entries, page: paging.page, pageSize: paging.pageSize, total, totalPages: totalPages(total, paging.pageSize) };
}

/** The first `limit` events of a user's timeline (a whole-timeline CSV), and how many there are. */
export async function timelineHead(deps: Pick<AuditReadDeps, 'events'>, userId: string, limit: number): Promise<{ entries: TimelineEntry[]; total: number }> {
  const sources = await timelineSources(deps, userId);
  return { entries: await mergedFrom(deps, sources, sources.map(() => 0), limit), total: sources.reduce((n, s) => n + s.length, 0) };
}

/**
 * A stream's events up to asOf (by metadata.at, stopping at the first later one, as prefixAsOf), read
 * AUDIT_READ_BATCH at a time, and how many events come after them (from the last revision, unread).
 */
export async function streamAsOf(deps: Pick<AuditReadDeps, 'events'>, streamId: string, asOf: Date): Promise<{ applied: RecordedEvent[]; later: number }> {
  const applied: RecordedEvent[] = [];
  for (let from = 0n; ; ) {
    const { events, lastRevision } = await deps.events.readStreamPage(streamId, { fromRevision: from, maxCount: AUDIT_READ_BATCH });
    const prefix = prefixAsOf(events, asOf);
    applied.push(...prefix.applied);
    if (prefix.later > 0 || events.length < AUDIT_READ_BATCH) return { applied, later: Math.max(0, lengthOf(lastRevision) - applied.length) };
    from += BigInt(events.length);
  }
}

/** A user's timeline up to asOf, in the global order (the CLI's `user --as-of`). */
export async function timelineAsOf(deps: Pick<AuditReadDeps, 'events'>, userId: string, asOf: Date): Promise<TimelineEntry[]> {
  const read = await Promise.all(
    timelineStreams(userId).map(async ({ streamId, category }) => (await streamAsOf(deps, streamId, asOf)).applied.map((e) => ({ recorded: e, category, position: e.position as string }))),
  );
  return inGlobalOrder(read).map(({ recorded, category }) => ({ ...toAuditEvent(recorded), category }));
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
  const { applied, later } = await streamAsOf(deps, portfolioStreamId(userId), asOf);
  const { state } = portfolioAsOf(applied, asOf);
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
  const { applied, later } = await streamAsOf(deps, subscriptionStreamId(userId), asOf);
  const { state } = subscriptionAsOf(applied, asOf);
  // The whole folded state (tier and status, and whatever else the decider keeps), redacted like the events.
  return { userId, asOf: asOf.toISOString(), state: redactSecrets(state), events: applied.map(toAuditEvent), laterEvents: later };
}
