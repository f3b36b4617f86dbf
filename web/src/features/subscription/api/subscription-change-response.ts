/**
 * What upgrade, cancel and reactivate answer: the subscription as the command left it. Only the
 * fields the screens use are checked (the tier, status and cancellation with its end date); the
 * write's position is read by the API client from the raw answer for read-your-writes.
 */
import type { z } from 'zod';
import { subscriptionResponseSchema } from '@papertrade/domain/subscription/contracts';

export const subscriptionChangeSchema = subscriptionResponseSchema.pick({
  tier: true,
  subscriptionStatus: true,
  isCancelled: true,
  endsAt: true,
  daysRemaining: true,
});
export type SubscriptionChange = z.infer<typeof subscriptionChangeSchema>;
