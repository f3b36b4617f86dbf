/**
 * One MarketPath per key in a process (sharedMarketPath): every simulation of a key shares its
 * caches, a few keys are kept (the least recently asked let go first), a bad key is refused as
 * `new MarketPath` refuses it, and a simulation asked for a fresh path gets one of its own.
 */
import { expect } from 'chai';
import { forgetSharedMarketPaths, MarketPath, sharedMarketPath, SHARED_MARKET_PATHS_KEPT } from './market-path';
import { MarketSimulation } from './simulation';

const key = (n: number) => Uint32Array.from([n, 1, 2, 3, 4, 5, 6, 7]);

describe('the shared market path', function () {
  beforeEach(forgetSharedMarketPaths);
  after(forgetSharedMarketPaths);

  it('is one instance per key: asked again, or through a copy of the key, the same path', function () {
    const path = sharedMarketPath(key(1));
    expect(path).to.be.an.instanceOf(MarketPath);
    expect(sharedMarketPath(key(1))).to.equal(path);
    expect(sharedMarketPath(Uint32Array.from(key(1)))).to.equal(path);
    expect(sharedMarketPath(key(2))).to.not.equal(path);
    expect(sharedMarketPath(key(2)).price('bitcoin', 1000)).to.not.equal(path.price('bitcoin', 1000));
  });

  it('answers what a fresh path answers', function () {
    const shared = sharedMarketPath(key(3));
    shared.minuteCandles('ethereum', 5000, 180); // its caches hold something
    const fresh = new MarketPath(key(3));
    for (const tick of [0, 61_000, 61_001, 123_456]) expect(shared.price('ethereum', tick), `tick ${tick}`).to.equal(fresh.price('ethereum', tick));
  });

  it(`keeps ${SHARED_MARKET_PATHS_KEPT} keys, letting the least recently asked go first`, function () {
    expect(SHARED_MARKET_PATHS_KEPT).to.equal(4);
    const first = [1, 2, 3, 4].map((n) => sharedMarketPath(key(n)));
    expect(sharedMarketPath(key(1)), 'asked again: now the most recent').to.equal(first[0]);
    sharedMarketPath(key(5)); // a fifth key: key 2 (the least recently asked) goes
    expect(sharedMarketPath(key(1))).to.equal(first[0]);
    expect(sharedMarketPath(key(3))).to.equal(first[2]);
    expect(sharedMarketPath(key(4))).to.equal(first[3]);
    expect(sharedMarketPath(key(2)), 'let go, then made afresh').to.not.equal(first[1]);
  });

  it('is made afresh after forgetSharedMarketPaths', function () {
    const before = sharedMarketPath(key(6));
    forgetSharedMarketPaths();
    expect(sharedMarketPath(key(6))).to.not.equal(before);
  });

  it('refuses a key that is not 8 32-bit words, and keeps nothing for it', function () {
    for (const bad of [new Uint32Array(7), new Uint32Array(9), Int32Array.from(key(1)), [1, 2, 3, 4, 5, 6, 7, 8]]) {
      expect(() => sharedMarketPath(bad as Uint32Array)).to.throw(RangeError, 'a market key is 8 32-bit words');
    }
    const path = sharedMarketPath(key(7));
    expect(() => sharedMarketPath(new Uint32Array(7))).to.throw(RangeError);
    expect(sharedMarketPath(key(7))).to.equal(path);
  });

  it("is what a simulation reads unless it asks for a fresh path of its own", function () {
    const shared = new MarketSimulation(key(8));
    expect(shared.path).to.equal(sharedMarketPath(key(8)));
    expect(new MarketSimulation(key(8)).path).to.equal(shared.path);
    const fresh = new MarketSimulation(key(8), { fresh: true });
    expect(fresh.path).to.not.equal(shared.path);
    expect(fresh.priceAt('solana', Date.UTC(2024, 0, 2))).to.equal(shared.priceAt('solana', Date.UTC(2024, 0, 2)));
  });
});
