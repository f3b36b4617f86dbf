/** Checkout, activation once, plan change, cancel / reactivate / expiry once, payments once. */
import { expect } from 'chai';
import { fold } from '../shared/decider';
import { specFor } from '../shared/decider-specification';
import { IllegalStateError } from '../shared/errors';
import {
  subscriptionDecider,
  tierAndStatusAfter,
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

describe('subscription decider (checkout and lifecycle)', function () {
  describe('checkout', function () {
    const start = (tier: 'FREE' | 'PREMIUM' = 'PREMIUM'): SubscriptionCommand => ({
      type: 'StartCheckout',
      data: { userId, sessionId: 'cs_1', planId: tier === 'PREMIUM' ? 'premium' : 'free', tier, amountUsd: 29, source: 'test' },
      metadata: { now },
    });

    it('records the session, its plan and price', function () {
      spec.given([]).when(start()).then([
        { type: 'CheckoutStarted', data: { userId, sessionId: 'cs_1', planId: 'premium', tier: 'PREMIUM', amountUsd: 29, source: 'test', startedAt: now } },
      ]);
    });

    it('refuses the free plan, an active Premium, and a cancelled-but-running Premium (reactivate instead)', function () {
      spec.given([]).when(start('FREE')).thenThrows(IllegalStateError, 'The Free Starter plan needs no payment');
      spec.given([activated()]).when(start()).thenThrows(IllegalStateError, 'You already have an active Premium Pro subscription');
      spec.given([activated(), cancelled()]).when(start()).thenThrows(IllegalStateError, /reactivate it/);
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

    it('moves a Premium user to Free at once, ending a running cancellation', function () {
      spec.given([activated(), cancelled()]).when(change('FREE')).then([
        { type: 'SubscriptionPlanChanged', data: { userId, tier: 'FREE', status: 'ACTIVE', previousTier: 'PREMIUM', previousStatus: 'ACTIVE', changedAt: now } },
      ]);
      expect(fold(subscriptionDecider, [activated(), cancelled(), ...subscriptionDecider.decide(change('FREE'), fold(subscriptionDecider, [activated(), cancelled()]))]).endsAt).to.equal(null);
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
        data: { userId, tier: 'FREE', status: 'EXPIRED', previousTier: 'PREMIUM', endsAt: '2026-04-03T05:06:07.000Z', reason: 'cancellation-ended', expiredAt: '2026-04-03T05:06:07.000Z' },
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
        { type: 'SubscriptionExpired', data: { userId, tier: 'FREE', status: 'EXPIRED', previousTier: 'PREMIUM', endsAt: null, reason: 'stripe-subscription-deleted', expiredAt: now } },
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
