/** Checkout names the plan it sells by id: each id finds its own plan, and an id not on the price list finds none. */
import { expect } from 'chai';
import { planById } from './catalogue';

describe('plan catalogue: plans by id', function () {
  it('finds Free Starter by "free" and Premium Pro by "premium"', function () {
    expect(planById('free')).to.include({ id: 'free', tier: 'FREE', name: 'Free Starter', priceUsdPerMonth: 0 });
    expect(planById('premium')).to.include({ id: 'premium', tier: 'PREMIUM', name: 'Premium Pro', priceUsdPerMonth: 29 });
  });

  it('finds no plan for an id it does not sell', function () {
    expect(planById('gold')).to.equal(undefined);
    expect(planById('')).to.equal(undefined);
    expect(planById('PREMIUM')).to.equal(undefined);
  });
});
