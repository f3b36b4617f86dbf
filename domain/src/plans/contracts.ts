import { z } from 'zod';
import { subscriptionTierSchema } from '../auth/contracts';

/** A plan's usage limit: a count, or null when the plan sets no limit (unlimited). */
export const planLimitSchema = z.number().int().nonnegative().nullable();

export const planLimitsSchema = z.object({
  tradingStrategies: planLimitSchema,
  exchanges: planLimitSchema,
  apiCalls: planLimitSchema,
  trades: planLimitSchema,
});
export type PlanLimits = z.infer<typeof planLimitsSchema>;

export const planSchema = z.object({
  id: z.string(),
  tier: subscriptionTierSchema,
  name: z.string(),
  priceUsdPerMonth: z.number().nonnegative(),
  mostPopular: z.boolean(),
  features: z.array(z.string()),
  limits: planLimitsSchema,
});
export type Plan = z.infer<typeof planSchema>;

export const plansResponseSchema = z.array(planSchema);
