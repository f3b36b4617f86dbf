/**
 * The cached head behind the X-Min-Position check: read again only when asked beyond the last head
 * read, concurrent reads folded into one, and never a stale "beyond" for a position written before
 * the request arrived.
 */
import { expect } from 'chai';
import { encodePosition, type Position } from '../event-store/position';
import { cachedHead } from './min-position';

const at = (minor: number) => encodePosition(1, minor);

/** A head read the test finishes by hand, counting calls. */
function manualHead() {
  let head: Position | undefined;
  const pending: Array<() => void> = [];
  const store = {
    calls: 0,
    set: (minor: number) => (head = at(minor)),
    read: () => {
      store.calls += 1;
      const seen = head; // the head when the read started
      return new Promise<Position | undefined>((resolve) => pending.push(() => resolve(seen)));
    },
    finish: async () => {
      for (const done of pending.splice(0)) done();
      await new Promise((r) => setImmediate(r));
    },
  };
  return store;
}

describe('cachedHead', function () {
  it('reads once, then answers from the cache for positions at or before it', async function () {
    const store = manualHead();
    store.set(5);
    const head = cachedHead(store.read);
    const first = head(at(5));
    await store.finish();
    expect(await first).to.equal(at(5));
    expect(await head(at(3))).to.equal(at(5));
    expect(await head(at(5))).to.equal(at(5));
    expect(store.calls).to.equal(1);
  });

  it('reads again when asked beyond the cached head, and folds concurrent reads into one', async function () {
    const store = manualHead();
    store.set(5);
    const head = cachedHead(store.read);
    const first = head(at(1));
    await store.finish();
    await first;
    store.set(9);
    const answers = Promise.all(Array.from({ length: 50 }, (_, i) => head(at(6 + (i % 3)))));
    await store.finish();
    expect(new Set(await answers)).to.deep.equal(new Set([at(9)]));
    expect(store.calls).to.equal(2);
  });

  it('reads once more for a caller that joined a read started before its position was written', async function () {
    const store = manualHead();
    store.set(5);
    const head = cachedHead(store.read);
    const early = head(at(5)); // starts a read that will see 5
    store.set(6); // a command writes 6; its client asks for 6 while that read is under way
    const late = head(at(6));
    await store.finish(); // the first read answers 5: too short for the late caller
    expect(await early).to.equal(at(5));
    await store.finish();
    expect(await late).to.equal(at(6));
    expect(store.calls).to.equal(2);
  });

  it('answers undefined while the store is empty, so every position is beyond it', async function () {
    const store = manualHead();
    const head = cachedHead(store.read);
    const answer = head(at(1));
    await store.finish();
    expect(await answer).to.equal(undefined);
  });
});
