import { expect } from 'chai';
import { freePlanAction } from './free-plan-action';

const endsAt = { day: 22, month: 12, year: 2026, formatted: 'December 22, 2026', iso: '2026-12-22T00:00:00.000Z' };

describe('freePlanAction: what the Free plan button does', function () {
  it('from an active Premium: a cancellation at the period end (the dialog), never a plan change at once', function () {
    expect(freePlanAction({ tier: 'PREMIUM', subscriptionStatus: 'ACTIVE', isCancelled: false, endsAt: null })).to.deep.equal({ kind: 'cancel-at-period-end' });
  });

  it('from a Premium already cancelled: scheduled for its end date', function () {
    expect(freePlanAction({ tier: 'PREMIUM', subscriptionStatus: 'ACTIVE', isCancelled: true, endsAt })).to.deep.equal({ kind: 'scheduled', on: 'December 22, 2026' });
  });

  it('from a Premium that is not active (an admin set it so): a plan change at once', function () {
    expect(freePlanAction({ tier: 'PREMIUM', subscriptionStatus: 'INACTIVE', isCancelled: false, endsAt: null })).to.deep.equal({ kind: 'change' });
  });
});
