/**
 * The dashboard's risk cards (dashboard-and-sign-in.md sections 2, 4 and 9), mounted by the dashboard:
 *
 * - `RiskManagementCard`: the risk profile's bot settings (position size, stop loss, take profit,
 *   daily loss limit: the same fields as the Risk Management parameters, issue 17) in the unit of the
 *   stop-loss type (2% for a fixed or trailing stop, 2 × ATR14, 2 σ) and today's loss against the
 *   limit; visitors see the defaults of section 9 (their own settings need an account). View Details
 *   goes to /risk-management.
 * - `EntriesPausedNote`: beside the bot status, why the bot opens nothing new (the drawdown from the
 *   portfolio's peak above maxDrawdown, GET /api/risk); nothing when entries are not paused.
 * - `RiskOverviewCard`: three states. Logged out: a Login link. Logged in but not premium: Upgrade to
 *   Premium (/subscription). Premium: the portfolio risk badge and bar, the open positions' unrealised
 *   P&L and the largest share at risk, the daily loss bar and the most severe unacknowledged alert,
 *   with Manage Risk (/risk-management).
 *
 * Polling (dashboard spec section 7): GET /api/risk every 60 s, and for premium users
 * /api/risk/active-trades every 30 s and /api/risk/alerts every 10 s (the Risk Management screen
 * polls those two faster, at its own spec's 10 s and 5 s).
 *
 * The card sits in a row of quarters as narrow as 200 px: its meters and alert box are grid items
 * that may shrink (min-width 0) and their figures wrap between parts rather than push the box past
 * the card's border (risk.css).
 */
import { Link } from 'react-router-dom';
import { isPremium } from '@papertrade/domain/auth/contracts';
import { DEFAULT_BOT_SETTINGS, DEFAULT_RISK_PROFILE, stopLossUnits } from '@papertrade/domain/trading/contracts';
import type { ActiveRiskTrade, RiskResponse } from '@papertrade/domain/trading/read-contracts';
import '../../../components/ui/badge-variants.css';
import { FetchError } from '../../../components/ui/fetch-error';
import { Panel } from '../../../components/ui/panel';
import { useAuth } from '../../../lib/auth/auth-context';
import { direction, formatPercent, formatSignedUsd, formatUsd } from '../../../lib/number-format';
import { ACTIVE_TRADES_REFETCH_MS, useActiveTrades } from '../api/get-active-trades';
import { useRisk } from '../api/get-risk';
import { RISK_ALERTS_REFETCH_MS, useRiskAlerts } from '../api/get-risk-alerts';
import { stopFigure } from '../risk-profile-labels';
import { barWidth, dailyLossTone, mostSevereAlert, openPositionsSummary, portfolioRiskBadge, PORTFOLIO_RISK_BAR_MAX } from '../risk-rules';
import './risk.css';

const RISK_ERROR = 'Failed to fetch risk data';

export function RiskManagementCard() {
  const { user } = useAuth();
  const risk = useRisk({ enabled: user !== null });
  const settings = user === null ? DEFAULT_BOT_SETTINGS : risk.data?.settings;
  const unit = user === null ? stopLossUnits[DEFAULT_RISK_PROFILE.stopLossType] : risk.data?.settings.stopLossUnit;
  return (
    <Panel
      title="Risk Management"
      testId="risk-management-card"
      actions={
        <Link to="/risk-management" className="btn btn--ghost btn--sm">
          View Details
        </Link>
      }
    >
      {risk.isError ? (
        <FetchError text={RISK_ERROR} error={risk.error} />
      ) : (
        <>
          <dl className="kv">
            <div>
              <dt>Max Position Size</dt>
              <dd data-testid="risk-max-position">{settings ? `${settings.maxPositionSize}%` : '—'}</dd>
            </div>
            <div>
              <dt>Stop Loss</dt>
              <dd data-testid="risk-stop-loss">{settings && unit ? stopFigure(settings.stopLossPercent, unit) : '—'}</dd>
            </div>
            <div>
              <dt>Take Profit</dt>
              <dd data-testid="risk-take-profit">{settings && unit ? stopFigure(settings.takeProfitPercent, unit) : '—'}</dd>
            </div>
            <div>
              <dt>Daily Loss Limit</dt>
              <dd data-testid="risk-daily-limit">{settings ? formatUsd(settings.dailyLossLimit) : '—'}</dd>
            </div>
          </dl>
          {user === null ? (
            <p className="empty-text">
              Defaults shown. <Link to="/login">Login</Link> to set your own.
            </p>
          ) : (
            risk.data && <DailyLossMeter risk={risk.data} />
          )}
        </>
      )}
    </Panel>
  );
}

