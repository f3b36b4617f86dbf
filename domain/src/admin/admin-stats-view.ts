/**
 * The Admin Panel's counters as one document kept by a projection, so GET /api/admin/stats reads one
 * document instead of counting 100,000 users on every request. The rules (spec section 4): Premium
 * Users = tier PREMIUM with status ACTIVE; Active Subscriptions = status ACTIVE; New This Month =
 * users created in the current calendar month (UTC), read from the per-month counts at request time.
 *
 * Subscription events carry the tier and status they replace, so each change moves the counters by
 * exactly its own difference; every account starts FREE and ACTIVE (initialSubscriptionState).
 */
import type { SubscriptionStatus, SubscriptionTier } from '../auth/contracts';
import { initialSubscriptionState, type SubscriptionEvent } from '../auth/subscription';
import type { UserEvent } from '../auth/user';
import type { AdminStats } from './contracts';

export const ADMIN_STATS_PROJECTION = 'admin-stats';
export const ADMIN_STATS_ID = 'counters';

export type AdminStatsView = {
  totalUsers: number;
  premiumUsers: number;
  activeSubscriptions: number;
  /** Registrations per 'YYYY-MM' (UTC). */
  createdByMonth: Record<string, number>;
};

export const emptyAdminStats = (): AdminStatsView => ({ totalUsers: 0, premiumUsers: 0, activeSubscriptions: 0, createdByMonth: {} });

const isPremium = (tier: SubscriptionTier, status: SubscriptionStatus) => tier === 'PREMIUM' && status === 'ACTIVE';
const flag = (value: boolean) => (value ? 1 : 0);

export function evolveAdminStats(doc: AdminStatsView | null, event: UserEvent | SubscriptionEvent): AdminStatsView {
  const stats = doc ?? emptyAdminStats();
  switch (event.type) {
    case 'UserRegistered': {
      const month = event.data.registeredAt.slice(0, 7);
      const start = initialSubscriptionState();
      return {
        totalUsers: stats.totalUsers + 1,
        premiumUsers: stats.premiumUsers + flag(isPremium(start.tier, start.status)),
        activeSubscriptions: stats.activeSubscriptions + flag(start.status === 'ACTIVE'),
        createdByMonth: { ...stats.createdByMonth, [month]: (stats.createdByMonth[month] ?? 0) + 1 },
      };
    }
    // Every event that changes tier or status (an admin's edit, a paid checkout, a plan change, an
    // expiry) carries what it replaced.
    case 'SubscriptionChangedByAdmin':
    case 'SubscriptionActivated':
    case 'SubscriptionPlanChanged':
    case 'SubscriptionExpired': {
      const { tier, status, previousTier } = event.data;
      const previousStatus = event.data.previousStatus ?? 'ACTIVE';
      return {
        ...stats,
        premiumUsers: stats.premiumUsers + flag(isPremium(tier, status)) - flag(isPremium(previousTier, previousStatus)),
        activeSubscriptions: stats.activeSubscriptions + flag(status === 'ACTIVE') - flag(previousStatus === 'ACTIVE'),
      };
    }
    default:
      return stats;
  }
}

/** The stats answer at `now`: "this month" is the calendar month of now in UTC. */
export function adminStatsAt(doc: AdminStatsView | null, now: Date): AdminStats {
  const stats = doc ?? emptyAdminStats();
  return {
    totalUsers: stats.totalUsers,
    premiumUsers: stats.premiumUsers,
    activeSubscriptions: stats.activeSubscriptions,
    newThisMonth: stats.createdByMonth[now.toISOString().slice(0, 7)] ?? 0,
  };
}
