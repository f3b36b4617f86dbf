/** Subscription events for the read-model specs (users, trading-bots, subscriptions). */
import type { SubscriptionEvent } from '../auth/subscription';

export const paidLifecycle = (userId: string): SubscriptionEvent[] => [
  { type: 'CheckoutStarted', data: { userId, sessionId: 'cs_1', planId: 'premium', tier: 'PREMIUM', amountUsd: 29, source: 'test', startedAt: '2026-01-01T00:00:00.000Z' } },
  { type: 'PaymentRecorded', data: { userId, paymentId: 'cs_1', invoiceId: null, sessionId: 'cs_1', amountUsd: 29, description: 'Premium Pro - monthly', source: 'test', paidAt: '2026-01-01T00:01:00.000Z' } },
  {
    type: 'SubscriptionActivated',
    data: {
      userId,
      sessionId: 'cs_1',
      planId: 'premium',
      tier: 'PREMIUM',
      status: 'ACTIVE',
      previousTier: 'FREE',
      previousStatus: 'ACTIVE',
      stripeSubscriptionId: null,
      stripeCustomerId: null,
      via: 'success',
      activatedAt: '2026-01-01T00:02:00.000Z',
    },
  },
  { type: 'SubscriptionCancelled', data: { userId, tier: 'PREMIUM', endsAt: '2026-02-01T00:00:00.000Z', cancelledAt: '2026-01-02T00:00:00.000Z' } },
];

export const expiredAfter = (userId: string): SubscriptionEvent => ({
  type: 'SubscriptionExpired',
  data: { userId, tier: 'FREE', status: 'EXPIRED', previousTier: 'PREMIUM', endsAt: '2026-02-01T00:00:00.000Z', reason: 'cancellation-ended', expiredAt: '2026-02-01T00:00:05.000Z' },
});
