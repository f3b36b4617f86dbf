/** The command helper on a real (PGlite) event store: fold with upcasting, retries, idempotency. */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Decider, DomainEvent } from '@papertrade/domain/shared/decider';
import { ConcurrencyError, IdempotencyConflictError, IllegalStateError } from '@papertrade/domain/shared/errors';
import type { SqlEventStore } from '../event-store/sql-event-store';
import { CommandHandler, SNAPSHOT_EVERY } from './command-handler';
import { fold } from '@papertrade/domain/shared/decider';
import type { LoadStreamOptions, LoadedStream } from '../event-store/event-store';
import { pgliteEventStore } from '../../../test/pglite-stores';

type Deposited = DomainEvent<'Deposited', { amount: number; currency: string }>;
type Cmd = { type: 'Deposit'; amount: number };
type State = { balance: number; currencies: string[] };

/** v1 events were { cents } in USD; v2 are { amount, currency }. */
const account: Decider<State, Cmd, Deposited> = {
  name: 'account',
  schemaVersion: 2,
  initialState: () => ({ balance: 0, currencies: [] }),
  evolve: (s, e) => ({ balance: s.balance + e.data.amount, currencies: [...new Set([...s.currencies, e.data.currency])] }),
  decide: (c, s) => {
    if (s.balance + c.amount > 100) throw new IllegalStateError('limit reached');
    return [{ type: 'Deposited', data: { amount: c.amount, currency: 'USD' } }];
  },
  upcast: (e) =>
    e.schemaVersion < 2 ? { type: 'Deposited', data: { amount: Number(e.data.cents) / 100, currency: 'USD' } } : (e as unknown as Deposited),
};

