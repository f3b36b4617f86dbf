import { expect } from 'chai';
import { usageHint, usageMeter } from './usage-level';

describe('subscription: usage bar colours (issue 9: 90% or more red, 70% or more amber)', () => {
  it('is red from 90 percent of the limit on, over the limit included', () => {
    expect(usageMeter(9, 10)).to.deep.equal({ percent: 90, level: 'danger' });
    expect(usageMeter(45_000, 50_000).level).to.equal('danger');
    expect(usageMeter(15, 10)).to.deep.equal({ percent: 100, level: 'danger' });
  });

  it('is amber from 70 up to just under 90 percent', () => {
    expect(usageMeter(7, 10)).to.deep.equal({ percent: 70, level: 'warn' });
    expect(usageMeter(899, 1000).level).to.equal('warn');
    expect(usageMeter(2, 3).level).to.equal('ok'); // 66.7 percent
  });

  it('is the normal colour below 70 percent', () => {
    expect(usageMeter(0, 1000)).to.deep.equal({ percent: 0, level: 'ok' });
    expect(usageMeter(699, 1000)).to.deep.equal({ percent: 69.9, level: 'ok' });
  });

  it('has no bar and no warning when the plan sets no limit', () => {
    expect(usageMeter(1_000_000, null)).to.deep.equal({ percent: 0, level: 'unlimited' });
  });

  it('reads a limit of 0 as not included: unused is fine, any use is at the limit', () => {
    expect(usageMeter(0, 0)).to.deep.equal({ percent: 0, level: 'ok' });
    expect(usageMeter(1, 0)).to.deep.equal({ percent: 100, level: 'danger' });
  });
});

describe('subscription: the usage hint', () => {
  const plan = { name: 'Premium Pro' };
  it("names the plan whose limits are shown, and says when an inactive Premium gets the Free plan's", () => {
    expect(usageHint({ tier: 'FREE', subscriptionStatus: 'ACTIVE', plan: { name: 'Free Starter' } })).to.equal('Limits of your Free Starter plan.');
    expect(usageHint({ tier: 'PREMIUM', subscriptionStatus: 'ACTIVE', plan })).to.equal('Limits of your Premium Pro plan.');
    expect(usageHint({ tier: 'PREMIUM', subscriptionStatus: 'INACTIVE', plan })).to.equal("Your Premium Pro subscription is inactive: the Free plan's limits apply.");
  });
});
