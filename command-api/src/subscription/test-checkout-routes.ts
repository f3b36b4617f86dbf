/**
 * The built-in test checkout, the stand-in for Stripe when no STRIPE_SECRET_KEY is set (the embedded
 * default): GET /test-checkout/{sessionId} shows the plan and price, clearly labelled "Test payment —
 * no real money", with a Pay button; POST /test-checkout/{sessionId}/pay records the test payment
 * (PaymentRecorded, source 'test', once) and answers the same success URL Stripe would send the
 * browser to, where POST /api/subscription/success activates. Paying needs the session owner's
 * bearer token: the page is served by this origin, so its script (GET /test-checkout/pay.js; the
 * CSP allows same-origin scripts only) reads the token the web app keeps in localStorage and sends
 * it. A session id alone pays nothing (a stranger who saw one could otherwise give any account
 * Premium). Only a session the account can still pay shows a Pay button. With Stripe configured
 * every route here is 404: nothing can record a payment that did not happen; outside the embedded
 * mode the test checkout serves only with TEST_CHECKOUT=on (bin/compose.ts).
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { checkoutStatus, subscriptionDecider, subscriptionStreamId, type CheckoutStatus } from '@papertrade/domain/auth/subscription';
import { planById } from '@papertrade/domain/plans/catalogue';
import { checkoutSessionIdSchema } from '@papertrade/domain/subscription/contracts';
import { ForbiddenError, IllegalStateError, NotFoundError } from '@papertrade/domain/shared/errors';
import { currentUser } from '@papertrade/platform/auth/guards';
import type { CommandApiDeps } from '../deps';
import { testSessionUserId } from './checkout-provider';
import { UNPAID_DETAIL, publicOrigin } from './subscription-routes';

export const TEST_PAYMENT_LABEL = 'Test payment — no real money';
/** What the page and the Pay button say of a session closed because the account got Premium another way. */
export const CLOSED_SESSION = UNPAID_DETAIL.closed('closed');
export const EXPIRED_SESSION = UNPAID_DETAIL.expired('expired');

/** The key under which the web app keeps the sign-in token (web/src/lib/auth/auth-token.ts AUTH_TOKEN_KEY). */
const AUTH_TOKEN_KEY = 'authToken';

/**
 * The Pay button's script: the POST carries the signed-in user's bearer token, then the browser goes
 * where the answer says (the success URL). Without a token, or for another account, it shows the
 * server's problem detail instead of paying.
 */
export const PAY_SCRIPT = `'use strict';
(function () {
  var form = document.querySelector('form[data-pay]');
  if (!form) return;
  var button = form.querySelector('button');
  var status = document.querySelector('[data-pay-status]');
  var say = function (text) { status.textContent = text; };
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var token = null;
    try { token = window.localStorage.getItem(${JSON.stringify(AUTH_TOKEN_KEY)}); } catch (e) { token = null; }
    if (!token) { say('Sign in to Papertrade in this browser first: only the account that opened this checkout can pay it.'); return; }
    button.disabled = true;
    say('Recording the test payment...');
    fetch(form.getAttribute('action'), { method: 'POST', headers: { Authorization: 'Bearer ' + token, Accept: 'application/json' } })
      .then(function (res) { return res.json().catch(function () { return null; }).then(function (body) { return { ok: res.ok, body: body }; }); })
      .then(function (r) {
        if (r.ok && r.body && r.body.redirectTo) { window.location.assign(r.body.redirectTo); return; }
        say((r.body && r.body.detail) || 'The test payment could not be recorded.');
        button.disabled = false;
      }, function () { say('The server could not be reached; please try again.'); button.disabled = false; });
  });
})();
`;

/** What the page says instead of a Pay button, for a session that cannot be paid (any but open). */
function notPayable(status: Exclude<CheckoutStatus, 'open' | 'unknown'>, links: { success: string; subscription: string }): string {
  const link = (href: string, text: string) => `<p><a href="${escapeHtml(href)}">${text}</a></p>`;
  switch (status) {
    case 'paid':
      return `<p>This session is already paid.</p>${link(links.success, 'Continue')}`;
    case 'active':
    case 'superseded':
    case 'duplicate':
      return `<p>This checkout was paid and confirmed already; it cannot be paid again.</p>${link(links.success, 'See what became of it')}`;
    case 'closed':
      return `<p>${escapeHtml(CLOSED_SESSION)}</p>${link(links.subscription, 'Manage Subscription')}`;
    case 'expired':
      return `<p>${escapeHtml(EXPIRED_SESSION)}</p>${link(links.subscription, 'Manage Subscription')}`;
  }
}

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
    // Open, paid, closed (another checkout activated), expired, ...: the domain's one rule.
    return { sessionId, userId, plan, started, status: checkoutStatus(state, sessionId, deps.handler.now()) };
  }

  // Before the session route, which would take "pay.js" for a (malformed) session id.
  router.get('/test-checkout/pay.js', async (ctx) => {
    if (deps.checkout.kind !== 'test') throw new NotFoundError('The test checkout is off: payments go through Stripe');
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('cache-control', 'no-cache');
    ctx.body = PAY_SCRIPT;
  });

  router.get('/test-checkout/:sessionId', async (ctx) => {
    const { sessionId, plan, status } = await findSession(ctx);
    const origin = publicOrigin(ctx, deps.config.PUBLIC_URL);
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('cache-control', 'no-store');
    const features = plan.features.map((f) => `<li>${escapeHtml(f)}</li>`).join('');
    const links = { success: `${origin}/payment-success?session_id=${encodeURIComponent(sessionId)}`, subscription: `${origin}/subscription` };
    const action =
      status === 'open' || status === 'unknown'
        ? `<form method="post" action="/test-checkout/${encodeURIComponent(sessionId)}/pay" data-pay><button type="submit">Pay $${plan.priceUsdPerMonth} (test)</button></form>
<p data-pay-status role="status"></p>
<noscript><p>Paying needs JavaScript: it sends your sign-in with the payment.</p></noscript>
<p><a href="${escapeHtml(links.subscription)}">Cancel and go back</a></p>
<script src="/test-checkout/pay.js" defer></script>`
        : notPayable(status, links);
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
    // Off with Stripe (404), then signed in (401), then the session (404), then its owner (403).
    if (deps.checkout.kind !== 'test') throw new NotFoundError('The test checkout is off: payments go through Stripe');
    const user = currentUser(ctx);
    const { sessionId, userId, plan, status } = await findSession(ctx);
    if (user.id !== userId) throw new ForbiddenError('This checkout session belongs to another account');
    if (status === 'closed') throw new IllegalStateError(CLOSED_SESSION, { sessionState: 'closed' });
    if (status === 'expired') throw new IllegalStateError(EXPIRED_SESSION, { sessionState: 'expired' });
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
    // Where Stripe would send the browser; the page's script goes there (a paid session answers it again).
    ctx.body = { sessionId, redirectTo: `${publicOrigin(ctx, deps.config.PUBLIC_URL)}/payment-success?session_id=${encodeURIComponent(sessionId)}` };
  });

  return router;
}
