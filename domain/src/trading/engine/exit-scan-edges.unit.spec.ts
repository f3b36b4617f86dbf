/**
 * The exit scan at its edges, on a made-up path whose every tick is known: a tick exactly on a level
 * closes (at or beyond, for the stop and the target), in a span read tick by tick and in one a candle
 * or a range could have skipped; a trailing stop never below the entry's level nor the fixed stop; the
 * cursor where it ends (the last tick scanned, the highest tick seen); and what a quiet span costs: its
 * whole days and hours read as ranges, its ticks only at the ragged ends.
 */
import { expect } from 'chai';
import type { CoinId } from '../../market/coins';
import { candleArrays, TICKS_PER_DAY, TICKS_PER_HOUR, TICKS_PER_MINUTE, type CandleArrays } from '../../market/market-path';
import { exitAtPrice, newExitHit, scanExits, STOP_LOSS, TAKE_PROFIT, type ExitCursor, type ExitHit, type ExitSpec } from './exit-scan';
import type { PriceTicks } from './price-ticks';

const COIN: CoinId = 'ethereum';
/** A day boundary, far from the epoch. */
const START = 400 * TICKS_PER_DAY;

/** A gentle wave around 100 (between 99 and 101), with prices set by hand at some ticks; counts what is read, and refuses ticks after `last`. */
class MadeUpPath implements PriceTicks {
  readonly set = new Map<number, number>();
  reads = { price: 0, minuteCandles: 0, range: 0, rangeSpans: [] as number[] };
  constructor(public last = Number.MAX_SAFE_INTEGER) {}
  lastTick(): number {
    return this.last;
  }
  private at(tick: number): number {
    if (tick > this.last) throw new RangeError(`tick ${tick} after the last ${this.last}`);
    return this.set.get(tick) ?? 100 + Math.sin(tick / 997);
  }
  price(_coin: CoinId, tick: number): number {
    this.reads.price++;
    return this.at(tick);
  }
  minuteCandles(_coin: CoinId, from: number, count: number, out: CandleArrays): CandleArrays {
    this.reads.minuteCandles++;
    for (let j = 0; j < count; j++) {
      const { high, low } = this.span((from + j) * TICKS_PER_MINUTE, (from + j + 1) * TICKS_PER_MINUTE);
      out.high[j] = high;
      out.low[j] = low;
    }
    return out;
  }
  minuteVolume(): number {
    return 0;
  }
  range(_coin: CoinId, from: number, to: number): { high: number; low: number } {
    this.reads.range++;
    this.reads.rangeSpans.push(to - from);
    return this.span(from, to);
  }
  private span(from: number, to: number): { high: number; low: number } {
    let high = -Infinity;
    let low = Infinity;
    for (let t = from; t < to; t++) {
      const p = this.at(t);
      if (p > high) high = p;
      if (p < low) low = p;
    }
    return { high, low };
  }
  /** The plain answer: each tick in order from `from`, the running highest, the first at or beyond a level. */
  reference(spec: ExitSpec, from: number, to: number, highest = Number.NaN): { hit: { tick: number; price: number; reason: number; level: number } | null; highest: number } {
    for (let t = from; t <= to; t++) {
      const p = this.at(t);
      highest = Number.isNaN(highest) ? p : Math.max(highest, p);
      const stop = spec.trail > 0 ? Math.max(spec.stopLoss, Math.max(spec.entry, highest) * (1 - spec.trail)) : spec.stopLoss;
      if (p <= stop) return { hit: { tick: t, price: p, reason: STOP_LOSS, level: stop }, highest };
      if (p >= spec.takeProfit) return { hit: { tick: t, price: p, reason: TAKE_PROFIT, level: spec.takeProfit }, highest };
    }
    return { hit: null, highest };
  }
}

function scan(source: PriceTicks, spec: ExitSpec, opening: number, to: number): { hit: ExitHit | null; cursor: ExitCursor } {
  const cursor: ExitCursor = { tick: opening, highest: Number.NaN };
  const hit = newExitHit();
  return { hit: scanExits(source, COIN, spec, cursor, to, hit) ? { ...hit } : null, cursor };
}

const fixed = (stopLoss: number, takeProfit: number): ExitSpec => ({ stopLoss, trail: 0, entry: 100, takeProfit });

