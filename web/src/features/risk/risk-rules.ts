/**
 * The dashboard's risk display rules (dashboard-and-sign-in.md section 9), pure so they are tested
 * without a browser:
 * - daily loss used: the bar is red above 80 percent, amber above 50, else green;
 * - portfolio risk: the badge is destructive above 15 percent, default above 10, else secondary, and
 *   its progress bar is full at 20 percent;
 * - the alert shown is the most severe unacknowledged one (low < medium < high < critical); one a
 *   reset resolved asks for nothing and is passed over too;
 * - an alert's value and threshold read in the unit of its kind (alertFigure);
 * - the open positions in brief: their unrealised P&L together and the one with the most at risk.
 */
import { alertSeverities, type AlertSeverity } from '@papertrade/domain/trading/contracts';
import type { ActiveRiskTrade, RiskAlertView } from '@papertrade/domain/trading/read-contracts';
import { formatCount, formatPercent, formatUsd } from '../../lib/number-format';

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

/**
 * An alert's value or threshold as text: dollars for the daily loss, a count of positions for the
 * concurrent trades, a percentage for the rest (drawdown, position size, the 24 h move).
 */
export function alertFigure(kind: RiskAlertView['kind'], value: number): string {
  switch (kind) {
    case 'DAILY_LOSS':
      return formatUsd(value);
    case 'CONCURRENT_TRADES':
      return formatCount(value);
    case 'DRAWDOWN':
    case 'POSITION_SIZE':
    case 'VOLATILITY':
      return formatPercent(value);
  }
}

/** The open positions in brief: their unrealised P&L added up, and the one with the largest share at risk (null when none). */
export function openPositionsSummary(trades: readonly ActiveRiskTrade[]): { unrealizedPnL: number; riskiest: ActiveRiskTrade | null } {
  let unrealizedPnL = 0;
  let riskiest: ActiveRiskTrade | null = null;
  for (const trade of trades) {
    unrealizedPnL += trade.unrealizedPnL;
    if (riskiest === null || trade.riskPercentage > riskiest.riskPercentage) riskiest = trade;
  }
  return { unrealizedPnL, riskiest };
}

/** Why an alert was resolved, as the Risk Alerts tab says it. */
export function resolutionLabel(resolution: NonNullable<RiskAlertView['resolution']>): string {
  switch (resolution) {
    case 'PORTFOLIO_RESET':
      return 'Resolved: the portfolio was reset';
  }
}
