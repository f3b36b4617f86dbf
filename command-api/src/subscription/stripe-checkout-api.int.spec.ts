/**
 * Checkout with Stripe through HTTP (embedded app on PGlite), with the REAL `stripe` client pointed
 * at a local fake Stripe (fake-stripe-server.ts) and webhooks signed by the library's own
 * generateTestHeaderString: the session Stripe is asked for, success once, a foreign session (403),
 * an unpaid one (409), a forged signature (400), a repeated webhook ignored, success and webhook in
 * either order activating once, invoices into the billing history, and bad input appending nothing.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import type { RecordedEvent } from '@papertrade/platform/event-store/event-store';
import { billingHistoryResponseSchema, checkoutResponseSchema, paymentSuccessResponseSchema, subscriptionChangeResponseSchema } from '@papertrade/domain/subscription/contracts';
import { startHarness, type Harness } from '../../../test/api-harness';
import { startFakeStripe, type FakeStripe } from './fake-stripe-server';

const WEBHOOK_SECRET = 'whsec_test_secret_for_the_fake';
const PUBLIC_URL = 'http://app.example.test';
const unique = () => randomUUID().slice(0, 8);
const types = (events: RecordedEvent[]) => events.map((e) => e.type);

describe('subscription checkout with Stripe (real client, fake Stripe server)', function () {
  this.timeout(120_000);
  let h: Harness;
  let stripe: FakeStripe;

  async function account(): Promise<{ userId: string; token: string }> {
    const t = unique();
    const email = `payer.${t}@example.com`;
    const { userId } = await h.signup({ email, username: `payer_${t}` });
    await h.projector.caughtUp();
    return { userId, token: await h.login(email, 'secret1') };
  }

  async function checkout(token: string) {
    const res = await h.request('POST', '/api/subscription/checkout', { token, body: { planId: 'premium' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return checkoutResponseSchema.parse(res.body);
  }

  let eventSeq = 0;
  function webhook(type: string, object: unknown, options: { id?: string; secret?: string } = {}) {
    const payload = JSON.stringify({ id: options.id ?? `evt_${++eventSeq}_${unique()}`, object: 'event', type, api_version: Stripe.API_VERSION, created: 1, data: { object } });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET });
    return { payload, signature, send: () => h.request('POST', '/api/stripe/webhook', { raw: payload, headers: { 'stripe-signature': signature } }) };
  }

  before(async function () {
    stripe = await startFakeStripe();
    h = await startHarness({ STRIPE_SECRET_KEY: 'sk_test_fake_key', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: stripe.url, PUBLIC_URL });
  });
  after(async function () {
    await h?.stop();
    await stripe?.close();
  });

  it('opens a Checkout Session in subscription mode for the caller, priced from the catalogue, and records CheckoutStarted', async function () {
    const user = await account();
    let answer: ReturnType<typeof checkoutResponseSchema.parse> | undefined;
    const events = await h.appendedBy(async () => (answer = await checkout(user.token)));
    expect(answer!.test).to.equal(false);
    expect(answer!.url).to.equal(`https://checkout.stripe.com/c/pay/${answer!.sessionId}`);
    const sent = stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions').at(-1)!;
    expect(sent.authorization).to.equal('Bearer sk_test_fake_key');
    expect(sent.form).to.include({
      mode: 'subscription',
      client_reference_id: user.userId,
      success_url: `${PUBLIC_URL}/payment-success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${PUBLIC_URL}/subscription`,
      'line_items[0][price_data][unit_amount]': '2900',
      'line_items[0][price_data][recurring][interval]': 'month',
      'subscription_data[metadata][userId]': user.userId,
    });
    expect(types(events)).to.deep.equal(['CheckoutStarted']);
    expect(events[0]!.data).to.include({ sessionId: answer!.sessionId, planId: 'premium', amountUsd: 29, source: 'stripe' });
  });

  it('a checkout retried with the same Idempotency-Key answers the session it opened (one session at Stripe, one CheckoutStarted); 422 for another body, 409 once paid', async function () {
    const user = await account();
    const headers = { 'idempotency-key': `checkout-${unique()}` };
    const opened = () => stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions').length;
    const before = opened();
    const answers: unknown[] = [];
    const events = await h.appendedBy(async () => {
      for (let i = 0; i < 2; i++) {
        const res = await h.request('POST', '/api/subscription/checkout', { token: user.token, body: { planId: 'premium' }, headers });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        answers.push(checkoutResponseSchema.parse(res.body));
      }
      const other = await h.request('POST', '/api/subscription/checkout', { token: user.token, body: { tier: 'PREMIUM' }, headers });
      expect(other.status, JSON.stringify(other.body)).to.equal(422);
    });
    expect(answers[1]).to.deep.equal(answers[0]);
    expect(opened() - before, 'sessions opened at Stripe').to.equal(1);
    expect(types(events)).to.deep.equal(['CheckoutStarted']);
    stripe.pay((answers[0] as { sessionId: string }).sessionId);
    const paid = await h.request('POST', '/api/subscription/checkout', { token: user.token, body: { planId: 'premium' }, headers });
    expect(paid.status).to.equal(409);
    expect(paid.body.detail).to.match(/no longer open/);
  });

  it('activates once on success: a repeated call appends nothing; premium switches on in the read models', async function () {
    const user = await account();
    const { sessionId } = await checkout(user.token);
    stripe.pay(sessionId);
    const first = await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId } });
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    const answer = paymentSuccessResponseSchema.parse(first.body);
    expect(answer).to.deep.include({ sessionId, activatedNow: true, tier: 'PREMIUM', subscriptionStatus: 'ACTIVE' });
    expect(answer.plan.name).to.equal('Premium Pro');
    const again = await h.appendedBy(async () => {
      const res = await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId } });
      expect(res.status).to.equal(200);
      expect(res.body.activatedNow).to.equal(false);
    });
    expect(again).to.deep.equal([]);
    await h.projector.caughtUp();
    const me = await h.request('GET', '/api/auth/me', { token: user.token });
    expect(me.body).to.include({ subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' });
    const bots = await (await h.rt.infra.readModels.collection('trading-bots')).get(user.userId);
    expect(bots).to.include({ premium: true });
  });

  /**
   * A session opened at Stripe for the user outside this account's one open checkout: one left open in
   * another tab from before that rule (`record`: its CheckoutStarted as written then, without an end), or
   * one no stream knows of (a request that lost a race on another instance).
   */
  async function sessionAtStripe(userId: string, options: { record: boolean }): Promise<string> {
    const form = new URLSearchParams({ mode: 'subscription', client_reference_id: userId, 'metadata[userId]': userId, 'metadata[planId]': 'premium', 'line_items[0][price_data][unit_amount]': '2900' });
    const created = (await (await fetch(`${stripe.url}/v1/checkout/sessions`, { method: 'POST', body: form })).json()) as { id: string };
    if (options.record) {
      const at = new Date().toISOString();
      await h.rt.infra.eventStore.append(`subscription-${userId}`, [
        { id: randomUUID(), type: 'CheckoutStarted', data: { userId, sessionId: created.id, planId: 'premium', tier: 'PREMIUM', amountUsd: 29, source: 'stripe', startedAt: at }, metadata: { userId, correlationId: randomUUID(), causationId: randomUUID(), at, schemaVersion: 1 } },
      ], 'any');
    }
    return created.id;
  }
  const sessionsOpened = () => stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions').length;

  it('one open checkout per account: a second checkout answers the first session with no Stripe call and no event; Stripe is told when it expires', async function () {
    const user = await account();
    const before = sessionsOpened();
    const first = await checkout(user.token);
    const sent = stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions').at(-1)!;
    expect(Number(sent.form.expires_at) - Date.now() / 1000).to.be.within(3600 - 60, 3600);
    const calls = stripe.requests.length;
    const again = await h.appendedBy(async () => expect(await checkout(user.token)).to.deep.equal(first));
    expect(again).to.deep.equal([]);
    expect(stripe.requests.length, 'no Stripe call at all').to.equal(calls);
    expect(sessionsOpened() - before).to.equal(1);
  });

  it('50 checkouts at once from one account: one session at Stripe (one call), one CheckoutStarted, the rest the same session or a 429', async function () {
    const user = await account();
    const before = sessionsOpened();
    let answers: Array<{ status: number; body: any }> = [];
    const events = await h.appendedBy(async () => {
      answers = await Promise.all(Array.from({ length: 50 }, () => h.request('POST', '/api/subscription/checkout', { token: user.token, body: { planId: 'premium' } })));
    });
    expect(sessionsOpened() - before, 'sessions opened at Stripe').to.equal(1);
    expect(types(events)).to.deep.equal(['CheckoutStarted']);
    expect(answers.map((a) => a.status).filter((s) => s !== 200 && s !== 429)).to.deep.equal([]);
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).to.be.greaterThan(0);
    expect(new Set(ok.map((a) => a.body.sessionId))).to.deep.equal(new Set([events[0]!.data.sessionId]));
  });

  it("closes the account's other open checkout sessions at Stripe once one activates, so a second one cannot be paid too", async function () {
    const user = await account();
    const first = await sessionAtStripe(user.userId, { record: true });
    const second = await sessionAtStripe(user.userId, { record: true });
    const third = await sessionAtStripe(user.userId, { record: true });
    stripe.pay(second);
    const res = await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId: second } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.activatedNow).to.equal(true);
    for (const sessionId of [first, third]) {
      expect(stripe.sessions.get(sessionId)!.status, sessionId).to.equal('expired');
      expect(() => stripe.pay(sessionId)).to.throw('cannot be paid');
      const report = await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId } });
      expect(report.status).to.equal(409);
      expect(report.body.sessionState, 'expired at Stripe').to.equal('expired');
    }
    expect(stripe.sessions.get(second)!.status).to.equal('complete');
    const expired = stripe.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/expire')).map((r) => r.path.split('/')[4]);
    expect(expired.filter((id) => [first, second, third].includes(id!)).sort()).to.deep.equal([first, third].sort());
  });

  it('closes the other open sessions when the webhook activates first, too', async function () {
    const user = await account();
    const first = await sessionAtStripe(user.userId, { record: true });
    const second = await sessionAtStripe(user.userId, { record: true });
    const paid = stripe.pay(second);
    const res = await webhook('checkout.session.completed', paid).send();
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(stripe.sessions.get(first)!.status).to.equal('expired');
  });

  it('a payment that arrives while Premium is active is cancelled at Stripe (DELETE), not activated; the account keeps tracking the subscription it had', async function () {
    const user = await account();
    const { sessionId } = await checkout(user.token);
    const kept = String(stripe.pay(sessionId).subscription);
    expect((await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId } })).body.outcome).to.equal('activated');
    // Paid too, through a session this account's stream never recorded.
    const other = await sessionAtStripe(user.userId, { record: false });
    const duplicate = stripe.pay(other);
    const deletes = (id: unknown) => stripe.requests.filter((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${String(id)}`);
    const hook = webhook('checkout.session.completed', duplicate);
    const events = await h.appendedBy(async () => {
      expect((await hook.send()).body).to.deep.equal({ received: true, outcome: 'cancelled: Premium was active already' });
      expect((await hook.send()).body.outcome).to.equal('duplicate');
      const report = await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId: other } });
      expect(report.status, JSON.stringify(report.body)).to.equal(200);
      expect(report.body).to.include({ outcome: 'cancelled-duplicate', activatedNow: false, tier: 'PREMIUM' });
    });
    expect(types(events)).to.deep.equal(['DuplicatePaymentCancelled']);
    expect(events[0]!.data).to.include({ sessionId: other, stripeSubscriptionId: duplicate.subscription, keptStripeSubscriptionId: kept, via: 'webhook' });
    expect(deletes(duplicate.subscription)).to.have.length(1);
    expect(stripe.subscriptions.get(String(duplicate.subscription))).to.include({ status: 'canceled' });
    expect(deletes(kept)).to.deep.equal([]);
    // Stripe's notice that the cancelled one ended leaves the account as it is.
    const ended = await h.appendedBy(async () => {
      await webhook('customer.subscription.deleted', { id: duplicate.subscription, object: 'subscription', metadata: { userId: user.userId, planId: 'premium' } }).send();
    });
    expect(ended).to.deep.equal([]);
    // Cancelling still reaches the subscription that bills.
    expect((await h.request('POST', '/api/subscription/cancel', { token: user.token })).status).to.equal(200);
    expect(stripe.subscriptions.get(kept)).to.include({ cancel_at_period_end: true, status: 'active' });
  });

  it("a move to Free (upgrade {tier: 'FREE'}) tells Stripe to stop renewing, as Cancel does, and ends nothing now", async function () {
    const user = await account();
    const { sessionId } = await checkout(user.token);
    const subId = String(stripe.pay(sessionId).subscription);
    await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId } });
    const res = await h.request('POST', '/api/subscription/upgrade', { token: user.token, body: { tier: 'FREE' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ tier: 'PREMIUM', isCancelled: true });
    expect(stripe.subscriptions.get(subId)).to.include({ status: 'active', cancel_at_period_end: true });
    expect(stripe.requests.filter((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${subId}`)).to.deep.equal([]);
  });

  it("refuses another account's session (403) and an unpaid one (409), appending nothing", async function () {
    const owner = await account();
    const other = await account();
    const { sessionId } = await checkout(owner.token);
    const events = await h.appendedBy(async () => {
      const unpaid = await h.request('POST', '/api/subscription/success', { token: owner.token, body: { sessionId } });
      expect(unpaid.status).to.equal(409);
      expect(unpaid.body.detail).to.match(/not complete \(payment status: unpaid\)/);
      stripe.pay(sessionId);
      const foreign = await h.request('POST', '/api/subscription/success', { token: other.token, body: { sessionId } });
      expect(foreign.status).to.equal(403);
      expect(foreign.body.detail).to.equal('This checkout session belongs to another account');
      const unknown = await h.request('POST', '/api/subscription/success', { token: owner.token, body: { sessionId: 'cs_test_nope' } });
      expect(unknown.status).to.equal(404);
    });
    expect(events).to.deep.equal([]);
  });

  it('verifies the webhook signature on the raw body: forged, re-serialised or unsigned bodies are 400 and append nothing', async function () {
    const user = await account();
    const { sessionId } = await checkout(user.token);
    const session = stripe.pay(sessionId);
    const events = await h.appendedBy(async () => {
      const forged = webhook('checkout.session.completed', session, { secret: 'whsec_someone_else' });
      const res = await h.request('POST', '/api/stripe/webhook', { raw: forged.payload, headers: { 'stripe-signature': forged.signature } });
      expect(res.status).to.equal(400);
      expect(res.body.detail).to.equal('Webhook signature verification failed');
      // The same JSON re-serialised with other whitespace: a parser in front would make this pass.
      const good = webhook('checkout.session.completed', session);
      const reserialised = JSON.stringify(JSON.parse(good.payload), null, 2);
      expect((await h.request('POST', '/api/stripe/webhook', { raw: reserialised, headers: { 'stripe-signature': good.signature } })).status).to.equal(400);
      const unsigned = await h.request('POST', '/api/stripe/webhook', { raw: good.payload });
      expect(unsigned.status).to.equal(400);
      expect(unsigned.body.detail).to.equal('Missing Stripe-Signature header');
    });
    expect(events).to.deep.equal([]);
  });

  it('refuses a webhook signature dated beyond the tolerance in the future as in the past (400, nothing appended); one within it is accepted', async function () {
    const user = await account();
    const { sessionId } = await checkout(user.token);
    const session = stripe.pay(sessionId);
    const now = Math.floor(Date.now() / 1000);
    const signedAt = (timestamp: number) => {
      const payload = JSON.stringify({ id: `evt_time_${unique()}`, object: 'event', type: 'checkout.session.completed', api_version: Stripe.API_VERSION, created: timestamp, data: { object: session } });
      return h.request('POST', '/api/stripe/webhook', { raw: payload, headers: { 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp }) } });
    };
    const refused = await h.appendedBy(async () => {
      for (const [label, timestamp] of [['+10 minutes', now + 600], ['-10 minutes', now - 600]] as const) {
        const res = await signedAt(timestamp);
        expect(res.status, `${label}: ${JSON.stringify(res.body)}`).to.equal(400);
        expect(res.body.detail, label).to.equal('Webhook signature verification failed');
      }
    });
    expect(refused).to.deep.equal([]);
    // A clock a minute ahead at Stripe (or behind here) is within the tolerance.
    const accepted = await h.appendedBy(async () => expect((await signedAt(now + 60)).body).to.deep.equal({ received: true, outcome: 'appended' }));
    expect(types(accepted)).to.deep.equal(['SubscriptionActivated']);
  });

  it('webhook then success: activates once; the same webhook delivered again is ignored', async function () {
    const user = await account();
    const { sessionId } = await checkout(user.token);
    const session = stripe.pay(sessionId);
    const hook = webhook('checkout.session.completed', session);
    const first = await h.appendedBy(async () => expect((await hook.send()).body).to.deep.equal({ received: true, outcome: 'appended' }));
    expect(types(first)).to.deep.equal(['SubscriptionActivated']);
    expect(first[0]!.data).to.include({ via: 'webhook', stripeSubscriptionId: session.subscription });
    const later = await h.appendedBy(async () => {
      expect((await hook.send()).body).to.deep.equal({ received: true, outcome: 'duplicate' });
      const success = await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId } });
      expect(success.status).to.equal(200);
      expect(success.body).to.include({ activatedNow: false, tier: 'PREMIUM' });
      // A new Stripe event id for the same session (Stripe resends with the same id, but be safe).
      expect((await webhook('checkout.session.completed', session).send()).body.outcome).to.equal('duplicate');
    });
    expect(later).to.deep.equal([]);
  });

  it('success then webhook: activates once', async function () {
    const user = await account();
    const { sessionId } = await checkout(user.token);
    const session = stripe.pay(sessionId);
    const events = await h.appendedBy(async () => {
      expect((await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId } })).body.activatedNow).to.equal(true);
      expect((await webhook('checkout.session.completed', session).send()).body.outcome).to.equal('duplicate');
    });
    expect(types(events)).to.deep.equal(['SubscriptionActivated']);
  });

  it('success and webhook at the same moment (and the webhook twice): activates once, every answer 2xx', async function () {
    for (let round = 0; round < 4; round++) {
      const user = await account();
      const { sessionId } = await checkout(user.token);
      const session = stripe.pay(sessionId);
      const hook = webhook('checkout.session.completed', session);
      const events = await h.appendedBy(async () => {
        const answers = await Promise.all([
          h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId } }),
          hook.send(),
          webhook('checkout.session.completed', session).send(),
          h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId } }),
        ]);
        expect(answers.map((a) => a.status), JSON.stringify(answers.map((a) => a.body))).to.deep.equal([200, 200, 200, 200]);
        const activatedNow = [answers[0]!.body.activatedNow, answers[3]!.body.activatedNow];
        const appended = [answers[1]!.body.outcome, answers[2]!.body.outcome].filter((o) => o === 'appended').length;
        expect(activatedNow.filter(Boolean).length + appended, `round ${round}: one of the four activated`).to.equal(1);
      });
      expect(types(events), `round ${round}`).to.deep.equal(['SubscriptionActivated']);
    }
  });

  it('an asynchronous payment: completed but unpaid activates nothing; async_payment_succeeded activates once, by the same path', async function () {
    const user = await account();
    const { sessionId } = await checkout(user.token);
    // A bank debit: the customer finishes on Stripe's page, the money has not arrived yet.
    const unpaid = { ...stripe.sessions.get(sessionId)!, status: 'complete' };
    const before = await h.appendedBy(async () => {
      expect((await webhook('checkout.session.completed', unpaid).send()).body).to.deep.equal({ received: true, outcome: 'ignored: session not paid' });
      expect((await webhook('checkout.session.async_payment_succeeded', unpaid).send()).body.outcome).to.equal('ignored: session not paid');
    });
    expect(before).to.deep.equal([]);
    const paid = stripe.pay(sessionId);
    const hook = webhook('checkout.session.async_payment_succeeded', paid);
    const first = await h.appendedBy(async () => expect((await hook.send()).body.outcome).to.equal('appended'));
    expect(types(first)).to.deep.equal(['SubscriptionActivated']);
    expect(first[0]!.data).to.include({ sessionId, via: 'webhook', tier: 'PREMIUM', stripeSubscriptionId: paid.subscription });
    const later = await h.appendedBy(async () => {
      expect((await hook.send()).body.outcome).to.equal('duplicate');
      expect((await webhook('checkout.session.completed', paid).send()).body.outcome).to.equal('duplicate');
      expect((await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId } })).body).to.include({ activatedNow: false, tier: 'PREMIUM' });
    });
    expect(later).to.deep.equal([]);
  });

  it('async_payment_failed records the failed payment once and leaves the plan as it was', async function () {
    const user = await account();
    const { sessionId } = await checkout(user.token);
    const unpaid = { ...stripe.sessions.get(sessionId)!, status: 'complete' };
    const hook = webhook('checkout.session.async_payment_failed', unpaid);
    const events = await h.appendedBy(async () => {
      expect((await hook.send()).body.outcome).to.equal('appended');
      expect((await hook.send()).body.outcome).to.equal('duplicate');
    });
    expect(types(events)).to.deep.equal(['PaymentFailed']);
    expect(events[0]!.data).to.include({ userId: user.userId, amountUsd: 29, invoiceId: null, reason: `The asynchronous payment for checkout session ${sessionId} failed` });
    await h.projector.caughtUp();
    const rows = billingHistoryResponseSchema.parse((await h.request('GET', '/api/subscription/billing', { token: user.token })).body);
    expect(rows.map((r) => [r.status, r.amountUsd])).to.deep.equal([['FAILED', 29]]);
    const now = await h.request('GET', '/api/subscription', { token: user.token });
    expect(now.body).to.include({ tier: 'FREE' });
  });

  it("an admin's move to Free (or to a status other than ACTIVE) ends the Stripe subscription; granting Premium by hand bills nothing", async function () {
    const admin = await h.admin();
    const user = await account();
    const { sessionId } = await checkout(user.token);
    const paid = stripe.pay(sessionId);
    expect((await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId } })).status).to.equal(200);
    const subId = String(paid.subscription);
    const deletes = () => stripe.requests.filter((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${subId}`);
    // A profile edit alone, or Premium kept ACTIVE, leaves billing alone.
    const kept = await h.request('PUT', `/api/admin/users/${user.userId}`, { token: admin.token, body: { firstName: 'Kept', subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } });
    expect(kept.status, JSON.stringify(kept.body)).to.equal(200);
    expect(deletes()).to.deep.equal([]);
    const moved = await h.request('PUT', `/api/admin/users/${user.userId}`, { token: admin.token, body: { subscriptionTier: 'FREE' } });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    expect(deletes()).to.have.length(1);
    expect(stripe.subscriptions.get(subId)).to.include({ status: 'canceled' });
    // Premium granted by hand afterwards: no Stripe call at all.
    const before = stripe.requests.length;
    expect((await h.request('PUT', `/api/admin/users/${user.userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } })).status).to.equal(200);
    expect(stripe.requests.length).to.equal(before);
    // The account still names the ended Stripe subscription: moving it to Free again (the admin, or
    // the user) asks Stripe, finds it ended, and changes nothing there.
    const again = await h.request('PUT', `/api/admin/users/${user.userId}`, { token: admin.token, body: { subscriptionStatus: 'INACTIVE' } });
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(deletes()).to.have.length(1);
  });

  it('invoice.paid and invoice.payment_failed make the billing history, each Stripe event once', async function () {
    const user = await account();
    const { sessionId } = await checkout(user.token);
    stripe.pay(sessionId);
    const metadata = { userId: user.userId, planId: 'premium' };
    const invoice = { id: `in_${unique()}`, object: 'invoice', amount_paid: 2900, amount_due: 2900, currency: 'usd', parent: { type: 'subscription_details', subscription_details: { metadata, subscription: 'sub_x' } }, lines: { object: 'list', data: [{ description: '1 × Premium Pro (at $29.00 / month)', metadata: {} }] } };
    const paid = webhook('invoice.paid', invoice);
    expect((await paid.send()).body.outcome).to.equal('appended');
    expect((await paid.send()).body.outcome).to.equal('duplicate');
    const failedInvoice = { ...invoice, id: `in_${unique()}`, amount_paid: 0, last_finalization_error: { message: 'Your card was declined.' } };
    expect((await webhook('invoice.payment_failed', failedInvoice).send()).body.outcome).to.equal('appended');
    const noUser = await webhook('invoice.paid', { ...invoice, id: 'in_nobody', parent: null }).send();
    expect(noUser.body.outcome).to.equal('ignored: no user on the invoice');
    expect((await webhook('customer.created', { id: 'cus_1' }).send()).body.outcome).to.equal('ignored: customer.created is not handled');
    await h.projector.caughtUp();
    const billing = await h.request('GET', '/api/subscription/billing', { token: user.token });
    expect(billing.status).to.equal(200);
    const rows = billingHistoryResponseSchema.parse(billing.body);
    expect(rows.map((r) => [r.status, r.amountUsd, r.invoiceId, r.source])).to.deep.equal([
      ['FAILED', 29, failedInvoice.id, 'stripe'],
      ['PAID', 29, invoice.id, 'stripe'],
    ]);
    expect(rows[1]!.description).to.equal('1 × Premium Pro (at $29.00 / month)');
  });

  it('cancel tells Stripe to stop renewing, reactivate to renew; customer.subscription.deleted ends access once', async function () {
    const user = await account();
    const { sessionId } = await checkout(user.token);
    const session = stripe.pay(sessionId);
    await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId } });
    const subId = session.subscription as string;
    const cancel = await h.request('POST', '/api/subscription/cancel', { token: user.token });
    expect(cancel.status, JSON.stringify(cancel.body)).to.equal(200);
    expect(subscriptionChangeResponseSchema.parse(cancel.body)).to.include({ isCancelled: true, daysRemaining: 30, tier: 'PREMIUM', subscriptionStatus: 'ACTIVE' });
    expect(stripe.subscriptions.get(subId)).to.include({ cancel_at_period_end: true });
    expect((await h.request('POST', '/api/subscription/reactivate', { token: user.token })).status).to.equal(200);
    expect(stripe.subscriptions.get(subId)).to.include({ cancel_at_period_end: false });
    const deleted = webhook('customer.subscription.deleted', { id: subId, object: 'subscription', metadata: { userId: user.userId, planId: 'premium' } });
    const events = await h.appendedBy(async () => {
      expect((await deleted.send()).body.outcome).to.equal('appended');
      expect((await deleted.send()).body.outcome).to.equal('duplicate');
    });
    expect(types(events)).to.deep.equal(['SubscriptionExpired']);
    expect(events[0]!.data).to.include({ tier: 'FREE', status: 'EXPIRED', reason: 'stripe-subscription-deleted' });
  });

  it('a signed event it cannot read is acknowledged as unexpected and appends nothing; a signed body that is not JSON is a 400', async function () {
    const user = await account();
    const metadata = { userId: user.userId, planId: 'premium' };
    const invoice = (id: string, extra: Record<string, unknown> = {}) => ({ id, object: 'invoice', amount_paid: 2900, amount_due: 2900, currency: 'usd', metadata, ...extra });
    const signed = (payload: string) => h.request('POST', '/api/stripe/webhook', { raw: payload, headers: { 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) } });
    const events = await h.appendedBy(async () => {
      const notJson = await signed('not json');
      expect(notJson.status).to.equal(400);
      expect(notJson.body.detail).to.equal('The webhook body is not a JSON Stripe event');
      const unreadable = [
        'null',
        '[]',
        JSON.stringify({ id: `evt_${unique()}`, type: 'invoice.paid' }),
        JSON.stringify({ id: `evt_${unique()}`, type: 'invoice.paid', data: null }),
        JSON.stringify({ id: 12, type: 'invoice.paid', data: { object: invoice(`in_${unique()}`) } }),
        JSON.stringify({ id: `evt_${unique()}\u0000`, type: 'invoice.paid', data: { object: invoice(`in_${unique()}`) } }),
        JSON.stringify({ id: `evt_${unique()}`, type: 'invoice.paid', data: { object: invoice(`in_${unique()}\u0000`) } }),
        // A lone surrogate, as JSON may escape it: PostgreSQL refuses it like NUL.
        JSON.stringify({ id: `evt_${unique()}`, type: 'invoice.paid', data: { object: invoice(`in_${unique()}`, { lines: { data: [{ description: 'x', metadata: {} }] } }) } }).replace('"x"', '"\\ud800"'),
      ];
      for (const payload of unreadable) {
        const res = await signed(payload);
        expect(res.status, `${payload.slice(0, 80)}: ${JSON.stringify(res.body)}`).to.equal(200);
        expect(res.body, payload.slice(0, 80)).to.deep.equal({ received: true, outcome: 'ignored: unexpected payload' });
      }
    });
    expect(events).to.deep.equal([]);
  });

  it('the test checkout pages are off when Stripe is configured', async function () {
    expect((await h.request('GET', '/test-checkout/cs_test_local_00000000000000000000000000000000_000000000000000000000000')).status).to.equal(404);
    expect((await h.request('POST', '/test-checkout/cs_test_local_00000000000000000000000000000000_000000000000000000000000/pay')).status).to.equal(404);
  });

  it('bad input on every endpoint is a 4xx with a clear message and appends nothing', async function () {
    const user = await account();
    const events = await h.appendedBy(async () => {
      const cases: Array<[string, string, { body?: unknown; raw?: string; token?: string; headers?: Record<string, string> }, number, RegExp]> = [
        ['POST', '/api/subscription/checkout', { body: { planId: 'premium' } }, 401, /Authentication required/],
        ['POST', '/api/subscription/checkout', { token: user.token, body: {} }, 400, /exactly one of planId or tier/],
        ['POST', '/api/subscription/checkout', { token: user.token, body: { planId: 'premium', tier: 'PREMIUM' } }, 400, /exactly one/],
        ['POST', '/api/subscription/checkout', { token: user.token, body: { planId: 'gold' } }, 400, /no plan "gold"/],
        ['POST', '/api/subscription/checkout', { token: user.token, body: { tier: 'GOLD' } }, 400, /tier/],
        ['POST', '/api/subscription/checkout', { token: user.token, body: { tier: 'FREE' } }, 409, /needs no payment/],
        ['POST', '/api/subscription/checkout', { token: user.token, raw: '{"planId":' }, 400, /JSON|body/i],
        ['POST', '/api/subscription/success', { token: user.token, body: {} }, 400, /sessionId/],
        ['POST', '/api/subscription/success', { token: user.token, body: { sessionId: 'cs x' } }, 400, /checkout session id/],
        ['POST', '/api/subscription/success', { token: user.token, body: { sessionId: 'a'.repeat(300) } }, 400, /at most 255/],
        ['POST', '/api/subscription/success', { body: { sessionId: 'cs_1' } }, 401, /Authentication required/],
        ['POST', '/api/subscription/upgrade', { token: user.token, body: { tier: 'premium' } }, 400, /tier/],
        ['POST', '/api/subscription/upgrade', { token: user.token, body: { tier: 'PREMIUM' } }, 409, /bought through checkout/],
        ['POST', '/api/subscription/upgrade', { token: user.token, body: { tier: 'FREE' } }, 409, /already on the FREE plan/],
        ['POST', '/api/subscription/upgrade', { token: user.token, body: { tier: 'FREE', extra: 1 } }, 400, /extra/],
        ['POST', '/api/subscription/cancel', { token: user.token }, 409, /Only an active Premium subscription can be cancelled/],
        ['POST', '/api/subscription/cancel', { token: user.token, body: { now: 1 } }, 400, /now/],
        ['POST', '/api/subscription/reactivate', { token: user.token }, 409, /Only a cancelled Premium subscription can be reactivated/],
        ['POST', '/api/subscription/reactivate', {}, 401, /Authentication required/],
        ['POST', '/api/stripe/webhook', { raw: 'not json', headers: { 'stripe-signature': 't=1,v1=abc' } }, 400, /signature verification failed/],
      ];
      for (const [method, path, options, status, message] of cases) {
        const res = await h.request(method, path, options);
        expect(res.status, `${path} ${JSON.stringify(options.body ?? options.raw)}: ${JSON.stringify(res.body)}`).to.equal(status);
        expect(res.body.detail, path).to.match(message);
      }
    });
    expect(events).to.deep.equal([]);
  });
});