describe('engine: exit scan at its edges (a made-up path)', function () {
  it('a hit starts empty', function () {
    expect(newExitHit()).to.deep.equal({ tick: -1, price: Number.NaN, reason: STOP_LOSS, level: Number.NaN });
  });

  // Spans: a few ticks (tick by tick), an hour and a bit (minutes), three days (days, hours, minutes), each from an opening off any boundary.
  for (const [label, opening, length] of [
    ['a short span', START + 5, 20],
    ['an hour and a bit', START + 7 * TICKS_PER_MINUTE + 3, TICKS_PER_HOUR + 9 * TICKS_PER_MINUTE],
    ['three days', START - 2 * TICKS_PER_HOUR - 5, 3 * TICKS_PER_DAY + 7],
  ] as const) {
    describe(label, function () {
      const to = opening + length;
      const at = opening + Math.floor(length * 0.7);

      it('a tick exactly on the stop closes there; so does one exactly on the target', function () {
        for (const [reason, level, spec] of [
          [STOP_LOSS, 90, fixed(90, 120)],
          [TAKE_PROFIT, 110, fixed(90, 110)],
        ] as const) {
          const path = new MadeUpPath();
          path.set.set(at, level);
          const { hit, cursor } = scan(path, spec, opening, to);
          expect(hit, `${label}: ${reason}`).to.deep.equal({ tick: at, price: level, reason, level });
          expect(cursor.tick, 'the cursor stays before the crossing').to.equal(at - 1);
          expect(cursor.highest).to.equal(path.reference(spec, opening + 1, to).highest);
        }
      });

      it('a tick a hair inside the levels does not close; the cursor ends on the last tick with the highest seen', function () {
        const path = new MadeUpPath();
        path.set.set(at, 90.000001);
        path.set.set(at + 1, 109.999999);
        const spec = fixed(90, 110);
        const { hit, cursor } = scan(path, spec, opening, to);
        expect(hit).to.equal(null);
        expect(cursor).to.deep.equal({ tick: to, highest: path.reference(spec, opening + 1, to).highest });
        expect(cursor.highest).to.equal(109.999999);
      });

      it('a trailing stop: never below the entry times the trail, never below the fixed stop, on the highest tick since the entry', function () {
        // Entry 100 with a 5 % trail: the level is 95 until the market goes above 100, whatever the ticks below it.
        const underEntry = new MadeUpPath();
        for (let t = opening + 1; t <= to; t++) underEntry.set.set(t, 99.5);
        underEntry.set.set(at, 95);
        const spec: ExitSpec = { stopLoss: 80, trail: 0.05, entry: 100, takeProfit: Infinity };
        expect(scan(underEntry, spec, opening, to).hit).to.deep.equal({ tick: at, price: 95, reason: STOP_LOSS, level: 95 });
        // A wide trail below the fixed stop: the fixed stop holds.
        const wide: ExitSpec = { stopLoss: 96, trail: 0.2, entry: 100, takeProfit: Infinity };
        underEntry.set.set(at, 96);
        expect(scan(underEntry, wide, opening, to).hit).to.deep.equal({ tick: at, price: 96, reason: STOP_LOSS, level: 96 });
        // A new high at 120 lifts the level to 114 for every tick after it.
        const risen = new MadeUpPath();
        for (let t = opening + 1; t <= to; t++) risen.set.set(t, 115);
        risen.set.set(at - 2, 120);
        risen.set.set(at, 114);
        expect(scan(risen, spec, opening, to).hit).to.deep.equal({ tick: at, price: 114, reason: STOP_LOSS, level: 114 });
        risen.set.set(at, 114.01);
        const { hit, cursor } = scan(risen, spec, opening, to);
        expect(hit).to.equal(null);
        expect(cursor).to.deep.equal({ tick: to, highest: 120 });
      });

      it('never reads a tick after the end of the span', function () {
        const path = new MadeUpPath(to);
        expect(scan(path, fixed(50, 150), opening, to).hit).to.equal(null);
        expect(() => scan(path, fixed(50, 150), opening, to + 1)).to.throw(RangeError);
      });
    });
  }

  it('a random path, levels on its own ticks: the same crossing, cursor and highest as the plain loop, whole or piece by piece', function () {
    let seed = 12345;
    const random = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    for (let n = 0; n < 60; n++) {
      const path = new MadeUpPath();
      const opening = START + Math.floor(random() * TICKS_PER_DAY);
      const to = opening + 1 + Math.floor(random() * [30, 3 * TICKS_PER_HOUR, 2 * TICKS_PER_DAY][n % 3]!);
      // A few ticks moved by hand, one of them the level.
      for (let k = 0; k < 5; k++) path.set.set(opening + 1 + Math.floor(random() * (to - opening)), 97 + random() * 6);
      const pick = opening + 1 + Math.floor(random() * (to - opening));
      const level = path.reference(fixed(0, Infinity), pick, pick).highest;
      const spec: ExitSpec = n % 2 === 0 ? { stopLoss: level, trail: n % 4 === 0 ? 0.01 : 0, entry: 100, takeProfit: 102.5 } : { stopLoss: 97.5, trail: 0, entry: 100, takeProfit: level };
      const expected = path.reference(spec, opening + 1, to);
      const whole = scan(path, spec, opening, to);
      expect(whole.hit, `case ${n}`).to.deep.equal(expected.hit);
      expect(whole.cursor, `case ${n}`).to.deep.equal(expected.hit ? { tick: expected.hit.tick - 1, highest: expected.highest } : { tick: to, highest: expected.highest });
      const cursor: ExitCursor = { tick: opening, highest: Number.NaN };
      const hit = newExitHit();
      let pieces: ExitHit | null = null;
      for (let now = opening; now < to && !pieces; ) {
        now = Math.min(to, now + 1 + Math.floor(random() * 3 * TICKS_PER_HOUR));
        if (scanExits(path, COIN, spec, cursor, now, hit)) pieces = { ...hit };
      }
      expect(pieces, `case ${n} in pieces`).to.deep.equal(expected.hit);
    }
  });

  it('a quiet span costs its ranges, not its ticks: whole days and hours as ranges, minutes as candles, ticks at the ragged ends only', function () {
    const path = new MadeUpPath();
    const opening = START - TICKS_PER_HOUR - 3 * TICKS_PER_MINUTE - 5; // 5 ticks, 3 minutes and an hour before a midnight
    const to = START + 2 * TICKS_PER_DAY + TICKS_PER_HOUR + 2 * TICKS_PER_MINUTE + 4; // two days, an hour, two minutes and 5 ticks after it
    const { hit, cursor } = scan(path, fixed(50, 150), opening, to);
    expect(hit).to.equal(null);
    expect(cursor.tick).to.equal(to);
    expect(path.reads.rangeSpans.filter((s) => s === TICKS_PER_DAY), 'each whole day, one range').to.have.length(2);
    expect(path.reads.rangeSpans.filter((s) => s === TICKS_PER_HOUR), 'the whole hours outside those days').to.have.length(2);
    expect(path.reads.range).to.equal(4);
    expect(path.reads.minuteCandles, 'the minutes of the two partial hours, an hour at a time').to.equal(2);
    expect(path.reads.price, 'only the ragged ends tick by tick: the 4 ticks after the opening, the 5 at the end').to.equal(4 + 5);
    // A span of whole minutes has no ragged end: not a tick read.
    const aligned = new MadeUpPath();
    expect(scan(aligned, fixed(50, 150), START - 1, START + TICKS_PER_HOUR + 2 * TICKS_PER_MINUTE - 1).cursor.tick).to.equal(START + TICKS_PER_HOUR + 2 * TICKS_PER_MINUTE - 1);
    expect(aligned.reads).to.deep.include({ price: 0, range: 1, minuteCandles: 1 });
    // A short span is read tick by tick: no candle, no range.
    const short = new MadeUpPath();
    scan(short, fixed(50, 150), START + 3, START + 3 + 2 * TICKS_PER_MINUTE - 1);
    expect(short.reads).to.deep.include({ price: 2 * TICKS_PER_MINUTE - 1, minuteCandles: 0, range: 0 });
    // A crossing in the second day: the first day skipped whole, the second opened down to the crossing's minute.
    const late = new MadeUpPath();
    late.set.set(START + TICKS_PER_DAY + 5 * TICKS_PER_HOUR + 7, 40);
    const found = scan(late, fixed(50, 150), START - 1, START + 3 * TICKS_PER_DAY);
    expect(found.hit).to.deep.include({ tick: START + TICKS_PER_DAY + 5 * TICKS_PER_HOUR + 7, reason: STOP_LOSS });
    expect(late.reads.rangeSpans.slice(0, 2)).to.deep.equal([TICKS_PER_DAY, TICKS_PER_DAY]);
    expect(late.reads.price, 'the crossing minute up to its tick').to.equal(8);
  });

  it('a lone live price: at or beyond the levels, the highest taken from it, a trailing level from the highest', function () {
    const spec = fixed(90, 110);
    const cursor: ExitCursor = { tick: -1, highest: Number.NaN };
    const hit = newExitHit();
    expect(exitAtPrice(spec, cursor, 90, hit)).to.equal(true);
    expect(hit).to.deep.equal({ tick: -1, price: 90, reason: STOP_LOSS, level: 90 });
    expect(exitAtPrice(spec, cursor, 110, hit)).to.equal(true);
    expect(hit).to.deep.equal({ tick: -1, price: 110, reason: TAKE_PROFIT, level: 110 });
    expect(exitAtPrice(spec, { tick: -1, highest: Number.NaN }, 100, hit)).to.equal(false);
    const trailing: ExitSpec = { stopLoss: 80, trail: 0.1, entry: 100, takeProfit: Infinity };
    const rising: ExitCursor = { tick: -1, highest: Number.NaN };
    for (const price of [101, 105, 110]) expect(exitAtPrice(trailing, rising, price, hit)).to.equal(false);
    expect(rising.highest).to.equal(110);
    expect(exitAtPrice(trailing, rising, 99.01, hit), 'above 110 x 0.9').to.equal(false);
    expect(exitAtPrice(trailing, rising, 99, hit)).to.equal(true);
    expect(hit).to.deep.include({ reason: STOP_LOSS, price: 99 });
    expect(hit.level).to.be.closeTo(99, 1e-9);
  });
});
