import type { SubscriptionResponse } from '@papertrade/domain/subscription/contracts';

/**
 * What the button of a free plan does for this subscription: from an active Premium, a move to Free
 * is a cancellation at the period's end (the paid month is kept: DESIGN.md section 6), so it says so
 * and opens the same dialog as Cancel; a Premium already cancelled moves to Free when it ends; from
 * anything else it is a plan change at once.
 */
export function freePlanAction(subscription: Pick<SubscriptionResponse, 'tier' | 'subscriptionStatus' | 'isCancelled' | 'endsAt'>): { kind: 'cancel-at-period-end' } | { kind: 'scheduled'; on: string | null } | { kind: 'change' } {
  if (subscription.tier !== 'PREMIUM' || subscription.subscriptionStatus !== 'ACTIVE') return { kind: 'change' };
  return subscription.isCancelled ? { kind: 'scheduled', on: subscription.endsAt?.formatted ?? null } : { kind: 'cancel-at-period-end' };
}
