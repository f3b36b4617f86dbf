/** admin-stats: one counters document for the Admin Panel's stat cards (domain/src/admin/admin-stats-view.ts). */
import { TIER_CHANGING_EVENT_TYPES, type SubscriptionEvent } from '@papertrade/domain/auth/subscription';
import type { UserEvent } from '@papertrade/domain/auth/user';
import { ADMIN_STATS_ID, ADMIN_STATS_PROJECTION, evolveAdminStats, type AdminStatsView } from '@papertrade/domain/admin/admin-stats-view';
import type { ProjectionDefinition } from '@papertrade/platform/projections/projection';


export const adminStatsProjection: ProjectionDefinition<AdminStatsView> = {
  name: ADMIN_STATS_PROJECTION,
  documentIds: (event) => (event.type === 'UserRegistered' || TIER_CHANGING_EVENT_TYPES.has(event.type) ? [ADMIN_STATS_ID] : []),
  evolve: (doc, event) => evolveAdminStats(doc, event as UserEvent | SubscriptionEvent),
};
