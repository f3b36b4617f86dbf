/**
 * The Risk Management screen (premium-and-account.md sections 2, 5, 6): tabs Parameters, Active
 * Trades, Risk Alerts and Calculator. Visitors see a login prompt; free users see the parameters
 * read-only with a 'Basic' badge, the calculators, and an upgrade prompt on the premium-only tabs
 * (the server answers 403 there).
 *
 * The open tab is in the address (`?tab=alerts`), so a link or a reload opens it. Only the open tab
 * is mounted, so only its read is polled, at this screen's intervals (premium-and-account.md section
 * 7): parameters every 30 s, active trades every 10 s, alerts every 5 s.
 */
import { Link, useSearchParams } from 'react-router-dom';
import { isPremium } from '@papertrade/domain/auth/contracts';
import { Panel } from '../../../components/ui/panel';
import { TabList, tabPanelProps, type TabDef } from '../../../components/ui/tab-list';
import { useAuth } from '../../../lib/auth/auth-context';
import { ActiveTradesTab } from './active-trades-tab';
import { CalculatorTab } from './calculator-tab';
import { ParametersTab } from './parameters-tab';
import { RiskAlertsTab } from './risk-alerts-tab';
import './risk.css';

type RiskTab = 'parameters' | 'active-trades' | 'alerts' | 'calculator';
const DEFAULT_TAB: RiskTab = 'parameters';
const tabs: ReadonlyArray<TabDef<RiskTab>> = [
  { value: 'parameters', label: 'Parameters' },
  { value: 'active-trades', label: 'Active Trades' },
  { value: 'alerts', label: 'Risk Alerts' },
  { value: 'calculator', label: 'Calculator' },
];

export function RiskManagementScreen() {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const tab = tabs.find((t) => t.value === params.get('tab'))?.value ?? DEFAULT_TAB;
  // Replacing the entry: switching tabs is not a page to go back to.
  const setTab = (next: RiskTab) => setParams((current) => ({ ...Object.fromEntries(current), tab: next }), { replace: true });
  if (user === null) {
    return (
      <section className="screen-empty card" data-testid="risk-login-prompt">
        <h2>Login Required</h2>
        <p>Log in to manage the risk rules of your paper portfolio.</p>
        <Link to="/login" className="btn btn--primary">
          Login
        </Link>
      </section>
    );
  }
  const premium = isPremium(user);
  return (
    <>
      <TabList tabs={tabs} value={tab} onChange={setTab} label="Risk Management" idPrefix="risk" />
      <div {...tabPanelProps('risk', tab)}>
        {tab === 'parameters' && <ParametersTab premium={premium} />}
        {tab === 'active-trades' && (premium ? <ActiveTradesTab /> : <PremiumRequired title="Active Trades" />)}
        {tab === 'alerts' && (premium ? <RiskAlertsTab /> : <PremiumRequired title="Risk Alerts" />)}
        {tab === 'calculator' && <CalculatorTab />}
      </div>
    </>
  );
}

function PremiumRequired({ title }: { title: string }) {
  return (
    <Panel title={title} testId="risk-premium-required">
      <p className="empty-text">Premium Required: upgrade to see your open positions&apos; risk and your risk alerts.</p>
      <Link to="/subscription" className="btn btn--primary btn--sm">
        Upgrade to Premium
      </Link>
    </Panel>
  );
}
