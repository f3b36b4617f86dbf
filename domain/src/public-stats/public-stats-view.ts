/** The landing page's measured figures, one document. */
import type { DomainEvent } from '../shared/decider';

export const PUBLIC_STATS_PROJECTION = 'public-stats';
export const PUBLIC_STATS_ID = 'global';

export type PublicStatsView = { traders: number; simulatedTrades: number; modelAccuracy: number | null };

export const emptyPublicStats = (): PublicStatsView => ({ traders: 0, simulatedTrades: 0, modelAccuracy: null });

export function evolvePublicStats(doc: PublicStatsView | null, event: DomainEvent): PublicStatsView {
  const current = doc ?? emptyPublicStats();
  switch (event.type) {
    case 'UserRegistered':
      return { ...current, traders: current.traders + 1 };
    default:
      return current;
  }
}
