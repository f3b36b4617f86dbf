import { expect } from 'chai';
import { ApiError } from '../../lib/api-client';
import { cancellationFailedToast, cancelledToast, planChangedToast, redirectingToPaymentToast } from './subscription-toasts';

const problem = (status: number, detail: string) =>
  new ApiError(status, JSON.stringify({ title: 'x', status, detail }), 'Conflict', { type: 'about:blank', title: 'x', status, detail });

describe('subscription: toasts (spec section 8)', () => {
  it("says 'Cancellation Failed' with the server's message", () => {
    expect(cancellationFailedToast(problem(409, 'Only an active Premium subscription can be cancelled'))).to.deep.equal({
      title: 'Cancellation Failed',
      description: 'Only an active Premium subscription can be cancelled',
      variant: 'destructive',
    });
    // No problem body: the client's `status: body` message is what the server said.
    expect(cancellationFailedToast(new ApiError(500, 'boom', 'Internal Server Error', null)).description).to.equal('500: boom');
  });

  it("says 'Failed to cancel subscription' when the server said nothing", () => {
    expect(cancellationFailedToast(new TypeError('Failed to fetch')).description).to.equal('Failed to cancel subscription');
  });

  it('names the end date on a cancellation and the plan on a change or a checkout', () => {
    expect(cancelledToast('December 22, 2026')).to.include({ title: 'Subscription Cancelled', description: 'You keep Premium access until December 22, 2026' });
    expect(planChangedToast('Free Starter')).to.include({ title: 'Plan Changed', description: 'You are now on Free Starter' });
    expect(redirectingToPaymentToast('Premium Pro').title).to.equal('Redirecting to Payment');
  });
});
