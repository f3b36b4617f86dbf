/**
 * The subscription commands (issue 9): checkout, payment confirmation, plan change, cancel and
 * reactivate, all on `subscription-{userId}`. Checkout goes to Stripe when STRIPE_SECRET_KEY is set,
 * else to the built-in test checkout (test-checkout-routes.ts); both confirm through the same
 * POST /api/subscription/success, which activates a session once however often it is called.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import {
  checkoutExpiresAt,
  checkoutStatus,
  openCheckout,
  subscriptionDecider,
  subscriptionStreamId,
  type StartedCheckout,
  type SubscriptionCommand,
  type SubscriptionState,
} from '@papertrade/domain/auth/subscription';
import { planById, planForTier } from '@papertrade/domain/plans/catalogue';
import {
  checkoutRequestSchema,
  emptyRequestSchema,
  paymentSuccessRequestSchema,
  upgradeRequestSchema,
  type CheckoutResponse,
  type PaymentSuccessResponse,
  type SubscriptionChangeResponse,
  type UnpaidSessionState,
} from '@papertrade/domain/subscription/contracts';
import { cancellationView } from '@papertrade/domain/subscription/subscription-view';
import { ForbiddenError, IllegalStateError, ValidationError } from '@papertrade/domain/shared/errors';
import { currentUser, requireUser } from '@papertrade/platform/auth/guards';
import { jsonBody, parseBody } from '@papertrade/platform/http/body';
import type { CommandMeta } from '@papertrade/platform/commands/command-handler';
import type { CommandApiDeps } from '../deps';
import { commandMeta } from '../request-meta';
import { SESSION_ID_TEMPLATE } from './checkout-provider';
import { confirmPayment } from './confirm-payment';
import { OneAtATime } from './one-at-a-time';

/** The 409 details of an unpaid session, by what the payment page should say of it. */
export const UNPAID_DETAIL: Record<UnpaidSessionState, (paymentStatus: string) => string> = {
  open: (paymentStatus) => `The payment for this checkout session is not complete (payment status: ${paymentStatus}); nothing was activated`,
  closed: () => 'This checkout is closed: the account got Premium Pro through another checkout. Nothing was charged.',
  expired: () => 'This checkout expired before it was paid. Nothing was charged; start a new checkout to subscribe.',
};

/** The public origin for return URLs: PUBLIC_URL, else this request's own (proxy-aware with TRUST_PROXY). */
export function publicOrigin(ctx: Context, publicUrl: string | undefined): string {
  // Not ctx.origin: in Koa 3 that is the Origin request header, which a navigation need not send.
  return (publicUrl ?? `${ctx.protocol}://${ctx.host}`).replace(/\/+$/, '');
}

/** cancel and reactivate take no body; an empty one (or `{}`) is fine, anything else is a 400. */
function parseEmptyBody(ctx: Context): void {
  const raw = ctx.request.rawBody;
  if (raw === undefined || raw === '') return;
  parseBody(ctx, emptyRequestSchema);
}

