import { z } from 'zod';

/** GET /api/public/stats: measured figures only; null where nothing has been measured yet. */
export const publicStatsSchema = z.object({
  traders: z.number().int().nonnegative(),
  modelAccuracy: z.number().min(0).max(100).nullable(),
  simulatedTrades: z
    .number()
    .int()
    .nonnegative()
    .meta({
      description:
        "Every simulated trade filled on any paper portfolio: manual and bot trades, stop-loss and take-profit closes, the house demo bot's included",
    }),
});
export type PublicStats = z.infer<typeof publicStatsSchema>;
