/**
 * The subscription stream over a longer history than one checkout: which sessions an activation
 * closes (each once, never the paid or the activated ones), what a newer session is while an older
 * one has expired, a checkout request repeated for a session already recorded, what the account can
 * do after its Premium expired or was reactivated, a redelivered Stripe deletion, and the tier and
 * status each event leaves for the users and trading-bots read models.
 *
 * The replayed state is what the audit's "subscription as of" answer shows, so its lists are asserted
 * whole where a rule is about them (closed sessions, activated ids, the Stripe customer kept).
 */
import { expect } from 'chai';
import { fold } from '../shared/decider';
import { specFor } from '../shared/decider-specification';
import { IllegalStateError } from '../shared/errors';
import {
  CHECKOUT_SESSION_TTL_MS,
  checkoutStatus,
  initialSubscriptionState,
  openCheckout,
  subscriptionDecider,
  tierAndStatusAfter,
  type CheckoutStarted,
  type SubscriptionActivated,
  type SubscriptionCommand,
  type SubscriptionEvent,
  type SubscriptionExpired,
} from './subscription';

const spec = specFor(subscriptionDecider);
const userId = 'u1';
const T0 = '2026-03-04T05:06:07.000Z';
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

const started = (sessionId: string, startedAt: string, source: 'stripe' | 'test' = 'test', url: string | null = null): CheckoutStarted => ({
  type: 'CheckoutStarted',
  data: { userId, sessionId, planId: 'premium', tier: 'PREMIUM', amountUsd: 29, source, startedAt, expiresAt: new Date(Date.parse(startedAt) + CHECKOUT_SESSION_TTL_MS).toISOString(), url },
});
const paidTest = (sessionId: string, paidAt: string): SubscriptionEvent => ({
  type: 'PaymentRecorded',
  data: { userId, paymentId: sessionId, invoiceId: null, sessionId, amountUsd: 29, description: 'Premium Pro - monthly', source: 'test', paidAt },
});
const activated = (sessionId: string, activatedAt: string, stripe: { sub: string; customer: string } | null = null, previousStatus: 'ACTIVE' | 'EXPIRED' = 'ACTIVE'): SubscriptionActivated => ({
  type: 'SubscriptionActivated',
  data: {
    userId,
    sessionId,
    planId: 'premium',
    tier: 'PREMIUM',
    status: 'ACTIVE',
    previousTier: 'FREE',
    previousStatus,
    stripeSubscriptionId: stripe?.sub ?? null,
    stripeCustomerId: stripe?.customer ?? null,
    via: 'webhook',
    activatedAt,
  },
});
const stripeEnded = (expiredAt: string): SubscriptionExpired => ({
  type: 'SubscriptionExpired',
  data: { userId, tier: 'FREE', status: 'EXPIRED', previousTier: 'PREMIUM', previousStatus: 'ACTIVE', endsAt: null, reason: 'stripe-subscription-deleted', expiredAt },
});
const startCheckout = (sessionId: string, now: string): SubscriptionCommand => ({
  type: 'StartCheckout',
  data: { userId, sessionId, planId: 'premium', tier: 'PREMIUM', amountUsd: 29, source: 'test', expiresAt: new Date(Date.parse(now) + CHECKOUT_SESSION_TTL_MS).toISOString(), url: null },
  metadata: { now },
});

