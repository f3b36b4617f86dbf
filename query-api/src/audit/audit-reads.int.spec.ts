/**
 * The audit's reads page the store (issue 16, item 22) on a real PGlite event store:
 * - a timeline page (four streams merged in the global order) equals the same page of the whole
 *   merge, for every page of several sizes over streams interleaved at random;
 * - what a read costs, counted as the events the store answers (a wrapper around readStreamPage;
 *   readStream, the whole stream, is not called at all): a stream's page of 50 and a timeline's page
 *   of 50 of a user with 10,000 trades read about a page, as for a user with 10 events; an as-of
 *   replay reads the prefix up to asOf and at most one batch more, and counts what comes after.
 * Before, each of these read every event of the user's streams (10,000 and more).
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { inGlobalOrder, timelineStreams } from '@papertrade/domain/audit/as-of';
import { toAuditEvent, type TimelineEntry } from '@papertrade/domain/audit/contracts';
import type { EventStore, NewEvent, RecordedEvent } from '@papertrade/platform/event-store/event-store';
import { pgliteEventStore } from '../../../test/pglite-stores';
import { AUDIT_READ_BATCH, readAuditStream, readTimeline, streamAsOf, timelineHead, type AuditEventSource } from './audit-reads';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');

function event(type: string, i: number): NewEvent {
  return { id: randomUUID(), type, data: { i }, metadata: { userId: 'tester', correlationId: 'c', causationId: 'c', at: new Date(T0 + i * 1000).toISOString(), schemaVersion: 1 } };
}

/** The store with a count of the events each read answered; readStream counted apart. */
function counting(store: EventStore): AuditEventSource & { events: number; wholeStreams: number; reads: number; reset(): void } {
  const counter = {
    events: 0,
    wholeStreams: 0,
    reads: 0,
    reset() {
      counter.events = 0;
      counter.wholeStreams = 0;
      counter.reads = 0;
    },
    async readStreamPage(...args: Parameters<EventStore['readStreamPage']>) {
      const page = await store.readStreamPage(...args);
      counter.events += page.events.length;
      counter.reads += 1;
      return page;
    },
    async readStream(streamId: string): Promise<RecordedEvent[]> {
      counter.wholeStreams += 1;
      return store.readStream(streamId);
    },
  };
  return counter;
}

