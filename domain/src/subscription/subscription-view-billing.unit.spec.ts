/**
 * The subscriptions read model at its edges: a document started by a payment rather than an
 * activation, the events it does not keep, a reactivation, and the billing history's rules (a
 * failure is Stripe's, an entry is listed once, newest first, at most MAX_BILLING_ENTRIES of them);
 * and the usage lines GET /api/subscription answers for what the product does not count yet.
 */
import { expect } from 'chai';
import type { SubscriptionEvent } from '../auth/subscription';
import { paidLifecycle } from './subscription-events.fixtures';
import { MAX_BILLING_ENTRIES, evolveSubscriptionView, toSubscriptionResponse, type SubscriptionView } from './subscription-view';

const userId = '6f1c2a3b-0000-4000-8000-000000000002';
const foldView = (events: SubscriptionEvent[], from: SubscriptionView | null = null) => events.reduce<SubscriptionView | null>((d, e) => evolveSubscriptionView(d, e), from);
const paid = (paymentId: string, paidAt: string): SubscriptionEvent => ({
  type: 'PaymentRecorded',
  data: { userId, paymentId, invoiceId: paymentId, sessionId: null, amountUsd: 29, description: 'Premium Pro - monthly', source: 'stripe', paidAt },
});
const failed = (failureId: string, failedAt: string): SubscriptionEvent => ({
  type: 'PaymentFailed',
  data: { userId, failureId, invoiceId: 'in_7', amountUsd: 29, description: 'Premium Pro - monthly', reason: 'card_declined', failedAt },
});

describe('subscriptions read model: first events, billing history and usage', function () {
  it('a payment recorded before any activation starts the document on Free, active, not cancelled, with that payment', function () {
    expect(foldView([paid('in_1', '2026-01-01T00:01:00.000Z')])).to.deep.equal({
      userId,
      tier: 'FREE',
      subscriptionStatus: 'ACTIVE',
      isCancelled: false,
      endsAt: null,
      endsAtMs: null,
      billing: [{ id: 'in_1', date: '2026-01-01T00:01:00.000Z', description: 'Premium Pro - monthly', amountUsd: 29, status: 'PAID', invoiceId: 'in_1', source: 'stripe' }],
      updatedAt: '2026-01-01T00:01:00.000Z',
    });
  });

  it('a started checkout or a cancelled duplicate payment writes no document, and leaves an existing one as it was', function () {
    const [checkout] = paidLifecycle(userId);
    const duplicate: SubscriptionEvent = {
      type: 'DuplicatePaymentCancelled',
      data: { userId, sessionId: 'cs_2', planId: 'premium', stripeSubscriptionId: 'sub_2', keptStripeSubscriptionId: 'sub_1', via: 'webhook', cancelledAt: '2026-01-05T00:00:00.000Z' },
    };
    expect(evolveSubscriptionView(null, checkout!)).to.equal(null);
    expect(evolveSubscriptionView(null, duplicate)).to.equal(null);
    const doc = foldView(paidLifecycle(userId));
    expect(evolveSubscriptionView(doc, duplicate)).to.deep.equal(doc);
  });

  it('a reactivation ends the cancellation: no end date, not cancelled, still Premium, updated at the reactivation', function () {
    const doc = foldView([...paidLifecycle(userId), { type: 'SubscriptionReactivated', data: { userId, tier: 'PREMIUM', reactivatedAt: '2026-01-10T00:00:00.000Z' } }]);
    expect(doc).to.deep.include({ tier: 'PREMIUM', subscriptionStatus: 'ACTIVE', isCancelled: false, endsAt: null, endsAtMs: null, updatedAt: '2026-01-10T00:00:00.000Z' });
  });

  it("a failed payment is listed as Stripe's (only Stripe reports failures), with its time, invoice and amount", function () {
    const doc = foldView([failed('evt_1', '2026-02-01T00:00:00.000Z')]);
    expect(doc!.billing).to.deep.equal([
      { id: 'evt_1', date: '2026-02-01T00:00:00.000Z', description: 'Premium Pro - monthly', amountUsd: 29, status: 'FAILED', invoiceId: 'in_7', source: 'stripe' },
    ]);
  });

  it('an entry applied again is listed once, moved to the top', function () {
    const doc = foldView([paid('in_1', '2026-01-01T00:00:00.000Z'), failed('evt_2', '2026-02-01T00:00:00.000Z'), paid('in_1', '2026-01-01T00:00:00.000Z')]);
    expect(doc!.billing.map((b) => b.id)).to.deep.equal(['in_1', 'evt_2']);
  });

  it(`keeps the newest ${MAX_BILLING_ENTRIES} entries: the oldest is dropped once there are more`, function () {
    const months = Array.from({ length: MAX_BILLING_ENTRIES + 1 }, (_, i) => paid(`in_${i + 1}`, new Date(Date.UTC(2000, i, 1)).toISOString()));
    const billing = foldView(months)!.billing;
    expect(billing).to.have.length(500);
    expect([billing[0]!.id, billing[499]!.id]).to.deep.equal(['in_501', 'in_2']);
  });

  it('answers exchanges as not counted yet (0, not tracked) against the plan in effect', function () {
    const now = new Date('2026-01-30T12:00:00.000Z');
    expect(toSubscriptionResponse(null, { trades: 0 }, now).usage.exchanges).to.deep.equal({ used: 0, limit: 1, tracked: false });
    expect(toSubscriptionResponse({ tier: 'PREMIUM', subscriptionStatus: 'ACTIVE', endsAt: null }, { trades: 0 }, now).usage.exchanges).to.deep.equal({ used: 0, limit: null, tracked: false });
  });
});
