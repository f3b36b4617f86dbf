/**
 * The Risk Alerts tab (premium): alerts newest first; Acknowledge dims one (it stays listed), and
 * Clear Acknowledged removes every acknowledged one at once. An alert a reset resolved is dimmed too,
 * says why, needs no acknowledgement, and goes with the acknowledged ones.
 */
import type { RiskAlertView } from '@papertrade/domain/trading/read-contracts';
import { FetchError } from '../../../components/ui/fetch-error';
import { Panel } from '../../../components/ui/panel';
import { useToast } from '../../../components/ui/toast/use-toast';
import { describeError } from '../../../lib/api-client';
import { useAcknowledgeRiskAlert } from '../api/acknowledge-risk-alert';
import { useClearAcknowledgedAlerts } from '../api/clear-acknowledged-alerts';
import { RISK_ALERTS_REFETCH_MS, useRiskAlerts } from '../api/get-risk-alerts';
import { alertFigure, resolutionLabel } from '../risk-rules';

const timeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export function RiskAlertsTab() {
  const query = useRiskAlerts({ enabled: true, refetchInterval: RISK_ALERTS_REFETCH_MS.riskManagement });
  const clear = useClearAcknowledgedAlerts();
  const toast = useToast();
  // What Clear Acknowledged removes: the acknowledged alerts and the resolved ones (the server's rule).
  const acknowledgedCount = query.data?.alerts.filter((a) => a.acknowledged || a.resolved).length ?? 0;
  return (
    <Panel
      title="Risk Alerts"
      testId="risk-alerts"
      actions={
        <button
          type="button"
          className="btn btn--sm"
          disabled={acknowledgedCount === 0 || clear.isPending}
          onClick={() => clear.mutate(undefined, { onError: (error) => toast({ title: 'Error', description: describeError(error, 'Failed to clear alerts'), variant: 'destructive' }) })}
        >
          Clear Acknowledged{acknowledgedCount > 0 ? ` (${acknowledgedCount})` : ''}
        </button>
      }
    >
      {query.isError ? (
        <FetchError text="Failed to fetch risk alerts" error={query.error} />
      ) : !query.data ? (
        <p className="empty-text">Loading…</p>
      ) : query.data.alerts.length === 0 ? (
        <p className="empty-text">No risk alerts</p>
      ) : (
        <ul className="risk-alert-list">
          {query.data.alerts.map((alert) => (
            <AlertItem key={alert.id} alert={alert} />
          ))}
        </ul>
      )}
    </Panel>
  );
}

function AlertItem({ alert }: { alert: RiskAlertView }) {
  const acknowledge = useAcknowledgeRiskAlert();
  const toast = useToast();
  return (
    <li className="risk-alert" data-testid="risk-alert" data-alert-id={alert.id} data-acknowledged={alert.acknowledged} data-resolved={alert.resolved} data-severity={alert.severity}>
      <div className="risk-alert__head">
        <span className={`badge severity--${alert.severity}`}>{alert.severity.toUpperCase()}</span>
        {alert.resolved ? (
          <span className="risk-alert__meta" data-testid="risk-alert-resolution">
            {alert.resolution ? resolutionLabel(alert.resolution) : 'Resolved'}
            {alert.resolvedAt ? ` · ${timeFormat.format(new Date(alert.resolvedAt))}` : ''}
          </span>
        ) : alert.acknowledged ? (
          <span className="risk-alert__meta">Acknowledged</span>
        ) : (
          <button
            type="button"
            className="btn btn--ghost btn--sm"
            disabled={acknowledge.isPending}
            onClick={() => acknowledge.mutate(alert.id, { onError: (error) => toast({ title: 'Error', description: describeError(error, 'Failed to acknowledge alert'), variant: 'destructive' }) })}
          >
            Acknowledge
          </button>
        )}
      </div>
      <span data-testid="risk-alert-message">{alert.message}</span>
      <span className="risk-alert__meta">
        {alert.symbol ? `${alert.symbol} · ` : ''}value {alertFigure(alert.kind, alert.value)} · threshold {alertFigure(alert.kind, alert.threshold)} · {timeFormat.format(new Date(alert.timestamp))}
      </span>
    </li>
  );
}
