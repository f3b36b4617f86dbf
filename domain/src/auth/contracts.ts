/**
 * Request and response schemas of the auth slice. command-api and query-api validate with them and
 * web/ imports them, so the rules cannot drift apart.
 */
import { z } from 'zod';
import { safeText } from '../shared/safe-text';

export const MIN_PASSWORD_LENGTH = 6;
export const USERNAME_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;

/** Optional strings sent empty count as absent. */
const optionalName = safeText()
  .max(64, 'must be at most 64 characters')
  .optional()
  .transform((v) => (v === '' ? undefined : v));

export const emailSchema = safeText().max(254, 'must be at most 254 characters').email('must be a valid email address');

export const usernameSchema = safeText()
  .regex(USERNAME_PATTERN, 'must be 3-32 characters of letters, digits, _ or -');

export const signupRequestSchema = z
  .strictObject({
    email: emailSchema,
    username: usernameSchema,
    firstName: optionalName,
    lastName: optionalName,
    password: z
      .string()
      .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters long`)
      .max(256, 'must be at most 256 characters'),
    confirmPassword: z.string().max(256, 'must be at most 256 characters'),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: 'must match password',
  });
export type SignupRequest = z.input<typeof signupRequestSchema>;

export const signupResponseSchema = z.object({
  userId: z.string().uuid(),
  position: z.string(),
});
export type SignupResponse = z.infer<typeof signupResponseSchema>;

export const loginRequestSchema = z.strictObject({
  email: safeText().min(1, 'is required').max(254, 'must be at most 254 characters'),
  password: z.string().min(1, 'is required').max(256, 'must be at most 256 characters'),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const subscriptionTiers = ['FREE', 'PREMIUM'] as const;
export const subscriptionStatuses = ['ACTIVE', 'INACTIVE', 'CANCELLED', 'EXPIRED'] as const;
export const subscriptionTierSchema = z.enum(subscriptionTiers);
export const subscriptionStatusSchema = z.enum(subscriptionStatuses);
export type SubscriptionTier = z.infer<typeof subscriptionTierSchema>;
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

/** The shape of `GET /api/auth/me` and of `user` in the login response. */
export const meSchema = z.strictObject({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  subscriptionTier: subscriptionTierSchema,
  subscriptionStatus: subscriptionStatusSchema,
  isAdmin: z.boolean(),
  /** Read-only access to the Admin Panel's list and stats and to the audit endpoints. Optional so
   *  that clients and fixtures written before the role still parse; the server always sends it. */
  isAuditor: z.boolean().optional(),
  createdAt: z.string(),
});
export type Me = z.infer<typeof meSchema>;

export const loginResponseSchema = z.object({
  token: z.string(),
  user: meSchema,
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** Premium = tier PREMIUM and status ACTIVE together. */
export function isPremium(user: Pick<Me, 'subscriptionTier' | 'subscriptionStatus'> | null | undefined): boolean {
  return user?.subscriptionTier === 'PREMIUM' && user.subscriptionStatus === 'ACTIVE';
}

/** RFC 7807 problem body, as every API error answers. */
export const problemSchema = z.object({
  type: z.string().optional(),
  title: z.string(),
  status: z.number(),
  detail: z.string(),
});
export type Problem = z.infer<typeof problemSchema>;
