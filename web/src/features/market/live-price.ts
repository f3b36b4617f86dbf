/**
 * The price a card shows: whichever is newer of the polled answer and the latest real-time tick of
 * the same coin (both carry the time they are of), so the card moves with the ticks between polls
 * without a tick older than the last poll ever winning.
 */
export interface Quote {
  price: number;
  changePercent24h: number | null;
  at: string;
}

export function newestQuote(polled: Quote | undefined, tick: Quote | undefined): Quote | undefined {
  if (!polled) return tick;
  if (!tick) return polled;
  return Date.parse(tick.at) > Date.parse(polled.at) ? tick : polled;
}
