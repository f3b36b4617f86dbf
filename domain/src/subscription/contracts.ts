/**
 * HTTP contracts of the subscription slice (issue 9): checkout, payment confirmation, plan changes,
 * cancel / reactivate, the subscription view and the billing history. command-api and query-api
 * validate with them and web/ imports them, so the rules cannot drift apart.
 */
import { z } from 'zod';
import { subscriptionStatusSchema, subscriptionTierSchema } from '../auth/contracts';
import { planSchema } from '../plans/contracts';
import { safeText } from '../shared/safe-text';

/** Stripe session ids are `cs_...`; the test checkout's are `cs_test_local_...`. Bounded, one line. */
export const checkoutSessionIdSchema = safeText()
  .min(1, 'is required')
  .max(255, 'must be at most 255 characters')
  .regex(/^[A-Za-z0-9_]+$/, 'must be a checkout session id (letters, digits and _)');

/**
 * POST /api/subscription/checkout: the plan to buy, by catalogue id (`premium`) or by tier
 * (`PREMIUM`); exactly one of the two. Only paid plans can be checked out.
 */
export const checkoutRequestSchema = z
  .strictObject({
    planId: safeText().min(1, 'is required').max(64, 'must be at most 64 characters').optional(),
    tier: subscriptionTierSchema.optional(),
  })
  .refine((v) => (v.planId === undefined) !== (v.tier === undefined), {
    message: 'send exactly one of planId or tier',
    path: ['planId'],
  });
export type CheckoutRequest = z.input<typeof checkoutRequestSchema>;

/** Where to send the browser: Stripe Checkout, or the built-in test checkout page in embedded mode. */
export const checkoutResponseSchema = z.object({
  url: z.string().min(1),
  sessionId: z.string(),
  /** true when the URL is the built-in test checkout ("Test payment — no real money"). */
  test: z.boolean(),
});
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

/** POST /api/subscription/success: the `session_id` of the `/payment-success` query string. */
export const paymentSuccessRequestSchema = z.strictObject({ sessionId: checkoutSessionIdSchema });
export type PaymentSuccessRequest = z.infer<typeof paymentSuccessRequestSchema>;

/**
 * What became of a paid checkout session, so the payment page tells the truth when it is opened
 * again later:
 * - activated: this call activated the subscription;
 * - active: it was activated earlier (a repeated call, or the webhook first) and is the account's subscription now;
 * - superseded: it was activated earlier, and the account has since moved on (to Free, or another change);
 * - cancelled-duplicate: it was paid while the account's Premium was already active, so its
 *   subscription was cancelled at the payment provider and the account kept the one it had.
 * An unpaid session is a 409 instead, whose `sessionState` says open (not paid yet), closed (another
 * checkout gave the account Premium) or expired (not paid in time).
 */
export const paymentOutcomes = ['activated', 'active', 'superseded', 'cancelled-duplicate'] as const;
export const paymentOutcomeSchema = z.enum(paymentOutcomes);
export type PaymentOutcome = z.infer<typeof paymentOutcomeSchema>;
export const unpaidSessionStates = ['open', 'closed', 'expired'] as const;
export type UnpaidSessionState = (typeof unpaidSessionStates)[number];
/** The 409 problem body of POST /api/subscription/success for an unpaid session. */
export const unpaidSessionProblemSchema = z.object({ status: z.literal(409), detail: z.string(), sessionState: z.enum(unpaidSessionStates) });

export const paymentSuccessResponseSchema = z.object({
  sessionId: z.string(),
  /** The plan that was bought (the payment page names it and lists its features). */
  plan: planSchema,
  /** true only when this call activated the subscription (outcome 'activated'). */
  activatedNow: z.boolean(),
  outcome: paymentOutcomeSchema,
  tier: subscriptionTierSchema,
  subscriptionStatus: subscriptionStatusSchema,
  /** Global position of the event appended (or null when nothing was), for X-Min-Position. */
  position: z.string().nullable(),
});
export type PaymentSuccessResponse = z.infer<typeof paymentSuccessResponseSchema>;

