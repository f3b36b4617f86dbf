/**
 * Streams kept in memory (command-handler.ts): a handler decides the next command on the state its
 * last write produced and appends without loading; anyone else's write in between is caught by the
 * append's expectation, and a refusal on a kept state is checked against the stored stream.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Decider, DomainEvent } from '@papertrade/domain/shared/decider';
import { IllegalStateError } from '@papertrade/domain/shared/errors';
import type { SqlEventStore } from '../event-store/sql-event-store';
import type { LoadStreamOptions, LoadedStream } from '../event-store/event-store';
import { CommandHandler } from './command-handler';
import { pgliteEventStore } from '../../../test/pglite-stores';

type Moved = DomainEvent<'Moved', { amount: number }>;
type Cmd = { type: 'Move'; amount: number } | { type: 'Close' } | { type: 'Reopen' };
type Event = Moved | DomainEvent<'Closed', Record<string, never>> | DomainEvent<'Reopened', Record<string, never>>;
type State = { balance: number; closed: boolean };

/** A balance that may not go below zero; closing a closed account (or reopening an open one) appends nothing. */
const wallet: Decider<State, Cmd, Event> = {
  name: 'wallet',
  schemaVersion: 1,
  initialState: () => ({ balance: 0, closed: false }),
  evolve: (s, e) => (e.type === 'Moved' ? { ...s, balance: s.balance + (e.data as Moved['data']).amount } : { ...s, closed: e.type === 'Closed' }),
  decide: (c, s) => {
    if (c.type === 'Close') return s.closed ? [] : [{ type: 'Closed', data: {} }];
    if (c.type === 'Reopen') return s.closed ? [{ type: 'Reopened', data: {} }] : [];
    if (s.balance + c.amount < 0) throw new IllegalStateError(`balance ${s.balance} is too low`);
    return [{ type: 'Moved', data: { amount: c.amount } }];
  },
};

const meta = () => ({ actor: 'tester', correlationId: randomUUID() });
const move = (amount: number): Cmd => ({ type: 'Move', amount });

