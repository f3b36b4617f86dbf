/** Checkout, activation once, plan change, cancel / reactivate / expiry once, payments once. */
import { expect } from 'chai';
import { fold } from '../shared/decider';
import { specFor } from '../shared/decider-specification';
import { IllegalStateError } from '../shared/errors';
import {
  CHECKOUT_SESSION_TTL_MS,
  checkoutStatus,
  openCheckout,
  subscriptionDecider,
  tierAndStatusAfter,
  type CheckoutStarted,
  type SubscriptionActivated,
  type SubscriptionCancelled,
  type SubscriptionCommand,
  type SubscriptionEvent,
} from './subscription';

const spec = specFor(subscriptionDecider);
const now = '2026-03-04T05:06:07.000Z';
const userId = 'u1';

const activated = (sessionId = 'cs_1', stripeSubscriptionId: string | null = null): SubscriptionActivated => ({
  type: 'SubscriptionActivated',
  data: {
    userId,
    sessionId,
    planId: 'premium',
    tier: 'PREMIUM',
    status: 'ACTIVE',
    previousTier: 'FREE',
    previousStatus: 'ACTIVE',
    stripeSubscriptionId,
    stripeCustomerId: stripeSubscriptionId ? 'cus_1' : null,
    via: 'success',
    activatedAt: now,
  },
});
const cancelled = (endsAt = '2026-04-03T05:06:07.000Z'): SubscriptionCancelled => ({
  type: 'SubscriptionCancelled',
  data: { userId, tier: 'PREMIUM', endsAt, cancelledAt: now },
});
const activate = (sessionId = 'cs_1', stripeSubscriptionId: string | null = null, via: 'success' | 'webhook' = 'success'): SubscriptionCommand => ({
  type: 'ActivateSubscription',
  data: { userId, sessionId, planId: 'premium', tier: 'PREMIUM', stripeSubscriptionId, stripeCustomerId: stripeSubscriptionId ? 'cus_1' : null, via },
  metadata: { now },
});
const at = (when: string) => ({ metadata: { now: when } });
const later = (ms: number) => new Date(Date.parse(now) + ms).toISOString();
const started = (sessionId = 'cs_1', startedAt = now): CheckoutStarted => ({
  type: 'CheckoutStarted',
  data: { userId, sessionId, planId: 'premium', tier: 'PREMIUM', amountUsd: 29, source: 'test', startedAt, expiresAt: new Date(Date.parse(startedAt) + CHECKOUT_SESSION_TTL_MS).toISOString(), url: null },
});

