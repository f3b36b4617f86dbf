/**
 * The plan's monthly API call limit, enforced (DESIGN.md section 6; the counter is
 * platform/src/auth/api-call-counter.ts). Product decision: a signed-in user's command calls count,
 * POST, PUT and DELETE alike, accepted or refused for their input, once a month in UTC. Left out,
 * so that a user at the limit is never locked out of the way up:
 *   /api/auth/*          sign-up, sign-in, logout
 *   /api/subscription/*  payment success, upgrade, cancel, reactivate (checkout: see below)
 *   /test-checkout/*     the built-in test checkout's pay button
 *   /api/stripe/webhook  Stripe's notices (no user)
 *   /api/admin/*         running the service is not the plan's API use
 * Over the limit: 429 naming the limit and suggesting Premium Pro, before the route runs, so nothing
 * is appended; the refused call is not counted. Premium Pro (no limit) is counted and never refused.
 * Checkout is counted but never refused for the quota: it is the way out of the limit, and it has a
 * per-account rate limit of its own (subscription/checkout-limit.ts) and one open session per account.
 */
import type { Middleware } from 'koa';
import { planInEffect } from '@papertrade/domain/plans/catalogue';
import { TooManyRequestsError } from '@papertrade/domain/shared/errors';
import { userAfterOwnWrites, type AuthState } from '@papertrade/platform/auth/guards';
import type { ApiCallCounter } from '@papertrade/platform/auth/api-call-counter';

const COUNTED_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
export const UNCOUNTED_PATHS: readonly RegExp[] = [/^\/api\/auth\//, /^\/api\/subscription(\/|$)/, /^\/test-checkout\//, /^\/api\/stripe\//, /^\/api\/admin(\/|$)/];
/** Counted in the month's calls, never refused for them (checked before UNCOUNTED_PATHS). */
export const COUNTED_NEVER_REFUSED_PATHS: readonly RegExp[] = [/^\/api\/subscription\/checkout$/];

export function apiCallLimit(counter: ApiCallCounter): Middleware {
  return async (ctx, next) => {
    const { user } = ctx.state as AuthState;
    if (user && COUNTED_METHODS.has(ctx.method) && COUNTED_NEVER_REFUSED_PATHS.some((p) => p.test(ctx.path))) {
      await counter.spend(user.id, null);
    } else if (user && COUNTED_METHODS.has(ctx.method) && !UNCOUNTED_PATHS.some((p) => p.test(ctx.path))) {
      const limitOf = (u: typeof user) => planInEffect({ tier: u.subscriptionTier, status: u.subscriptionStatus }).limits.apiCalls;
      try {
        await counter.spend(user.id, limitOf(user));
      } catch (error) {
        // Refused as Free: unless the caller's own payment or plan change, not yet read here, lifted the limit.
        if (!(error instanceof TooManyRequestsError)) throw error;
        const now = await userAfterOwnWrites(ctx);
        if (limitOf(now) !== null) throw error;
        await counter.spend(user.id, null);
      }
    }
    await next();
  };
}
