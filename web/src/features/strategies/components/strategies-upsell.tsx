/** The non-premium page (spec section 2): the feature list, Upgrade to Premium (into checkout), Back to Dashboard, and the current plan (default FREE). */
import { Link } from 'react-router-dom';
import { Icon } from '../../../components/ui/icon';

export const PREMIUM_STRATEGY_FEATURES = [
  'Neural network strategy trading on your own model (or the house model), with its held-out accuracy beside the baseline',
  'RSI technical strategy with your period, overbought level, stop loss and take profit',
  'Cross-exchange arbitrage net of Binance, Coinbase Pro and Kraken fees',
  'Live signals that say which strategy made them and why',
  'Backtests, performance charts and analytics measured from each strategy’s own trades',
  'Your paper bot follows your active strategies',
] as const;

export function StrategiesUpsell({ plan, onUpgrade, upgrading }: { plan: string; onUpgrade: () => void; upgrading: boolean }) {
  return (
    <section className="card strategies-upsell" data-testid="strategies-upsell">
      <span className="screen-empty__icon">
        <Icon name="compass" size={26} />
      </span>
      <h2>AI Trading Strategies are a Premium feature</h2>
      <p>
        Your current plan: <strong data-testid="current-plan">{plan}</strong>
      </p>
      <ul className="strategies-upsell__features">
        {PREMIUM_STRATEGY_FEATURES.map((f) => (
          <li key={f}>{f}</li>
        ))}
      </ul>
      <div className="button-row">
        <button type="button" className="btn btn--primary" onClick={onUpgrade} disabled={upgrading} data-testid="upgrade-premium">
          {upgrading ? 'Redirecting...' : 'Upgrade to Premium'}
        </button>
        <Link to="/" className="btn">
          Back to Dashboard
        </Link>
      </div>
    </section>
  );
}
