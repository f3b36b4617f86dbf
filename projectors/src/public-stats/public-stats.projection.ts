import { PUBLIC_STATS_EVENT_TYPES, PUBLIC_STATS_ID, PUBLIC_STATS_PROJECTION, evolvePublicStats, type PublicStatsView } from '@papertrade/domain/public-stats/public-stats-view';
import type { ProjectionDefinition } from '@papertrade/platform/projections/projection';

export const publicStatsProjection: ProjectionDefinition<PublicStatsView> = {
  name: PUBLIC_STATS_PROJECTION,
  documentIds: (event) => (PUBLIC_STATS_EVENT_TYPES.has(event.type) ? [PUBLIC_STATS_ID] : []),
  evolve: (doc, event) => evolvePublicStats(doc, event),
};
