import { expect } from 'chai';
import { adminStatsSchema, adminUpdateUserRequestSchema } from './contracts';

describe('admin contracts', function () {
  it('applies only what is sent: an empty edit is valid, and an absent name is not a cleared one', function () {
    expect(adminUpdateUserRequestSchema.parse({})).to.deep.equal({});
  });

  it('clears a name sent empty (or as spaces) or null, and trims the others', function () {
    expect(adminUpdateUserRequestSchema.parse({ firstName: '', lastName: null })).to.deep.equal({ firstName: null, lastName: null });
    expect(adminUpdateUserRequestSchema.parse({ firstName: '   ', lastName: ' Lee ' })).to.deep.equal({ firstName: null, lastName: 'Lee' });
  });

  it('bounds names at 64 characters and says so', function () {
    expect(adminUpdateUserRequestSchema.parse({ firstName: 'F'.repeat(64) }).firstName).to.have.length(64);
    const result = adminUpdateUserRequestSchema.safeParse({ lastName: 'L'.repeat(65) });
    expect(result.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).to.deep.equal(['lastName: must be at most 64 characters']);
  });

  it('validates the username, email, tier and status like everywhere else, and refuses unknown fields', function () {
    expect(adminUpdateUserRequestSchema.parse({ username: ' new_name ', email: ' n@example.com ', subscriptionTier: 'PREMIUM', subscriptionStatus: 'EXPIRED' })).to.include({
      username: 'new_name',
      email: 'n@example.com',
      subscriptionTier: 'PREMIUM',
      subscriptionStatus: 'EXPIRED',
    });
    for (const bad of [{ username: 'x' }, { email: 'nope' }, { subscriptionTier: 'GOLD' }, { subscriptionStatus: 'PAUSED' }, { isAdmin: true }]) {
      expect(adminUpdateUserRequestSchema.safeParse(bad).success, JSON.stringify(bad)).to.equal(false);
    }
  });

  it('counts in whole numbers', function () {
    expect(adminStatsSchema.safeParse({ totalUsers: 3, premiumUsers: 1, activeSubscriptions: 2, newThisMonth: 0 }).success).to.equal(true);
    expect(adminStatsSchema.safeParse({ totalUsers: 3, premiumUsers: 1.5, activeSubscriptions: 2, newThisMonth: 0 }).success).to.equal(false);
  });
});
