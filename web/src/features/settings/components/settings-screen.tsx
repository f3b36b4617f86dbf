/**
 * Settings (premium-and-account.md section 2; issue 21): tabs Bot Settings, API Configuration, Risk
 * Management (read-only), Notifications and Subscription. Visitors see a login prompt; API
 * Configuration is premium (exchange keys are), the rest is for every signed-in user. The open tab is
 * in the address (`?tab=notifications`). What comes from other features (the risk profile's values,
 * the read-only parameters, the plan comparison) is passed in by the route.
 */
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { isPremium } from '@papertrade/domain/auth/contracts';
import type { BotSettingsView } from '@papertrade/domain/trading/contracts';
import { Panel } from '../../../components/ui/panel';
import { TabList, tabPanelProps, type TabDef } from '../../../components/ui/tab-list';
import { useAuth } from '../../../lib/auth/auth-context';
import { ApiConfigurationTab } from './api-configuration-tab';
import { BotSettingsTab } from './bot-settings-tab';
import { NotificationsTab } from './notifications-tab';
import './settings.css';

type Tab = 'bot' | 'api' | 'risk' | 'notifications' | 'subscription';
const tabs: ReadonlyArray<TabDef<Tab>> = [
  { value: 'bot', label: 'Bot Settings' },
  { value: 'api', label: 'API Configuration' },
  { value: 'risk', label: 'Risk Management' },
  { value: 'notifications', label: 'Notifications' },
  { value: 'subscription', label: 'Subscription' },
];

export function SettingsScreen({ botSettings, onBotSettingsSaved, onApiSettingsSaved, riskParameters, plans }: {
  botSettings: BotSettingsView | undefined;
  onBotSettingsSaved: () => void;
  onApiSettingsSaved: () => void;
  riskParameters: ReactNode;
  plans: ReactNode;
}) {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const tab = tabs.find((t) => t.value === params.get('tab'))?.value ?? 'bot';
  const setTab = (next: Tab) => setParams((current) => ({ ...Object.fromEntries(current), tab: next }), { replace: true });
  if (user === null) {
    return (
      <section className="screen-empty card" data-testid="settings-login-prompt">
        <h2>Login Required</h2>
        <p>Log in to change your bot, API and notification settings.</p>
        <Link to="/login" className="btn btn--primary">
          Login
        </Link>
      </section>
    );
  }
  return (
    <>
      <TabList tabs={tabs} value={tab} onChange={setTab} label="Settings" idPrefix="settings" />
      <div {...tabPanelProps('settings', tab)}>
        {tab === 'bot' && <BotSettingsTab settings={botSettings} onSaved={onBotSettingsSaved} />}
        {tab === 'api' &&
          (isPremium(user) ? (
            <ApiConfigurationTab onSaved={onApiSettingsSaved} />
          ) : (
            <Panel title="API Configuration" testId="api-premium-required">
              <p className="empty-text">Premium Required: connecting exchange accounts (testnet by default) is a Premium feature.</p>
              <Link to="/subscription" className="btn btn--primary btn--sm">
                Upgrade to Premium
              </Link>
            </Panel>
          ))}
        {tab === 'risk' && (
          <Panel title="Risk Management" testId="settings-risk" actions={<Link to="/risk-management" className="btn btn--sm">Open Risk Management</Link>}>
            <p className="field__hint">Read-only here: change them on the Risk Management screen.</p>
            {riskParameters}
          </Panel>
        )}
        {tab === 'notifications' && <NotificationsTab />}
        {tab === 'subscription' && (
          <Panel title="Subscription" testId="settings-subscription" actions={<Link to="/subscription" className="btn btn--primary btn--sm" data-testid="settings-manage-subscription">Manage Subscription</Link>}>
            {plans}
          </Panel>
        )}
      </div>
    </>
  );
}
