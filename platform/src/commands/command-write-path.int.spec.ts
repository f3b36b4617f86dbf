/**
 * The command helper's write path on a real (PGlite) event store: what it stamps on every event,
 * how idempotent requests get their ids and replays, and which state a retry decides on. How many
 * attempts it makes, and which failures it retries at all: command-handler-retries.int.spec.ts.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Decider, DomainEvent } from '@papertrade/domain/shared/decider';
import type { NewEvent } from '../event-store/event-store';
import type { SqlEventStore } from '../event-store/sql-event-store';
import { CommandHandler, idempotentId, toDomainEvent } from './command-handler';
import { pgliteEventStore } from '../../../test/pglite-stores';

type Noted = DomainEvent<'Noted', { text: string }>;
type Note = { type: 'Note'; texts: string[] };
type Notes = { texts: string[] };

/** Appends one event per text; an empty list decides nothing. No upcaster. */
const notes: Decider<Notes, Note, Noted> = {
  name: 'notes',
  schemaVersion: 3,
  initialState: () => ({ texts: [] }),
  evolve: (s, e) => ({ texts: [...s.texts, e.data.text] }),
  decide: (c) => c.texts.map((text) => ({ type: 'Noted' as const, data: { text } })),
};

const foreign = (text: string, metadata: Partial<NewEvent['metadata']> = {}): NewEvent => ({
  id: randomUUID(),
  type: 'Noted',
  data: { text },
  metadata: { userId: 'other', correlationId: 'c', causationId: 'c', at: 'then', schemaVersion: 3, ...metadata },
});

