import { expect } from 'chai';
import type { Plan } from '@papertrade/domain/plans/contracts';
import { ApiError } from '../../lib/api-client';
import { paymentRefusalText, paymentReportText } from './payment-report-text';

const plan = { id: 'premium', tier: 'PREMIUM', name: 'Premium Pro', priceUsdPerMonth: 29, mostPopular: true, features: [], limits: {} } as unknown as Plan;
const refusal = (status: number, body: Record<string, unknown>) => new ApiError(status, JSON.stringify(body), 'Conflict', { title: 'Conflict', status, detail: String(body.detail) });

describe('payment page text: the truth about a reopened /payment-success', function () {
  it("says 'Payment Successful!' only when this visit activated the subscription", function () {
    expect(paymentReportText({ outcome: 'activated', plan, tier: 'PREMIUM' })).to.include({ title: 'Payment Successful!', text: 'Your Premium Pro subscription is now active.', testId: 'payment-success' });
    for (const outcome of ['active', 'superseded', 'cancelled-duplicate'] as const) {
      expect(paymentReportText({ outcome, plan, tier: 'PREMIUM' }).title, outcome).to.not.equal('Payment Successful!');
    }
  });

  it('a session whose subscription ended since says so and names the plan the account is on, with no features listed', function () {
    expect(paymentReportText({ outcome: 'superseded', plan, tier: 'FREE' })).to.deep.equal({
      testId: 'payment-superseded',
      title: 'Subscription No Longer Active',
      text: 'This checkout was paid earlier, but the Premium Pro subscription it started has ended since: your account is now on the FREE plan.',
      features: false,
      alert: true,
    });
  });

  it('an already active one and a cancelled second subscription', function () {
    expect(paymentReportText({ outcome: 'active', plan, tier: 'PREMIUM' })).to.include({ title: 'Payment Already Confirmed', features: true });
    expect(paymentReportText({ outcome: 'cancelled-duplicate', plan, tier: 'PREMIUM' })).to.include({ title: 'Second Subscription Cancelled', testId: 'payment-duplicate' });
  });

  it('a refused report: closed and expired sessions by name with the server\'s words, anything else not confirmed', function () {
    expect(paymentRefusalText(refusal(409, { status: 409, detail: 'closed words', sessionState: 'closed' }))).to.include({ title: 'Checkout Closed', text: 'closed words', testId: 'payment-closed' });
    expect(paymentRefusalText(refusal(409, { status: 409, detail: 'expired words', sessionState: 'expired' }))).to.include({ title: 'Checkout Expired', text: 'expired words' });
    expect(paymentRefusalText(refusal(409, { status: 409, detail: 'not paid yet', sessionState: 'open' }))).to.include({ title: 'Payment Not Confirmed', text: 'not paid yet' });
    expect(paymentRefusalText(refusal(403, { status: 403, detail: 'another account' }))).to.include({ title: 'Payment Not Confirmed', text: 'another account' });
    expect(paymentRefusalText(new Error('offline'))).to.include({ title: 'Payment Not Confirmed', text: 'We could not confirm this payment. Please try again later.' });
  });
});
