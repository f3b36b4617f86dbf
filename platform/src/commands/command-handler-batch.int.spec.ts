/**
 * The command helper's batch path (loadMany + handleMany, what the trading bot uses for a signal's
 * bots) on a real (PGlite) event store: one load and one append for many streams, each stream under
 * its own optimistic check, per-item answers, idempotent replays, and snapshots so a long stream
 * still folds at most SNAPSHOT_EVERY events.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Decider, DomainEvent } from '@papertrade/domain/shared/decider';
import { IdempotencyConflictError, IllegalStateError } from '@papertrade/domain/shared/errors';
import type { SqlEventStore } from '../event-store/sql-event-store';
import type { LoadStreamsOptions, LoadedStream } from '../event-store/event-store';
import { CommandHandler, SNAPSHOT_EVERY, type CommandResult, type Idempotency } from './command-handler';
import { pgliteEventStore } from '../../../test/pglite-stores';

type Deposited = DomainEvent<'Deposited', { amount: number }>;
type Cmd = { type: 'Deposit'; amount: number };
type State = { balance: number };

const account: Decider<State, Cmd, Deposited> = {
  name: 'account',
  schemaVersion: 1,
  initialState: () => ({ balance: 0 }),
  evolve: (s, e) => ({ balance: s.balance + e.data.amount }),
  decide: (c, s) => {
    if (s.balance + c.amount > 1000) throw new IllegalStateError('limit reached');
    return c.amount === 0 ? [] : [{ type: 'Deposited', data: { amount: c.amount } }];
  },
};

describe('command helper, many streams at once (loadMany, handleMany)', function () {
  let store: SqlEventStore;
  let cleanup: () => Promise<void>;
  let handler: CommandHandler;
  const meta = (idempotency?: Idempotency) => ({ actor: 'tester', correlationId: randomUUID(), ...(idempotency ? { idempotency } : {}) });
  const key = (k: string): Idempotency => ({ scope: 'test', key: k, requestHash: k });
  beforeEach(async function () {
    ({ store, cleanup } = await pgliteEventStore());
    handler = new CommandHandler(store, () => new Date());
  });
  afterEach(async function () {
    await cleanup();
  });

  /** Counts the event store's round trips. */
  function countCalls() {
    const calls = { loadStream: 0, loadStreams: 0, append: 0, appendMany: 0 };
    for (const name of Object.keys(calls) as Array<keyof typeof calls>) {
      const original = (store[name] as (...args: unknown[]) => Promise<unknown>).bind(store);
      (store as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
        calls[name] += 1;
        return original(...args);
      };
    }
    return calls;
  }

  it('decides every stream on its loaded state and appends them with one load and one write', async function () {
    const streams = Array.from({ length: 5 }, () => `acct-${randomUUID()}`);
    await store.append(streams[1]!, [{ id: randomUUID(), type: 'Deposited', data: { amount: 995 }, metadata: { userId: 'x', correlationId: 'c', causationId: 'c', at: 'now', schemaVersion: 1 } }], 'no_stream');
    const calls = countCalls();
    const loaded = await handler.loadMany(account, streams.map((streamId) => ({ streamId })));
    expect(loaded.map((l) => l.state.balance)).to.deep.equal([0, 995, 0, 0, 0]);
    const amounts = [10, 10, 0, 30, 40]; // the second is over the limit; the third decides nothing
    const results = await handler.handleMany(account, streams.map((streamId, i) => ({ streamId, command: { type: 'Deposit' as const, amount: amounts[i]! }, meta: meta(), loaded: loaded[i]! })));
    expect(calls).to.deep.equal({ loadStream: 0, loadStreams: 1, append: 0, appendMany: 1 });
    expect(results[1]).to.be.instanceOf(IllegalStateError);
    expect((results[2] as CommandResult<Deposited>).eventIds).to.deep.equal([]);
    for (const i of [0, 3, 4]) {
      const result = results[i] as CommandResult<Deposited>;
      const [event] = await store.readStream(streams[i]!);
      expect(result.eventIds).to.deep.equal([event!.id]);
      expect(result.position).to.equal(event!.position);
      expect(event!.data).to.deep.equal({ amount: amounts[i] });
    }
    expect(await store.readStream(streams[1]!)).to.have.length(1);
  });

  it('handles a stream that changed since its load again on its own, on the fresh state', async function () {
    const [a, b] = [`acct-${randomUUID()}`, `acct-${randomUUID()}`];
    const loaded = await handler.loadMany(account, [{ streamId: a }, { streamId: b }]);
    await handler.handle(account, b, { type: 'Deposit', amount: 980 }, meta()); // another writer, after the load
    const results = await handler.handleMany(account, [a, b].map((streamId, i) => ({ streamId, command: { type: 'Deposit' as const, amount: 30 }, meta: meta(), loaded: loaded[i]! })));
    expect((results[0] as CommandResult<Deposited>).events).to.have.length(1);
    // Decided again on 980: over the limit, refused (on the stale state it would have passed).
    expect(results[1]).to.be.instanceOf(IllegalStateError);
    expect((await store.readStream(b)).map((e) => e.data)).to.deep.equal([{ amount: 980 }]);
  });

  it('answers an idempotency key already used with the same ids and appends nothing; another body is a conflict', async function () {
    const [a, b] = [`acct-${randomUUID()}`, `acct-${randomUUID()}`];
    const first = await handler.handle(account, a, { type: 'Deposit', amount: 5 }, meta(key('k-a')));
    await handler.handle(account, b, { type: 'Deposit', amount: 5 }, meta(key('k-b')));
    const asked = [{ streamId: a, idempotency: key('k-a') }, { streamId: b, idempotency: { ...key('k-b'), requestHash: 'other' } }];
    const loaded = await handler.loadMany(account, asked);
    const results = await handler.handleMany(account, asked.map(({ streamId, idempotency }, i) => ({ streamId, command: { type: 'Deposit' as const, amount: 5 }, meta: meta(idempotency), loaded: loaded[i]! })));
    expect(results[0]).to.deep.include({ eventIds: first.eventIds, replayed: true });
    expect(results[1]).to.be.instanceOf(IdempotencyConflictError);
    expect(await store.readStream(a)).to.have.length(1);
    expect(await store.readStream(b)).to.have.length(1);
  });

  it('folds at most SNAPSHOT_EVERY events per stream however long the streams grow', async function () {
    const streams = [`acct-${randomUUID()}`, `acct-${randomUUID()}`];
    const seen: LoadedStream[] = [];
    const original = store.loadStreams.bind(store);
    store.loadStreams = async (ids: string[], options?: LoadStreamsOptions) => {
      const loaded = await original(ids, options);
      seen.push(...loaded);
      return loaded;
    };
    for (let round = 0; round < 3 * SNAPSHOT_EVERY + 3; round++) {
      const loaded = await handler.loadMany(account, streams.map((streamId) => ({ streamId, idempotency: key(`${streamId}#${round}`) })));
      const results = await handler.handleMany(account, streams.map((streamId, i) => ({ streamId, command: { type: 'Deposit' as const, amount: 1 }, meta: meta(key(`${streamId}#${round}`)), loaded: loaded[i]! })));
      expect(results.every((r) => !(r instanceof Error))).to.equal(true);
    }
    expect(Math.max(...seen.map((l) => l.events.length))).to.be.at.most(SNAPSHOT_EVERY);
    expect(seen.at(-1)!.snapshot).to.not.equal(undefined);
    for (const stream of streams) expect((await handler.load(account, stream)).state.balance).to.equal(3 * SNAPSHOT_EVERY + 3);
  });
});
