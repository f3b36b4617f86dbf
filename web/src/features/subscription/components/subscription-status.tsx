import type { SubscriptionResponse } from '@papertrade/domain/subscription/contracts';

const STATUS_LABELS: Record<SubscriptionResponse['subscriptionStatus'], string> = {
  ACTIVE: 'Active',
  INACTIVE: 'Inactive',
  CANCELLED: 'Cancelled',
  EXPIRED: 'Expired',
};

/**
 * The current subscription: plan, status, and for a cancelled one the end date and days remaining
 * with Reactivate; an active Premium one can be cancelled (the dialog asks first).
 */
export function SubscriptionStatus({
  subscription,
  reactivating,
  onCancel,
  onReactivate,
}: {
  subscription: SubscriptionResponse;
  reactivating: boolean;
  onCancel: () => void;
  onReactivate: () => void;
}) {
  const { plan, isCancelled, endsAt, daysRemaining } = subscription;
  const premium = subscription.tier === 'PREMIUM';
  const label = isCancelled ? 'Cancelled' : STATUS_LABELS[subscription.subscriptionStatus];
  return (
    <section className="card sub-status" aria-label="Current subscription" data-testid="subscription-status">
      <div className="sub-status__main">
        <p className="sub-status__eyebrow">Current plan</p>
        <h2 className="sub-status__plan" data-testid="subscription-plan">
          {plan.name}
        </h2>
        <p className="sub-status__line">
          <span className={`badge ${premium ? 'badge--premium' : ''}`} data-testid="subscription-tier">
            {subscription.tier}
          </span>
          <span className={`badge ${isCancelled ? 'badge--down' : subscription.subscriptionStatus === 'ACTIVE' ? 'badge--up' : ''}`} data-testid="subscription-state">
            {label}
          </span>
        </p>
        {isCancelled && endsAt && (
          <p className="sub-status__ends" data-testid="subscription-ends">
            Access until <strong>{endsAt.formatted}</strong>
            {daysRemaining !== null && <span> · {daysRemaining === 1 ? '1 day remaining' : `${daysRemaining} days remaining`}</span>}
          </p>
        )}
      </div>
      <div className="sub-status__actions">
        {isCancelled ? (
          <button type="button" className="btn btn--primary" onClick={onReactivate} disabled={reactivating} data-testid="subscription-reactivate">
            {reactivating ? 'Reactivating...' : 'Reactivate Subscription'}
          </button>
        ) : (
          premium &&
          subscription.subscriptionStatus === 'ACTIVE' && (
            <button type="button" className="btn" onClick={onCancel} data-testid="subscription-cancel">
              Cancel Subscription
            </button>
          )
        )}
      </div>
    </section>
  );
}