describe('command write path', function () {
  let store: SqlEventStore;
  let cleanup: () => Promise<void>;
  const clock = () => new Date('2026-02-03T04:05:06.789Z');
  beforeEach(async function () {
    ({ store, cleanup } = await pgliteEventStore());
  });
  afterEach(async function () {
    await cleanup();
  });

  it('stamps actor, correlation, causation, time and schema version on every event it appends', async function () {
    const handler = new CommandHandler(store, clock);
    const stream = `notes-${randomUUID()}`;
    const first = await handler.handle(notes, stream, { type: 'Note', texts: ['a', 'b'] }, { actor: 'u1', correlationId: 'corr-1' });
    await handler.handle(notes, stream, { type: 'Note', texts: ['c'] }, { actor: 'u2', correlationId: 'corr-2', causationId: 'cause-2' });
    const recorded = await store.readStream(stream);
    expect(recorded.map((r) => r.metadata)).to.deep.equal([
      { userId: 'u1', correlationId: 'corr-1', causationId: 'corr-1', at: '2026-02-03T04:05:06.789Z', schemaVersion: 3 },
      { userId: 'u1', correlationId: 'corr-1', causationId: 'corr-1', at: '2026-02-03T04:05:06.789Z', schemaVersion: 3 },
      { userId: 'u2', correlationId: 'corr-2', causationId: 'cause-2', at: '2026-02-03T04:05:06.789Z', schemaVersion: 3 },
    ]);
    expect(first).to.deep.include({ eventIds: recorded.slice(0, 2).map((r) => r.id), replayed: false });
    expect(first.events).to.deep.equal([{ type: 'Noted', data: { text: 'a' } }, { type: 'Noted', data: { text: 'b' } }]);
    expect(first.position).to.equal(recorded[1]!.position);
    expect(handler.now()).to.equal('2026-02-03T04:05:06.789Z');
  });

  it('appends nothing and answers no position when the decider decides nothing', async function () {
    const handler = new CommandHandler(store, clock);
    const stream = `notes-${randomUUID()}`;
    const result = await handler.handle(notes, stream, { type: 'Note', texts: [] }, { actor: 'u1', correlationId: 'c' });
    expect(result).to.deep.equal({ eventIds: [], events: [], replayed: false });
    expect(await store.readStream(stream)).to.deep.equal([]);
  });

  it('derives the ids of an idempotent request from its scope, key and stream, and records the key beside them', async function () {
    const handler = new CommandHandler(store, clock);
    const stream = `notes-${randomUUID()}`;
    const idempotency = { scope: 'u1|POST|/notes', key: 'key-1', requestHash: 'hash-1' };
    const result = await handler.handle(notes, stream, { type: 'Note', texts: ['a', 'b'] }, { actor: 'u1', correlationId: 'c', idempotency });
    expect(result.eventIds).to.deep.equal([idempotentId(idempotency, `${stream}#0`), idempotentId(idempotency, `${stream}#1`)]);
    expect(result.eventIds[0]).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(idempotentId(idempotency, 'x')).to.equal(idempotentId({ ...idempotency, requestHash: 'other' }, 'x'));
    expect(idempotentId(idempotency, 'x')).to.not.equal(idempotentId({ ...idempotency, key: 'key-2' }, 'x'));
    expect(idempotentId(idempotency, 'x')).to.not.equal(idempotentId({ ...idempotency, scope: 'u2|POST|/notes' }, 'x'));
    expect(idempotentId(idempotency, 'x')).to.not.equal(idempotentId(idempotency, 'y'));
    const [recorded] = await store.readStream(stream);
    expect(recorded!.metadata).to.include({ idempotencyKey: 'key-1', idempotencyScope: 'u1|POST|/notes', requestHash: 'hash-1' });
  });

  it('replays an idempotent request with every event it wrote, even after other writes to the stream', async function () {
    const handler = new CommandHandler(store, clock);
    const stream = `notes-${randomUUID()}`;
    const idempotency = { scope: 'u1|POST|/notes', key: 'key-1', requestHash: 'hash-1' };
    const meta = { actor: 'u1', correlationId: 'c', idempotency };
    const first = await handler.handle(notes, stream, { type: 'Note', texts: ['a', 'b'] }, meta);
    await handler.handle(notes, stream, { type: 'Note', texts: ['c'] }, { actor: 'u1', correlationId: 'c2' });
    let decided = false;
    const again = await handler.handle(notes, stream, () => ((decided = true), { type: 'Note' as const, texts: ['a', 'b'] }), meta);
    expect(decided, 'a replay decides nothing').to.equal(false);
    expect(again).to.deep.equal({ eventIds: first.eventIds, events: first.events, position: first.position, replayed: true });
    expect(await store.readStream(stream)).to.have.length(3);
  });

  it('decides the first attempt on the state the caller loaded, and re-reads for a retry', async function () {
    const handler = new CommandHandler(store, clock);
    const stream = `notes-${randomUUID()}`;
    await store.append(stream, [foreign('stored')], 'no_stream');
    const loaded = await handler.load(notes, stream);
    expect(loaded.state).to.deep.equal({ texts: ['stored'] });
    const seen: string[][] = [];
    const command = (state: Notes) => (seen.push(state.texts), { type: 'Note' as const, texts: ['mine'] });
    await handler.handle(notes, stream, command, { actor: 'u1', correlationId: 'c' }, { ...loaded, state: { texts: ['as loaded'] } });
    expect(seen).to.deep.equal([['as loaded']]);
    // A stale load only costs a retry: the second attempt reads the stream again.
    seen.length = 0;
    await handler.handle(notes, stream, command, { actor: 'u1', correlationId: 'c' }, loaded);
    expect(seen).to.deep.equal([['stored'], ['stored', 'mine']]);
    expect((await store.readStream(stream)).map((r) => r.data.text)).to.deep.equal(['stored', 'mine', 'mine']);
  });

  it('reads events without a schema version as version 1, and passes them on as type and data only', async function () {
    const stream = `notes-${randomUUID()}`;
    const { schemaVersion: _omitted, ...unversioned } = foreign('old').metadata;
    await store.append(stream, [{ ...foreign('old'), metadata: unversioned as NewEvent['metadata'] }], 'no_stream');
    const [recorded] = await store.readStream(stream);
    const versions: number[] = [];
    const upcasting = { upcast: (e: { type: string; data: Record<string, unknown>; schemaVersion: number }) => (versions.push(e.schemaVersion), e as unknown as Noted) };
    toDomainEvent(upcasting, recorded!);
    expect(versions).to.deep.equal([1]);
    expect(toDomainEvent(notes, recorded!)).to.deep.equal({ type: 'Noted', data: { text: 'old' } });
    expect((await new CommandHandler(store, clock).load(notes, stream)).state).to.deep.equal({ texts: ['old'] });
  });
});
