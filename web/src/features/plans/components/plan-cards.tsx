import { Link } from 'react-router-dom';
import type { Plan } from '@papertrade/domain/plans/contracts';
import { Icon } from '../../../components/ui/icon';
import { Spinner } from '../../../components/ui/spinner';
import { usePlans } from '../api/get-plans';
import './plan-cards.css';

const price = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2, minimumFractionDigits: 0 });

function PlanCard({ plan, actionTo, actionLabel }: { plan: Plan; actionTo: string; actionLabel: (plan: Plan) => string }) {
  return (
    <article className={`plan-card card${plan.mostPopular ? ' plan-card--popular' : ''}`} data-testid={`plan-${plan.id}`}>
      {plan.mostPopular && <span className="plan-card__ribbon">Most Popular</span>}
      <h3 className="plan-card__name">{plan.name}</h3>
      <p className="plan-card__price">
        <span className="plan-card__amount num">{price.format(plan.priceUsdPerMonth)}</span>
        <span className="plan-card__period">/month</span>
      </p>
      <ul className="plan-card__features">
        {plan.features.map((feature) => (
          <li key={feature}>
            <Icon name="check" size={16} />
            <span>{feature}</span>
          </li>
        ))}
      </ul>
      <Link to={actionTo} className={`btn btn--lg btn--block${plan.mostPopular ? ' btn--primary' : ''}`} data-testid={`plan-action-${plan.id}`}>
        {actionLabel(plan)}
      </Link>
    </article>
  );
}

/**
 * The plans of `GET /api/plans`, the one price list. `actionTo` is where each plan's button goes
 * (the landing page sends every plan to /signup).
 */
export function PlanCards({ actionTo, actionLabel }: { actionTo: string; actionLabel: (plan: Plan) => string }) {
  const plans = usePlans();
  if (plans.isPending) {
    return (
      <div className="plan-cards__state">
        <Spinner size={24} label="Loading plans" />
      </div>
    );
  }
  if (plans.isError) {
    return (
      <p className="plan-cards__state" role="alert">
        Plans are unavailable right now. Please try again later.
      </p>
    );
  }
  return (
    <div className="plan-cards">
      {plans.data.map((plan) => (
        <PlanCard key={plan.id} plan={plan} actionTo={actionTo} actionLabel={actionLabel} />
      ))}
    </div>
  );
}