describe('subscription history (sessions, expiry and replay)', function () {
  it('a new account replays as Free and active with nothing recorded: no checkout, activation, closed or duplicate session, payment or failure', function () {
    expect(fold(subscriptionDecider, [])).to.deep.equal({
      tier: 'FREE',
      status: 'ACTIVE',
      endsAt: null,
      stripeSubscriptionId: null,
      stripeCustomerId: null,
      checkouts: [],
      activated: [],
      currentSessionId: null,
      closed: [],
      duplicates: [],
      paid: [],
      failed: [],
    });
    expect(initialSubscriptionState()).to.deep.equal(fold(subscriptionDecider, []));
  });

  describe('sessions over a longer history', function () {
    // cs_1 was never paid and expired; cs_2 (Stripe) and cs_3 (a second tab, from before the
    // one-open-checkout rule) were opened together; cs_3 was paid on the test page, but cs_2's
    // webhook activated first. Later Stripe ended sub_2, cs_4 was opened and left, and cs_5 activated.
    const payPage = 'https://checkout.stripe.com/c/pay/cs_2';
    const first = [started('cs_1', T0), started('cs_2', at(2 * HOUR), 'stripe', payPage), started('cs_3', at(2 * HOUR))];
    const paid = [...first, paidTest('cs_3', at(2 * HOUR + 60_000))];
    const firstActivation = [...paid, activated('cs_2', at(2 * HOUR + 120_000), { sub: 'sub_2', customer: 'cus_1' })];
    const duplicate: SubscriptionEvent = {
      type: 'DuplicatePaymentCancelled',
      data: { userId, sessionId: 'cs_3', planId: 'premium', stripeSubscriptionId: null, keptStripeSubscriptionId: 'sub_2', via: 'success', cancelledAt: at(2 * HOUR + 180_000) },
    };
    const secondActivation = [
      ...firstActivation,
      duplicate,
      stripeEnded(at(10 * DAY)),
      started('cs_4', at(11 * DAY)),
      started('cs_5', at(11 * DAY)),
      activated('cs_5', at(11 * DAY + 60_000), null, 'EXPIRED'),
    ];

    it('a newer session is open while an older one has expired, and is the one the account answers with its payment page', function () {
      const state = fold(subscriptionDecider, first.slice(0, 2));
      const now = at(2 * HOUR + 60_000);
      expect(checkoutStatus(state, 'cs_1', now)).to.equal('expired');
      expect(checkoutStatus(state, 'cs_2', now)).to.equal('open');
      expect(openCheckout(state, now)).to.deep.equal({
        sessionId: 'cs_2',
        planId: 'premium',
        tier: 'PREMIUM',
        amountUsd: 29,
        source: 'stripe',
        startedAt: at(2 * HOUR),
        expiresAt: at(3 * HOUR),
        url: payPage,
      });
      expect(checkoutStatus(state, 'cs_2', at(3 * HOUR)), 'its own hour, not the older session\'s, decides when it expires').to.equal('expired');
    });

    it("an activation closes the account's other unpaid sessions, expired ones too, but not one that was paid and awaits its confirmation", function () {
      const state = fold(subscriptionDecider, firstActivation);
      expect(state.closed).to.deep.equal(['cs_1']);
      const now = at(2 * HOUR + 150_000);
      expect(['cs_1', 'cs_2', 'cs_3'].map((s) => checkoutStatus(state, s, now))).to.deep.equal(['closed', 'active', 'paid']);
      expect(state.activated).to.deep.equal(['cs_2', 'sub_2']);
      expect([state.stripeSubscriptionId, state.stripeCustomerId, state.currentSessionId]).to.deep.equal(['sub_2', 'cus_1', 'cs_2']);
    });

    it('a later activation closes only what is still unpaid: a session closed before is listed once, an activated or paid one never', function () {
      const state = fold(subscriptionDecider, secondActivation);
      expect(state.closed).to.deep.equal(['cs_1', 'cs_4']);
      const now = at(11 * DAY + 120_000);
      expect(['cs_1', 'cs_2', 'cs_3', 'cs_4', 'cs_5'].map((s) => checkoutStatus(state, s, now))).to.deep.equal(['closed', 'superseded', 'duplicate', 'closed', 'active']);
    });

    it('a test-checkout activation records its session alone and keeps the Stripe customer the account had', function () {
      const state = fold(subscriptionDecider, secondActivation);
      expect(state.activated).to.deep.equal(['cs_2', 'sub_2', 'cs_5']);
      expect(state.duplicates).to.deep.equal(['cs_3']);
      expect([state.tier, state.status, state.currentSessionId]).to.deep.equal(['PREMIUM', 'ACTIVE', 'cs_5']);
      expect(state.stripeCustomerId).to.equal('cus_1');
    });
  });

  it('a checkout request repeated for a session already recorded records nothing, even once that session can no longer be paid', function () {
    spec.given([started('cs_1', T0)]).when(startCheckout('cs_1', at(30 * 60_000))).then([]);
    spec.given([started('cs_1', T0)]).when(startCheckout('cs_1', at(2 * HOUR))).then([]);
    spec.given([started('cs_1', T0), paidTest('cs_1', at(60_000))]).when(startCheckout('cs_1', at(2 * HOUR))).then([]);
    // A new session after the old one expired is recorded (the rule above is about the same session).
    spec.given([started('cs_1', T0)]).when(startCheckout('cs_2', at(2 * HOUR))).then([started('cs_2', at(2 * HOUR))]);
  });

  describe('after expiry, plan change and reactivation', function () {
    const expiredHistory = [started('cs_1', T0), activated('cs_1', at(60_000), { sub: 'sub_1', customer: 'cus_1' }), stripeEnded(at(5 * DAY))];
    const changePlan = (tier: 'FREE' | 'PREMIUM', now: string): SubscriptionCommand => ({ type: 'ChangePlan', data: { userId, tier }, metadata: { now } });

    it('an expired account that picks Free Starter is on Free and active again, from FREE / EXPIRED', function () {
      spec.given(expiredHistory).when(changePlan('FREE', at(6 * DAY))).then([
        { type: 'SubscriptionPlanChanged', data: { userId, tier: 'FREE', status: 'ACTIVE', previousTier: 'FREE', previousStatus: 'EXPIRED', changedAt: at(6 * DAY) } },
      ]);
    });

    it('after that plan change the account is Free / active, so picking Free again is refused', function () {
      const planChanged: SubscriptionEvent = {
        type: 'SubscriptionPlanChanged',
        data: { userId, tier: 'FREE', status: 'ACTIVE', previousTier: 'FREE', previousStatus: 'EXPIRED', changedAt: at(6 * DAY) },
      };
      const state = fold(subscriptionDecider, [...expiredHistory, planChanged]);
      expect([state.tier, state.status, state.endsAt, state.currentSessionId]).to.deep.equal(['FREE', 'ACTIVE', null, null]);
      spec.given([...expiredHistory, planChanged]).when(changePlan('FREE', at(7 * DAY))).thenThrows(IllegalStateError, 'You are already on the FREE plan');
    });

    it('a Premium that was moved back to Free by a plan change can be bought again', function () {
      const inactive: SubscriptionEvent = {
        type: 'SubscriptionChangedByAdmin',
        data: { userId, tier: 'PREMIUM', status: 'INACTIVE', previousTier: 'PREMIUM', previousStatus: 'ACTIVE', changedBy: 'a1', changedAt: at(DAY) },
      };
      const toFree: SubscriptionEvent = {
        type: 'SubscriptionPlanChanged',
        data: { userId, tier: 'FREE', status: 'ACTIVE', previousTier: 'PREMIUM', previousStatus: 'INACTIVE', changedAt: at(2 * DAY) },
      };
      const history = [started('cs_1', T0), activated('cs_1', at(60_000)), inactive, toFree];
      expect(subscriptionDecider.decide(startCheckout('cs_2', at(3 * DAY)), fold(subscriptionDecider, history))).to.deep.equal([started('cs_2', at(3 * DAY))]);
    });

    it('a reactivated subscription runs again: it can be cancelled anew, with 30 days from the new cancellation', function () {
      const history: SubscriptionEvent[] = [
        activated('cs_1', T0),
        { type: 'SubscriptionCancelled', data: { userId, tier: 'PREMIUM', endsAt: at(30 * DAY), cancelledAt: T0 } },
        { type: 'SubscriptionReactivated', data: { userId, tier: 'PREMIUM', reactivatedAt: at(DAY) } },
      ];
      const state = fold(subscriptionDecider, history);
      expect([state.tier, state.status, state.endsAt]).to.deep.equal(['PREMIUM', 'ACTIVE', null]);
      spec.given(history).when({ type: 'CancelSubscription', data: { userId }, metadata: { now: at(2 * DAY) } }).then([
        { type: 'SubscriptionCancelled', data: { userId, tier: 'PREMIUM', endsAt: at(32 * DAY), cancelledAt: at(2 * DAY) } },
      ]);
    });

    it("Stripe's deletion notice delivered again after the account expired expires it once, not twice", function () {
      const end: SubscriptionCommand = { type: 'EndStripeSubscription', data: { userId, stripeSubscriptionId: 'sub_1' }, metadata: { now: at(5 * DAY + 60_000) } };
      spec.given(expiredHistory).when(end).then([]);
    });

    it('the deletion of the Stripe subscription of an account an admin already moved to Free changes nothing', function () {
      const toFree: SubscriptionEvent = {
        type: 'SubscriptionChangedByAdmin',
        data: { userId, tier: 'FREE', status: 'ACTIVE', previousTier: 'PREMIUM', previousStatus: 'ACTIVE', changedBy: 'a1', changedAt: at(DAY) },
      };
      const end: SubscriptionCommand = { type: 'EndStripeSubscription', data: { userId, stripeSubscriptionId: 'sub_1' }, metadata: { now: at(2 * DAY) } };
      spec.given([expiredHistory[0]!, expiredHistory[1]!, toFree]).when(end).then([]);
    });
  });

  describe('the tier and status an event leaves (users and trading-bots read models)', function () {
    it("an admin's change and a plan change give their tier, status and time", function () {
      expect(
        tierAndStatusAfter({ type: 'SubscriptionChangedByAdmin', data: { userId, tier: 'PREMIUM', status: 'INACTIVE', previousTier: 'FREE', previousStatus: 'ACTIVE', changedBy: 'a1', changedAt: at(DAY) } }),
      ).to.deep.equal({ tier: 'PREMIUM', status: 'INACTIVE', at: at(DAY) });
      expect(
        tierAndStatusAfter({ type: 'SubscriptionPlanChanged', data: { userId, tier: 'FREE', status: 'ACTIVE', previousTier: 'PREMIUM', previousStatus: 'INACTIVE', changedAt: at(2 * DAY) } }),
      ).to.deep.equal({ tier: 'FREE', status: 'ACTIVE', at: at(2 * DAY) });
      expect(tierAndStatusAfter(activated('cs_1', at(3 * DAY)))).to.deep.equal({ tier: 'PREMIUM', status: 'ACTIVE', at: at(3 * DAY) });
      expect(tierAndStatusAfter(stripeEnded(at(4 * DAY)))).to.deep.equal({ tier: 'FREE', status: 'EXPIRED', at: at(4 * DAY) });
    });

    it('checkout, payments, cancel, reactivate and a cancelled duplicate leave them as they were (null)', function () {
      const unchanged: SubscriptionEvent[] = [
        started('cs_1', T0),
        paidTest('cs_1', T0),
        { type: 'PaymentFailed', data: { userId, failureId: 'evt_1', invoiceId: 'in_1', amountUsd: 29, description: 'Premium Pro - monthly', reason: 'card_declined', failedAt: T0 } },
        { type: 'SubscriptionCancelled', data: { userId, tier: 'PREMIUM', endsAt: at(30 * DAY), cancelledAt: T0 } },
        { type: 'SubscriptionReactivated', data: { userId, tier: 'PREMIUM', reactivatedAt: T0 } },
        { type: 'DuplicatePaymentCancelled', data: { userId, sessionId: 'cs_2', planId: 'premium', stripeSubscriptionId: null, keptStripeSubscriptionId: null, via: 'success', cancelledAt: T0 } },
      ];
      for (const e of unchanged) expect(tierAndStatusAfter(e), e.type).to.equal(null);
    });
  });
});
