/**
 * Exchange API Integration (premium-and-account.md section 2; issue 21): tabs Exchanges, Trading
 * Settings and Monitoring. Visitors see a login prompt; free users an upgrade prompt (the server
 * answers 403 to them: exchange connections are premium, DESIGN.md section 1). The Trading Settings
 * tab and the paper account come from other features, passed in by the route.
 */
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { isPremium } from '@papertrade/domain/auth/contracts';
import { FetchError } from '../../../components/ui/fetch-error';
import { Panel } from '../../../components/ui/panel';
import { TabList, tabPanelProps, type TabDef } from '../../../components/ui/tab-list';
import { useAuth } from '../../../lib/auth/auth-context';
import { useExchanges } from '../api/get-exchanges';
import { ExchangeCard } from './exchange-card';
import { MonitoringTab } from './monitoring-tab';
import './exchanges.css';

type Tab = 'exchanges' | 'trading' | 'monitoring';
const tabs: ReadonlyArray<TabDef<Tab>> = [
  { value: 'exchanges', label: 'Exchanges' },
  { value: 'trading', label: 'Trading Settings' },
  { value: 'monitoring', label: 'Monitoring' },
];

export function ApiIntegrationScreen({ tradingSettings, paperAccount }: { tradingSettings: ReactNode; paperAccount: ReactNode }) {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const tab = tabs.find((t) => t.value === params.get('tab'))?.value ?? 'exchanges';
  const setTab = (next: Tab) => setParams((current) => ({ ...Object.fromEntries(current), tab: next }), { replace: true });
  const premium = user !== null && isPremium(user);
  const exchanges = useExchanges({ enabled: premium });
  if (user === null) {
    return (
      <section className="screen-empty card" data-testid="exchanges-login-prompt">
        <h2>Login Required</h2>
        <p>Log in to connect your exchange accounts.</p>
        <Link to="/login" className="btn btn--primary">
          Login
        </Link>
      </section>
    );
  }
  if (!premium) {
    return (
      <Panel title="Premium Required" testId="exchanges-premium-required">
        <p className="empty-text">Exchange API integration is a Premium feature: connect Binance, Coinbase and Kraken (testnet by default), see their balances, and mirror your bot&apos;s paper trades to a testnet.</p>
        <Link to="/subscription" className="btn btn--primary btn--sm">
          Upgrade to Premium
        </Link>
      </Panel>
    );
  }
  return (
    <>
      <TabList tabs={tabs} value={tab} onChange={setTab} label="Exchange API Integration" idPrefix="exchanges" />
      <div {...tabPanelProps('exchanges', tab)}>
        {tab === 'exchanges' &&
          (exchanges.isError ? (
            <FetchError text="Failed to fetch exchanges" error={exchanges.error} />
          ) : !exchanges.data ? (
            <p className="empty-text">Loading…</p>
          ) : (
            <div className="exchange-grid">
              {exchanges.data.exchanges.map((e) => (
                <ExchangeCard key={e.id} exchange={e} />
              ))}
            </div>
          ))}
        {tab === 'trading' && tradingSettings}
        {tab === 'monitoring' && (exchanges.data ? <MonitoringTab exchanges={exchanges.data.exchanges} paperAccount={paperAccount} /> : <p className="empty-text">Loading…</p>)}
      </div>
    </>
  );
}
