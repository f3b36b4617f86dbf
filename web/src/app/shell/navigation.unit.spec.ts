import { expect } from 'chai';
import { visibleNavEntries } from './navigation';

describe('sidebar navigation', () => {
  const labels = (entries: { label: string }[]) => entries.map((e) => e.label);

  it('lists the nine entries, the Admin Panel only for admins', () => {
    expect(labels(visibleNavEntries({ isLoggedIn: true, isAdmin: true }))).to.deep.equal([
      'Dashboard',
      'AI Signals',
      'Trade History',
      'Backtesting',
      'Risk Management',
      'API Integration',
      'Subscription',
      'Settings',
      'Admin Panel',
    ]);
    expect(labels(visibleNavEntries({ isLoggedIn: true, isAdmin: false }))).not.to.include('Admin Panel');
    expect(labels(visibleNavEntries({ isLoggedIn: false, isAdmin: false }))).to.have.length(8);
  });

  it('shows the Premium badge to visitors beside AI Signals, API Integration and Backtesting', () => {
    const badged = (isLoggedIn: boolean) =>
      visibleNavEntries({ isLoggedIn, isAdmin: false })
        .filter((e) => e.showPremiumBadge)
        .map((e) => e.label)
        .sort();
    expect(badged(false)).to.deep.equal(['AI Signals', 'API Integration', 'Backtesting']);
    expect(badged(true)).to.deep.equal([]);
  });
});