/**
 * POST /api/subscription/upgrade: change to another tier without payment ('Plan Changed'). Going to
 * a paid tier goes through checkout instead, and the server says so (409).
 */
export const upgradeRequestSchema = z.strictObject({ tier: subscriptionTierSchema });
export type UpgradeRequest = z.infer<typeof upgradeRequestSchema>;

/** POST /api/subscription/cancel and /reactivate take no body (an empty object or none). */
export const emptyRequestSchema = z.strictObject({});

export const subscriptionEndsAtSchema = z.object({
  day: z.number().int().min(1).max(31),
  month: z.number().int().min(1).max(12),
  year: z.number().int(),
  /** e.g. "December 22, 2026" (en-US, UTC). */
  formatted: z.string(),
  /** The same instant as ISO 8601, for clients that compute with it. */
  iso: z.string(),
});
export type SubscriptionEndsAt = z.infer<typeof subscriptionEndsAtSchema>;

/**
 * One usage line: `limit` null means the plan sets no limit. `tracked` false means the feature that
 * would produce the count does not exist yet, so `used` is 0 by construction, not a measurement.
 */
export const usageItemSchema = z.object({
  used: z.number().int().nonnegative(),
  limit: z.number().int().nonnegative().nullable(),
  tracked: z.boolean(),
});
export type UsageItem = z.infer<typeof usageItemSchema>;

const subscriptionCore = {
  tier: subscriptionTierSchema,
  /**
   * A cancelled Premium stays ACTIVE (with isCancelled) until endsAt: access continues. Expiry then
   * moves it to FREE / EXPIRED.
   */
  subscriptionStatus: subscriptionStatusSchema,
  isCancelled: z.boolean(),
  /** When a cancelled subscription's access ends; null when not cancelled. */
  endsAt: subscriptionEndsAtSchema.nullable(),
  /** Whole days until endsAt (rounded up, 0 once passed); null when not cancelled. */
  daysRemaining: z.number().int().nonnegative().nullable(),
};

/**
 * The answer of POST /api/subscription/upgrade, /cancel and /reactivate: the subscription as the
 * command left it (from the stream, not a read model) and the position of the event appended.
 */
export const subscriptionChangeResponseSchema = z.object({
  ...subscriptionCore,
  position: z.string().nullable(),
});
export type SubscriptionChangeResponse = z.infer<typeof subscriptionChangeResponseSchema>;

/** GET /api/subscription. */
export const subscriptionResponseSchema = z.object({
  ...subscriptionCore,
  usage: z.object({
    tradingStrategies: usageItemSchema,
    exchanges: usageItemSchema,
    apiCalls: usageItemSchema,
    trades: usageItemSchema,
  }),
  /** The catalogue plan of the current tier. */
  plan: planSchema,
});
export type SubscriptionResponse = z.infer<typeof subscriptionResponseSchema>;

export const billingStatuses = ['PAID', 'FAILED'] as const;
export const billingStatusSchema = z.enum(billingStatuses);

/** One row of GET /api/subscription/billing: a real payment (Stripe invoice or test checkout). */
export const billingEntrySchema = z.object({
  id: z.string(),
  /** ISO 8601 time of the payment or failure. */
  date: z.string(),
  description: z.string(),
  amountUsd: z.number().nonnegative(),
  status: billingStatusSchema,
  /** Stripe invoice id, or null for the test checkout. */
  invoiceId: z.string().nullable(),
  source: z.enum(['stripe', 'test']),
});
export type BillingEntry = z.infer<typeof billingEntrySchema>;

/** Newest first. Empty when the user never paid. */
export const billingHistoryResponseSchema = z.array(billingEntrySchema);
export type BillingHistoryResponse = z.infer<typeof billingHistoryResponseSchema>;
