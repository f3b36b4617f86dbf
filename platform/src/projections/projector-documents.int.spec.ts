/**
 * The projector runtime with a synthetic projection (PGlite): which documents an event touches,
 * deletes, checkpoints, change notices, recovery from a failing event, one writer per projection,
 * and how ReadModels finds the live generation and waits for a position.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { NewEvent } from '../event-store/event-store';
import type { SqlEventStore } from '../event-store/sql-event-store';
import type { SqlDocumentStore } from '../document-store/sql-document-store';
import { MemoryBus } from '../bus/memory-bus';
import { comparePositions, encodePosition, type Position } from '../event-store/position';
import type { Logger } from '../config/logger';
import { silentLogger } from '../config/logger';
import { MemoryLeaseProvider } from './lease';
import { Projector } from './projector';
import type { ProjectionDefinition } from './projection';
import { CHECKPOINT_COLLECTION, META_COLLECTION, ReadModels, checkpointId, generationCollection } from './read-models';
import { pgliteStores } from '../../../test/pglite-stores';

type Tally = { count: number; last: string };

/** Counts events per `data.key`; 'Removed' deletes the document; events without a key touch nothing. */
function tallies(name: string, failures = new Set<string>()): ProjectionDefinition<Tally> {
  return {
    name,
    documentIds: (event) => (typeof event.data.key === 'string' ? [event.data.key] : []),
    evolve: (doc, event, recorded) => {
      if (failures.delete(recorded.id)) throw new Error(`cannot apply ${recorded.id}`);
      return event.type === 'Removed' ? null : { count: (doc?.count ?? 0) + 1, last: event.type };
    },
  };
}

