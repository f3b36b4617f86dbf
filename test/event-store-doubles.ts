/**
 * For the command helper's specs: a wrapper around a real event store whose appends to one stream
 * fail as often as a test says (everything else passes through untouched), so a spec can count
 * exactly how many appends the helper attempts.
 */
import type { EventStore, ExpectedRevision, NewEvent } from '@papertrade/platform/event-store/event-store';

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
