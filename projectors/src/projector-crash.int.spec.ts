/**
 * A projector that dies in the middle of a flush resumes with nothing lost and nothing doubled.
 *
 * A flush writes the documents, then the checkpoint: a crash between the two means the next
 * instance starts from an older checkpoint and the documents' own positions make the redelivery
 * harmless. (Had the checkpoint been written first, a crash in between would skip events for good.)
 *
 * The crash is injected through the document store: `CrashingProcess` lets a chosen write reach the
 * store and then behaves like a dead process (that call and every later one never returns), and a
 * second projector takes over on the untouched store, as a restarted process would. Counters are
 * checked exactly: public stats count traders, and a test projection records every revision it
 * applied per stream, so one event applied twice or not at all shows.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { PUBLIC_STATS_ID, PUBLIC_STATS_PROJECTION, type PublicStatsView } from '@papertrade/domain/public-stats/public-stats-view';
import { USERS_PROJECTION, type UserView } from '@papertrade/domain/auth/user-view';
import type { Document, DocumentStore } from '@papertrade/platform/document-store/document-store';
import type { EventStore, NewEvent, RecordedEvent } from '@papertrade/platform/event-store/event-store';
import { MemoryBus } from '@papertrade/platform/bus/memory-bus';
import { MemoryLeaseProvider } from '@papertrade/platform/projections/lease';
import { Projector } from '@papertrade/platform/projections/projector';
import type { ProjectionDefinition } from '@papertrade/platform/projections/projection';
import { CHECKPOINT_COLLECTION, checkpointId, generationCollection, type Checkpoint } from '@papertrade/platform/projections/read-models';
import { silentLogger } from '@papertrade/platform/config/logger';
import { projections } from './projections';
import { pgliteStores } from '../../test/pglite-stores';
import { waitUntil } from '../../test/wait';

const at = '2026-11-05T00:00:00.000Z';
const meta = () => ({ userId: 'system', correlationId: randomUUID(), causationId: randomUUID(), at, schemaVersion: 1 });

/** Per stream, every revision applied, in order: [0, 1] for a stream of two events applied once each. */
type Applied = { revisions: number[] } & Document;
const APPLIED = 'applied';
/** Streams named `temp-…` are closed by their last event, which deletes their document. */
const appliedProjection: ProjectionDefinition<Applied> = {
  name: APPLIED,
  documentIds: (event) => [event.streamId],
  evolve: (doc, event, recorded) => (event.type === 'Closed' ? null : { revisions: [...(doc?.revisions ?? []), Number(recorded.revision)] }),
};

interface Write {
  collection: string;
  method: string;
  ids: string[];
}

const WRITES = new Set(['put', 'putIfNewer', 'putManyIfNewer', 'delete', 'drop']);
const never = () => new Promise<never>(() => {});

function idsOf(method: string, args: unknown[]): string[] {
  if (method === 'putManyIfNewer') return (args[0] as Array<{ id: string }>).map((item) => item.id);
  return method === 'drop' ? [] : [String(args[0])];
}

/**
 * One projector "process" that dies right after the write `crashAfter` picks: that write reaches the
 * store, its caller never hears back, and no later call (read or write) reaches the store again.
 */
class CrashingProcess {
  readonly writes: Write[] = [];
  crashed = false;
  /** False once the run is over: a write after it (a stop's last checkpoint) must not kill the process while it stops. */
  private armed = true;
  readonly crash: Promise<Write>;
  private died!: (write: Write) => void;

  constructor(private readonly crashAfter: (write: Write, count: number) => boolean) {
    this.crash = new Promise((resolve) => (this.died = resolve));
  }

  disarm(): void {
    this.armed = false;
  }

  documents(inner: DocumentStore): DocumentStore {
    return new Proxy(inner, {
      get: (target, property) => {
        if (property === 'collection') return (name: string) => this.collection(target.collection(name), name);
        if (property === 'close') return async () => {}; // the store outlives this process
        return Reflect.get(target, property, target);
      },
    });
  }

  private collection<T extends object>(inner: T, name: string): T {
    return new Proxy(inner, {
      get: (target, property) => {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        const method = String(property);
        return async (...args: unknown[]) => {
          if (this.crashed) return never();
          const result: unknown = await (value as (...a: unknown[]) => unknown).apply(target, args);
          if (!WRITES.has(method)) return this.crashed ? never() : result;
          const write = { collection: name, method, ids: idsOf(method, args) };
          this.writes.push(write);
          if (this.armed && !this.crashed && this.crashAfter(write, this.writes.length)) {
            this.crashed = true;
            this.died(write);
          }
          return this.crashed ? never() : result;
        };
      },
    });
  }
}

