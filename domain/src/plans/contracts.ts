import { z } from 'zod';
import { subscriptionTierSchema } from '../auth/contracts';

export const planSchema = z.object({
  id: z.string(),
  tier: subscriptionTierSchema,
  name: z.string(),
  priceUsdPerMonth: z.number().nonnegative(),
  mostPopular: z.boolean(),
  features: z.array(z.string()),
});
export type Plan = z.infer<typeof planSchema>;

export const plansResponseSchema = z.array(planSchema);