const event = (type: string, key?: string): NewEvent => ({
  id: randomUUID(),
  type,
  data: key === undefined ? {} : { key },
  metadata: { userId: 'system', correlationId: 'c', causationId: 'c', at: 'now', schemaVersion: 1 },
});

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('projector runtime: documents, checkpoints and notices', function () {
  this.timeout(60_000);
  let eventStore: SqlEventStore;
  let documents: SqlDocumentStore;
  let readModels: ReadModels;
  let cleanup: () => Promise<void>;
  let bus: MemoryBus;
  let name: string;
  const running: Projector[] = [];
  const projector = (definition: ProjectionDefinition<Tally>, options: { leases?: MemoryLeaseProvider; logger?: Logger } = {}) => {
    const p = new Projector(
      { eventStore, documents, bus, leases: options.leases ?? new MemoryLeaseProvider(), logger: options.logger ?? silentLogger },
      [definition as unknown as ProjectionDefinition],
    );
    running.push(p);
    return p;
  };
  const tally = async (key: string) => (await readModels.collection<Tally>(name)).get(key);
  const append = (stream: string, events: NewEvent[]) => eventStore.append(stream, events, 'any');

  before(async function () {
    ({ eventStore, documents, cleanup } = await pgliteStores());
    readModels = new ReadModels(documents);
  });
  after(async function () {
    await cleanup?.();
  });
  beforeEach(function () {
    name = `tallies_${randomUUID().slice(0, 8)}`;
    bus = new MemoryBus();
  });
  afterEach(async function () {
    await Promise.all(running.splice(0).map((p) => p.stop()));
  });

  it('applies each event to the documents it names and checkpoints the last event, even one that names none', async function () {
    const k1 = `k1-${name}`;
    const k2 = `k2-${name}`;
    await append(`s-${name}`, [event('Added', k1), event('Other'), event('Added', k2), event('Renamed', k1)]);
    const p = projector(tallies(name));
    await p.start();
    await p.caughtUp();
    expect(await tally(k1)).to.deep.equal({ count: 2, last: 'Renamed' });
    expect(await tally(k2)).to.deep.equal({ count: 1, last: 'Added' });
    expect(await readModels.checkpoint(name)).to.equal(await eventStore.headPosition());
    expect(await documents.collection(META_COLLECTION).get(name)).to.deep.equal({ liveGeneration: 1 });

    const { position } = await append(`s-${name}`, [event('Other')]);
    await p.caughtUp();
    expect(await readModels.checkpoint(name)).to.equal(position);
    expect(p.positions()).to.deep.equal({ [name]: position });
  });

  it('deletes a document its evolve returns null for, keeping the others', async function () {
    const [gone, kept, never] = ['gone', 'kept', 'never'].map((k) => `${k}-${name}`) as [string, string, string];
    await append(`s-${name}`, [event('Added', gone), event('Added', kept)]);
    const p = projector(tallies(name));
    await p.start();
    await p.caughtUp();
    expect(await tally(gone)).to.not.equal(null);
    await append(`s-${name}`, [event('Removed', gone), event('Added', never), event('Removed', never)]);
    await p.caughtUp();
    expect(await tally(gone)).to.equal(null);
    expect(await tally(never)).to.equal(null);
    expect(await tally(kept)).to.deep.equal({ count: 1, last: 'Added' });
  });

  it('publishes a change notice with the position, the generation and the documents changed', async function () {
    const notices: Array<{ subject: string; payload: { position: Position; generation: number; ids: string[] } }> = [];
    await bus.subscribe('projection.>', (subject, payload) => notices.push({ subject, payload: payload as (typeof notices)[number]['payload'] }));
    const p = projector(tallies(name));
    await p.start();
    await p.caughtUp(); // the other specs' events first, in batches of their own
    const key = `n-${name}`;
    const { position } = await append(`s-${name}`, [event('Added', key), event('Other')]);
    await p.caughtUp();
    await until(() => notices.some((n) => n.payload.position === position), 'the notice');
    const notice = notices.find((n) => n.payload.position === position)!;
    expect(notice).to.deep.equal({ subject: `projection.${name}.changed`, payload: { position, generation: 1, ids: [key] } });
  });

  it('names at most 100 changed documents in a notice (a batch flush may change 500)', async function () {
    const notices: Array<{ position: Position; ids: string[] }> = [];
    await bus.subscribe('projection.>', (_subject, payload) => notices.push(payload as (typeof notices)[number]));
    // 500 events for 500 documents, all there at start: the runner flushes after its 500th event,
    // or earlier when the event store's page reads leave the stream quiet for a moment.
    const { position } = await append(`s-${name}`, Array.from({ length: 500 }, (_, i) => event('Added', `b${i}-${name}`)));
    const p = projector(tallies(name));
    await p.start();
    await p.caughtUp();
    await until(() => notices.some((n) => n.position === position), 'the notice');
    // Each notice names the documents changed since the one before (by any test's events in this
    // store: the projection counts every keyed event), in order, the first 100 of them.
    const recorded = await eventStore.readAll({ limit: 10_000 });
    let previous: Position | undefined;
    for (const notice of notices) {
      const keys = recorded
        .filter((e) => comparePositions(e.position, previous) > 0 && comparePositions(e.position, notice.position) <= 0)
        .flatMap((e) => (typeof e.data.key === 'string' ? [e.data.key] : []));
      expect(notice.ids).to.deep.equal([...new Set(keys)].slice(0, 100));
      previous = notice.position;
    }
    expect(await tally(`b499-${name}`)).to.deep.equal({ count: 1, last: 'Added' });
  });

  it('applies nothing twice when it resumes from an older checkpoint', async function () {
    const key = `r-${name}`;
    await append(`s-${name}`, [event('Added', key), event('Added', key)]);
    let p = projector(tallies(name));
    await p.start();
    await p.caughtUp();
    await p.stop();
    await documents.collection(CHECKPOINT_COLLECTION).delete(checkpointId(name, 1));
    await append(`s-${name}`, [event('Added', key)]);
    p = projector(tallies(name));
    await p.start();
    await p.caughtUp();
    expect(await tally(key)).to.deep.equal({ count: 3, last: 'Added' });
  });

  it('logs a failing event and resumes from its checkpoint, applying it on the next attempt', async function () {
    const key = `f-${name}`;
    const failing = event('Added', key);
    const errors: Array<[string, Record<string, unknown> | undefined]> = [];
    const logger: Logger = { ...silentLogger, error: (message, context) => void errors.push([message, context]) };
    await append(`s-${name}`, [event('Added', key)]);
    const p = projector(tallies(name, new Set([failing.id])), { logger });
    await p.start();
    await p.caughtUp();
    await append(`s-${name}`, [failing]);
    await until(async () => (await tally(key))?.count === 2, 'the failed event to be applied');
    expect(errors).to.deep.equal([
      ['projection failed; resuming from its checkpoint in 1 s', { projection: name, error: `Error: cannot apply ${failing.id}` }],
    ]);
  });

  it('runs a projection in one instance of a lease provider; another takes over after it stops', async function () {
    const leases = new MemoryLeaseProvider();
    const [a, b] = [projector(tallies(name), { leases }), projector(tallies(name), { leases })];
    await a.start();
    await b.start();
    expect(Object.keys(a.positions())).to.deep.equal([name]);
    expect(b.positions()).to.deep.equal({});
    const key = `l-${name}`;
    await append(`s-${name}`, [event('Added', key)]);
    await a.caughtUp();
    await a.stop();
    await until(() => name in b.positions(), 'the other instance to take over');
    await append(`s-${name}`, [event('Added', key)]);
    await b.caughtUp();
    expect(await tally(key)).to.deep.equal({ count: 2, last: 'Added' });
  });

  it('logs where each projection starts: its generation and the checkpoint it resumes from', async function () {
    const infos: Array<[string, Record<string, unknown> | undefined]> = [];
    const logger: Logger = { ...silentLogger, info: (message, context) => void infos.push([message, context]) };
    let p = projector(tallies(name), { logger });
    await p.start();
    await append(`s-${name}`, [event('Added', `i-${name}`)]);
    await p.caughtUp();
    const checkpoint = await readModels.checkpoint(name);
    await p.stop();
    p = projector(tallies(name), { logger });
    await p.start();
    expect(infos).to.deep.equal([
      ['projection started', { projection: name, generation: 1, from: 'start' }],
      ['projection started', { projection: name, generation: 1, from: checkpoint }],
    ]);
  });

  it('refuses to rebuild a projection this instance does not run', async function () {
    const p = projector(tallies(name));
    let error: unknown;
    await p.rebuild('elsewhere').catch((e: unknown) => (error = e));
    expect((error as Error).message).to.equal('projection elsewhere is not running in this instance');
  });

  it('reads the live generation from the pointer document, generation 1 when there is none', async function () {
    expect(await readModels.liveGeneration(name)).to.equal(1);
    expect(await readModels.checkpoint(name)).to.equal(undefined);
    await documents.collection(META_COLLECTION).put(name, { liveGeneration: 3 });
    await documents.collection(generationCollection(name, 3)).put('doc', { count: 7, last: 'x' });
    await documents.collection(CHECKPOINT_COLLECTION).put(checkpointId(name, 3), { position: encodePosition(1, 2) });
    expect(await readModels.liveGeneration(name)).to.equal(3);
    expect(await tally('doc')).to.deep.equal({ count: 7, last: 'x' });
    expect(await readModels.checkpoint(name)).to.equal(encodePosition(1, 2));
  });

  it('waits until every named projection has reached a position, or answers false at the deadline', async function () {
    const other = `${name}_other`;
    const checkpoints = documents.collection(CHECKPOINT_COLLECTION);
    await checkpoints.put(checkpointId(name, 1), { position: encodePosition(1, 5) });
    await checkpoints.put(checkpointId(other, 1), { position: encodePosition(1, 3) });
    expect(await readModels.waitFor([name], encodePosition(1, 5), 0)).to.equal(true);
    expect(await readModels.waitFor([name, other], encodePosition(1, 3), 0)).to.equal(true);
    expect(await readModels.waitFor([name, other], encodePosition(1, 4), 50)).to.equal(false);
    const waiting = readModels.waitFor([name, other], encodePosition(1, 4), 10_000);
    await checkpoints.put(checkpointId(other, 1), { position: encodePosition(1, 4) });
    expect(await waiting).to.equal(true);
  });
});
