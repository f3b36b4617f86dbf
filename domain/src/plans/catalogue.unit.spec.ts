/** The one price list (DESIGN.md section 6): Free Starter at 0, Premium Pro at 29 USD a month, most popular. */
import { expect } from 'chai';
import { planForTier, plans } from './catalogue';
import { plansResponseSchema } from './contracts';

describe('plan catalogue', function () {
  it('holds exactly the free and the premium plan, in that order, as the API serves them', function () {
    expect(plansResponseSchema.parse(plans)).to.deep.equal(plans);
    expect(plans.map((p) => [p.id, p.tier, p.name, p.priceUsdPerMonth, p.mostPopular])).to.deep.equal([
      ['free', 'FREE', 'Free Starter', 0, false],
      ['premium', 'PREMIUM', 'Premium Pro', 29, true],
    ]);
  });

  it('lists what each plan includes, every line a distinct, non-empty feature', function () {
    for (const plan of plans) {
      expect(plan.features, plan.id).to.not.be.empty;
      expect(new Set(plan.features).size, plan.id).to.equal(plan.features.length);
      for (const feature of plan.features) expect(feature.trim(), plan.id).to.not.equal('');
    }
    expect(planForTier('FREE').features).to.include('Paper trading simulation');
    expect(planForTier('PREMIUM').features).to.include('Real trading API integration');
  });

  it('finds the plan of a tier and refuses a tier it does not sell', function () {
    expect(planForTier('FREE').id).to.equal('free');
    expect(planForTier('PREMIUM').id).to.equal('premium');
    expect(() => planForTier('GOLD' as 'FREE')).to.throw('no plan for tier GOLD');
  });

  it('refuses a negative price', function () {
    expect(plansResponseSchema.safeParse([{ ...plans[0], priceUsdPerMonth: -1 }]).success).to.equal(false);
  });
});