describe('command helper', function () {
  let store: SqlEventStore;
  let cleanup: () => Promise<void>;
  let handler: CommandHandler;
  const meta = () => ({ actor: 'tester', correlationId: randomUUID() });
  beforeEach(async function () {
    ({ store, cleanup } = await pgliteEventStore());
    handler = new CommandHandler(store, () => new Date('2026-01-01T00:00:00Z'), { maxAttempts: 3 });
  });
  afterEach(async function () {
    await cleanup();
  });

  it('folds old schema versions through the upcaster before deciding, and stamps metadata', async function () {
    const stream = `acct-${randomUUID()}`;
    await store.append(stream, [{ id: randomUUID(), type: 'Deposited', data: { cents: 9000 }, metadata: { userId: 'x', correlationId: 'c', causationId: 'c', at: '2020-01-01T00:00:00Z', schemaVersion: 1 } }], 'no_stream');
    const { state } = await handler.load(account, stream);
    expect(state).to.deep.equal({ balance: 90, currencies: ['USD'] });
    const ok = await handler.handle(account, stream, { type: 'Deposit', amount: 10 }, meta());
    expect(ok.events).to.deep.equal([{ type: 'Deposited', data: { amount: 10, currency: 'USD' } }]);
    const [, second] = await store.readStream(stream);
    expect(second!.metadata).to.include({ userId: 'tester', schemaVersion: 2, at: '2026-01-01T00:00:00.000Z' });
    expect(second!.position).to.equal(ok.position);
    let error: unknown;
    await handler.handle(account, stream, { type: 'Deposit', amount: 1 }, meta()).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(IllegalStateError); // 90 + 10 + 1 > 100 only if the v1 event was upcast
  });

  it('retries on a concurrency conflict, deciding again on the fresh state', async function () {
    const stream = `acct-${randomUUID()}`;
    let calls = 0;
    const result = await handler.handle(
      account,
      stream,
      async (state) => {
        calls++;
        if (calls === 1) {
          // another writer gets in between our read and our append
          await store.append(stream, [{ id: randomUUID(), type: 'Deposited', data: { amount: 95, currency: 'USD' }, metadata: { userId: 'y', correlationId: 'c', causationId: 'c', at: 'now', schemaVersion: 2 } }], 'any');
        }
        return { type: 'Deposit' as const, amount: state.balance === 0 ? 50 : 5 };
      },
      meta(),
    );
    expect(calls).to.equal(2);
    expect(result.events[0]!.data.amount).to.equal(5);
    expect((await store.readStream(stream)).map((e) => e.data.amount)).to.deep.equal([95, 5]);
  });

  it('gives up after the bounded number of attempts with a 412', async function () {
    const stream = `acct-${randomUUID()}`;
    let error: unknown;
    await handler
      .handle(
        account,
        stream,
        async () => {
          await store.append(stream, [{ id: randomUUID(), type: 'Deposited', data: { amount: 0, currency: 'USD' }, metadata: { userId: 'y', correlationId: 'c', causationId: 'c', at: 'now', schemaVersion: 2 } }], 'any');
          return { type: 'Deposit' as const, amount: 1 };
        },
        meta(),
      )
      .catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(ConcurrencyError);
    expect((error as ConcurrencyError).status).to.equal(412);
  });

  it('answers a replayed idempotency key with the same ids and appends nothing; another body is a 422', async function () {
    const stream = `acct-${randomUUID()}`;
    const idempotency = { scope: 'tester|POST|/deposit', key: 'k-1', requestHash: 'h1' };
    const first = await handler.handle(account, stream, { type: 'Deposit', amount: 5 }, { ...meta(), idempotency });
    const again = await handler.handle(account, stream, { type: 'Deposit', amount: 5 }, { ...meta(), idempotency });
    expect(again).to.deep.include({ eventIds: first.eventIds, position: first.position, replayed: true });
    expect(await store.readStream(stream)).to.have.length(1);
    let error: unknown;
    await handler.handle(account, stream, { type: 'Deposit', amount: 6 }, { ...meta(), idempotency: { ...idempotency, requestHash: 'h2' } }).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(IdempotencyConflictError);
    expect((error as Error).message).to.equal('This Idempotency-Key was already used with a different request body');
    // the same key from another actor or path is another request
    const other = await handler.handle(account, stream, { type: 'Deposit', amount: 5 }, { ...meta(), idempotency: { ...idempotency, scope: 'someone|POST|/deposit' } });
    expect(other.replayed).to.equal(false);
    expect(other.eventIds).to.not.deep.equal(first.eventIds);
  });
  it('refuses an idempotent command that would append more events than its ids cover (16), and appends nothing; without a key it may', async function () {
    const many: Decider<State, { type: 'Deposit'; amount: number; times: number }, Deposited> = {
      ...account,
      decide: (c) => Array.from({ length: c.times }, () => ({ type: 'Deposited' as const, data: { amount: c.amount, currency: 'USD' } })),
    };
    const stream = `acct-${randomUUID()}`;
    const idempotency = { scope: 'tester|POST|/deposit', key: 'k-many', requestHash: 'h' };
    let error: unknown;
    await handler.handle(many, stream, { type: 'Deposit', amount: 1, times: 17 }, { ...meta(), idempotency }).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(RangeError);
    expect((error as Error).message).to.equal('an idempotent command may append at most 16 events to one stream');
    expect(await store.readStream(stream)).to.have.length(0);
    const [batched] = await handler.handleMany(many, [{ streamId: stream, command: { type: 'Deposit', amount: 1, times: 17 }, meta: { ...meta(), idempotency }, loaded: await handler.load(many, stream, { idempotency }) }]);
    expect((batched as Error).message).to.equal('an idempotent command may append at most 16 events to one stream');
    expect((await handler.handle(many, stream, { type: 'Deposit', amount: 1, times: 16 }, { ...meta(), idempotency })).eventIds).to.have.length(16);
    expect((await handler.handle(many, `acct-${randomUUID()}`, { type: 'Deposit', amount: 1, times: 17 }, meta())).eventIds).to.have.length(17);
  });

  it('replays a key when the caller passes a state it loaded without that key', async function () {
    const stream = `acct-${randomUUID()}`;
    const idempotency = { scope: 'tester|POST|/deposit', key: 'k-reload', requestHash: 'h' };
    const first = await handler.handle(account, stream, { type: 'Deposit', amount: 5 }, { ...meta(), idempotency });
    const loadedWithoutKey = await handler.load(account, stream);
    const again = await handler.handle(account, stream, { type: 'Deposit', amount: 5 }, { ...meta(), idempotency }, loadedWithoutKey);
    expect(again).to.deep.include({ eventIds: first.eventIds, replayed: true });
    expect(await store.readStream(stream)).to.have.length(1);
  });

  it('lets one idempotent request append 16 events to a stream, and refuses 17 appending nothing', async function () {
    const burst: Decider<State, { type: 'Burst'; n: number }, Deposited> = {
      ...account,
      name: 'burst',
      decide: (c) => Array.from({ length: c.n }, () => ({ type: 'Deposited' as const, data: { amount: 1, currency: 'USD' } })),
    };
    const stream = `acct-${randomUUID()}`;
    const idempotency = (key: string) => ({ scope: 'tester|POST|/burst', key, requestHash: 'h' });
    const sixteen = await handler.handle(burst, stream, { type: 'Burst', n: 16 }, { ...meta(), idempotency: idempotency('16') });
    expect(sixteen.eventIds).to.have.length(16);
    let error: unknown;
    await handler.handle(burst, stream, { type: 'Burst', n: 17 }, { ...meta(), idempotency: idempotency('17') }).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(RangeError);
    expect((error as Error).message).to.equal('an idempotent command may append at most 16 events to one stream');
    expect(await store.readStream(stream)).to.have.length(16);
  });

  describe('snapshots', function () {
    // Snapshots are what a load starts from when no state is kept in memory (another process, a
    // restart, an evicted stream): these handlers keep none, so every command loads.
    beforeEach(function () {
      handler = new CommandHandler(store, () => new Date('2026-01-01T00:00:00Z'), { maxAttempts: 3, keptStreams: 0 });
    });
    /** A decider without the deposit limit, so streams can grow long. */
    const ledger: Decider<State, Cmd, Deposited> = { ...account, name: 'ledger', decide: (c) => [{ type: 'Deposited', data: { amount: c.amount, currency: 'USD' } }] };
    const deposit = (stream: string, amount: number, extra: object = {}) => handler.handle(ledger, stream, { type: 'Deposit', amount }, { ...meta(), ...extra });
    /** Records what each load brought back (how many events were folded). */
    function spyLoads(): LoadedStream[] {
      const seen: LoadedStream[] = [];
      const original = store.loadStream.bind(store);
      store.loadStream = async (id: string, options?: LoadStreamOptions) => {
        const loaded = await original(id, options);
        seen.push(loaded);
        return loaded;
      };
      return seen;
    }

    it('folds at most SNAPSHOT_EVERY events per command however long the stream, to the same state as a full fold', async function () {
      const stream = `ledger-${randomUUID()}`;
      const loads = spyLoads();
      for (let i = 1; i <= 3 * SNAPSHOT_EVERY + 5; i++) await deposit(stream, i);
      expect(Math.max(...loads.map((l) => l.events.length))).to.be.at.most(SNAPSHOT_EVERY);
      expect(loads.at(-1)!.snapshot?.revision).to.equal(BigInt(3 * SNAPSHOT_EVERY - 1));
      const recorded = await store.readStream(stream);
      const full = fold(ledger, recorded.map((r) => ({ type: 'Deposited' as const, data: r.data as Deposited['data'] })));
      expect((await handler.load(ledger, stream)).state).to.deep.equal(full);
      expect(full.balance).to.equal(((3 * SNAPSHOT_EVERY + 5) * (3 * SNAPSHOT_EVERY + 6)) / 2);
    });

    it('ignores a snapshot of another schema version, folds from the events and replaces it', async function () {
      const stream = `ledger-${randomUUID()}`;
      for (let i = 0; i < 3; i++) await deposit(stream, 10);
      await store.saveSnapshot(stream, ledger.name, { revision: 2n, schemaVersion: 1, state: { balance: 999, currencies: ['XXX'] } });
      expect((await handler.load(ledger, stream)).state).to.deep.equal({ balance: 30, currencies: ['USD'] });
      for (let i = 0; i < SNAPSHOT_EVERY; i++) await deposit(stream, 1);
      const loaded = await store.loadStream(stream, { snapshot: { name: ledger.name, schemaVersion: ledger.schemaVersion } });
      expect(loaded.snapshot?.schemaVersion).to.equal(2);
      expect((await handler.load(ledger, stream)).state.balance).to.equal(30 + SNAPSHOT_EVERY);
    });

    it('trusts a snapshot of its own version (the events before it are not read again)', async function () {
      const stream = `ledger-${randomUUID()}`;
      await deposit(stream, 10);
      await store.saveSnapshot(stream, ledger.name, { revision: 0n, schemaVersion: 2, state: { balance: 1000, currencies: ['USD'] } });
      await deposit(stream, 1);
      expect((await handler.load(ledger, stream)).state.balance).to.equal(1001);
    });

    const appendRaw = (stream: string, n: number) =>
      store.append(
        stream,
        Array.from({ length: n }, () => ({ id: randomUUID(), type: 'Deposited', data: { amount: 1, currency: 'USD' }, metadata: { userId: 'x', correlationId: 'c', causationId: 'c', at: 'now', schemaVersion: 2 } })),
        'any',
      );

    it('saves a snapshot when a load folds SNAPSHOT_EVERY events or more, so reads of a long stream stay cheap too', async function () {
      const [short, long] = [`ledger-${randomUUID()}`, `ledger-${randomUUID()}`];
      await appendRaw(short, SNAPSHOT_EVERY - 1);
      await appendRaw(long, SNAPSHOT_EVERY + 5);
      expect((await handler.load(ledger, short)).snapshotRevision).to.equal(undefined);
      const first = await handler.load(ledger, long);
      expect(first).to.deep.include({ snapshotRevision: BigInt(SNAPSHOT_EVERY + 4), revision: BigInt(SNAPSHOT_EVERY + 4) });
      const loads = spyLoads();
      const second = await handler.load(ledger, long);
      expect(loads[0]!.events).to.have.length(0);
      expect(loads[0]!.snapshot).to.deep.include({ revision: BigInt(SNAPSHOT_EVERY + 4), schemaVersion: 2 });
      expect(second.state).to.deep.equal(first.state).and.deep.equal({ balance: SNAPSHOT_EVERY + 5, currencies: ['USD'] });
      expect((await handler.load(ledger, short)).snapshotRevision).to.equal(undefined);
    });

    it('answers a load whose snapshot could not be saved, and saves one with the next command instead', async function () {
      const stream = `ledger-${randomUUID()}`;
      await appendRaw(stream, SNAPSHOT_EVERY + 5);
      const save = store.saveSnapshot.bind(store);
      store.saveSnapshot = () => Promise.reject(new Error('disk full'));
      const loaded = await handler.load(ledger, stream);
      expect(loaded).to.deep.include({ snapshotRevision: undefined, state: { balance: SNAPSHOT_EVERY + 5, currencies: ['USD'] } });
      store.saveSnapshot = save;
      await handler.handle(ledger, stream, { type: 'Deposit', amount: 1 }, meta(), loaded);
      const stored = await store.loadStream(stream, { snapshot: { name: ledger.name, schemaVersion: ledger.schemaVersion } });
      expect(stored.snapshot).to.deep.include({ revision: BigInt(SNAPSHOT_EVERY + 5), state: { balance: SNAPSHOT_EVERY + 6, currencies: ['USD'] } });
    });

    it('recognises a replayed Idempotency-Key whose events lie before the snapshot', async function () {
      const stream = `ledger-${randomUUID()}`;
      const idempotency = { scope: 'tester|POST|/deposit', key: 'early', requestHash: 'h' };
      const first = await deposit(stream, 7, { idempotency });
      for (let i = 0; i < 2 * SNAPSHOT_EVERY; i++) await deposit(stream, 1);
      const replay = await deposit(stream, 7, { idempotency });
      expect(replay).to.deep.include({ replayed: true, eventIds: first.eventIds, position: first.position });
      expect(await store.readStream(stream)).to.have.length(1 + 2 * SNAPSHOT_EVERY);
    });
  });
});
