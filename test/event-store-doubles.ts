/**
 * Event stores for the command helper's specs: a real one on a fresh PGlite, and a wrapper around a
 * real one whose appends to one stream fail as often as a test says (everything else passes through
 * untouched), so a spec can count exactly how many appends the helper attempts.
 */
import type { EventStore, ExpectedRevision, NewEvent } from '@papertrade/platform/event-store/event-store';
import { SqlEventStore } from '@papertrade/platform/event-store/sql-event-store';
import { PgliteClient } from '@papertrade/platform/sql/sql-client';
import { freshPglite } from './pglite';

/** A SQL event store on a PGlite of its own; `cleanup` closes both and removes the folder. */
export async function pgliteEventStore(): Promise<{ store: SqlEventStore; cleanup(): Promise<void> }> {
  const pglite = await freshPglite();
  const store = await SqlEventStore.create(new PgliteClient(pglite.db));
  return {
    store,
    cleanup: async () => {
      await store.close();
      await pglite.cleanup();
    },
  };
}

/** `store` whose n-th append to `stream` throws `failure(n)` when that returns an error. */
export function faultyAppends(store: EventStore, stream: string, failure: (n: number) => Error | null): { store: EventStore; appends: () => number } {
  let appends = 0;
  const append = async (streamId: string, events: NewEvent[], expected: ExpectedRevision) => {
    if (streamId === stream) {
      const error = failure(++appends);
      if (error) throw error;
    }
    return store.append(streamId, events, expected);
  };
  const wrapped = new Proxy(store, {
    get(target, property) {
      if (property === 'append') return append;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: wrapped, appends: () => appends };
}
