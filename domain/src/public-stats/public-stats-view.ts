/**
 * The landing page's measured figures, one document:
 * - traders: every registered account (UserRegistered);
 * - simulatedTrades: every simulated trade filled on any paper portfolio: manual trades and bot
 *   trades (SimulatedTradePlaced, BUY or SELL), and the risk monitor's stop-loss and take-profit
 *   closes (PositionClosed: a sell at the level's price, a trade in the trade history too). The house
 *   demo bot's trades count: they are simulated trades this product made, on a paper portfolio
 *   visitors watch (the landing page says so). A reset is not a trade: it discards positions unsold.
 */
import type { DomainEvent } from '../shared/decider';

export const PUBLIC_STATS_PROJECTION = 'public-stats';
export const PUBLIC_STATS_ID = 'global';

export type PublicStatsView = { traders: number; simulatedTrades: number; modelAccuracy: number | null };

export const emptyPublicStats = (): PublicStatsView => ({ traders: 0, simulatedTrades: 0, modelAccuracy: null });

/** The events that move a figure (the projection reads only these). */
export const PUBLIC_STATS_EVENT_TYPES: ReadonlySet<string> = new Set(['UserRegistered', 'SimulatedTradePlaced', 'PositionClosed']);

export function evolvePublicStats(doc: PublicStatsView | null, event: DomainEvent): PublicStatsView {
  const current = doc ?? emptyPublicStats();
  switch (event.type) {
    case 'UserRegistered':
      return { ...current, traders: current.traders + 1 };
    case 'SimulatedTradePlaced':
    case 'PositionClosed':
      return { ...current, simulatedTrades: current.simulatedTrades + 1 };
    default:
      return current;
  }
}
