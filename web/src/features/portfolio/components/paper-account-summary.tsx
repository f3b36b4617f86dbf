/**
 * The paper portfolio as an account balance (the API Integration screen's Monitoring tab, when no
 * exchange is connected): its total value and the share of it held in coins, from GET /api/portfolio.
 */
import { usePortfolio } from '../api/get-portfolio';
import { formatPercent, formatUsd } from '../../../lib/number-format';

export function PaperAccountSummary() {
  const portfolio = usePortfolio();
  if (!portfolio.data) return <p className="empty-text">Loading…</p>;
  const { totalValue, cash } = portfolio.data;
  const allocated = totalValue > 0 ? Math.round(((totalValue - cash) / totalValue) * 10_000) / 100 : 0;
  return (
    <div className="paper-account" data-testid="paper-account">
      <div>
        <span className="field__label">Total Balance</span>
        <strong data-testid="paper-account-total">{formatUsd(totalValue)}</strong>
      </div>
      <div>
        <span className="field__label">Allocated</span>
        <strong data-testid="paper-account-allocated">{formatPercent(allocated)}</strong>
      </div>
    </div>
  );
}