describe('projector crash in the middle of a flush (PGlite)', function () {
  this.timeout(120_000);
  let eventStore: EventStore;
  let documents: DocumentStore;
  let cleanup: () => Promise<void>;

  before(async function () {
    ({ eventStore, documents, cleanup } = await pgliteStores());
  });
  after(async function () {
    await cleanup?.();
  });

  /**
   * The projections that keep documents for the events seeded here (user events): the others would
   * only write checkpoints, and one crash run per write of theirs makes the spec grow with every
   * slice added, without covering anything new.
   */
  const sample = (type: string) => ({ type, data: { userId: randomUUID(), registeredAt: at, updatedAt: at, changes: {} } }) as unknown as RecordedEvent;
  const seededProjections = projections.filter((d) => ['UserRegistered', 'UserProfileUpdated'].some((type) => d.documentIds(sample(type)).length > 0));
  /** Every run projects into collections of its own (its projections carry the run's name). */
  const definitionsFor = (run: string) =>
    [...seededProjections, appliedProjection as unknown as ProjectionDefinition<Document>].map((d) => ({ ...d, name: `${d.name}_${run}` }));
  const projectorOn = (store: DocumentStore, run: string) =>
    new Projector({ eventStore, documents: store, bus: new MemoryBus(), leases: new MemoryLeaseProvider(), logger: silentLogger }, definitionsFor(run));

  async function seed(users: number): Promise<void> {
    for (let i = 0; i < users; i++) {
      const id = randomUUID();
      const registered: NewEvent = {
        id: randomUUID(),
        type: 'UserRegistered',
        data: { userId: id, email: `${id}@example.com`, username: `u_${id.slice(0, 8)}`, firstName: 'First', lastName: null, passwordHash: 'scrypt$x', registeredAt: at },
        metadata: meta(),
      };
      const renamed: NewEvent = { id: randomUUID(), type: 'UserProfileUpdated', data: { userId: id, changes: { firstName: `Renamed ${id}` }, updatedBy: 'a', updatedAt: at }, metadata: meta() };
      await eventStore.append(`user-${id}`, [registered, renamed], 'no_stream');
      await eventStore.append(`temp-${id}`, [{ id: randomUUID(), type: 'Opened', data: {}, metadata: meta() }], 'no_stream');
      await eventStore.append(`temp-${id}`, [{ id: randomUUID(), type: 'Closed', data: {}, metadata: meta() }], 0n);
    }
  }

  async function allEvents(): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    for (;;) {
      const page = await eventStore.readAll({ ...(events.length ? { after: events[events.length - 1]!.position } : {}), limit: 1000 });
      events.push(...page);
      if (page.length < 1000) return events;
    }
  }

  /** The read models of `run` hold exactly what the whole event store says, each event applied once. */
  async function expectExact(run: string): Promise<void> {
    const events = await allEvents();
    const registrations = events.filter((e) => e.type === 'UserRegistered');
    const stats = await documents.collection<PublicStatsView>(generationCollection(`${PUBLIC_STATS_PROJECTION}_${run}`, 1)).get(PUBLIC_STATS_ID);
    expect(stats?.traders, 'traders counted once each').to.equal(registrations.length);

    const users = documents.collection<UserView>(generationCollection(`${USERS_PROJECTION}_${run}`, 1));
    expect(await users.count(), 'one users document per registration').to.equal(registrations.length);
    for (const r of registrations) expect((await users.get(String(r.data.userId)))?.firstName).to.equal(`Renamed ${String(r.data.userId)}`);

    const applied = documents.collection<Applied>(generationCollection(`${APPLIED}_${run}`, 1));
    const streams = new Map<string, number>();
    for (const e of events) streams.set(e.streamId, (streams.get(e.streamId) ?? 0) + 1);
    const live = [...streams].filter(([id]) => !id.startsWith('temp-'));
    expect(await applied.count(), 'closed streams deleted, every other stream present').to.equal(live.length);
    for (const [stream, count] of live) {
      expect((await applied.get(stream))?.revisions, `revisions applied to ${stream}`).to.deep.equal([...Array(count).keys()]);
    }
  }

  /**
   * Runs a projector until the write `crashAfter` picks, lets events arrive while it is dead, then
   * starts another one on the same store and checks the result exactly. Returns the write it died
   * after, or null when the projector caught up before any write was picked.
   */
  async function crashAndRecover(run: string, crashAfter: (write: Write, count: number) => boolean): Promise<Write | null> {
    await seed(2);
    const dying = new CrashingProcess(crashAfter);
    const first = projectorOn(dying.documents(documents), run);
    // Not awaited: start itself writes (the projection pointers) and may be where it dies.
    const running = first.start().then(async () => {
      await seed(2); // more events while it runs, so there are several flushes
      await first.caughtUp();
    });
    running.catch(() => {});
    const raced = await Promise.race([dying.crash, running.then(() => null)]);
    if (!raced) {
      // Caught up means applied, not yet checkpointed: the checkpoints follow in a later batch. The run
      // stays armed until the stats checkpoint is at the head, so a crash after that write can happen
      // here too (under load it often comes after caughtUp).
      const head = await eventStore.headPosition();
      const statsCheckpoint = checkpointId(`${PUBLIC_STATS_PROJECTION}_${run}`, 1);
      await waitUntil(async () => dying.crashed || (await documents.collection<Checkpoint>(CHECKPOINT_COLLECTION).get(statsCheckpoint))?.position === head, {
        message: 'the stats checkpoint at the head',
      });
    }
    // Caught up without the crash: no later write (its stop's) may kill it, or stop() would never return.
    dying.disarm();
    const crashedAfter = dying.crashed ? await dying.crash : raced;
    if (!crashedAfter) {
      await first.stop();
      await expectExact(run);
      return null;
    }
    await seed(2); // written while no projector runs
    const second = projectorOn(documents, run);
    await second.start();
    await second.caughtUp();
    await expectExact(run);
    await second.stop();
    return crashedAfter;
  }

  it('crash after the documents were written, before the checkpoint: redelivered events are skipped, counts not doubled', async function () {
    const run = 'docs';
    const statsCollection = generationCollection(`${PUBLIC_STATS_PROJECTION}_${run}`, 1);
    const crashed = await crashAndRecover(run, (w) => w.collection === statsCollection && w.method === 'putManyIfNewer' && w.ids.length > 0);
    expect(crashed, 'it died after writing the stats document').to.include({ collection: statsCollection });
  });

  it('crash right after a checkpoint was written: nothing lost', async function () {
    const run = 'checkpoint';
    const statsCheckpoint = checkpointId(`${PUBLIC_STATS_PROJECTION}_${run}`, 1);
    const crashed = await crashAndRecover(run, (w) => w.collection === CHECKPOINT_COLLECTION && w.ids.includes(statsCheckpoint));
    expect(crashed, 'it died after writing the stats checkpoint').to.include({ collection: CHECKPOINT_COLLECTION });
    const checkpoint = await documents.collection<Checkpoint>(CHECKPOINT_COLLECTION).get(statsCheckpoint);
    expect(checkpoint?.position, 'the second projector checkpointed the head').to.equal(await eventStore.headPosition());
  });

  it('crash after any single write of a run, one run per write: always exact', async function () {
    const diedAfter: Write[] = [];
    // How many writes a run makes depends on how the flushes batch, which depends on timing: under
    // load one run can catch up in fewer writes than the next. So a run that caught up before its
    // write n does not end the search; a few in a row do once the runs have died after both a
    // checkpoint and documents (with a bound, so a slow machine cannot make the spec endless).
    const MISSES_IN_A_ROW = 4;
    const MAX_WRITE = 60;
    const kindOf = (w: Write) => (w.collection === CHECKPOINT_COLLECTION ? 'checkpoint' : w.method === 'putManyIfNewer' ? 'documents' : w.method);
    const kinds = new Set<string>();
    const coveredBoth = () => kinds.has('checkpoint') && kinds.has('documents');
    for (let n = 1, misses = 0; n <= MAX_WRITE && (misses < MISSES_IN_A_ROW || !coveredBoth()); n++) {
      const crashed = await crashAndRecover(`every${n}`, (_w, count) => count === n);
      misses = crashed ? 0 : misses + 1;
      if (crashed) {
        diedAfter.push(crashed);
        kinds.add(kindOf(crashed));
      }
    }
    // The runs covered the interesting places: after documents and after checkpoints, of several projections.
    expect([...kinds]).to.include.members(['checkpoint', 'documents']);
    expect(diedAfter.length).to.be.at.least(8);
  });
});
