/**
 * The paper-trading places of the dashboard (recent trades, risk management, risk overview, quick
 * actions). The paper bot, its trades and the risk rules arrive with the next issue; until then each
 * panel keeps its place and says what will be there, with no invented trades or balances. Links the
 * spec names (View Details, Manage Risk, Upgrade to Premium, /login) already go where they will.
 */
import { Link } from 'react-router-dom';
import { isPremium } from '@papertrade/domain/auth/contracts';
import { ComingSoon, Panel } from '../../../components/ui/panel';
import { useAuth } from '../../../lib/auth/auth-context';
import { useBotStatus } from '../../../lib/realtime/realtime-hooks';

export function RecentTradesPanel() {
  return (
    <Panel title="Recent Trades" testId="recent-trades-panel" actions={<span className="badge">SIMULATION</span>}>
      <p className="empty-text">No recent trades</p>
      <ComingSoon>Paper trading arrives soon: the simulated bot&apos;s trades will be listed here.</ComingSoon>
    </Panel>
  );
}

export function RiskManagementPanel() {
  return (
    <Panel
      title="Risk Management"
      testId="risk-management-panel"
      actions={
        <Link to="/risk-management" className="btn btn--ghost btn--sm">
          View Details
        </Link>
      }
    >
      <ComingSoon>Position size, stop loss, take profit and the daily loss limit arrive with paper trading.</ComingSoon>
    </Panel>
  );
}

export function RiskOverviewPanel() {
  const { user } = useAuth();
  const state = user === null ? 'visitor' : isPremium(user) ? 'premium' : 'free';
  return (
    <Panel title="Risk Overview" testId="risk-overview-panel">
      {state === 'visitor' && (
        <>
          <p className="empty-text">Log in to see the risk of your paper portfolio.</p>
          <Link to="/login" className="btn btn--sm">
            Login
          </Link>
        </>
      )}
      {state === 'free' && (
        <>
          <p className="empty-text">The risk overview is a premium feature.</p>
          <Link to="/subscription" className="btn btn--primary btn--sm">
            Upgrade to Premium
          </Link>
        </>
      )}
      {state === 'premium' && (
        <>
          <ComingSoon>Your open positions&apos; risk and alerts arrive with paper trading.</ComingSoon>
          <Link to="/risk-management" className="btn btn--sm">
            Manage Risk
          </Link>
        </>
      )}
    </Panel>
  );
}

export function QuickActionsPanel() {
  const botStatus = useBotStatus();
  return (
    <Panel title="Quick Actions" testId="quick-actions-panel">
      <p className="kv-line">
        Bot status <span className={`badge${botStatus === 'ACTIVE' ? ' badge--up' : ''}`} data-testid="bot-status">{botStatus}</span>
      </p>
      <div className="button-row">
        <button type="button" className="btn btn--primary btn--sm" disabled>
          {botStatus === 'ACTIVE' ? 'Pause Bot' : 'Start Trading Bot'}
        </button>
        <button type="button" className="btn btn--sm" disabled>
          Export Data
        </button>
      </div>
      <ComingSoon>Bot controls and the CSV export arrive with paper trading.</ComingSoon>
    </Panel>
  );
}
