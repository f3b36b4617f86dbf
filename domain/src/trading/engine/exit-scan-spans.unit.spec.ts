/**
 * The exit scan's shortcuts at their exact edges, on a flat path (every tick at 100, levels far away)
 * that counts what the scan reads: a scan with no new tick reads nothing and finds nothing; a span of
 * exactly two minutes and a tick already goes by candles; a span that is exactly one whole day, or one
 * whole hour, is read as that one range and leaves the cursor on its last tick (never past it); a day
 * is read whole only from a midnight; and a source that keeps its hours whole is read in place from
 * the scan's own minute of the hour.
 */
import { expect } from 'chai';
import type { CoinId } from '../../market/coins';
import { candleArrays, TICKS_PER_DAY, TICKS_PER_HOUR, TICKS_PER_MINUTE, type CandleArrays } from '../../market/market-path';
import { newExitHit, scanExits, type ExitCursor, type ExitSpec } from './exit-scan';
import type { PriceTicks } from './price-ticks';

const COIN: CoinId = 'ethereum';
/** A day boundary, far from the epoch. */
const START = 500 * TICKS_PER_DAY;
const QUIET: ExitSpec = { stopLoss: 50, trail: 0, entry: 100, takeProfit: 150 };

/** Every tick at 100; counts the reads (ticks, candle reads, and each range's length). */
function flatPath(): PriceTicks & { reads: { price: number; minuteCandles: number; ranges: number[] } } {
  const reads = { price: 0, minuteCandles: 0, ranges: [] as number[] };
  return {
    reads,
    lastTick: () => Number.MAX_SAFE_INTEGER,
    price: () => {
      reads.price++;
      return 100;
    },
    minuteCandles: (_coin: CoinId, _from: number, count: number, out: CandleArrays) => {
      reads.minuteCandles++;
      out.high.fill(100, 0, count);
      out.low.fill(100, 0, count);
      return out;
    },
    minuteVolume: () => 0,
    range: (_coin: CoinId, from: number, to: number) => {
      reads.ranges.push(to - from);
      return { high: 100, low: 100 };
    },
  };
}

/** Scans (opening, to] of a fresh flat path: whether it hit, the cursor, what it read. */
function quietScan(opening: number, to: number) {
  const path = flatPath();
  const cursor: ExitCursor = { tick: opening, highest: 90 };
  const hit = scanExits(path, COIN, QUIET, cursor, to, newExitHit());
  return { hit, cursor, reads: path.reads };
}

describe('engine: exit scan shortcuts at their edges (a flat path)', function () {
  it('a scan with no new tick finds nothing and reads nothing, the cursor where it was', function () {
    for (const opening of [START + 7, START + TICKS_PER_DAY]) {
      const { hit, cursor, reads } = quietScan(opening, opening);
      expect(hit).to.equal(false);
      expect(cursor).to.deep.equal({ tick: opening, highest: 90 });
      expect(reads).to.deep.equal({ price: 0, minuteCandles: 0, ranges: [] });
      // A cursor already past the end (a later scan's) stays where it is.
      expect(quietScan(opening + 3, opening)).to.deep.include({ hit: false, cursor: { tick: opening + 3, highest: 90 } });
    }
  });

  it('a span of exactly two minutes and a tick, from a minute: its two minutes as one candle read, then the last tick', function () {
    const { hit, cursor, reads } = quietScan(START - 1, START + 2 * TICKS_PER_MINUTE);
    expect(hit).to.equal(false);
    expect(cursor).to.deep.equal({ tick: START + 2 * TICKS_PER_MINUTE, highest: 100 });
    expect(reads).to.deep.equal({ price: 1, minuteCandles: 1, ranges: [] });
  });

  it('a span that is exactly one whole day: one range, the cursor on its last tick', function () {
    const { hit, cursor, reads } = quietScan(START - 1, START + TICKS_PER_DAY - 1);
    expect(hit).to.equal(false);
    expect(cursor).to.deep.equal({ tick: START + TICKS_PER_DAY - 1, highest: 100 });
    expect(reads).to.deep.equal({ price: 0, minuteCandles: 0, ranges: [TICKS_PER_DAY] });
  });

  it('a span that is exactly one whole hour (not a midnight): one range, the cursor on its last tick', function () {
    const from = START + 5 * TICKS_PER_HOUR;
    const { hit, cursor, reads } = quietScan(from - 1, from + TICKS_PER_HOUR - 1);
    expect(hit).to.equal(false);
    expect(cursor).to.deep.equal({ tick: from + TICKS_PER_HOUR - 1, highest: 100 });
    expect(reads).to.deep.equal({ price: 0, minuteCandles: 0, ranges: [TICKS_PER_HOUR] });
  });

  it('a whole day is read from a midnight only: from an hour before one, that hour, then the day', function () {
    const from = START - TICKS_PER_HOUR;
    const { cursor, reads } = quietScan(from - 1, START + TICKS_PER_DAY - 1);
    expect(cursor.tick).to.equal(START + TICKS_PER_DAY - 1);
    expect(reads).to.deep.equal({ price: 0, minuteCandles: 0, ranges: [TICKS_PER_HOUR, TICKS_PER_DAY] });
  });

  it("a source that keeps its hours: the minutes read in place from the scan's minute of the hour, only the crossing minute tick by tick", function () {
    // One kept hour whose minute 40 holds a tick at 40 (below the stop); every other tick at 100.
    const hour = START / TICKS_PER_HOUR + 7;
    const crossing = (hour * 60 + 40) * TICKS_PER_MINUTE + 5;
    const kept = candleArrays(60);
    kept.high.fill(100);
    kept.low.fill(100);
    kept.low[40] = 40;
    const base = flatPath();
    let copies = 0;
    const path: PriceTicks = {
      ...base,
      price: (coin, tick) => (tick === crossing ? 40 : base.price(coin, tick)),
      keptHour: (_coin, h) => (h === hour ? kept : undefined),
      minuteCandles: (coin, from, count, out) => {
        copies++;
        return base.minuteCandles(coin, from, count, out);
      },
    };
    // From minute 10 of the hour: minutes 10 to 39 skipped on their kept candles, minute 40 read up to the crossing.
    const cursor: ExitCursor = { tick: (hour * 60 + 10) * TICKS_PER_MINUTE - 1, highest: 90 };
    const hit = newExitHit();
    expect(scanExits(path, COIN, QUIET, cursor, (hour + 1) * TICKS_PER_HOUR - 1, hit)).to.equal(true);
    expect(hit).to.deep.include({ tick: crossing, price: 40 });
    expect(cursor.tick).to.equal(crossing - 1);
    expect(copies, 'nothing copied').to.equal(0);
    expect(base.reads.price, 'the crossing minute up to its tick, and no other tick').to.equal(5);
  });
});
