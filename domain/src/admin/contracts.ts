import { z } from 'zod';
import { safeText } from '../shared/safe-text';
import { emailSchema, meSchema, subscriptionStatusSchema, subscriptionTierSchema, usernameSchema } from '../auth/contracts';

export const adminUserSchema = meSchema;
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUsersResponseSchema = z.array(adminUserSchema);

export const adminStatsSchema = z.object({
  totalUsers: z.number().int(),
  premiumUsers: z.number().int(),
  activeSubscriptions: z.number().int(),
  newThisMonth: z.number().int(),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;

const optionalName = safeText()
  .max(64, 'must be at most 64 characters')
  .nullable()
  .optional()
  .transform((v) => (v === '' ? null : v));

/** PUT /api/admin/users/{id}: every field optional; what is sent is applied. */
export const adminUpdateUserRequestSchema = z.strictObject({
  username: usernameSchema.optional(),
  email: emailSchema.optional(),
  firstName: optionalName,
  lastName: optionalName,
  subscriptionTier: subscriptionTierSchema.optional(),
  subscriptionStatus: subscriptionStatusSchema.optional(),
});
export type AdminUpdateUserRequest = z.input<typeof adminUpdateUserRequestSchema>;
