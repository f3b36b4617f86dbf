/**
 * State "as of" a past time, by replay: a stream's events in revision order up to the first one
 * appended after asOf, folded by the stream's own evolve (the deciders' code, so the audit cannot
 * disagree with what the command side decided from). Pure; the route or CLI reads the stream and the
 * market and passes them in.
 *
 * "Appended after asOf" is by metadata.at, the appending process's clock. Events of one stream are
 * appended one command at a time, so their times follow their revisions; the replay stops at the
 * first later one rather than skipping it, so the state is always a prefix of the stream, which is
 * what the live read model held at that time.
 */
import type { Candle } from '../market/coins';
import { evolvePortfolio, initialPortfolioState, portfolioStreamId, upcastPortfolioEvent, type PortfolioState, type Position } from '../trading/portfolio';
import { botStreamId } from '../trading/bot';
import { riskStreamId } from '../trading/risk';
import { subscriptionDecider, subscriptionStreamId, type SubscriptionEvent, type SubscriptionState } from '../auth/subscription';
import { eventTime, type StoredEventLike, type TimelineCategory } from './contracts';
import { ascendingBy } from '../shared/order';

export interface Prefix<E> {
  applied: E[];
  /** How many events of the stream come after asOf. */
  later: number;
}

export function prefixAsOf<E extends StoredEventLike>(events: readonly E[], asOf: Date): Prefix<E> {
  const limit = asOf.getTime();
  const cut = events.findIndex((e) => !(Date.parse(eventTime(e)) <= limit));
  const applied = cut === -1 ? events.slice() : events.slice(0, cut);
  return { applied, later: events.length - applied.length };
}

export function portfolioAsOf<E extends StoredEventLike>(events: readonly E[], asOf: Date): Prefix<E> & { state: PortfolioState } {
  const prefix = prefixAsOf(events, asOf);
  // Through the upcaster, as the command side folds them (a version 2 BUY's exit plan by its source).
  const state = prefix.applied.reduce<PortfolioState>(
    (s, e) => evolvePortfolio(s, upcastPortfolioEvent({ type: e.type, data: e.data, schemaVersion: Number(e.metadata.schemaVersion ?? 1) })),
    initialPortfolioState(),
  );
  return { ...prefix, state };
}

export function subscriptionAsOf<E extends StoredEventLike>(events: readonly E[], asOf: Date): Prefix<E> & { state: SubscriptionState } {
  const prefix = prefixAsOf(events, asOf);
  const state = prefix.applied.reduce<SubscriptionState>(
    (s, e) => subscriptionDecider.evolve(s, { type: e.type, data: e.data } as SubscriptionEvent),
    subscriptionDecider.initialState(),
  );
  return { ...prefix, state };
}

/** The positions of a folded portfolio, by symbol (the order the read side shows them in). */
export function heldPositions(state: PortfolioState): Position[] {
  if (state.status !== 'open') return [];
  return Object.values(state.positions)
    .filter((p): p is Position => p !== undefined)
    .sort(ascendingBy((p) => p.symbol));
}

/** The streams whose events make up a user's audit timeline (user-{id} is not one: it is the profile). */
export function timelineStreams(userId: string): Array<{ streamId: string; category: TimelineCategory }> {
  return [
    { streamId: portfolioStreamId(userId), category: 'trade' },
    { streamId: botStreamId(userId), category: 'bot' },
    { streamId: riskStreamId(userId), category: 'risk' },
    { streamId: subscriptionStreamId(userId), category: 'subscription' },
  ];
}

/** Events of several streams merged into the global order (positions compare as strings, position.ts). */
export function inGlobalOrder<E extends { position: string }>(streams: ReadonlyArray<readonly E[]>): E[] {
  return streams.flat().sort(ascendingBy((e) => e.position));
}

/**
 * The market price at asOf from candles (oldest first, `time` = open time in ms): the open of the
 * candle that contains asOf, i.e. the price at the start of that candle, never one from after asOf.
 * null when asOf is before the first candle or after the last one's end.
 */
export function priceAtFromCandles(candles: readonly Candle[], asOf: Date, intervalMinutes: number): { price: number; candleTime: string } | null {
  const t = asOf.getTime();
  const width = intervalMinutes * 60_000;
  for (let i = candles.length - 1; i >= 0; i--) {
    const candle = candles[i]!;
    if (candle.time <= t) return t < candle.time + width ? { price: candle.open, candleTime: new Date(candle.time).toISOString() } : null;
  }
  return null;
}
