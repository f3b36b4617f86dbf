/**
 * How full a usage bar is and which colour it takes (issue 9, spec section 9): 90 percent or more
 * of the plan's limit is red, 70 percent or more amber, below that the normal colour. A limit of
 * null means the plan sets none: no bar to fill, never a warning.
 */
export type UsageLevel = 'ok' | 'warn' | 'danger' | 'unlimited';

export const DANGER_PERCENT = 90;
export const WARN_PERCENT = 70;

export interface UsageMeter {
  /** 0..100, for the bar's width; over the limit still fills the bar once. */
  percent: number;
  level: UsageLevel;
}

export function usageMeter(used: number, limit: number | null): UsageMeter {
  if (limit === null) return { percent: 0, level: 'unlimited' };
  // A limit of 0 is a feature the plan does not include: any use is at (or over) the limit.
  const exact = limit <= 0 ? (used > 0 ? 100 : 0) : (used * 100) / limit;
  const percent = Math.min(100, Math.max(0, exact));
  const level: UsageLevel = limit <= 0 && used <= 0 ? 'ok' : exact >= DANGER_PERCENT ? 'danger' : exact >= WARN_PERCENT ? 'warn' : 'ok';
  return { percent, level };
}

/**
 * The line above the meters. The server's limits are the ones in effect: a Premium that is not
 * active (inactive, cancelled or expired by an admin) is limited like the Free plan, so the hint
 * says so rather than naming a plan whose limits are not the ones shown.
 */
export function usageHint(subscription: { tier: string; subscriptionStatus: string; plan: { name: string } }): string {
  if (subscription.tier === 'PREMIUM' && subscription.subscriptionStatus !== 'ACTIVE') {
    return `Your ${subscription.plan.name} subscription is ${subscription.subscriptionStatus.toLowerCase()}: the Free plan's limits apply.`;
  }
  return `Limits of your ${subscription.plan.name} plan.`;
}