describe('command helper: streams kept in memory', function () {
  let store: SqlEventStore;
  let cleanup: () => Promise<void>;
  let loads: string[];
  let appends: number;
  const clock = () => new Date('2026-01-01T00:00:00Z');

  beforeEach(async function () {
    ({ store, cleanup } = await pgliteEventStore());
    loads = [];
    appends = 0;
    const load = store.loadStream.bind(store);
    store.loadStream = async (id: string, options?: LoadStreamOptions): Promise<LoadedStream> => {
      loads.push(id);
      return load(id, options);
    };
    const append = store.append.bind(store);
    store.append = async (...args: Parameters<SqlEventStore['append']>) => {
      appends++;
      return append(...args);
    };
  });
  afterEach(async function () {
    await cleanup();
  });

  it('decides the next command on the state its last write produced, without loading the stream', async function () {
    const handler = new CommandHandler(store, clock);
    const stream = `wallet-${randomUUID()}`;
    await handler.handle(wallet, stream, move(10), meta());
    expect(loads).to.have.length(1);
    for (let i = 0; i < 5; i++) await handler.handle(wallet, stream, move(i), meta());
    expect(loads, 'no load after the first command').to.have.length(1);
    expect((await handler.load(wallet, stream)).state).to.deep.equal({ balance: 20, closed: false });
    expect((await store.readStream(stream)).map((e) => e.revision)).to.deep.equal([0n, 1n, 2n, 3n, 4n, 5n]);
  });

  it("meets another writer's event as a conflict, then loads and decides on the stored stream", async function () {
    const mine = new CommandHandler(store, clock);
    const other = new CommandHandler(store, clock);
    const stream = `wallet-${randomUUID()}`;
    await mine.handle(wallet, stream, move(10), meta());
    await other.handle(wallet, stream, move(5), meta());
    loads = [];
    appends = 0;
    await mine.handle(wallet, stream, move(1), meta());
    expect(appends, 'one append on the kept state, refused; one after the load').to.equal(2);
    expect(loads).to.deep.equal([stream]);
    const events = await store.readStream(stream);
    expect(events.map((e) => e.data)).to.deep.equal([{ amount: 10 }, { amount: 5 }, { amount: 1 }]);
    // And it keeps the state it has now: the next command needs no load.
    loads = [];
    await mine.handle(wallet, stream, move(1), meta());
    expect(loads).to.deep.equal([]);
  });

  it('checks a refusal on a kept state against the stored stream before answering it', async function () {
    const mine = new CommandHandler(store, clock);
    const other = new CommandHandler(store, clock);
    const stream = `wallet-${randomUUID()}`;
    await mine.handle(wallet, stream, move(10), meta());
    await other.handle(wallet, stream, move(90), meta());
    // Kept, mine sees a balance of 10; stored, it is 100: the withdrawal is allowed.
    loads = [];
    await mine.handle(wallet, stream, move(-50), meta());
    expect(loads).to.deep.equal([stream]);
    expect((await mine.load(wallet, stream)).state.balance).to.equal(50);
    // A refusal the stored stream confirms is answered, after one load.
    loads = [];
    let refused: unknown;
    await mine.handle(wallet, stream, move(-51), meta()).catch((error: unknown) => (refused = error));
    expect(refused).to.be.instanceOf(IllegalStateError);
    expect(loads).to.deep.equal([stream]);
  });

  it('checks "nothing to append" on a kept state against the stored stream', async function () {
    const mine = new CommandHandler(store, clock);
    const other = new CommandHandler(store, clock);
    const stream = `wallet-${randomUUID()}`;
    await mine.handle(wallet, stream, { type: 'Close' }, meta());
    await other.handle(wallet, stream, { type: 'Reopen' }, meta());
    // Kept, the wallet is closed and closing it is nothing to do; stored, it was reopened.
    loads = [];
    const result = await mine.handle(wallet, stream, { type: 'Close' }, meta());
    expect(result.events.map((e) => e.type)).to.deep.equal(['Closed']);
    expect(loads).to.deep.equal([stream]);
    expect((await store.readStream(stream)).map((e) => e.type)).to.deep.equal(['Closed', 'Reopened', 'Closed']);
    // When the stored stream agrees, nothing is appended.
    appends = 0;
    expect((await mine.handle(wallet, stream, { type: 'Close' }, meta())).events).to.deep.equal([]);
    expect(appends).to.equal(0);
  });

  it('always loads an idempotent request (its ids are looked up in the stored stream)', async function () {
    const handler = new CommandHandler(store, clock);
    const stream = `wallet-${randomUUID()}`;
    await handler.handle(wallet, stream, move(10), meta());
    loads = [];
    const idempotency = { scope: 'tester|POST|/wallet', key: 'k1', requestHash: 'h1' };
    const first = await handler.handle(wallet, stream, move(1), { ...meta(), idempotency });
    const again = await handler.handle(wallet, stream, move(1), { ...meta(), idempotency });
    expect(loads).to.deep.equal([stream, stream]);
    expect(again.replayed).to.equal(true);
    expect(again.eventIds).to.deep.equal(first.eventIds);
  });

  it('serves a kept state to load only when asked, marked as kept', async function () {
    const handler = new CommandHandler(store, clock);
    const stream = `wallet-${randomUUID()}`;
    await handler.handle(wallet, stream, move(10), meta());
    loads = [];
    const kept = await handler.load(wallet, stream, undefined, { kept: true });
    expect(kept.kept).to.equal(true);
    expect(kept.state).to.deep.equal({ balance: 10, closed: false });
    expect(loads).to.deep.equal([]);
    const fresh = await handler.load(wallet, stream);
    expect(fresh.kept).to.equal(undefined);
    expect(loads).to.deep.equal([stream]);
  });

  it('keeps nothing with keptStreams: 0', async function () {
    const handler = new CommandHandler(store, clock, { keptStreams: 0 });
    const stream = `wallet-${randomUUID()}`;
    for (let i = 0; i < 3; i++) await handler.handle(wallet, stream, move(1), meta());
    expect(loads).to.have.length(3);
  });
});
