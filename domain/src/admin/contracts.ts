import { z } from 'zod';
import { safeText } from '../shared/safe-text';
import { listFormatParam } from '../shared/list-format';
import { emailSchema, meSchema, subscriptionStatusSchema, subscriptionTierSchema, usernameSchema } from '../auth/contracts';

export const adminUserSchema = meSchema;
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUsersResponseSchema = z.array(adminUserSchema);

/** The most a page of GET /api/admin/users holds. */
export const ADMIN_USERS_MAX_PAGE_SIZE = 100;

/** GET /api/admin/users query: a search (prefix of email, username or name), filters and a page (from 1). */
export const adminUsersQuerySchema = z.strictObject({
  // Safe text: a NUL reached PostgreSQL's prefix query and answered 500.
  q: safeText().max(100, 'must be at most 100 characters').optional().meta({ description: 'A prefix of the email, username, full name or last name, any case' }),
  page: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(100_000, 'must be at most 100000').default(1),
  pageSize: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(ADMIN_USERS_MAX_PAGE_SIZE, `must be at most ${ADMIN_USERS_MAX_PAGE_SIZE}`)
    .default(20),
  tier: subscriptionTierSchema.optional(),
  status: subscriptionStatusSchema.optional(),
  /** CSV (or Accept: text/csv): the page asked for, or without page/pageSize every match up to CSV_MAX_ROWS. */
  format: listFormatParam,
});
export type AdminUsersQuery = z.input<typeof adminUsersQuerySchema>;

/** PUT /api/admin/users/{id}/auditor: grant (true) or revoke (false) the auditor role. */
export const adminSetAuditorRequestSchema = z.strictObject({ auditor: z.boolean() });
export type AdminSetAuditorRequest = z.infer<typeof adminSetAuditorRequestSchema>;

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

/** PUT /api/admin/users/{id}: the user changed and the position of the last event appended (null when nothing was). */
export const adminUpdateUserResponseSchema = z.object({ id: z.string(), position: z.string().nullable() });
export type AdminUpdateUserResponse = z.infer<typeof adminUpdateUserResponseSchema>;

/** PUT /api/admin/users/{id}/auditor. */
export const adminSetAuditorResponseSchema = z.object({ id: z.string(), isAuditor: z.boolean(), position: z.string().nullable() });
export type AdminSetAuditorResponse = z.infer<typeof adminSetAuditorResponseSchema>;
