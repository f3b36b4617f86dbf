/**
 * The dashboard's risk places (risk management, risk overview) until features/risk replaces them;
 * each says what will be there, with no invented figures. Links the spec names (View Details,
 * Manage Risk, Upgrade to Premium, /login) already go where they will. Recent trades and the quick
 * actions are in recent-trades-panel.tsx and quick-actions-panel.tsx.
 */
import { Link } from 'react-router-dom';
import { isPremium } from '@papertrade/domain/auth/contracts';
import { ComingSoon, Panel } from '../../../components/ui/panel';
import { useAuth } from '../../../lib/auth/auth-context';

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
