/**
 * The limits and messages of the auth contracts: the same schemas validate in command-api and in
 * the web forms, and their messages are what a person reads in a 400's detail.
 */
import { expect } from 'chai';
import type { z } from 'zod';
import {
  emailSchema,
  isPremium,
  loginRequestSchema,
  meSchema,
  problemSchema,
  signupRequestSchema,
  signupResponseSchema,
  subscriptionStatusSchema,
  subscriptionTierSchema,
  usernameSchema,
} from './contracts';

const signup = { email: 'ann@example.com', username: 'ann_1', password: 'secret1', confirmPassword: 'secret1' };

/** `path: message` of every issue, so a test names the field and the text together. */
function issues(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('auth contracts: limits and messages', function () {
  describe('sign-up', function () {
    it('accepts names of 64 characters and refuses 65, trimmed first', function () {
      expect(issues(signupRequestSchema, { ...signup, firstName: 'F'.repeat(64), lastName: ` ${'L'.repeat(64)} ` })).to.deep.equal([]);
      expect(issues(signupRequestSchema, { ...signup, firstName: 'F'.repeat(65) })).to.deep.equal(['firstName: must be at most 64 characters']);
      expect(issues(signupRequestSchema, { ...signup, lastName: 'L'.repeat(65) })).to.deep.equal(['lastName: must be at most 64 characters']);
    });

    it('treats a name of spaces as absent and trims the others', function () {
      const parsed = signupRequestSchema.parse({ ...signup, firstName: '   ', lastName: '  Lee  ' });
      expect([parsed.firstName, parsed.lastName]).to.deep.equal([undefined, 'Lee']);
    });

    it('trims the email and the username', function () {
      expect(signupRequestSchema.parse({ ...signup, email: '  ann@example.com ', username: ' ann_1 ' })).to.include({
        email: 'ann@example.com',
        username: 'ann_1',
      });
    });

    it('accepts passwords of 6 to 256 characters, as typed', function () {
      expect(issues(signupRequestSchema, { ...signup, password: '123456', confirmPassword: '123456' })).to.deep.equal([]);
      const long = 'p'.repeat(256);
      expect(issues(signupRequestSchema, { ...signup, password: long, confirmPassword: long })).to.deep.equal([]);
      expect(signupRequestSchema.parse({ ...signup, password: ' pass1 ', confirmPassword: ' pass1 ' }).password).to.equal(' pass1 ');
    });

    it('says why a password is refused', function () {
      expect(issues(signupRequestSchema, { ...signup, password: '12345', confirmPassword: '12345' })).to.deep.equal([
        'password: must be at least 6 characters long',
      ]);
      const tooLong = 'p'.repeat(257);
      expect(issues(signupRequestSchema, { ...signup, password: tooLong, confirmPassword: tooLong })).to.deep.equal([
        'password: must be at most 256 characters',
        'confirmPassword: must be at most 256 characters',
      ]);
      expect(issues(signupRequestSchema, { ...signup, confirmPassword: 'secret2' })).to.deep.equal(['confirmPassword: must match password']);
    });
  });

  describe('email', function () {
    const at254 = `${'a'.repeat(242)}@example.com`;
    it('accepts 254 characters and refuses 255', function () {
      expect(at254).to.have.length(254);
      expect(issues(emailSchema, at254)).to.deep.equal([]);
      expect(issues(emailSchema, `a${at254}`)).to.deep.equal([': must be at most 254 characters']);
    });

    it('refuses what is not an address', function () {
      for (const bad of ['ann', 'ann@', '@example.com', 'ann example.com']) {
        expect(issues(emailSchema, bad), bad).to.deep.equal([': must be a valid email address']);
      }
    });
  });

  describe('username', function () {
    it('accepts 3 to 32 letters, digits, _ and -', function () {
      for (const good of ['abc', 'A'.repeat(32), 'Zed_09-x', 'a-b', '___', '123']) expect(issues(usernameSchema, good), good).to.deep.equal([]);
      expect(usernameSchema.parse('  ann  ')).to.equal('ann');
    });

    it('refuses anything else, anywhere in the name', function () {
      const message = ': must be 3-32 characters of letters, digits, _ or -';
      for (const bad of ['ab', 'a'.repeat(33), 'ann!', '!ann', 'a.nn', 'an n', 'ännа', '']) {
        expect(issues(usernameSchema, bad), bad).to.deep.equal([message]);
      }
    });
  });

  describe('sign-in', function () {
    it('requires both fields, with the email trimmed and the password as typed', function () {
      expect(issues(loginRequestSchema, { email: '  ', password: '' })).to.deep.equal(['email: is required', 'password: is required']);
      expect(loginRequestSchema.parse({ email: ' ann@example.com ', password: ' x ' })).to.deep.equal({ email: 'ann@example.com', password: ' x ' });
    });

    it('bounds the email at 254 and the password at 256 characters', function () {
      expect(issues(loginRequestSchema, { email: 'e'.repeat(254), password: 'p'.repeat(256) })).to.deep.equal([]);
      expect(issues(loginRequestSchema, { email: 'e'.repeat(255), password: 'p'.repeat(257) })).to.deep.equal([
        'email: must be at most 254 characters',
        'password: must be at most 256 characters',
      ]);
    });

    it('refuses unknown fields', function () {
      expect(loginRequestSchema.safeParse({ email: 'a@b.co', password: 'x', remember: true }).success).to.equal(false);
    });
  });

  describe('shapes served to clients', function () {
    const me = {
      id: 'u1',
      email: 'a@b.co',
      username: 'abc',
      firstName: null,
      lastName: 'Lee',
      subscriptionTier: 'FREE',
      subscriptionStatus: 'ACTIVE',
      isAdmin: false,
      createdAt: '2026-01-01T00:00:00.000Z',
    };

    it('the me shape admits nothing internal', function () {
      expect(meSchema.parse(me)).to.deep.equal(me);
      expect(meSchema.safeParse({ ...me, passwordHash: 'scrypt$x' }).success).to.equal(false);
      expect(meSchema.safeParse({ ...me, subscriptionTier: 'GOLD' }).success).to.equal(false);
    });

    it('knows the tiers and statuses', function () {
      expect(subscriptionTierSchema.options).to.deep.equal(['FREE', 'PREMIUM']);
      expect(subscriptionStatusSchema.options).to.deep.equal(['ACTIVE', 'INACTIVE', 'CANCELLED', 'EXPIRED']);
    });

    it('a sign-up answers a uuid and a position', function () {
      expect(signupResponseSchema.safeParse({ userId: '0b6e8a8e-6c43-4d6f-9d7e-3f1c2b9a7e10', position: 'p' }).success).to.equal(true);
      expect(signupResponseSchema.safeParse({ userId: 'u1', position: 'p' }).success).to.equal(false);
    });

    it('a problem body needs a title, a status and a detail; its type is optional', function () {
      expect(problemSchema.safeParse({ title: 'Forbidden', status: 403, detail: 'no' }).success).to.equal(true);
      expect(problemSchema.safeParse({ title: 'Forbidden', status: 403 }).success).to.equal(false);
    });

    it('premium needs a user', function () {
      expect(isPremium(undefined)).to.equal(false);
    });
  });
});