describe('subscription decider (checkout and lifecycle)', function () {
  describe('checkout', function () {
    const start = (tier: 'FREE' | 'PREMIUM' = 'PREMIUM', sessionId = 'cs_1', when = now): SubscriptionCommand => ({
      type: 'StartCheckout',
      data: { userId, sessionId, planId: tier === 'PREMIUM' ? 'premium' : 'free', tier, amountUsd: 29, source: 'test', expiresAt: new Date(Date.parse(when) + CHECKOUT_SESSION_TTL_MS).toISOString(), url: null },
      metadata: { now: when },
    });

    it('records the session, its plan and price, and until when it can be paid', function () {
      spec.given([]).when(start()).then([started()]);
    });

    it('keeps one open checkout per account: a second one while the first can be paid records nothing; after it expired, a new one is recorded', function () {
      spec.given([started('cs_1')]).when(start('PREMIUM', 'cs_2')).then([]);
      spec.given([started('cs_1')]).when(start('PREMIUM', 'cs_2', later(CHECKOUT_SESSION_TTL_MS - 1))).then([]);
      const afterExpiry = later(CHECKOUT_SESSION_TTL_MS);
      spec.given([started('cs_1')]).when(start('PREMIUM', 'cs_2', afterExpiry)).then([started('cs_2', afterExpiry)]);
      expect(openCheckout(fold(subscriptionDecider, [started('cs_1')]), now)?.sessionId).to.equal('cs_1');
      expect(openCheckout(fold(subscriptionDecider, [started('cs_1')]), afterExpiry)).to.equal(null);
    });

    it('a session recorded before its end was (no expiresAt) stays open for 24 hours, as Stripe kept it', function () {
      const legacy: SubscriptionEvent = { type: 'CheckoutStarted', data: { userId, sessionId: 'cs_old', planId: 'premium', tier: 'PREMIUM', amountUsd: 29, source: 'stripe', startedAt: now } };
      const state = fold(subscriptionDecider, [legacy]);
      expect(checkoutStatus(state, 'cs_old', later(24 * 3600_000 - 1))).to.equal('open');
      expect(checkoutStatus(state, 'cs_old', later(24 * 3600_000))).to.equal('expired');
    });

    it('refuses the free plan, an active Premium, and a cancelled-but-running Premium (reactivate instead)', function () {
      spec.given([]).when(start('FREE')).thenThrows(IllegalStateError, 'The Free Starter plan needs no payment');
      spec.given([activated()]).when(start()).thenThrows(IllegalStateError, 'You already have an active Premium Pro subscription');
      spec.given([activated(), cancelled()]).when(start()).thenThrows(IllegalStateError, /reactivate it/);
    });
  });

  describe('checkout status', function () {
    const status = (events: SubscriptionEvent[], sessionId = 'cs_1', when = now) => checkoutStatus(fold(subscriptionDecider, events), sessionId, when);
    const paidTest: SubscriptionEvent = { type: 'PaymentRecorded', data: { userId, paymentId: 'cs_1', invoiceId: null, sessionId: 'cs_1', amountUsd: 29, description: 'Premium Pro', source: 'test', paidAt: now } };
    const toFree: SubscriptionEvent = { type: 'SubscriptionExpired', data: { userId, tier: 'FREE', status: 'EXPIRED', previousTier: 'PREMIUM', endsAt: null, reason: 'cancellation-ended', expiredAt: now } };

    it('says what became of a session: open, paid, active, superseded, closed, expired, unknown', function () {
      expect(status([started()])).to.equal('open');
      expect(status([started(), paidTest])).to.equal('paid');
      expect(status([started(), paidTest, activated()])).to.equal('active');
      expect(status([started(), paidTest, activated(), cancelled()]), 'a cancelled one still gives access').to.equal('active');
      expect(status([started(), paidTest, activated(), toFree])).to.equal('superseded');
      expect(status([started(), started('cs_2'), activated('cs_2')]), 'another session activated').to.equal('closed');
      expect(status([started(), started('cs_2'), activated('cs_2'), toFree]), 'closed stays closed after a move to Free').to.equal('closed');
      expect(status([started()], 'cs_1', later(CHECKOUT_SESSION_TTL_MS))).to.equal('expired');
      expect(status([started()], 'cs_nope')).to.equal('unknown');
    });

    it('a session opened before Premium was granted by hand cannot be paid while it lasts', function () {
      const granted: SubscriptionEvent = { type: 'SubscriptionChangedByAdmin', data: { userId, tier: 'PREMIUM', status: 'ACTIVE', previousTier: 'FREE', previousStatus: 'ACTIVE', changedBy: 'a1', changedAt: now } };
      expect(status([started(), granted])).to.equal('closed');
    });
  });

  describe('activation', function () {
    it('activates PREMIUM / ACTIVE with what it was before', function () {
      spec.given([]).when(activate()).then([activated()]);
    });

    it('activates a session once: a repeated success call or the webhook after it appends nothing', function () {
      spec.given([activated()]).when(activate()).then([]);
      spec.given([activated()]).when(activate('cs_1', null, 'webhook')).then([]);
    });

    it('activates a Stripe subscription once even when named by another session id', function () {
      spec.given([activated('cs_1', 'sub_1')]).when(activate('cs_2', 'sub_1')).then([]);
    });

    it('a payment that arrives while Premium is active (another subscription, or granted by hand) is cancelled, not activated; the account keeps the subscription it had', function () {
      const duplicate = { type: 'DuplicatePaymentCancelled', data: { userId, sessionId: 'cs_2', planId: 'premium', stripeSubscriptionId: 'sub_2', keptStripeSubscriptionId: 'sub_1', via: 'webhook', cancelledAt: now } } as const;
      spec.given([activated('cs_1', 'sub_1')]).when(activate('cs_2', 'sub_2', 'webhook')).then([duplicate]);
      const state = fold(subscriptionDecider, [activated('cs_1', 'sub_1'), duplicate]);
      expect([state.stripeSubscriptionId, state.currentSessionId]).to.deep.equal(['sub_1', 'cs_1']);
      expect(checkoutStatus(fold(subscriptionDecider, [started('cs_2'), activated('cs_1', 'sub_1'), duplicate]), 'cs_2', now)).to.equal('duplicate');
      // Once: the success call after the webhook (or a redelivery) appends nothing, by session or by subscription.
      spec.given([activated('cs_1', 'sub_1'), duplicate]).when(activate('cs_2', 'sub_2')).then([]);
      spec.given([activated('cs_1', 'sub_1'), duplicate]).when(activate('cs_3', 'sub_2')).then([]);
      const granted: SubscriptionEvent = { type: 'SubscriptionChangedByAdmin', data: { userId, tier: 'PREMIUM', status: 'ACTIVE', previousTier: 'FREE', previousStatus: 'ACTIVE', changedBy: 'a1', changedAt: now } };
      spec.given([granted]).when(activate('cs_2', null)).then([
        { type: 'DuplicatePaymentCancelled', data: { userId, sessionId: 'cs_2', planId: 'premium', stripeSubscriptionId: null, keptStripeSubscriptionId: null, via: 'success', cancelledAt: now } },
      ]);
    });

    it('a new session after expiry activates again', function () {
      const expired: SubscriptionEvent = {
        type: 'SubscriptionExpired',
        data: { userId, tier: 'FREE', status: 'EXPIRED', previousTier: 'PREMIUM', endsAt: null, reason: 'cancellation-ended', expiredAt: now },
      };
      const events = subscriptionDecider.decide(activate('cs_2'), fold(subscriptionDecider, [activated(), expired]));
      expect(events.map((e) => [e.type, tierAndStatusAfter(e)?.tier])).to.deep.equal([['SubscriptionActivated', 'PREMIUM']]);
    });
  });

  describe('plan change', function () {
    const change = (tier: 'FREE' | 'PREMIUM'): SubscriptionCommand => ({ type: 'ChangePlan', data: { userId, tier }, metadata: { now } });

    it('moves an active Premium to Free as a cancellation at the period end (the paid month is kept), not at once', function () {
      spec.given([activated()]).when(change('FREE')).then([cancelled('2026-04-03T05:06:07.000Z')]);
      const state = fold(subscriptionDecider, [activated(), cancelled()]);
      expect([state.tier, state.status]).to.deep.equal(['PREMIUM', 'ACTIVE']);
      spec.given([activated(), cancelled()]).when(change('FREE')).thenThrows(IllegalStateError, /already cancelled: it moves to Free Starter when access ends/);
    });

    it('moves a Premium that is not active (set so by an admin) to Free at once: nothing paid runs', function () {
      const inactive: SubscriptionEvent = { type: 'SubscriptionChangedByAdmin', data: { userId, tier: 'PREMIUM', status: 'INACTIVE', previousTier: 'PREMIUM', previousStatus: 'ACTIVE', changedBy: 'a1', changedAt: now } };
      spec.given([activated(), inactive]).when(change('FREE')).then([
        { type: 'SubscriptionPlanChanged', data: { userId, tier: 'FREE', status: 'ACTIVE', previousTier: 'PREMIUM', previousStatus: 'INACTIVE', changedAt: now } },
      ]);
    });

    it('refuses Premium without payment and the plan the user is already on', function () {
      spec.given([]).when(change('PREMIUM')).thenThrows(IllegalStateError, /bought through checkout/);
      spec.given([]).when(change('FREE')).thenThrows(IllegalStateError, 'You are already on the FREE plan');
      spec.given([activated()]).when(change('PREMIUM')).thenThrows(IllegalStateError, 'You are already on the PREMIUM plan');
    });
  });

  describe('cancel, reactivate, expire', function () {
    const cancel: SubscriptionCommand = { type: 'CancelSubscription', data: { userId }, metadata: { now } };
    const reactivate = (when: string): SubscriptionCommand => ({ type: 'ReactivateSubscription', data: { userId }, ...at(when) });
    const expire = (when: string): SubscriptionCommand => ({ type: 'ExpireSubscription', data: { userId }, ...at(when) });

    it('cancels with access for 30 more days, status still ACTIVE', function () {
      spec.given([activated()]).when(cancel).then([cancelled('2026-04-03T05:06:07.000Z')]);
      const state = fold(subscriptionDecider, [activated(), cancelled()]);
      expect([state.tier, state.status, state.endsAt]).to.deep.equal(['PREMIUM', 'ACTIVE', '2026-04-03T05:06:07.000Z']);
    });

    it('refuses to cancel a free plan or twice', function () {
      spec.given([]).when(cancel).thenThrows(IllegalStateError, 'Only an active Premium subscription can be cancelled');
      spec.given([activated(), cancelled()]).when(cancel).thenThrows(IllegalStateError, /already cancelled/);
    });

    it('reactivates before the end date, not at or after it, and not when not cancelled', function () {
      spec.given([activated(), cancelled()]).when(reactivate('2026-04-03T05:06:06.999Z')).then([
        { type: 'SubscriptionReactivated', data: { userId, tier: 'PREMIUM', reactivatedAt: '2026-04-03T05:06:06.999Z' } },
      ]);
      spec.given([activated(), cancelled()]).when(reactivate('2026-04-03T05:06:07.000Z')).thenThrows(IllegalStateError, /already ended/);
      spec.given([activated()]).when(reactivate(now)).thenThrows(IllegalStateError, 'Only a cancelled Premium subscription can be reactivated');
    });

    it('expires at the end date, downgrading to FREE / EXPIRED, exactly once', function () {
      spec.given([activated(), cancelled()]).when(expire('2026-04-03T05:06:06.999Z')).then([]);
      const expired: SubscriptionEvent = {
        type: 'SubscriptionExpired',
        data: { userId, tier: 'FREE', status: 'EXPIRED', previousTier: 'PREMIUM', previousStatus: 'ACTIVE', endsAt: '2026-04-03T05:06:07.000Z', reason: 'cancellation-ended', expiredAt: '2026-04-03T05:06:07.000Z' },
      };
      spec.given([activated(), cancelled()]).when(expire('2026-04-03T05:06:07.000Z')).then([expired]);
      spec.given([activated(), cancelled(), expired]).when(expire('2026-05-01T00:00:00.000Z')).then([]);
    });

    it('does not expire a reactivated or never-cancelled subscription', function () {
      const reactivated: SubscriptionEvent = { type: 'SubscriptionReactivated', data: { userId, tier: 'PREMIUM', reactivatedAt: now } };
      spec.given([activated(), cancelled(), reactivated]).when(expire('2027-01-01T00:00:00.000Z')).then([]);
      spec.given([activated()]).when(expire('2027-01-01T00:00:00.000Z')).then([]);
    });

    it("ends on Stripe's deletion of the subscription that gave access, not of another one", function () {
      const end = (id: string): SubscriptionCommand => ({ type: 'EndStripeSubscription', data: { userId, stripeSubscriptionId: id }, metadata: { now } });
      spec.given([activated('cs_1', 'sub_1')]).when(end('sub_other')).then([]);
      spec.given([activated('cs_1', 'sub_1')]).when(end('sub_1')).then([
        { type: 'SubscriptionExpired', data: { userId, tier: 'FREE', status: 'EXPIRED', previousTier: 'PREMIUM', previousStatus: 'ACTIVE', endsAt: null, reason: 'stripe-subscription-deleted', expiredAt: now } },
      ]);
    });
  });

  describe('payments', function () {
    const pay: SubscriptionCommand = {
      type: 'RecordPayment',
      data: { userId, paymentId: 'in_1', invoiceId: 'in_1', sessionId: null, amountUsd: 29, description: 'Premium Pro', source: 'stripe' },
      metadata: { now },
    };
    const fail = (failureId: string): SubscriptionCommand => ({
      type: 'RecordPaymentFailure',
      data: { userId, failureId, invoiceId: 'in_2', amountUsd: 29, description: 'Premium Pro', reason: 'card_declined' },
      metadata: { now },
    });

    it('records an invoice paid once', function () {
      const recorded = subscriptionDecider.decide(pay, fold(subscriptionDecider, []));
      expect(recorded).to.deep.equal([{ type: 'PaymentRecorded', data: { ...(pay.data as object), paidAt: now } }]);
      spec.given(recorded).when(pay).then([]);
    });

    it('records each failure notice once, two failures of one invoice twice', function () {
      const first = subscriptionDecider.decide(fail('evt_1'), fold(subscriptionDecider, []));
      expect(first.map((e) => e.type)).to.deep.equal(['PaymentFailed']);
      spec.given(first).when(fail('evt_1')).then([]);
      expect(subscriptionDecider.decide(fail('evt_2'), fold(subscriptionDecider, first))).to.have.length(1);
    });

    it('payments change neither tier nor status', function () {
      const state = fold(subscriptionDecider, subscriptionDecider.decide(pay, fold(subscriptionDecider, [])));
      expect([state.tier, state.status]).to.deep.equal(['FREE', 'ACTIVE']);
    });
  });

  it("an admin's edit ends a running cancellation", function () {
    const admin: SubscriptionEvent = {
      type: 'SubscriptionChangedByAdmin',
      data: { userId, tier: 'PREMIUM', status: 'ACTIVE', previousTier: 'PREMIUM', previousStatus: 'INACTIVE', changedBy: 'a1', changedAt: now },
    };
    expect(fold(subscriptionDecider, [activated(), cancelled(), admin]).endsAt).to.equal(null);
  });
});
