/**
 * The figure of the dashboard's 24h Performance card (spec section 2): the day's P&L as a percent of
 * the total portfolio value, with the dollars under it; the card compares it with the coin's market.
 * Visitors see the house demo bot's paper portfolio and are told whose it is. A dash until GET
 * /api/portfolio answers.
 */
import { direction, formatSignedPercent, formatSignedUsd, MISSING, pnlPercentOfTotal } from '../../../lib/number-format';
import { usePortfolio } from '../api/get-portfolio';

export function PortfolioDayPnl() {
  const { data } = usePortfolio();
  const percent = data ? pnlPercentOfTotal(data.dailyPnL, data.totalValue) : null;
  return (
    <>
      <span className={`stat-card__value num ${direction(percent)}`} data-testid="performance-portfolio-percent">
        {data ? formatSignedPercent(percent) : MISSING}
      </span>
      <span className="stat-card__note num" data-testid="performance-portfolio">
        {data ? `${formatSignedUsd(data.dailyPnL)} today, ` : ''}
        {data?.demo ? "house demo bot's paper portfolio" : 'your paper portfolio'}
      </span>
    </>
  );
}
