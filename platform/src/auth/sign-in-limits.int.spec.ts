/**
 * The sign-in and sign-up limits, with an injected clock (fake Date and timers), in memory and on
 * PostgreSQL, where two instances (two command-api processes) must count against the same limits.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import FakeTimers from '@sinonjs/fake-timers';
import { DEFAULT_SIGN_IN_LIMITS, MESSAGES, RATE_LIMIT_TABLE, SignInLimits, type LimitStore } from './sign-in-limits';
import { requireServices } from '../../../test/services';
import { limitStoreBackends, refusal } from '../../../test/limit-stores';

const MINUTE = 60_000;
type InstalledClock = ReturnType<typeof FakeTimers.install>;

const stores = limitStoreBackends('limits');

for (const backend of stores) {
  describe(`sign-in limits ${backend.name}`, function () {
    this.timeout(30_000);
    let clock: InstalledClock;
    let limits: SignInLimits;
    let close: () => Promise<void>;
    let store: LimitStore;
    const account = () => `${randomUUID()}@example.com`;

    beforeEach(async function () {
      if (backend.services) await requireServices(this, backend.services);
      ({ store, close } = await backend.make());
      // Date and timers only: the PostgreSQL driver still needs real I/O and ticks.
      clock = FakeTimers.install({ now: Date.parse('2026-05-01T10:00:00Z'), toFake: ['Date', 'setTimeout', 'clearTimeout'], shouldClearNativeTimers: true });
      limits = new SignInLimits(store, DEFAULT_SIGN_IN_LIMITS);
    });
    afterEach(async function () {
      clock?.uninstall();
      await close?.();
    });

    async function fail(email: string, address: string, times: number) {
      for (let i = 0; i < times; i++) await limits.recordFailure(email, address);
    }

    it('refuses an account from an address after 5 failures there, for 15 minutes from the first, with a Retry-After', async function () {
      const email = account();
      await fail(email, '203.0.113.7', 4);
      expect(await refusal(limits.checkAccount(email, '203.0.113.7'))).to.equal(null);
      await fail(email, '203.0.113.7', 1);
      const refused = await refusal(limits.checkAccount(email, '203.0.113.7'));
      expect(refused?.message).to.equal(MESSAGES.accountAndAddress);
      expect(refused?.retryAfterSeconds).to.equal(15 * 60);
      clock.tick(15 * MINUTE - 1000);
      expect(await refusal(limits.checkAccount(email, '203.0.113.7'))).to.not.equal(null);
      clock.tick(1001);
      expect(await refusal(limits.checkAccount(email, '203.0.113.7'))).to.equal(null);
    });

    it("does not let a stranger's failures lock the owner out from another address", async function () {
      const email = account();
      await fail(email, '198.51.100.66', 5);
      expect(await refusal(limits.checkAccount(email, '198.51.100.66'))).to.not.equal(null);
      expect(await refusal(limits.checkAccount(email, '203.0.113.7'))).to.equal(null);
    });

    it('forgets the failures of an address when the account signs in from it', async function () {
      const email = account();
      await fail(email, '203.0.113.7', 4);
      await limits.recordSuccess(email, '203.0.113.7');
      await fail(email, '203.0.113.7', 4);
      expect(await refusal(limits.checkAccount(email, '203.0.113.7'))).to.equal(null);
    });

    it('past 50 failures an hour from anywhere, lets only the addresses the account signed in from before try', async function () {
      const email = account();
      await limits.recordSuccess(email, '203.0.113.7'); // the owner's usual place
      for (let i = 0; i < 50; i++) await limits.recordFailure(email, `198.51.100.${i}`);
      const stranger = await refusal(limits.checkAccount(email, '192.0.2.1'));
      expect(stranger?.message).to.equal(MESSAGES.account);
      expect(stranger?.retryAfterSeconds).to.equal(60 * 60);
      expect(await refusal(limits.checkAccount(email, '203.0.113.7'))).to.equal(null);
      clock.tick(60 * MINUTE + 1);
      expect(await refusal(limits.checkAccount(email, '192.0.2.1'))).to.equal(null);
    });

    it('gives each address 20 attempts a minute', async function () {
      for (let i = 0; i < 20; i++) expect(await refusal(limits.spendAttempt('192.0.2.9'))).to.equal(null);
      const refused = await refusal(limits.spendAttempt('192.0.2.9'));
      expect(refused?.message).to.equal(MESSAGES.address);
      expect(refused?.retryAfterSeconds).to.equal(60);
      expect(await refusal(limits.spendAttempt('192.0.2.10'))).to.equal(null);
      clock.tick(MINUTE + 1);
      expect(await refusal(limits.spendAttempt('192.0.2.9'))).to.equal(null);
    });

    it('gives each address 10 sign-ups an hour', async function () {
      for (let i = 0; i < 10; i++) await limits.spendSignup('192.0.2.20');
      expect((await refusal(limits.spendSignup('192.0.2.20')))?.message).to.equal(MESSAGES.signups);
      clock.tick(59 * MINUTE);
      expect(await refusal(limits.spendSignup('192.0.2.20'))).to.not.equal(null);
      clock.tick(MINUTE + 1);
      expect(await refusal(limits.spendSignup('192.0.2.20'))).to.equal(null);
    });

    if (backend.services === 'postgres') {
      it('counts the failures of two instances (two command-api processes) together, and stores no email', async function () {
        const other = new SignInLimits(store, DEFAULT_SIGN_IN_LIMITS);
        const email = account();
        await fail(email, '203.0.113.7', 3);
        for (let i = 0; i < 2; i++) await other.recordFailure(email, '203.0.113.7');
        expect(await refusal(limits.checkAccount(email, '203.0.113.7'))).to.not.equal(null);
        expect(await refusal(other.checkAccount(email, '203.0.113.7'))).to.not.equal(null);
        if (store.kind !== 'postgres') throw new Error('unreachable');
        const { rows } = await store.pool.query(`SELECT key FROM "${store.schema}"."${RATE_LIMIT_TABLE}"`);
        expect(rows.length).to.be.greaterThan(0);
        expect(JSON.stringify(rows)).to.not.include(email);
        expect(JSON.stringify(rows)).to.not.include('203.0.113.7');
      });
    }
  });
}
