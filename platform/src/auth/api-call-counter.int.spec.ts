/**
 * The monthly API call counter with an injected clock, in memory and on PostgreSQL (two counters on
 * one store stand for two processes: command-api counting, query-api reading).
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { TooManyRequestsError } from '@papertrade/domain/shared/errors';
import { ApiCallCounter, apiCallLimitMessage, monthOf, msToMonthEnd } from './api-call-counter';
import type { LimitStore } from './sign-in-limits';
import { requireServices } from '../../../test/services';
import { limitStoreBackends, refusal } from '../../../test/limit-stores';

describe('monthly API call counter: months in UTC', function () {
  it('names the month in UTC and the time to its end', function () {
    expect(monthOf(new Date('2026-11-30T23:59:59.999Z'))).to.equal('2026-11');
    expect(monthOf(new Date('2026-12-01T00:00:00.000Z'))).to.equal('2026-12');
    expect(msToMonthEnd(new Date('2026-12-31T23:00:00Z'))).to.equal(3_600_000);
    expect(msToMonthEnd(new Date('2026-02-01T00:00:00Z'))).to.equal(28 * 24 * 3_600_000);
  });
});

const stores = limitStoreBackends('apicalls');

for (const backend of stores) {
  describe(`monthly API call counter ${backend.name}`, function () {
    this.timeout(30_000);
    let store: LimitStore;
    let close: () => Promise<void>;
    let now: Date;
    const clock = () => now;

    beforeEach(async function () {
      if (backend.services) await requireServices(this, backend.services);
      ({ store, close } = await backend.make());
      now = new Date('2026-11-30T23:00:00Z');
    });
    afterEach(async () => close?.());

    it('refuses the call past the limit without counting it, and a new month (UTC) starts from 0', async function () {
      const counter = new ApiCallCounter(store, clock);
      // Another process reads the same count from a server store; in memory the process shares its one counter.
      const reader = store.kind === 'memory' ? counter : new ApiCallCounter(store, clock);
      const user = randomUUID();
      expect(await counter.spend(user, 3)).to.equal(1);
      expect(await counter.spend(user, 3)).to.equal(2);
      expect(await counter.spend(user, 3)).to.equal(3);
      const refused = await refusal(counter.spend(user, 3));
      expect(refused?.message).to.equal(apiCallLimitMessage(3));
      expect(refused?.retryAfterSeconds).to.equal(3600); // to the month's end
      expect(await refusal(counter.spend(user, 3))).to.be.instanceOf(TooManyRequestsError);
      expect(await reader.used(user)).to.equal(3);
      expect(await reader.used(randomUUID())).to.equal(0);
      now = new Date('2026-12-01T00:00:00Z');
      expect(await reader.used(user)).to.equal(0);
      expect(await counter.spend(user, 3)).to.equal(1);
    });

    it('counts without a limit and never refuses (Premium Pro)', async function () {
      const counter = new ApiCallCounter(store, clock);
      const user = randomUUID();
      await counter.record(user, 100_000);
      expect(await counter.spend(user, null)).to.equal(100_001);
      expect(await counter.used(user)).to.equal(100_001);
    });

    it('concurrent calls at the limit: exactly the limit gets through', async function () {
      const counter = new ApiCallCounter(store, clock);
      const user = randomUUID();
      await counter.record(user, 5);
      const results = await Promise.all(Array.from({ length: 10 }, () => refusal(counter.spend(user, 10))));
      expect(results.filter((r) => r === null)).to.have.length(5);
      expect(await counter.used(user)).to.equal(10);
    });
  });
}
