/** admin-stats: one counters document for the Admin Panel's stat cards (domain/src/admin/admin-stats-view.ts). */
import type { SubscriptionEvent } from '@papertrade/domain/auth/subscription';
import type { UserEvent } from '@papertrade/domain/auth/user';
import { ADMIN_STATS_ID, ADMIN_STATS_PROJECTION, evolveAdminStats, type AdminStatsView } from '@papertrade/domain/admin/admin-stats-view';
import type { ProjectionDefinition } from '@papertrade/platform/projections/projection';

const COUNTED = new Set(['UserRegistered', 'SubscriptionChangedByAdmin']);

export const adminStatsProjection: ProjectionDefinition<AdminStatsView> = {
  name: ADMIN_STATS_PROJECTION,
  documentIds: (event) => (COUNTED.has(event.type) ? [ADMIN_STATS_ID] : []),
  evolve: (doc, event) => evolveAdminStats(doc, event as UserEvent | SubscriptionEvent),
};
