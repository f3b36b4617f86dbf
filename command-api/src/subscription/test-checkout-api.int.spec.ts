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
import { CHECKOUT_SESSION_TTL_MS, subscriptionDecider, subscriptionStreamId } from '@papertrade/domain/auth/subscription';
import { checkoutResponseSchema, paymentSuccessResponseSchema, subscriptionChangeResponseSchema, subscriptionResponseSchema } from '@papertrade/domain/subscription/contracts';
import { SubscriptionExpiry } from '@papertrade/workers/subscription-expiry';
import { startHarness, type Harness } from '../../../test/api-harness';
import { CLOSED_SESSION, EXPIRED_SESSION, TEST_PAYMENT_LABEL } from './test-checkout-routes';

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

  /** The test page's Pay button as its script sends it: the owner's bearer token. */
  const pay = (sessionId: string, token?: string) =>
    fetch(`${h.url}/test-checkout/${sessionId}/pay`, { method: 'POST', headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } });

  /** Checkout, the test page, its Pay button (the answer says where the browser goes), then the success call. */
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
    expect(html).to.include(`action="/test-checkout/${sessionId}/pay"`).and.include('<script src="/test-checkout/pay.js" defer></script>');
    const paid = await pay(sessionId, token);
    expect(paid.status).to.equal(200);
    expect(await paid.json()).to.deep.equal({ sessionId, redirectTo: `${h.url}/payment-success?session_id=${sessionId}` });
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
    expect(await h.appendedBy(() => pay(sessionId, user.token))).to.deep.equal([]);
    await h.projector.caughtUp();
    const sub = subscriptionResponseSchema.parse((await h.request('GET', '/api/subscription', { token: user.token })).body);
    expect(sub).to.deep.include({ tier: 'PREMIUM', subscriptionStatus: 'ACTIVE', isCancelled: false, endsAt: null, daysRemaining: null });
    expect(sub.plan.id).to.equal('premium');
    const billing = await h.request('GET', '/api/subscription/billing', { token: user.token });
    expect(billing.body.map((b: { status: string; amountUsd: number; source: string }) => [b.status, b.amountUsd, b.source])).to.deep.equal([['PAID', 29, 'test']]);
    expect((await h.request('GET', '/api/auth/me', { token: user.token })).body).to.include({ subscriptionTier: 'PREMIUM' });
  });

  /** A test session recorded as of `at` (another clock), as one left open from before the one-open-checkout rule or long ago. */
  async function recordSession(userId: string, at: Date, expiresAt = new Date(at.getTime() + CHECKOUT_SESSION_TTL_MS)): Promise<string> {
    const sessionId = `cs_test_local_${userId.replace(/-/g, '')}_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
    await new CommandHandler(h.rt.infra.eventStore, () => at).handle(
      subscriptionDecider,
      subscriptionStreamId(userId),
      { type: 'StartCheckout', data: { userId, sessionId, planId: 'premium', tier: 'PREMIUM', amountUsd: 29, source: 'test', expiresAt: expiresAt.toISOString(), url: null }, metadata: { now: at.toISOString() } },
      { actor: userId, correlationId: randomUUID() },
    );
    return sessionId;
  }

  it('one open checkout per account: a second checkout answers the first session (no new event), whatever the body names', async function () {
    const user = await account();
    const answers: unknown[] = [];
    const events = await h.appendedBy(async () => {
      for (const body of [{ tier: 'PREMIUM' }, { planId: 'premium' }, { tier: 'PREMIUM' }]) {
        const res = await h.request('POST', '/api/subscription/checkout', { token: user.token, body });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        answers.push(checkoutResponseSchema.parse(res.body));
      }
    });
    expect(types(events)).to.deep.equal(['CheckoutStarted']);
    expect(answers[1]).to.deep.equal(answers[0]);
    expect(answers[2]).to.deep.equal(answers[0]);
  });

  it('50 checkouts at once from one account open one session; past the per-account limit they are 429s; each one is counted in the month\'s API calls', async function () {
    const user = await account();
    const callsBefore = await h.rt.apiCalls.used(user.userId);
    let answers: Array<{ status: number; body: any; headers: Headers }> = [];
    const events = await h.appendedBy(async () => {
      answers = await Promise.all(Array.from({ length: 50 }, () => h.request('POST', '/api/subscription/checkout', { token: user.token, body: { tier: 'PREMIUM' } })));
    });
    expect(types(events)).to.deep.equal(['CheckoutStarted']);
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    expect(ok.length + limited.length, JSON.stringify(answers.filter((a) => a.status !== 200 && a.status !== 429).map((a) => a.body))).to.equal(50);
    expect(ok, 'the default limit, 10 an hour').to.have.length(10);
    expect(new Set(ok.map((a) => a.body.sessionId))).to.have.length(1);
    expect(limited[0]!.body.detail).to.match(/^Too many checkouts from this account/);
    expect(Number(limited[0]!.headers.get('retry-after'))).to.be.greaterThan(0);
    expect((await h.rt.apiCalls.used(user.userId)) - callsBefore, 'every checkout call counted in the quota').to.equal(50);
  });

  it('closes the other unpaid test sessions once one activates: their page says so (no Pay button) and Pay is a 409 appending nothing, also after a later move to Free', async function () {
    const user = await account();
    const sessionId = await buyPremium(user.token);
    // Left open in another tab, from before the one-open-checkout rule (which would refuse to record it
    // now): appended as it was then, before the activation below.
    const other = `cs_test_local_${user.userId.replace(/-/g, '')}_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
    const at = new Date().toISOString();
    await h.rt.infra.eventStore.append(subscriptionStreamId(user.userId), [
      { id: randomUUID(), type: 'CheckoutStarted', data: { userId: user.userId, sessionId: other, planId: 'premium', tier: 'PREMIUM', amountUsd: 29, source: 'test', startedAt: at }, metadata: { userId: user.userId, correlationId: randomUUID(), causationId: randomUUID(), at, schemaVersion: 1 } },
    ], 'any');
    expect((await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId } })).status).to.equal(200);
    const check = async () => {
      const page = await fetch(`${h.url}/test-checkout/${other}`);
      expect(page.status).to.equal(200);
      const html = await page.text();
      expect(html).to.include(CLOSED_SESSION).and.not.include(`action="/test-checkout/${other}/pay"`).and.not.include('Pay $29');
      const events = await h.appendedBy(async () => {
        const paid = await pay(other, user.token);
        expect(paid.status).to.equal(409);
        expect(((await paid.json()) as { detail: string }).detail).to.equal(CLOSED_SESSION);
        const success = await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId: other } });
        expect(success.status).to.equal(409);
        expect(success.body).to.include({ detail: CLOSED_SESSION, sessionState: 'closed' });
      });
      expect(events).to.deep.equal([]);
    };
    await check();
    const admin = await h.admin();
    expect((await h.request('PUT', `/api/admin/users/${user.userId}`, { token: admin.token, body: { subscriptionTier: 'FREE' } })).status).to.equal(200);
    await check();
  });

  it('pays only with the session owner\'s sign-in: no token 401, a bad token 401, another account 403, appending nothing', async function () {
    const owner = await account();
    const stranger = await account();
    const { sessionId } = checkoutResponseSchema.parse((await h.request('POST', '/api/subscription/checkout', { token: owner.token, body: { tier: 'PREMIUM' } })).body);
    const events = await h.appendedBy(async () => {
      const anonymous = await pay(sessionId);
      expect(anonymous.status).to.equal(401);
      expect(((await anonymous.json()) as { detail: string }).detail).to.match(/Authentication required/);
      const form = await fetch(`${h.url}/test-checkout/${sessionId}/pay`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(form.status, 'a plain form post carries no sign-in').to.equal(401);
      expect((await pay(sessionId, 'not.a.token')).status).to.equal(401);
      const foreign = await pay(sessionId, stranger.token);
      expect(foreign.status).to.equal(403);
      expect(((await foreign.json()) as { detail: string }).detail).to.equal('This checkout session belongs to another account');
    });
    expect(events).to.deep.equal([]);
    expect((await pay(sessionId, owner.token)).status).to.equal(200);
  });

  it('an expired session: its page offers no Pay button, Pay and success are 409s saying so, and a new checkout opens a new session', async function () {
    const user = await account();
    const past = new Date(Date.now() - CHECKOUT_SESSION_TTL_MS - 60_000);
    const old = await recordSession(user.userId, past);
    const html = await (await fetch(`${h.url}/test-checkout/${old}`)).text();
    expect(html).to.include(EXPIRED_SESSION).and.not.include('Pay $29');
    const events = await h.appendedBy(async () => {
      const paid = await pay(old, user.token);
      expect(paid.status).to.equal(409);
      expect(await paid.json()).to.include({ detail: EXPIRED_SESSION, sessionState: 'expired' });
      const success = await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId: old } });
      expect(success.status).to.equal(409);
      expect(success.body).to.include({ detail: EXPIRED_SESSION, sessionState: 'expired' });
    });
    expect(events).to.deep.equal([]);
    const fresh = checkoutResponseSchema.parse((await h.request('POST', '/api/subscription/checkout', { token: user.token, body: { tier: 'PREMIUM' } })).body);
    expect(fresh.sessionId).to.not.equal(old);
  });

  it('the payment page\'s report tells what became of the session: activated, then already active, then superseded once the account is back on Free', async function () {
    const user = await account();
    const sessionId = await buyPremium(user.token);
    const report = async () => {
      const res = await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return paymentSuccessResponseSchema.parse(res.body);
    };
    expect(await report()).to.deep.include({ outcome: 'activated', activatedNow: true, tier: 'PREMIUM' });
    expect(await report()).to.deep.include({ outcome: 'active', activatedNow: false, tier: 'PREMIUM' });
    // The downgrade keeps the paid month: still active.
    expect((await h.request('POST', '/api/subscription/upgrade', { token: user.token, body: { tier: 'FREE' } })).status).to.equal(200);
    expect(await report()).to.deep.include({ outcome: 'active', tier: 'PREMIUM' });
    // The month over (the expiry worker, a clock past the end): the session's subscription is gone.
    const later = new Date(Date.now() + 31 * DAY_MS);
    await h.projector.caughtUp();
    expect(await new SubscriptionExpiry({ readModels: h.rt.infra.readModels, handler: new CommandHandler(h.rt.infra.eventStore, () => later), clock: () => later, logger: h.rt.logger }).runOnce()).to.equal(1);
    expect(await report()).to.deep.include({ outcome: 'superseded', activatedNow: false, tier: 'FREE', subscriptionStatus: 'EXPIRED' });
    // Its test page offers no second payment either.
    expect(await (await fetch(`${h.url}/test-checkout/${sessionId}`)).text()).to.include('paid and confirmed already').and.not.include('Pay $29');
  });

  it('a paid session confirmed while Premium is already active (granted by hand) is cancelled, not activated: the account keeps what it had', async function () {
    const user = await account();
    const admin = await h.admin();
    const { sessionId } = checkoutResponseSchema.parse((await h.request('POST', '/api/subscription/checkout', { token: user.token, body: { tier: 'PREMIUM' } })).body);
    expect((await pay(sessionId, user.token)).status).to.equal(200);
    expect((await h.request('PUT', `/api/admin/users/${user.userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } })).status).to.equal(200);
    let answer: ReturnType<typeof paymentSuccessResponseSchema.parse> | undefined;
    const events = await h.appendedBy(async () => {
      const res = await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      answer = paymentSuccessResponseSchema.parse(res.body);
    });
    expect(types(events)).to.deep.equal(['DuplicatePaymentCancelled']);
    expect(answer).to.deep.include({ outcome: 'cancelled-duplicate', activatedNow: false, tier: 'PREMIUM', subscriptionStatus: 'ACTIVE' });
    expect(await h.appendedBy(() => h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId } }))).to.deep.equal([]);
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
      expect((await pay(forgedId, owner.token)).status).to.equal(404);
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

  it("upgrade {tier: 'FREE'} from an active Premium cancels at the period's end, as Cancel does: the paid month is kept; a second time is a 409", async function () {
    const user = await account();
    await h.request('POST', '/api/subscription/success', { token: user.token, body: { sessionId: await buyPremium(user.token) } });
    let changed: { status: number; body: any } | undefined;
    const events = await h.appendedBy(async () => (changed = await h.request('POST', '/api/subscription/upgrade', { token: user.token, body: { tier: 'FREE' } })));
    expect(changed!.status, JSON.stringify(changed!.body)).to.equal(200);
    expect(types(events)).to.deep.equal(['SubscriptionCancelled']);
    expect(subscriptionChangeResponseSchema.parse(changed!.body)).to.include({ tier: 'PREMIUM', subscriptionStatus: 'ACTIVE', isCancelled: true, daysRemaining: 30 });
    await h.projector.caughtUp();
    expect((await h.request('GET', '/api/auth/me', { token: user.token })).body).to.include({ subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' });
    const again = await h.request('POST', '/api/subscription/upgrade', { token: user.token, body: { tier: 'FREE' } });
    expect(again.status).to.equal(409);
    expect(again.body.detail).to.match(/already cancelled: it moves to Free Starter when access ends/);
    // Reactivate undoes it, as after Cancel.
    expect((await h.request('POST', '/api/subscription/reactivate', { token: user.token })).status).to.equal(200);
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
    expect(types(changed)).to.deep.equal(['SubscriptionCancelled']);
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
