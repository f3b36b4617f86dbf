/**
 * The embedded default (no STRIPE_SECRET_KEY): checkout answers the built-in test checkout page,
 * labelled as a test payment, whose Pay button records the payment and sends the browser to the
 * same success path; then cancel (30 days of access), reactivate, and the expiry worker with an
 * injected clock expiring exactly once, also after a restart. Plus the query side's answers.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import type { RecordedEvent } from '@papertrade/platform/event-store/event-store';
import { checkoutResponseSchema, subscriptionChangeResponseSchema, subscriptionResponseSchema } from '@papertrade/domain/subscription/contracts';
import { SubscriptionExpiry } from '@papertrade/workers/subscription-expiry';
import { startHarness, type Harness } from '../../../test/api-harness';
import { CLOSED_SESSION, TEST_PAYMENT_LABEL } from './test-checkout-routes';

const unique = () => randomUUID().slice(0, 8);
const types = (events: RecordedEvent[]) => events.map((e) => e.type);
const DAY_MS = 24 * 60 * 60 * 1000;

describe('subscription with the built-in test checkout (embedded default), cancel, reactivate and expiry', function () {
  this.timeout(120_000);
  let h: Harness;

  async function account(): Promise<{ userId: string; token: string }> {
    const t = unique();
    const email = `tester.${t}@example.com`;
    const { userId } = await h.signup({ email, username: `tester_${t}` });
    await h.projector.caughtUp();
    return { userId, token: await h.login(email, 'secret1') };
  }

  /** Checkout, the test page, its Pay button (not following the redirect), then the success call. */
  async function buyPremium(token: string) {
    const res = await h.request('POST', '/api/subscription/checkout', { token, body: { tier: 'PREMIUM' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const { url, sessionId, test } = checkoutResponseSchema.parse(res.body);
    expect(test).to.equal(true);
    expect(url).to.equal(`${h.url}/test-checkout/${sessionId}`);
    const page = await fetch(url);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.match(/^text\/html/);
    const html = await page.text();
    expect(html).to.include(TEST_PAYMENT_LABEL).and.include('Premium Pro').and.include('$29');
    expect(html).to.include(`action="/test-checkout/${sessionId}/pay"`);
    const pay = await fetch(`${h.url}/test-checkout/${sessionId}/pay`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(pay.status).to.equal(303);
    expect(pay.headers.get('location')).to.equal(`${h.url}/payment-success?session_id=${sessionId}`);
    return sessionId;
  }

  before(async function () {
    h = await startHarness();
  });
  after(async function () {
    await h?.stop();
  });

  it('goes from checkout through the test page and Pay to an activation, once; the payment is in the billing history', async function () {
    const user = await account();
    let sessionId = '';
    const paid = await h.appendedBy(async () => (sessionId = await buyPremium(user.token)));
    expect(types(paid)).to.deep.equal(['CheckoutStarted', 'PaymentRecorded']);
    // Before the success call the user is still free; unpaid sessions cannot be activated (checked in the next test).
    const success = await h.appendedBy(async () => {
      const res = await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ activatedNow: true, tier: 'PREMIUM', subscriptionStatus: 'ACTIVE' });
      expect((await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId } })).body.activatedNow).to.equal(false);
    });
    expect(types(success)).to.deep.equal(['SubscriptionActivated']);
    // Paying the same session again records nothing more.
    expect(await h.appendedBy(() => fetch(`${h.url}/test-checkout/${sessionId}/pay`, { method: 'POST', redirect: 'manual' }))).to.deep.equal([]);
    await h.projector.caughtUp();
    const sub = subscriptionResponseSchema.parse((await h.request('GET', '/api/subscription', { token: user.token })).body);
    expect(sub).to.deep.include({ tier: 'PREMIUM', subscriptionStatus: 'ACTIVE', isCancelled: false, endsAt: null, daysRemaining: null });
    expect(sub.plan.id).to.equal('premium');
    const billing = await h.request('GET', '/api/subscription/billing', { token: user.token });
    expect(billing.body.map((b: { status: string; amountUsd: number; source: string }) => [b.status, b.amountUsd, b.source])).to.deep.equal([['PAID', 29, 'test']]);
    expect((await h.request('GET', '/api/auth/me', { token: user.token })).body).to.include({ subscriptionTier: 'PREMIUM' });
  });

  it('closes the other open test sessions once the account is on Premium: their page says so and Pay is a 409 appending nothing', async function () {
    const user = await account();
    const res = await h.request('POST', '/api/subscription/checkout', { token: user.token, body: { tier: 'PREMIUM' } });
    const other = checkoutResponseSchema.parse(res.body); // left open in another tab
    const sessionId = await buyPremium(user.token);
    expect((await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId } })).status).to.equal(200);
    const page = await fetch(other.url);
    expect(page.status).to.equal(200);
    const html = await page.text();
    expect(html).to.include('This checkout is closed').and.not.include(`action="/test-checkout/${other.sessionId}/pay"`);
    const events = await h.appendedBy(async () => {
      const pay = await fetch(`${h.url}/test-checkout/${other.sessionId}/pay`, { method: 'POST', redirect: 'manual' });
      expect(pay.status).to.equal(409);
      expect(((await pay.json()) as { detail: string }).detail).to.equal(CLOSED_SESSION);
      const success = await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId: other.sessionId } });
      expect(success.status).to.equal(409);
    });
    expect(events).to.deep.equal([]);
  });

  it("refuses an unpaid test session (409), another account's (403), and an unknown page (404), appending nothing", async function () {
    const owner = await account();
    const other = await account();
    const res = await h.request('POST', '/api/subscription/checkout', { token: owner.token, body: { planId: 'premium' } });
    const { sessionId } = checkoutResponseSchema.parse(res.body);
    const events = await h.appendedBy(async () => {
      const unpaid = await h.request('POST', '/api/subscription/success', { token: owner.token, body: { sessionId } });
      expect(unpaid.status).to.equal(409);
      expect(unpaid.body.detail).to.match(/payment status: unpaid/);
      const foreign = await h.request('POST', '/api/subscription/success', { token: other.token, body: { sessionId } });
      expect(foreign.status).to.equal(403);
      const forgedId = sessionId.replace(/_[0-9a-f]{24}$/, '_000000000000000000000000');
      expect((await fetch(`${h.url}/test-checkout/${forgedId}`)).status).to.equal(404);
      expect((await fetch(`${h.url}/test-checkout/${forgedId}/pay`, { method: 'POST', redirect: 'manual' })).status).to.equal(404);
      expect((await fetch(`${h.url}/test-checkout/not-a-session`)).status).to.equal(404);
    });
    expect(events).to.deep.equal([]);
  });

  it('cancels with 30 days of access, reactivates before the end, and expires exactly once when the end passes (injected clock, worker restarted)', async function () {
    const user = await account();
    const sessionId = await buyPremium(user.token);
    await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId } });
    const cancel = await h.request('POST', '/api/subscription/cancel', { token: user.token });
    expect(cancel.status, JSON.stringify(cancel.body)).to.equal(200);
    const cancelled = subscriptionChangeResponseSchema.parse(cancel.body);
    expect(cancelled).to.include({ tier: 'PREMIUM', subscriptionStatus: 'ACTIVE', isCancelled: true, daysRemaining: 30 });
    const endsAt = Date.parse(cancelled.endsAt!.iso);
    expect(endsAt - Date.now()).to.be.within(30 * DAY_MS - 60_000, 30 * DAY_MS);
    expect(cancelled.endsAt!.formatted).to.equal(new Date(endsAt).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }));
    expect((await h.request('POST', '/api/subscription/cancel', { token: user.token })).status).to.equal(409);

    const reactivated = await h.request('POST', '/api/subscription/reactivate', { token: user.token });
    expect(reactivated.status).to.equal(200);
    expect(reactivated.body).to.include({ isCancelled: false, endsAt: null, daysRemaining: null });
    const again = subscriptionChangeResponseSchema.parse((await h.request('POST', '/api/subscription/cancel', { token: user.token })).body);
    const secondEnd = Date.parse(again.endsAt!.iso);
    await h.projector.caughtUp();
    const view = subscriptionResponseSchema.parse((await h.request('GET', '/api/subscription', { token: user.token })).body);
    expect(view).to.include({ isCancelled: true, daysRemaining: 30 });

    // The worker with a clock of our own: before the end nothing, at the end once, then never again.
    let now = new Date(secondEnd - 1000);
    const clock = () => now;
    const worker = () => new SubscriptionExpiry({ readModels: h.rt.infra.readModels, handler: new CommandHandler(h.rt.infra.eventStore, clock), clock, logger: h.rt.logger });
    const first = worker();
    expect(await first.runOnce()).to.equal(0);
    now = new Date(secondEnd + 1000);
    const expired = await h.appendedBy(async () => expect(await first.runOnce()).to.equal(1));
    expect(types(expired)).to.deep.equal(['SubscriptionExpired']);
    expect(expired[0]!.streamId).to.equal(`subscription-${user.userId}`);
    expect(expired[0]!.data).to.include({ tier: 'FREE', status: 'EXPIRED', reason: 'cancellation-ended' });
    // A round before the read model caught up, and a restarted worker after it: nothing more.
    expect(await h.appendedBy(async () => expect(await first.runOnce()).to.equal(0))).to.deep.equal([]);
    await h.projector.caughtUp();
    now = new Date(secondEnd + 10 * DAY_MS);
    expect(await h.appendedBy(async () => expect(await worker().runOnce()).to.equal(0))).to.deep.equal([]);

    const after = subscriptionResponseSchema.parse((await h.request('GET', '/api/subscription', { token: user.token })).body);
    expect(after).to.include({ tier: 'FREE', subscriptionStatus: 'EXPIRED', isCancelled: false, endsAt: null });
    expect((await h.request('GET', '/api/auth/me', { token: user.token })).body).to.include({ subscriptionTier: 'FREE', subscriptionStatus: 'EXPIRED' });
    expect(await (await h.rt.infra.readModels.collection('trading-bots')).get(user.userId)).to.include({ premium: false });
    const late = await h.request('POST', '/api/subscription/reactivate', { token: user.token });
    expect(late.status).to.equal(409);
  });

  it("moves a Premium user to Free at once with upgrade {tier: 'FREE'} ('Plan Changed')", async function () {
    const user = await account();
    await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId: await buyPremium(user.token) } });
    const changed = await h.request('POST', '/api/subscription/upgrade', { token: user.token, body: { tier: 'FREE' } });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(subscriptionChangeResponseSchema.parse(changed.body)).to.include({ tier: 'FREE', subscriptionStatus: 'ACTIVE', isCancelled: false });
  });

  it('retries with the same Idempotency-Key answer the first outcome: checkout the same test session, upgrade the same change, appending once', async function () {
    const user = await account();
    const checkoutKey = { 'idempotency-key': `co-${unique()}` };
    const bodies: unknown[] = [];
    const started = await h.appendedBy(async () => {
      for (let i = 0; i < 2; i++) {
        const res = await h.request('POST', '/api/subscription/checkout', { token: user.token, body: { planId: 'premium' }, headers: checkoutKey });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        bodies.push(checkoutResponseSchema.parse(res.body));
      }
    });
    expect(bodies[1]).to.deep.equal(bodies[0]);
    expect(types(started)).to.deep.equal(['CheckoutStarted']);
    // The URL answered the second time is a page that exists.
    expect((await fetch((bodies[1] as { url: string }).url)).status).to.equal(200);

    await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId: await buyPremium(user.token) } });
    const upgradeKey = { 'idempotency-key': `up-${unique()}` };
    const answers: Array<{ status: number; body: unknown }> = [];
    const changed = await h.appendedBy(async () => {
      for (let i = 0; i < 2; i++) answers.push(await h.request('POST', '/api/subscription/upgrade', { token: user.token, body: { tier: 'FREE' }, headers: upgradeKey }));
    });
    expect(answers.map((a) => a.status), JSON.stringify(answers.map((a) => a.body))).to.deep.equal([200, 200]);
    expect(answers[1]!.body).to.deep.equal(answers[0]!.body);
    expect(types(changed)).to.deep.equal(['SubscriptionPlanChanged']);
  });

  it('the query side: counts real trades, needs a sign-in, refuses query parameters', async function () {
    const user = await account();
    const trade = await h.request('POST', '/api/trades', { token: user.token, body: { symbol: 'ETH', type: 'BUY', amount: 0.01 } });
    expect(trade.status, JSON.stringify(trade.body)).to.equal(201);
    await h.projector.caughtUp();
    const sub = subscriptionResponseSchema.parse((await h.request('GET', '/api/subscription', { token: user.token })).body);
    expect(sub).to.deep.include({ tier: 'FREE', subscriptionStatus: 'ACTIVE', isCancelled: false, endsAt: null, daysRemaining: null });
    expect(sub.usage.trades).to.deep.equal({ used: 1, limit: null, tracked: true });
    expect(sub.usage.tradingStrategies).to.deep.equal({ used: 0, limit: 3, tracked: false });
    expect((await h.request('GET', '/api/subscription/billing', { token: user.token })).body).to.deep.equal([]);
    for (const path of ['/api/subscription', '/api/subscription/billing']) {
      expect((await h.request('GET', path)).status, path).to.equal(401);
      const extra = await h.request('GET', `${path}?page=2`, { token: user.token });
      expect(extra.status, path).to.equal(400);
      expect(extra.body.detail, path).to.match(/page/);
    }
  });
});
