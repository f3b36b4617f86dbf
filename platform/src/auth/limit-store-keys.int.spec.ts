/**
 * What the sign-in limits and the monthly API call counter keep in their stores, and for how long:
 * each limit under its own name in the shared table, keys that no account and address can share by
 * running into each other, a known address kept for its whole window, and a month's count kept to the
 * month's end (plus a day on the servers; for good in memory, whose timers cannot run a month).
 * Date and timers are faked (as in sign-in-limits.int.spec.ts): the memory store expires keys with
 * timers, and Node (like the fake clock) fires a timer longer than 2^31-1 ms at once.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import FakeTimers from '@sinonjs/fake-timers';
import { ApiCallCounter, API_CALLS_KEY_PREFIX } from './api-call-counter';
import { DEFAULT_SIGN_IN_LIMITS, MESSAGES, RATE_LIMIT_TABLE, SignInLimits, type LimitStore } from './sign-in-limits';
import { requireServices } from '../../../test/services';
import { limitStoreBackends, refusal } from '../../../test/limit-stores';

const DAY = 24 * 60 * 60_000;
type InstalledClock = ReturnType<typeof FakeTimers.install>;

const stores = limitStoreBackends('limitkeys');

for (const backend of stores) {
  describe(`limit store keys and lifetimes ${backend.name}`, function () {
    this.timeout(30_000);
    let clock: InstalledClock;
    let store: LimitStore;
    let close: () => Promise<void>;

    beforeEach(async function () {
      if (backend.services) await requireServices(this, backend.services);
      ({ store, close } = await backend.make());
      clock = FakeTimers.install({ now: Date.parse('2026-11-01T00:00:00Z'), toFake: ['Date', 'setTimeout', 'clearTimeout'], shouldClearNativeTimers: true });
    });
    afterEach(async function () {
      clock?.uninstall();
      await close?.();
    });

    it('keeps the failures of an account at an address apart from those of any other pair whose texts run together', async function () {
      const limits = new SignInLimits(store, DEFAULT_SIGN_IN_LIMITS);
      const email = `${randomUUID()}@example.com`;
      // "…com" + "1192.0.2.7" and "…com1" + "192.0.2.7" are the same text end to end.
      for (let i = 0; i < 5; i++) await limits.recordFailure(email, '1192.0.2.7');
      expect((await refusal(limits.checkAccount(email, '1192.0.2.7')))?.message).to.equal(MESSAGES.accountAndAddress);
      expect(await refusal(limits.checkAccount(`${email}1`, '192.0.2.7'))).to.equal(null);
    });

    it('keeps an address known to the account after a sign-in for weeks (on the servers for the whole 90 days)', async function () {
      const limits = new SignInLimits(store, DEFAULT_SIGN_IN_LIMITS);
      const email = `${randomUUID()}@example.com`;
      await limits.recordSuccess(email, '203.0.113.7');
      // In memory a timer cannot run past 24.8 days: the window is cut to that there.
      clock.tick(store.kind === 'memory' ? 20 * DAY : 89 * DAY);
      for (let i = 0; i < 50; i++) await limits.recordFailure(email, `198.51.100.${i}`);
      expect((await refusal(limits.checkAccount(email, '192.0.2.1')))?.message).to.equal(MESSAGES.account);
      expect(await refusal(limits.checkAccount(email, '203.0.113.7'))).to.equal(null);
    });

    it("keeps a month's API calls counted until the month is over", async function () {
      const counter = new ApiCallCounter(store, () => new Date(Date.now()));
      const user = randomUUID();
      for (let i = 0; i < 3; i++) await counter.spend(user, 3);
      clock.tick(29 * DAY);
      const refused = await refusal(counter.spend(user, 3));
      // The problem body says which limit and how much of it is used, in words and as members.
      expect(refused?.message).to.equal(
        "Monthly API call limit reached: the Free Starter plan allows 3 API calls per calendar month (UTC), and this month's are used up. Upgrade to Premium Pro for unlimited API calls, or wait until the 1st of next month.",
      );
      expect(refused?.extra).to.deep.equal({ limit: 3, used: 3 });
      expect(await counter.used(user)).to.equal(3);
    });

    if (backend.services === 'postgres') {
      it('keeps each limit under its own name in the shared table, with the account and address hashed', async function () {
        if (store.kind !== 'postgres') throw new Error('unreachable');
        const limits = new SignInLimits(store, DEFAULT_SIGN_IN_LIMITS);
        const email = `${randomUUID()}@example.com`;
        await limits.spendAttempt('203.0.113.7');
        await limits.spendSignup('203.0.113.7');
        await limits.recordSuccess(email, '203.0.113.7');
        await limits.recordFailure(email, '203.0.113.7');
        await new ApiCallCounter(store, () => new Date(Date.now())).spend(randomUUID(), null);
        const { rows } = await store.pool.query<{ key: string }>(`SELECT key FROM "${store.schema}"."${RATE_LIMIT_TABLE}" `);
        expect(rows.map((r) => r.key.slice(0, r.key.indexOf(':'))).sort()).to.deep.equal([
          API_CALLS_KEY_PREFIX,
          'attempts-address',
          'failures-account',
          'failures-account-address',
          'known-address',
          'signups-address',
        ]);
        expect(JSON.stringify(rows)).to.not.include(email).and.not.include('203.0.113.7');
      });

      it("keeps a month's API call count on the server until a day after the month ends", async function () {
        if (store.kind !== 'postgres') throw new Error('unreachable');
        const counter = new ApiCallCounter(store, () => new Date(Date.now()));
        clock.setSystemTime(Date.parse('2026-11-30T23:00:00.500Z'));
        await counter.spend(randomUUID(), 10);
        const { rows } = await store.pool.query<{ expire: string }>(`SELECT expire FROM "${store.schema}"."${RATE_LIMIT_TABLE}"`);
        // The month's last half hour and a half, and a day: whole seconds, rounded up.
        expect(rows.map((r) => Number(r.expire))).to.deep.equal([Date.parse('2026-11-30T23:00:00.500Z') + 3_600_000 + DAY]);
      });
    }
  });
}
