import type { IconName } from '../../components/ui/icon';

export interface NavEntry {
  label: string;
  to: string;
  icon: IconName;
  /** Shows the Premium badge to visitors (logged out). */
  premium?: boolean;
  /** Shown only to admins. */
  adminOnly?: boolean;
}

/** The sidebar's nine entries, in the spec's order (section 2). */
export const navEntries: readonly NavEntry[] = [
  { label: 'Dashboard', to: '/', icon: 'dashboard' },
  { label: 'AI Signals', to: '/ai-signals', icon: 'signals', premium: true },
  { label: 'Trade History', to: '/trade-history', icon: 'history' },
  { label: 'Backtesting', to: '/backtesting', icon: 'backtest', premium: true },
  { label: 'Risk Management', to: '/risk-management', icon: 'risk' },
  { label: 'API Integration', to: '/api-integration', icon: 'api', premium: true },
  { label: 'Subscription', to: '/subscription', icon: 'subscription' },
  { label: 'Settings', to: '/settings', icon: 'settings' },
  { label: 'Admin Panel', to: '/admin', icon: 'admin', adminOnly: true },
];

export function visibleNavEntries(viewer: { isLoggedIn: boolean; isAdmin: boolean }) {
  return navEntries
    .filter((entry) => !entry.adminOnly || viewer.isAdmin)
    .map((entry) => ({ ...entry, showPremiumBadge: entry.premium === true && !viewer.isLoggedIn }));
}
