import type { Plan } from '@papertrade/domain/plans/contracts';
import type { SubscriptionResponse } from '@papertrade/domain/subscription/contracts';
import { PlanCard } from '../../plans/components/plan-card';
import { freePlanAction } from '../free-plan-action';

/**
 * The Plans tab: the catalogue's plans, the current one marked. A paid plan goes through checkout
 * (`onCheckout`); a free one through the upgrade call (`onChange`), or, from an active Premium,
 * through the cancel dialog (`onDowngrade`, see freePlanAction).
 */
export function PlanChoice({
  plans,
  subscription,
  busy,
  onCheckout,
  onChange,
  onDowngrade,
}: {
  plans: readonly Plan[];
  subscription: SubscriptionResponse;
  busy: string | null;
  onCheckout: (plan: Plan) => void;
  onChange: (plan: Plan) => void;
  onDowngrade: () => void;
}) {
  const free = freePlanAction(subscription);
  return (
    <div className="plan-cards plan-cards--wide" data-testid="plans-tab">
      {plans.map((plan) => {
        const current = plan.tier === subscription.tier;
        const paid = plan.priceUsdPerMonth > 0;
        const label = current
          ? 'Current Plan'
          : busy === plan.id
            ? paid
              ? 'Redirecting...'
              : 'Changing...'
            : paid
              ? `Upgrade to ${plan.name}`
              : free.kind === 'cancel-at-period-end'
                ? `Switch to ${plan.name} at period end`
                : free.kind === 'scheduled'
                  ? free.on
                    ? `${plan.name} from ${free.on}`
                    : `${plan.name} when access ends`
                  : `Switch to ${plan.name}`;
        return (
          <PlanCard
            key={plan.id}
            plan={plan}
            testId={`choose-plan-${plan.id}`}
            emphasis={current ? 'current' : undefined}
            badge={current ? <span className="badge badge--accent">Current Plan</span> : plan.mostPopular ? <span className="badge badge--premium">Most Popular</span> : null}
            action={
              <button
                type="button"
                className={`btn btn--lg btn--block${paid && !current ? ' btn--primary' : ''}`}
                disabled={current || busy !== null || (!paid && free.kind === 'scheduled')}
                onClick={() => (paid ? onCheckout(plan) : free.kind === 'cancel-at-period-end' ? onDowngrade() : onChange(plan))}
                data-testid={`plan-button-${plan.id}`}
              >
                {label}
              </button>
            }
          />
        );
      })}
    </div>
  );
}
