import { expect } from 'chai';
import { loginRequestSchema, signupRequestSchema, isPremium } from './contracts';
import { adminUpdateUserRequestSchema } from '../admin/contracts';

const valid = { email: 'ann@example.com', username: 'ann_1', password: 'secret1', confirmPassword: 'secret1' };

describe('auth contracts', function () {
  it('accepts a valid sign-up and treats empty optional names as absent', function () {
    const parsed = signupRequestSchema.parse({ ...valid, firstName: '', lastName: ' Lee ' });
    expect(parsed.firstName).to.equal(undefined);
    expect(parsed.lastName).to.equal('Lee');
  });

  for (const [name, body, field] of [
    ['a bad email', { ...valid, email: 'nope' }, 'email'],
    ['a short username', { ...valid, username: 'ab' }, 'username'],
    ['a username with spaces', { ...valid, username: 'a b c' }, 'username'],
    ['a 33-character username', { ...valid, username: 'a'.repeat(33) }, 'username'],
    ['a short password', { ...valid, password: '12345', confirmPassword: '12345' }, 'password'],
    ['a mismatched confirmation', { ...valid, confirmPassword: 'other1' }, 'confirmPassword'],
    ['an unknown field', { ...valid, role: 'admin' }, ''],
    ['a number for the email', { ...valid, email: 5 }, 'email'],
    ['a NUL in the email', { ...valid, email: 'ann\u0000@example.com' }, 'email'],
    ['a lone surrogate in the username', { ...valid, username: 'ann\ud800' }, 'username'],
    ['a NUL in the first name', { ...valid, firstName: 'A\u0000' }, 'firstName'],
    ['a lone surrogate in the last name', { ...valid, lastName: 'L\udfff' }, 'lastName'],
  ] as const) {
    it(`rejects ${name}`, function () {
      const result = signupRequestSchema.safeParse(body);
      expect(result.success).to.equal(false);
      expect(result.error!.issues.map((i) => i.path.join('.'))).to.include(field);
    });
  }

  it('refuses unsafe text in the login email and in every admin-edited text field', function () {
    expect(loginRequestSchema.safeParse({ email: 'a\u0000@b.co', password: 'x' }).error?.issues.map((i) => i.path.join('.'))).to.deep.equal(['email']);
    for (const field of ['email', 'username', 'firstName', 'lastName']) {
      const result = adminUpdateUserRequestSchema.safeParse({ [field]: 'x\ud800y' });
      expect(result.error?.issues.map((i) => i.path.join('.')), field).to.deep.equal([field]);
    }
  });

  it('says premium only for PREMIUM and ACTIVE together', function () {
    expect(isPremium({ subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' })).to.equal(true);
    expect(isPremium({ subscriptionTier: 'PREMIUM', subscriptionStatus: 'CANCELLED' })).to.equal(false);
    expect(isPremium({ subscriptionTier: 'FREE', subscriptionStatus: 'ACTIVE' })).to.equal(false);
    expect(isPremium(null)).to.equal(false);
  });
});
