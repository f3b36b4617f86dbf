/**
 * The dashboard's risk display rules (dashboard-and-sign-in.md section 9), pure so they are tested
 * without a browser:
 * - daily loss used: the bar is red above 80 percent, amber above 50, else green;
 * - portfolio risk: the badge is destructive above 15 percent, default above 10, else secondary, and
 *   its progress bar is full at 20 percent;
 * - the alert shown is the most severe unacknowledged one (low < medium < high < critical); one a
 *   reset resolved asks for nothing and is passed over too.
 */
import { alertSeverities, type AlertSeverity } from '@papertrade/domain/trading/contracts';
import type { RiskAlertView } from '@papertrade/domain/trading/read-contracts';

export type BarTone = 'red' | 'amber' | 'green';

export function dailyLossTone(usedPercent: number): BarTone {
  if (usedPercent > 80) return 'red';
  if (usedPercent > 50) return 'amber';
  return 'green';
}

/** The width of a bar, in percent of its track: clamped to 0..100. */
export function barWidth(value: number, max: number): number {
  if (!Number.isFinite(value) || max <= 0) return 0;
  return Math.min(100, Math.max(0, (value / max) * 100));
}

export type RiskBadgeVariant = 'destructive' | 'default' | 'secondary';

export function portfolioRiskBadge(riskPercent: number): RiskBadgeVariant {
  if (riskPercent > 15) return 'destructive';
  if (riskPercent > 10) return 'default';
  return 'secondary';
}

/** The portfolio risk bar's scale: 20 percent fills it (section 9: "progress capped at 20"). */
export const PORTFOLIO_RISK_BAR_MAX = 20;

export function severityRank(severity: AlertSeverity): number {
  return alertSeverities.indexOf(severity);
}

/** The most severe alert neither acknowledged nor resolved; among equals the newest (the list comes newest first). */
export function mostSevereAlert<A extends { severity: AlertSeverity; acknowledged: boolean; resolved?: boolean; timestamp: string }>(alerts: readonly A[]): A | null {
  let best: A | null = null;
  for (const alert of alerts) {
    if (alert.acknowledged || alert.resolved === true) continue;
    if (
      best === null ||
      severityRank(alert.severity) > severityRank(best.severity) ||
      (severityRank(alert.severity) === severityRank(best.severity) && Date.parse(alert.timestamp) > Date.parse(best.timestamp))
    ) {
      best = alert;
    }
  }
  return best;
}

/** Why an alert was resolved, as the Risk Alerts tab says it. */
export function resolutionLabel(resolution: NonNullable<RiskAlertView['resolution']>): string {
  switch (resolution) {
    case 'PORTFOLIO_RESET':
      return 'Resolved: the portfolio was reset';
  }
}
