import type { Plan } from '@papertrade/domain/plans/contracts';
import type { SubscriptionResponse } from '@papertrade/domain/subscription/contracts';
import { Icon } from '../../../components/ui/icon';

const price = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2, minimumFractionDigits: 0 });

/**
 * The Plans tab: the catalogue's plans, the current one marked. A paid plan goes through checkout
 * (`onCheckout`), a free one through the upgrade call (`onChange`).
 */
export function PlanChoice({
  plans,
  subscription,
  busy,
  onCheckout,
  onChange,
}: {
  plans: readonly Plan[];
  subscription: SubscriptionResponse;
  busy: string | null;
  onCheckout: (plan: Plan) => void;
  onChange: (plan: Plan) => void;
}) {
  return (
    <div className="sub-plans" data-testid="plans-tab">
      {plans.map((plan) => {
        const current = plan.tier === subscription.tier;
        const paid = plan.priceUsdPerMonth > 0;
        return (
          <article key={plan.id} className={`sub-plan card${current ? ' sub-plan--current' : ''}`} data-testid={`choose-plan-${plan.id}`}>
            <header className="sub-plan__head">
              <h3 className="sub-plan__name">{plan.name}</h3>
              {current ? <span className="badge badge--accent">Current Plan</span> : plan.mostPopular ? <span className="badge badge--premium">Most Popular</span> : null}
            </header>
            <p className="sub-plan__price">
              <span className="sub-plan__amount num">{price.format(plan.priceUsdPerMonth)}</span>
              <span className="sub-plan__period">/month</span>
            </p>
            <ul className="sub-plan__features">
              {plan.features.map((feature) => (
                <li key={feature}>
                  <Icon name="check" size={16} />
                  <span>{feature}</span>
                </li>
              ))}
            </ul>
            <button
              type="button"
              className={`btn btn--lg btn--block${paid && !current ? ' btn--primary' : ''}`}
              disabled={current || busy !== null}
              onClick={() => (paid ? onCheckout(plan) : onChange(plan))}
              data-testid={`plan-button-${plan.id}`}
            >
              {current ? 'Current Plan' : busy === plan.id ? (paid ? 'Redirecting...' : 'Changing...') : paid ? `Upgrade to ${plan.name}` : `Switch to ${plan.name}`}
            </button>
          </article>
        );
      })}
    </div>
  );
}
