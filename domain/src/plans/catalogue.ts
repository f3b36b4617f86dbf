/**
 * The one price list (DESIGN.md section 6). The landing page, the subscription page and checkout
 * all read it through `GET /api/plans`.
 */
import type { Plan } from './contracts';

export const plans: readonly Plan[] = [
  {
    id: 'free',
    tier: 'FREE',
    name: 'Free Starter',
    priceUsdPerMonth: 0,
    mostPopular: false,
    features: [
      'Paper trading simulation',
      'Basic AI signals',
      '3 trading strategies',
      '30 days of historical data',
      'Community support',
    ],
    // The features line says 3 strategies; paper trades are the free product, so they are unlimited.
    limits: { tradingStrategies: 3, exchanges: 1, apiCalls: 1000, trades: null },
  },
  {
    id: 'premium',
    tier: 'PREMIUM',
    name: 'Premium Pro',
    priceUsdPerMonth: 29,
    mostPopular: true,
    features: [
      'Real trading API integration',
      'Advanced AI neural networks',
      'Unlimited strategies',
      'Real-time signals and alerts',
      'Advanced analytics and backtesting',
      'Priority support',
      'Custom indicators',
    ],
    limits: { tradingStrategies: null, exchanges: null, apiCalls: null, trades: null },
  },
];

export function planForTier(tier: Plan['tier']): Plan {
  const plan = plans.find((p) => p.tier === tier);
  if (!plan) throw new Error(`no plan for tier ${tier}`);
  return plan;
}

export function planById(id: string): Plan | undefined {
  return plans.find((p) => p.id === id);
}

/**
 * The plan whose limits apply to an account now: Premium's while a Premium subscription is active,
 * otherwise Free's (an inactive or expired Premium account is limited like a free one, as the
 * premium guards treat it).
 */
export function planInEffect(account: { tier: Plan['tier']; status: string }): Plan {
  return planForTier(account.tier === 'PREMIUM' && account.status === 'ACTIVE' ? 'PREMIUM' : 'FREE');
}
