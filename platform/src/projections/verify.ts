/**
 * Verifies the live read models against a rebuild: every projection is replayed from the first event
 * to the store's head into a scratch store (in memory, never the live generation or any collection
 * readers use), and each document is compared with the live generation's. What differs is reported;
 * nothing is written anywhere.
 *
 * The replay applies events exactly as the projector does (evolve with { type, data } and the
 * recorded event, null deletes). Documents are compared as JSON with keys sorted, since a document
 * read back from JSONB has its keys in another order than one built in memory.
 *
 * Live projections may keep writing meanwhile (PostgreSQL with a projectors process running): a
 * live document whose position is past the head the replay stopped at has moved on and is not
 * compared (counted as `skipped`). A live projection behind the head is reported as such, and its
 * stale documents as differences, which they are.
 *
 * Caveat: the document store port cannot list ids, so a live document that the replay does not
 * produce at all is found by the count (`extra`), not named.
 */
import type { Document } from '../document-store/document-store';
import type { EventStore } from '../event-store/event-store';
import { comparePositions, type Position } from '../event-store/position';
import type { ProjectionDefinition } from './projection';
import type { ReadModels } from './read-models';

export type DocumentDifference =
  | { projection: string; id: string; kind: 'missing'; expected: Document }
  | { projection: string; id: string; kind: 'different'; path: string; expected: unknown; actual: unknown }
  | { projection: string; kind: 'extra'; count: number };

export interface ProjectionReport {
  projection: string;
  documents: number;
  liveDocuments: number;
  differences: DocumentDifference[];
  /** Live documents past the head the replay stopped at (written while verifying): not compared. */
  skipped: number;
  /** The live checkpoint, when it is behind the head. */
  behind?: string;
}

export interface VerifyReport {
  head: string | null;
  events: number;
  projections: ProjectionReport[];
  differences: number;
}

const READ_BATCH = 1000;

export async function verifyProjections(deps: { eventStore: Pick<EventStore, 'readAll' | 'headPosition'>; readModels: ReadModels }, definitions: ProjectionDefinition<Document>[]): Promise<VerifyReport> {
  const head = await deps.eventStore.headPosition();
  const scratch = new Map<string, Map<string, { doc: Document; position: Position }>>(definitions.map((d) => [d.name, new Map()]));
  let events = 0;
  let after: Position | undefined;
  while (head && comparePositions(after, head) < 0) {
    const batch = await deps.eventStore.readAll({ ...(after ? { after } : {}), limit: READ_BATCH });
    if (batch.length === 0) break;
    for (const event of batch) {
      if (comparePositions(event.position, head) > 0) break;
      events++;
      for (const definition of definitions) {
        const docs = scratch.get(definition.name)!;
        for (const id of definition.documentIds(event)) {
          const next = definition.evolve(docs.get(id)?.doc ?? null, { type: event.type, data: event.data }, event);
          if (next === null) docs.delete(id);
          else docs.set(id, { doc: next, position: event.position });
        }
      }
    }
    after = batch[batch.length - 1]!.position;
  }

  const projections: ProjectionReport[] = [];
  for (const definition of definitions) {
    const docs = scratch.get(definition.name)!;
    const live = await deps.readModels.collection<Document>(definition.name);
    const checkpoint = await deps.readModels.checkpoint(definition.name);
    const report: ProjectionReport = { projection: definition.name, documents: docs.size, liveDocuments: await live.count(), differences: [], skipped: 0 };
    if (comparePositions(checkpoint, head) < 0) report.behind = checkpoint ?? 'never started';
    let compared = 0;
    for (const [id, expected] of docs) {
      const stored = await live.getWithPosition(id);
      if (!stored) {
        report.differences.push({ projection: definition.name, id, kind: 'missing', expected: expected.doc });
        continue;
      }
      compared++;
      if (stored.position && comparePositions(stored.position, head) > 0) {
        report.skipped++;
        continue;
      }
      const difference = firstDifference(normalise(expected.doc), normalise(stored.doc), '');
      if (difference) report.differences.push({ projection: definition.name, id, kind: 'different', ...difference });
    }
    // Documents created after the head are counted live but not by the replay; a skipped document is matched.
    const extra = report.liveDocuments - compared;
    if (extra > 0 && report.skipped === 0) report.differences.push({ projection: definition.name, kind: 'extra', count: extra });
    projections.push(report);
  }
  return { head: head ?? null, events, projections, differences: projections.reduce((n, p) => n + p.differences.length, 0) };
}

/** As a JSON store would give it back: undefined members gone, -0 as 0, dates as strings. */
function normalise(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/** The first path at which two JSON values differ, or null when they are equal (key order ignored). */
export function firstDifference(expected: unknown, actual: unknown, path: string): { path: string; expected: unknown; actual: unknown } | null {
  if (Object.is(expected, actual)) return null;
  const here = { path: path || '(document)', expected, actual };
  if (typeof expected !== 'object' || typeof actual !== 'object' || expected === null || actual === null) return here;
  if (Array.isArray(expected) !== Array.isArray(actual)) return here;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) return { path: `${path || '(document)'}.length`, expected: expected.length, actual: actual.length };
    for (let i = 0; i < expected.length; i++) {
      const inner = firstDifference(expected[i], actual[i], `${path}[${i}]`);
      if (inner) return inner;
    }
    return null;
  }
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(e), ...Object.keys(a)])].sort();
  for (const key of keys) {
    const inner = firstDifference(e[key], a[key], path ? `${path}.${key}` : key);
    if (inner) return inner;
  }
  return null;
}
