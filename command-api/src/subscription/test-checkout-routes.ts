/**
 * The built-in test checkout, the stand-in for Stripe when no STRIPE_SECRET_KEY is set (the embedded
 * default): GET /test-checkout/{sessionId} shows the plan and price, clearly labelled "Test payment —
 * no real money", with a Pay button; POST /test-checkout/{sessionId}/pay records the test payment
 * (PaymentRecorded, source 'test', once) and sends the browser to the same success URL Stripe would,
 * where POST /api/subscription/success activates. Possession of the session id (96 random bits) is
 * what lets a browser pay it, as with a Stripe Checkout URL. With Stripe configured both routes are
 * 404: nothing can record a payment that did not happen.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { subscriptionDecider, subscriptionStreamId } from '@papertrade/domain/auth/subscription';
import { planById } from '@papertrade/domain/plans/catalogue';
import { checkoutSessionIdSchema } from '@papertrade/domain/subscription/contracts';
import { IllegalStateError, NotFoundError } from '@papertrade/domain/shared/errors';
import type { CommandApiDeps } from '../deps';
import { testSessionClosed, testSessionUserId } from './checkout-provider';
import { publicOrigin } from './subscription-routes';

export const TEST_PAYMENT_LABEL = 'Test payment — no real money';
/** What the page and the Pay button say of a session closed because the account is on Premium already. */
export const CLOSED_SESSION = 'This checkout is closed: the account is on Premium Pro already, through another checkout. Nothing was charged.';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#0f172a;color:#e2e8f0;display:flex;justify-content:center;padding:48px 16px;margin:0}
main{background:#1e293b;border-radius:12px;padding:32px;max-width:420px;width:100%;box-shadow:0 10px 30px #0006}
.banner{background:#facc15;color:#1e293b;font-weight:700;padding:8px 12px;border-radius:6px;text-align:center}
h1{font-size:1.4rem} ul{padding-left:20px;color:#cbd5e1} .price{font-size:2rem;font-weight:700}
button{width:100%;padding:12px;font-size:1rem;font-weight:600;border:0;border-radius:8px;background:#2563eb;color:#fff;cursor:pointer}
a{color:#93c5fd}
</style></head><body><main>${body}</main></body></html>`;
}

export function testCheckoutRoutes(deps: CommandApiDeps): Router {
  const router = new Router();

  /** The session, its user and plan, or a 404 (also for every session when Stripe is configured). */
  async function findSession(ctx: Context) {
    if (deps.checkout.kind !== 'test') throw new NotFoundError('The test checkout is off: payments go through Stripe');
    const parsed = checkoutSessionIdSchema.safeParse(ctx.params.sessionId);
    const userId = parsed.success ? testSessionUserId(parsed.data) : null;
    if (!parsed.success || !userId) throw new NotFoundError('Checkout session not found');
    const sessionId = parsed.data;
    const { state } = await deps.handler.load(subscriptionDecider, subscriptionStreamId(userId));
    const started = state.checkouts.find((c) => c.sessionId === sessionId && c.source === 'test');
    const plan = started && planById(started.planId);
    if (!started || !plan) throw new NotFoundError('Checkout session not found');
    const paid = state.paid.includes(sessionId);
    // As Stripe expires the other open sessions once one activates (checkout-provider.ts closeOtherCheckouts).
    return { sessionId, userId, plan, started, paid, closed: testSessionClosed(state, sessionId) };
  }

  router.get('/test-checkout/:sessionId', async (ctx) => {
    const { sessionId, plan, paid, closed } = await findSession(ctx);
    const origin = publicOrigin(ctx, deps.config.PUBLIC_URL);
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('cache-control', 'no-store');
    const features = plan.features.map((f) => `<li>${escapeHtml(f)}</li>`).join('');
    const action = paid
      ? `<p>This session is already paid.</p><p><a href="${escapeHtml(`${origin}/payment-success?session_id=${encodeURIComponent(sessionId)}`)}">Continue</a></p>`
      : closed
        ? `<p>${escapeHtml(CLOSED_SESSION)}</p><p><a href="${escapeHtml(`${origin}/subscription`)}">Manage Subscription</a></p>`
        : `<form method="post" action="/test-checkout/${encodeURIComponent(sessionId)}/pay"><button type="submit">Pay $${plan.priceUsdPerMonth} (test)</button></form>
<p><a href="${escapeHtml(`${origin}/subscription`)}">Cancel and go back</a></p>`;
    ctx.body = page(
      `${TEST_PAYMENT_LABEL} - ${plan.name}`,
      `<p class="banner" role="alert">${TEST_PAYMENT_LABEL}</p>
<h1>${escapeHtml(plan.name)}</h1>
<p class="price">$${plan.priceUsdPerMonth}<small>/month</small></p>
<ul>${features}</ul>
<p>This server has no payment provider configured (no STRIPE_SECRET_KEY). Paying here records a test payment only; no card is asked for and nothing is charged.</p>
${action}`,
    );
  });

  router.post('/test-checkout/:sessionId/pay', async (ctx) => {
    const { sessionId, userId, plan, closed } = await findSession(ctx);
    if (closed) throw new IllegalStateError(CLOSED_SESSION);
    await deps.handler.handle(
      subscriptionDecider,
      subscriptionStreamId(userId),
      {
        type: 'RecordPayment',
        data: { userId, paymentId: sessionId, invoiceId: null, sessionId, amountUsd: plan.priceUsdPerMonth, description: `${plan.name} - monthly (test payment)`, source: 'test' },
        metadata: { now: deps.handler.now() },
      },
      { actor: userId, correlationId: sessionId },
    );
    deps.logger.info('test payment recorded', { userId, planId: plan.id });
    // 303: the browser follows with a GET, like Stripe's redirect to the success URL.
    ctx.status = 303;
    ctx.redirect(`${publicOrigin(ctx, deps.config.PUBLIC_URL)}/payment-success?session_id=${encodeURIComponent(sessionId)}`);
  });

  return router;
}
