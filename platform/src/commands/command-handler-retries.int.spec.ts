/**
 * The command helper retries a concurrency conflict a bounded number of times, exactly: `maxAttempts`
 * appends in all (5 unless configured), each after loading and deciding again, then a 412. A limit
 * that drifted (doubled, off by one, unbounded) would go unnoticed by tests that only check "it
 * retries" or "it eventually fails", so these count the appends.
 *
 * Only the public behaviour is used (constructor(eventStore, clock, maxAttempts) and handle()); the
 * store is a real one on PGlite whose appends to the command's own stream fail as often as a test
 * says, and anything else the helper does with the store passes through untouched.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Decider, DomainEvent } from '@papertrade/domain/shared/decider';
import { ConcurrencyError, IllegalStateError } from '@papertrade/domain/shared/errors';
import type { EventStore } from '../event-store/event-store';
import type { SqlEventStore } from '../event-store/sql-event-store';
import { CommandHandler } from './command-handler';
import { faultyAppends } from '../../../test/event-store-doubles';
import { pgliteEventStore } from '../../../test/pglite-stores';

type Counted = DomainEvent<'Counted', { n: number }>;
type Count = { type: 'Count' };

const counter: Decider<{ n: number }, Count, Counted> = {
  name: 'counter',
  schemaVersion: 1,
  initialState: () => ({ n: 0 }),
  evolve: (s, e) => ({ n: e.data.n }),
  decide: (_c, s) => [{ type: 'Counted', data: { n: s.n + 1 } }],
};

describe('command helper: the exact number of attempts on concurrency conflicts', function () {
  let store: SqlEventStore;
  let cleanup: () => Promise<void>;
  const clock = () => new Date('2026-01-01T00:00:00Z');
  const meta = () => ({ actor: 'tester', correlationId: randomUUID() });

  beforeEach(async function () {
    ({ store, cleanup } = await pgliteEventStore());
  });
  afterEach(async function () {
    await cleanup();
  });

  /** Runs one command against a stream whose appends always conflict; returns the error and the counts. */
  async function alwaysConflicting(handler: (s: EventStore) => CommandHandler) {
    const stream = `counter-${randomUUID()}`;
    const conflicting = faultyAppends(store, stream, (n) => new ConcurrencyError(`simulated conflict ${n}`));
    let decisions = 0;
    const decide = () => {
      decisions++;
      return { type: 'Count' as const };
    };
    const error = await handler(conflicting.store)
      .handle(counter, stream, decide, meta())
      .then(
        () => null,
        (e: unknown) => e,
      );
    return { error, appends: conflicting.appends(), decisions, stored: await store.readStream(stream) };
  }

  it('makes 5 attempts by default, then answers 412, appending nothing', async function () {
    const { error, appends, decisions, stored } = await alwaysConflicting((s) => new CommandHandler(s, clock));
    expect(error).to.be.instanceOf(ConcurrencyError);
    expect((error as ConcurrencyError).status).to.equal(412);
    expect((error as Error).message).to.equal('The resource was changed by another request at the same time; please retry');
    expect(appends, 'appends attempted').to.equal(5);
    expect(decisions, 'decided once per attempt, on a fresh load').to.equal(5);
    expect(stored).to.deep.equal([]);
  });

  for (const maxAttempts of [1, 3]) {
    it(`makes exactly maxAttempts = ${maxAttempts} attempts when configured`, async function () {
      const { error, appends } = await alwaysConflicting((s) => new CommandHandler(s, clock, { maxAttempts }));
      expect(error).to.be.instanceOf(ConcurrencyError);
      expect(appends).to.equal(maxAttempts);
    });
  }

  it('succeeds on the last allowed attempt (conflicts on the first 4 of 5) with one event stored', async function () {
    const stream = `counter-${randomUUID()}`;
    const conflicting = faultyAppends(store, stream, (n) => (n <= 4 ? new ConcurrencyError(`simulated conflict ${n}`) : null));
    const result = await new CommandHandler(conflicting.store, clock).handle(counter, stream, { type: 'Count' }, meta());
    expect(conflicting.appends()).to.equal(5);
    expect(result.events).to.deep.equal([{ type: 'Counted', data: { n: 1 } }]);
    expect((await store.readStream(stream)).map((e) => e.type)).to.deep.equal(['Counted']);
  });

  for (const failure of [new Error('connection lost'), new IllegalStateError('store refused')]) {
    it(`does not retry other errors (${failure.constructor.name})`, async function () {
      const stream = `counter-${randomUUID()}`;
      const failing = faultyAppends(store, stream, () => failure);
      const error = await new CommandHandler(failing.store, clock).handle(counter, stream, { type: 'Count' }, meta()).catch((e: unknown) => e);
      expect(error).to.equal(failure);
      expect(failing.appends()).to.equal(1);
    });
  }
});
