/**
 * POST /api/subscription/checkout's body (contracts.ts): the plan by catalogue id or by tier, exactly
 * one of the two; neither or both is refused with one message on planId.
 */
import { expect } from 'chai';
import { checkoutRequestSchema } from './contracts';

describe('subscription contracts', function () {
  it('a checkout names the plan by id or by tier, exactly one of the two', function () {
    expect(checkoutRequestSchema.parse({ planId: 'premium' })).to.deep.equal({ planId: 'premium' });
    expect(checkoutRequestSchema.parse({ tier: 'PREMIUM' })).to.deep.equal({ tier: 'PREMIUM' });
    for (const body of [{}, { planId: 'premium', tier: 'PREMIUM' }]) {
      const result = checkoutRequestSchema.safeParse(body);
      expect(result.success, JSON.stringify(body)).to.equal(false);
      expect(result.error!.issues.map((i) => [i.path.join('.'), i.message]), JSON.stringify(body)).to.deep.equal([['planId', 'send exactly one of planId or tier']]);
    }
  });
});
