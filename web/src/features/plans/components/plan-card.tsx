import type { ReactNode } from 'react';
import type { Plan } from '@papertrade/domain/plans/contracts';
import { Icon } from '../../../components/ui/icon';
import { formatListPrice } from '../../../lib/number-format';
import './plan-cards.css';

/** A plan's features, each with a check mark (the plan cards and the payment confirmation). */
export function PlanFeatures({ plan, testId }: { plan: Plan; testId?: string }) {
  return (
    <ul className="plan-card__features" data-testid={testId}>
      {plan.features.map((feature) => (
        <li key={feature}>
          <Icon name="check" size={16} />
          <span>{feature}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * One plan of the catalogue: name, monthly price and features, with what the screen showing it
 * adds: a badge by the name ('Most Popular', 'Current Plan'), the card's emphasis and the action
 * (the landing page's link to /signup, the Plans tab's checkout or change button).
 */
export function PlanCard({
  plan,
  emphasis,
  badge,
  action,
  testId,
}: {
  plan: Plan;
  emphasis?: 'popular' | 'current' | undefined;
  badge?: ReactNode;
  action: ReactNode;
  testId: string;
}) {
  return (
    <article className={`plan-card card${emphasis ? ` plan-card--${emphasis}` : ''}`} data-testid={testId}>
      <header className="plan-card__head">
        <h3 className="plan-card__name">{plan.name}</h3>
        {badge}
      </header>
      <p className="plan-card__price">
        <span className="plan-card__amount num">{formatListPrice(plan.priceUsdPerMonth)}</span>
        <span className="plan-card__period">/month</span>
      </p>
      <PlanFeatures plan={plan} />
      {action}
    </article>
  );
}
