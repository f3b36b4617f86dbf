/**
 * The subscription commands (issue 9): checkout, payment confirmation, plan change, cancel and
 * reactivate, all on `subscription-{userId}`. Checkout goes to Stripe when STRIPE_SECRET_KEY is set,
 * else to the built-in test checkout (test-checkout-routes.ts); both confirm through the same
 * POST /api/subscription/success, which activates a session once however often it is called.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { subscriptionDecider, subscriptionStreamId, type SubscriptionCommand, type SubscriptionState } from '@papertrade/domain/auth/subscription';
import { planById, planForTier } from '@papertrade/domain/plans/catalogue';
import {
  checkoutRequestSchema,
  emptyRequestSchema,
  paymentSuccessRequestSchema,
  upgradeRequestSchema,
  type CheckoutResponse,
  type PaymentSuccessResponse,
  type SubscriptionChangeResponse,
} from '@papertrade/domain/subscription/contracts';
import { cancellationView } from '@papertrade/domain/subscription/subscription-view';
import { ForbiddenError, IllegalStateError, ValidationError } from '@papertrade/domain/shared/errors';
import { currentUser, requireUser } from '@papertrade/platform/auth/guards';
import { jsonBody, parseBody } from '@papertrade/platform/http/body';
import type { CommandMeta } from '@papertrade/platform/commands/command-handler';
import type { CommandApiDeps } from '../deps';
import { commandMeta } from '../request-meta';
import { SESSION_ID_TEMPLATE, closeOtherCheckouts } from './checkout-provider';

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
    const meta = commandMeta(ctx, user.id, deps.requestHashKey, body);
    const stream = subscriptionStreamId(user.id);
    const start = (sessionId: string): SubscriptionCommand => ({
      type: 'StartCheckout',
      data: { userId: user.id, sessionId, planId: plan.id, tier: plan.tier, amountUsd: plan.priceUsdPerMonth, source: checkout.kind },
      metadata: { now: now() },
    });
    const origin = publicOrigin(ctx, deps.config.PUBLIC_URL);
    const loaded = await handler.load(subscriptionDecider, stream, meta);
    if (loaded.previous.length > 0) {
      // The same Idempotency-Key again (a retried request): the session it opened, not a second one.
      // handle() answers the recorded events, or 422 when the body differs.
      const replay = await handler.handle(subscriptionDecider, stream, start('cs_replay'), meta, loaded);
      const started = replay.events.find((e) => e.type === 'CheckoutStarted');
      if (!started || started.type !== 'CheckoutStarted') throw new IllegalStateError('This Idempotency-Key was used for another request');
      const url = await checkout.sessionUrl(started.data.sessionId, origin);
      if (!url) throw new IllegalStateError('The checkout session of this Idempotency-Key is no longer open (paid or expired); start a new checkout with a new key');
      const replayed: CheckoutResponse = { url, sessionId: started.data.sessionId, test: checkout.kind === 'test' };
      ctx.body = replayed;
      return;
    }
    // Refuse (Free plan, already Premium) before a session is opened at the provider.
    subscriptionDecider.decide(start('cs_check'), loaded.state);
    const session = await checkout.createSession({
      userId: user.id,
      email: user.email,
      plan,
      successUrl: `${origin}/payment-success?session_id=${SESSION_ID_TEMPLATE}`,
      cancelUrl: `${origin}/subscription`,
    });
    await handler.handle(subscriptionDecider, stream, start(session.id), meta, loaded);
    deps.logger.info('checkout started', { userId: user.id, planId: plan.id, provider: checkout.kind });
    const answer: CheckoutResponse = { url: session.url, sessionId: session.id, test: checkout.kind === 'test' };
    ctx.body = answer;
  });

  router.post('/api/subscription/success', requireUser, jsonBody, async (ctx) => {
    const user = currentUser(ctx);
    const { sessionId } = parseBody(ctx, paymentSuccessRequestSchema);
    const session = await checkout.retrieveSession(sessionId);
    if (session.userId !== user.id) throw new ForbiddenError('This checkout session belongs to another account');
    if (!session.paid) {
      throw new IllegalStateError(`The payment for this checkout session is not complete (payment status: ${session.paymentStatus}); nothing was activated`);
    }
    const plan = (session.planId && planById(session.planId)) || planForTier('PREMIUM');
    const result = await handler.handle(
      subscriptionDecider,
      subscriptionStreamId(user.id),
      {
        type: 'ActivateSubscription',
        data: {
          userId: user.id,
          sessionId: session.id,
          planId: plan.id,
          tier: plan.tier,
          stripeSubscriptionId: session.stripeSubscriptionId,
          stripeCustomerId: session.stripeCustomerId,
          via: 'success',
        },
        metadata: { now: now() },
      },
      commandMeta(ctx, user.id, deps.requestHashKey, { sessionId }),
    );
    const { state } = await handler.load(subscriptionDecider, subscriptionStreamId(user.id));
    const answer: PaymentSuccessResponse = {
      sessionId: session.id,
      plan,
      activatedNow: result.events.length > 0 && !result.replayed,
      tier: state.tier,
      subscriptionStatus: state.status,
      position: result.position ?? null,
    };
    if (answer.activatedNow) {
      deps.logger.info('subscription activated', { userId: user.id, via: 'success', provider: checkout.kind });
      await closeOtherCheckouts(deps, user.id, session.id);
    }
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
          subscriptionDecider.decide(command, loaded.state);
          await syncRenewal(loaded.state, 'end-now');
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