function DailyLossMeter({ risk }: { risk: RiskResponse }) {
  const tone = dailyLossTone(risk.dailyLossUsedPercent);
  return (
    <div className="risk-meter" data-testid="daily-loss-meter">
      <div className="risk-meter__head">
        <span>Daily Loss Used</span>
        <span className="num">
          <span className="risk-figure">
            {formatUsd(risk.dailyLossUsed)} / {formatUsd(risk.dailyLossLimit)}
          </span>{' '}
          <span className="risk-figure">({formatPercent(risk.dailyLossUsedPercent, 1)})</span>
        </span>
      </div>
      <div className="risk-bar">
        <div className={`risk-bar__fill risk-bar__fill--${tone}`} data-testid="daily-loss-bar" data-tone={tone} style={{ width: `${barWidth(risk.dailyLossUsedPercent, 100)}%` }} />
      </div>
    </div>
  );
}

/** Why the bot takes no new entries, shown with its status (the server's words); nothing for visitors or when entries are open. */
export function EntriesPausedNote() {
  const { user } = useAuth();
  const risk = useRisk({ enabled: user !== null });
  const reason = risk.data?.drawdown.reason;
  if (!reason) return null;
  return (
    <p className="risk-alert__meta risk-paused" role="status" data-testid="bot-entries-paused">
      {reason}
    </p>
  );
}

export function RiskOverviewCard() {
  const { user } = useAuth();
  const state = user === null ? 'visitor' : isPremium(user) ? 'premium' : 'free';
  return (
    <Panel title="Risk Overview" testId="risk-overview-card" actions={state === 'premium' ? <ManageRiskLink /> : undefined}>
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
          <p className="empty-text">Portfolio risk and risk alerts are premium features.</p>
          <Link to="/subscription" className="btn btn--primary btn--sm">
            Upgrade to Premium
          </Link>
        </>
      )}
      {state === 'premium' && <PremiumRiskOverview />}
    </Panel>
  );
}

function ManageRiskLink() {
  return (
    <Link to="/risk-management" className="btn btn--ghost btn--sm">
      Manage Risk
    </Link>
  );
}

function PremiumRiskOverview() {
  const risk = useRisk({ enabled: true });
  const positions = useActiveTrades({ enabled: true, refetchInterval: ACTIVE_TRADES_REFETCH_MS.dashboard });
  const alerts = useRiskAlerts({ enabled: true, refetchInterval: RISK_ALERTS_REFETCH_MS.dashboard });
  if (risk.isError) return <FetchError text={RISK_ERROR} error={risk.error} />;
  if (!risk.data) return <p className="empty-text">Loading…</p>;
  const variant = portfolioRiskBadge(risk.data.portfolioRiskPercent);
  const alert = alerts.data ? mostSevereAlert(alerts.data.alerts) : null;
  return (
    <>
      <div className="risk-meter">
        <div className="risk-meter__head">
          <span>Portfolio Risk</span>
          <span className={`badge badge--${variant}`} data-testid="portfolio-risk-badge" data-variant={variant}>
            {formatPercent(risk.data.portfolioRiskPercent)}
          </span>
        </div>
        <div className="risk-bar">
          <div className="risk-bar__fill risk-bar__fill--accent" data-testid="portfolio-risk-bar" style={{ width: `${barWidth(risk.data.portfolioRiskPercent, PORTFOLIO_RISK_BAR_MAX)}%` }} />
        </div>
        <span className="risk-alert__meta">
          {formatUsd(risk.data.portfolioRiskAmount)} at risk over {risk.data.openPositions} open position{risk.data.openPositions === 1 ? '' : 's'}
        </span>
      </div>
      {positions.isError ? <FetchError text="Failed to fetch active trades" error={positions.error} /> : positions.data && <OpenPositionsBrief trades={positions.data.trades} />}
      <DailyLossMeter risk={risk.data} />
      <div className="risk-meter" data-testid="risk-overview-alert">
        {alerts.isError ? (
          <FetchError text="Failed to fetch risk alerts" error={alerts.error} />
        ) : alert ? (
          <div className="risk-alert">
            <div className="risk-alert__head">
              <span className={`badge severity--${alert.severity}`}>{alert.severity.toUpperCase()}</span>
              <span className="risk-alert__meta">{alerts.data?.unacknowledged} unacknowledged</span>
            </div>
            <span>{alert.message}</span>
          </div>
        ) : (
          <p className="empty-text">No active risk alerts</p>
        )}
      </div>
    </>
  );
}

function OpenPositionsBrief({ trades }: { trades: ActiveRiskTrade[] }) {
  const { unrealizedPnL, riskiest } = openPositionsSummary(trades);
  return (
    <div className="risk-meter" data-testid="risk-overview-positions">
      <div className="risk-meter__head">
        <span>Unrealized P&amp;L</span>
        <span className={`num ${direction(unrealizedPnL)}`} data-testid="risk-overview-unrealized">
          {formatSignedUsd(unrealizedPnL)}
        </span>
      </div>
      <span className="risk-alert__meta" data-testid="risk-overview-riskiest">
        {riskiest ? `Most at risk: ${riskiest.symbol}, ${formatPercent(riskiest.riskPercentage)} of the portfolio` : 'No open positions'}
      </span>
    </div>
  );
}