describe('audit reads page the event store (PGlite)', function () {
  this.timeout(180_000);
  let store: EventStore;
  let cleanup: () => Promise<void>;

  before(async function () {
    ({ store, cleanup } = await pgliteEventStore());
  });
  after(async () => cleanup?.());

  /** Appends `counts[i]` events to the user's i-th timeline stream, interleaved by a seeded shuffle, in batches of up to `batch`. */
  async function seedTimeline(userId: string, counts: number[], batch: number, seed: number): Promise<void> {
    const streams = timelineStreams(userId).map((s) => s.streamId);
    const left = [...counts];
    const written = counts.map(() => 0);
    let random = seed;
    let i = 0;
    while (left.some((n) => n > 0)) {
      random = (random * 1_103_515_245 + 12_345) % 2 ** 31;
      const candidates = left.flatMap((n, s) => (n > 0 ? [s] : []));
      const s = candidates[random % candidates.length]!;
      const size = Math.min(left[s]!, 1 + (random % batch));
      const events = Array.from({ length: size }, () => event(`E${s}`, i++));
      await store.append(streams[s]!, events, written[s] === 0 ? 'no_stream' : BigInt(written[s]! - 1));
      written[s]! += size;
      left[s]! -= size;
    }
  }

  /** The whole timeline, merged the simple way. */
  async function wholeTimeline(userId: string): Promise<TimelineEntry[]> {
    const read = await Promise.all(timelineStreams(userId).map(async ({ streamId, category }) => (await store.readStream(streamId)).map((e) => ({ recorded: e, category, position: e.position as string }))));
    return inGlobalOrder(read).map(({ recorded, category }) => ({ ...toAuditEvent(recorded), category }));
  }

  it('a timeline page equals that page of the whole merge, for every page of sizes 1, 7, 50 and 200', async function () {
    const userId = `u-${randomUUID()}`;
    await seedTimeline(userId, [60, 25, 12, 6], 6, 7);
    const whole = await wholeTimeline(userId);
    expect(whole).to.have.length(103);
    for (const pageSize of [1, 7, 50, 200]) {
      const pages = Math.ceil(whole.length / pageSize);
      for (let page = 1; page <= pages + 1; page++) {
        const answer = await readTimeline({ events: store }, userId, { page, pageSize });
        expect(answer.entries, `page ${page} of size ${pageSize}`).to.deep.equal(whole.slice((page - 1) * pageSize, page * pageSize));
        expect(answer).to.include({ total: 103, totalPages: pages });
      }
    }
    const head = await timelineHead({ events: store }, userId, 100);
    expect(head.entries).to.deep.equal(whole.slice(0, 100));
    expect(head.total).to.equal(103);
  });

  it('a page of a stream or of the timeline reads about a page of events for a user with 10,000 trades, as for one with 10 events', async function () {
    const big = `u-${randomUUID()}`;
    const small = `u-${randomUUID()}`;
    await seedTimeline(big, [10_000, 40, 60, 6], 500, 11);
    await seedTimeline(small, [4, 2, 3, 1], 2, 13);
    const source = counting(store);
    const cost = async (read: () => Promise<unknown>) => {
      source.reset();
      await read();
      expect(source.wholeStreams, 'no stream is read whole').to.equal(0);
      return { events: source.events, reads: source.reads };
    };
    const bigPortfolio = timelineStreams(big)[0]!.streamId;
    const smallPortfolio = timelineStreams(small)[0]!.streamId;
    const figures = {
      bigStreamPage: await cost(() => readAuditStream({ events: source }, bigPortfolio, { page: 100, pageSize: 50 })),
      smallStreamPage: await cost(() => readAuditStream({ events: source }, smallPortfolio, { page: 1, pageSize: 50 })),
      bigTimelineFirst: await cost(() => readTimeline({ events: source }, big, { page: 1, pageSize: 50 })),
      bigTimelineMiddle: await cost(() => readTimeline({ events: source }, big, { page: 100, pageSize: 50 })),
      bigTimelineLast: await cost(() => readTimeline({ events: source }, big, { page: 203, pageSize: 50 })),
      smallTimeline: await cost(() => readTimeline({ events: source }, small, { page: 1, pageSize: 50 })),
    };
    console.log(`      events read: ${JSON.stringify(figures)}`);
    expect(figures.bigStreamPage.events).to.equal(50);
    expect(figures.smallStreamPage.events).to.equal(4);
    // At most a page from each of the four streams, plus single events that find where the page starts.
    for (const key of ['bigTimelineFirst', 'bigTimelineMiddle', 'bigTimelineLast'] as const) expect(figures[key].events, key).to.be.below(4 * 50 + 200);
    expect(figures.smallTimeline.events).to.equal(10);

    const middle = await readTimeline({ events: store }, big, { page: 100, pageSize: 50 });
    expect(middle.entries).to.deep.equal((await wholeTimeline(big)).slice(99 * 50, 100 * 50));
  });

  it('as of a time reads the prefix up to it and at most one batch more, and counts the events after it', async function () {
    const streamId = `portfolio-${randomUUID()}`;
    for (let i = 0; i < 10_000; i += 1000) await store.append(streamId, Array.from({ length: 1000 }, (_, j) => event('N', i + j)), i === 0 ? 'no_stream' : BigInt(i - 1));
    const source = counting(store);
    for (const upTo of [0, 1234, 9999]) {
      source.reset();
      const asOf = new Date(T0 + upTo * 1000);
      const { applied, later } = await streamAsOf({ events: source }, streamId, asOf);
      expect(applied.map((e) => e.data.i)).to.deep.equal(Array.from({ length: upTo + 1 }, (_, i) => i));
      expect(later).to.equal(10_000 - upTo - 1);
      expect(source.events, `as of event ${upTo}`).to.be.at.most(upTo + 1 + AUDIT_READ_BATCH);
      expect(source.wholeStreams).to.equal(0);
    }
    source.reset();
    expect(await streamAsOf({ events: source }, `portfolio-${randomUUID()}`, new Date())).to.deep.equal({ applied: [], later: 0 });
  });
});
