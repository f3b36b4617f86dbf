import { Link } from 'react-router-dom';
import type { Plan } from '@papertrade/domain/plans/contracts';
import { Spinner } from '../../../components/ui/spinner';
import { usePlans } from '../api/get-plans';
import { PlanCard } from './plan-card';

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
        <PlanCard
          key={plan.id}
          plan={plan}
          testId={`plan-${plan.id}`}
          emphasis={plan.mostPopular ? 'popular' : undefined}
          badge={plan.mostPopular && <span className="plan-card__ribbon">Most Popular</span>}
          action={
            <Link to={actionTo} className={`btn btn--lg btn--block${plan.mostPopular ? ' btn--primary' : ''}`} data-testid={`plan-action-${plan.id}`}>
              {actionLabel(plan)}
            </Link>
          }
        />
      ))}
    </div>
  );
}
