/**
 * Edges of the market path that its other specs pass either way (each found by mutation testing, the
 * code changed on purpose): the epoch's own first tick, the hours' kept candles let go least recently
 * read first, a whole hour's close, and the shared paths told apart by every word of their keys.
 */
import { expect } from 'chai';
import type { CoinId } from './coins';
import { forgetSharedMarketPaths, MarketPath, sharedMarketPath, SIMULATION_EPOCH_MS, tickAt, TICK_MS, TICKS_PER_HOUR } from './market-path';

const KEY = Uint32Array.from([11, 0x9e3779b9, 0x243f6a88, 3, 4, 5, 6, 0x85a308d3]);
const coin: CoinId = 'ethereum';
const FIRST_HOUR = tickAt(Date.UTC(2024, 2, 3, 7)) / TICKS_PER_HOUR;
/** How many hours of minute candles a coin path keeps (market-path.ts, MINUTE_CACHE_HOURS). */
const KEPT_HOURS = 64;

type HourCandles = { hourCandles(hour: number): Float64Array };
const hourCandlesOf = (path: MarketPath): HourCandles => (path as unknown as { path(id: CoinId): HourCandles }).path(coin);

describe('market path: kept numbers and edges', function () {
  this.timeout(60_000);

  it("starts at the epoch's own first tick", function () {
    expect(tickAt(SIMULATION_EPOCH_MS)).to.equal(0);
    expect(tickAt(SIMULATION_EPOCH_MS + TICK_MS - 1)).to.equal(0);
    expect(tickAt(SIMULATION_EPOCH_MS + TICK_MS)).to.equal(1);
    expect(() => tickAt(SIMULATION_EPOCH_MS - 1)).to.throw(RangeError, 'the simulated market starts at 2020-01-01T00:00:00.000Z');
  });

  it(`keeps the last ${KEPT_HOURS} hours' minute candles read, letting go the one read longest ago`, function () {
    const hours = hourCandlesOf(new MarketPath(KEY));
    const first = hours.hourCandles(FIRST_HOUR);
    const second = hours.hourCandles(FIRST_HOUR + 1);
    for (let h = 2; h < KEPT_HOURS; h++) hours.hourCandles(FIRST_HOUR + h);
    expect(hours.hourCandles(FIRST_HOUR), 'the first hour, kept').to.equal(first); // now the one read last
    hours.hourCandles(FIRST_HOUR + KEPT_HOURS); // one more: the second hour goes, read longest ago
    expect(hours.hourCandles(FIRST_HOUR), 'the first hour, read again since').to.equal(first);
    const again = hours.hourCandles(FIRST_HOUR + 1);
    expect(again, 'the second hour, let go').to.not.equal(second);
    expect([...again], 'and computed the same again').to.deep.equal([...second]);
  });

  it("closes a whole hour, and two, at their last tick's price", function () {
    const path = new MarketPath(KEY);
    const from = FIRST_HOUR * TICKS_PER_HOUR;
    for (const hours of [1, 2]) {
      const to = from + hours * TICKS_PER_HOUR;
      const summary = path.summary(coin, from, to);
      expect(summary.open, `${hours} h open`).to.equal(path.price(coin, from));
      expect(summary.close, `${hours} h close`).to.equal(path.price(coin, to - 1));
    }
  });

  describe('shared paths', function () {
    beforeEach(forgetSharedMarketPaths);
    after(forgetSharedMarketPaths);

    it('are told apart by every word of the key, not by its digits run together', function () {
      const a = sharedMarketPath(Uint32Array.from([1, 23, 4, 5, 6, 7, 8, 9]));
      const b = sharedMarketPath(Uint32Array.from([12, 3, 4, 5, 6, 7, 8, 9]));
      expect(b).to.not.equal(a);
      expect(b.price('bitcoin', 1000)).to.not.equal(a.price('bitcoin', 1000));
    });
  });
});
