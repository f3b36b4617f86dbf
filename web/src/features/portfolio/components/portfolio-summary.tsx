import {
  direction,
  formatEth,
  formatSignedPercent,
  formatSignedUsd,
  formatUsd,
  MISSING,
  pnlPercentOfTotal,
} from '../../../lib/number-format';
import { usePortfolio } from '../api/get-portfolio';
import './portfolio-summary.css';

/**
 * The sidebar's Portfolio Summary. Until the endpoint answers (or whenever it fails) every figure
 * is a dash: nothing on screen is invented.
 */
export function PortfolioSummary() {
  const { data } = usePortfolio();
  const pnlDirection = data ? direction(data.dailyPnL) : 'flat';

  return (
    <section className="portfolio-summary" aria-labelledby="portfolio-summary-title" data-testid="portfolio-summary">
      <header className="portfolio-summary__header">
        <h2 id="portfolio-summary-title">Portfolio Summary</h2>
        {data?.demo && (
          <span className="badge" title="The house demo bot's paper portfolio: log in for your own">
            Demo
          </span>
        )}
      </header>
      <dl className="portfolio-summary__rows">
        <div className="portfolio-summary__row">
          <dt>Total Value</dt>
          <dd className="num" data-testid="portfolio-total-value">
            {data ? formatUsd(data.totalValue) : MISSING}
          </dd>
        </div>
        <div className="portfolio-summary__row">
          <dt>24h P&amp;L</dt>
          <dd className={`num ${pnlDirection}`} data-testid="portfolio-daily-pnl">
            {data ? (
              <>
                {formatSignedUsd(data.dailyPnL)}{' '}
                <span className="portfolio-summary__pct">({formatSignedPercent(pnlPercentOfTotal(data.dailyPnL, data.totalValue))})</span>
              </>
            ) : (
              MISSING
            )}
          </dd>
        </div>
        <div className="portfolio-summary__row">
          <dt>ETH Holdings</dt>
          <dd className="num" data-testid="portfolio-eth-holdings">
            {data ? formatEth(data.ethHoldings) : MISSING}
          </dd>
        </div>
      </dl>
    </section>
  );
}
