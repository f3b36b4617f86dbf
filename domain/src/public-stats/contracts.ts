import { z } from 'zod';

/** GET /api/public/stats: measured figures only; null where nothing has been measured yet. */
export const publicStatsSchema = z.object({
  traders: z.number().int().nonnegative(),
  modelAccuracy: z.number().min(0).max(100).nullable(),
  simulatedTrades: z.number().int().nonnegative(),
});
export type PublicStats = z.infer<typeof publicStatsSchema>;