export function subscriptionRoutes(deps: CommandApiDeps): Router {
  const router = new Router();
  const { handler, checkout } = deps;
  const now = () => handler.now();
  // One checkout of an account at a time in this process, so a burst opens one session at the
  // provider; across instances the decider's one-open-checkout rule decides (see the checkout route).
  const checkoutsOfAccount = new OneAtATime();

  async function changeAnswer(userId: string, run: (meta: CommandMeta) => Promise<{ position?: string | undefined }>, meta: CommandMeta): Promise<SubscriptionChangeResponse> {
    const { position } = await run(meta);
    const { state } = await handler.load(subscriptionDecider, subscriptionStreamId(userId));
    return { tier: state.tier, subscriptionStatus: state.status, ...cancellationView(state.endsAt, new Date(now())), position: position ?? null };
  }

  router.post('/api/subscription/checkout', requireUser, jsonBody, async (ctx) => {
    const user = currentUser(ctx);
    const body = parseBody(ctx, checkoutRequestSchema);
    const plan = body.planId !== undefined ? planById(body.planId) : planForTier(body.tier!);
    if (!plan) throw new ValidationError(`planId: no plan "${body.planId}" (plans: free, premium)`, { fields: ['planId'] });
    await deps.checkoutLimit.spend(user.id);
    const meta = commandMeta(ctx, user.id, deps.requestHashKey, body);
    const stream = subscriptionStreamId(user.id);
    const start = (sessionId: string, expiresAt: string, url: string | null): SubscriptionCommand => ({
      type: 'StartCheckout',
      data: { userId: user.id, sessionId, planId: plan.id, tier: plan.tier, amountUsd: plan.priceUsdPerMonth, source: checkout.kind, expiresAt, url },
      metadata: { now: now() },
    });
    const origin = publicOrigin(ctx, deps.config.PUBLIC_URL);
    const answer = (sessionId: string, url: string): CheckoutResponse => ({ url, sessionId, test: checkout.kind === 'test' });
    /** The account's open checkout, answered again (no new session, no event); null when there is none. */
    const answerOpen = async (open: StartedCheckout | null): Promise<CheckoutResponse | null> => {
      if (!open) return null;
      const url = await checkout.openUrl(open, origin);
      if (!url) throw new IllegalStateError('Your last checkout is no longer open at the payment provider (paid or expired); if you paid, it is being confirmed. Try again in a minute.');
      return answer(open.sessionId, url);
    };
    ctx.body = await checkoutsOfAccount.run(user.id, async (): Promise<CheckoutResponse> => {
      const loaded = await handler.load(subscriptionDecider, stream, meta);
      if (loaded.previous.length > 0) {
        // The same Idempotency-Key again (a retried request): the session it opened, not a second one.
        // handle() answers the recorded events, or 422 when the body differs.
        const replay = await handler.handle(subscriptionDecider, stream, start('cs_replay', now(), null), meta, loaded);
        const started = replay.events.find((e) => e.type === 'CheckoutStarted');
        if (!started || started.type !== 'CheckoutStarted') throw new IllegalStateError('This Idempotency-Key was used for another request');
        const url = await checkout.sessionUrl(started.data.sessionId, origin);
        if (!url) throw new IllegalStateError('The checkout session of this Idempotency-Key is no longer open (paid or expired); start a new checkout with a new key');
        return answer(started.data.sessionId, url);
      }
      // Refuse (Free plan, already Premium) before a session is opened at the provider.
      const expiresAt = checkoutExpiresAt(now());
      subscriptionDecider.decide(start('cs_check', expiresAt, null), loaded.state);
      const open = await answerOpen(openCheckout(loaded.state, now()));
      if (open) return open;
      const session = await checkout.createSession({
        userId: user.id,
        email: user.email,
        plan,
        successUrl: `${origin}/payment-success?session_id=${SESSION_ID_TEMPLATE}`,
        cancelUrl: `${origin}/subscription`,
        expiresAt,
      });
      const result = await handler.handle(subscriptionDecider, stream, start(session.id, expiresAt, checkout.urlToRecord(session)), meta, loaded);
      if (result.events.length === 0) {
        // Another instance recorded a checkout for this account meanwhile: that one is the account's
        // open checkout; the session opened here is closed at the provider so it cannot be paid too.
        await checkout.closeSession(session.id).catch((error: unknown) => {
          deps.logger.warn('could not close a checkout session that lost the race', { userId: user.id, error: error instanceof Error ? error.message : String(error) });
        });
        const { state } = await handler.load(subscriptionDecider, stream);
        const other = await answerOpen(openCheckout(state, now()));
        if (!other) throw new IllegalStateError('Another checkout of this account changed the subscription meanwhile; please try again');
        return other;
      }
      deps.logger.info('checkout started', { userId: user.id, planId: plan.id, provider: checkout.kind });
      return answer(session.id, session.url);
    });
  });

  router.post('/api/subscription/success', requireUser, jsonBody, async (ctx) => {
    const user = currentUser(ctx);
    const { sessionId } = parseBody(ctx, paymentSuccessRequestSchema);
    const session = await checkout.retrieveSession(sessionId);
    if (session.userId !== user.id) throw new ForbiddenError('This checkout session belongs to another account');
    if (!session.paid) {
      const { state } = await handler.load(subscriptionDecider, subscriptionStreamId(user.id));
      const status = checkoutStatus(state, sessionId, now());
      const unpaid: UnpaidSessionState = session.expired || status === 'expired' ? 'expired' : status === 'closed' ? 'closed' : 'open';
      throw new IllegalStateError(UNPAID_DETAIL[unpaid](session.paymentStatus), { sessionState: unpaid });
    }
    const confirmed = await confirmPayment(deps, user.id, session, 'success', commandMeta(ctx, user.id, deps.requestHashKey, { sessionId }));
    const { state } = await handler.load(subscriptionDecider, subscriptionStreamId(user.id));
    const answer: PaymentSuccessResponse = {
      sessionId: session.id,
      plan: confirmed.plan,
      activatedNow: confirmed.outcome === 'activated',
      outcome: confirmed.outcome,
      tier: state.tier,
      subscriptionStatus: state.status,
      position: confirmed.result.position ?? null,
    };
    ctx.body = answer;
  });

  router.post('/api/subscription/upgrade', requireUser, jsonBody, async (ctx) => {
    const user = currentUser(ctx);
    const body = parseBody(ctx, upgradeRequestSchema);
    const stream = subscriptionStreamId(user.id);
    ctx.body = await changeAnswer(
      user.id,
      async (meta) => {
        const command: SubscriptionCommand = { type: 'ChangePlan', data: { userId: user.id, tier: body.tier }, metadata: { now: now() } };
        const loaded = await handler.load(subscriptionDecider, stream, meta);
        // Refusals before touching the provider; a retry with the same Idempotency-Key is answered by handle().
        if (loaded.previous.length === 0) {
          const decided = subscriptionDecider.decide(command, loaded.state);
          // An active Premium moving to Free is cancelled at the period's end (stop renewing, keep the
          // paid month); a Premium that was not active ends now.
          await syncRenewal(loaded.state, decided.some((e) => e.type === 'SubscriptionCancelled') ? 'stop-renewing' : 'end-now');
        }
        return handler.handle(subscriptionDecider, stream, command, meta, loaded);
      },
      commandMeta(ctx, user.id, deps.requestHashKey, body),
    );
  });

  router.post('/api/subscription/cancel', requireUser, jsonBody, async (ctx) => {
    const user = currentUser(ctx);
    parseEmptyBody(ctx);
    ctx.body = await changeAnswer(user.id, (meta) => simple(user.id, { type: 'CancelSubscription', data: { userId: user.id }, metadata: { now: now() } }, 'stop-renewing', meta), commandMeta(ctx, user.id, deps.requestHashKey, {}));
  });

  router.post('/api/subscription/reactivate', requireUser, jsonBody, async (ctx) => {
    const user = currentUser(ctx);
    parseEmptyBody(ctx);
    ctx.body = await changeAnswer(user.id, (meta) => simple(user.id, { type: 'ReactivateSubscription', data: { userId: user.id }, metadata: { now: now() } }, 'renew', meta), commandMeta(ctx, user.id, deps.requestHashKey, {}));
  });

  /** Decide (refusals first), tell the provider, then append. */
  async function simple(userId: string, command: SubscriptionCommand, renewal: 'stop-renewing' | 'renew', meta: CommandMeta) {
    const stream = subscriptionStreamId(userId);
    const loaded = await handler.load(subscriptionDecider, stream, meta);
    if (loaded.previous.length === 0) {
      subscriptionDecider.decide(command, loaded.state);
      await syncRenewal(loaded.state, renewal);
    }
    return handler.handle(subscriptionDecider, stream, command, meta, loaded);
  }

  /** A Stripe subscription keeps billing unless told: stop renewing on cancel, renew on reactivate, end on a move to Free. */
  async function syncRenewal(state: SubscriptionState, change: 'stop-renewing' | 'renew' | 'end-now'): Promise<void> {
    if (state.stripeSubscriptionId && state.tier === 'PREMIUM') await checkout.updateRenewal(state.stripeSubscriptionId, change);
  }

  return router;
}
