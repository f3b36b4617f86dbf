/**
 * The exit scan over the price path: the first tick at or beyond a stop loss, trailing stop or take
 * profit, found exactly (checked against a plain loop over the ticks, for short spans and for days
 * read minute by minute), the same whether scanned at once or piece by piece (notices lost, a monitor
 * restarted), the gap through a level paid, and no tick read beyond the last one that has happened.
 */
import { expect } from 'chai';
import type { CoinId } from '../../market/coins';
import { MarketPath, tickAt, TICKS_PER_DAY, TICKS_PER_HOUR, type CandleArrays } from '../../market/market-path';
import { exitAtPrice, newExitHit, scanExits, STOP_LOSS, TAKE_PROFIT, type ExitCursor, type ExitHit, type ExitSpec } from './exit-scan';
import { pathTicks, type PriceTicks } from './price-ticks';

const KEY = Uint32Array.from([7, 0x9e3779b9, 17, 3, 4, 5, 6, 8]);
const path = new MarketPath(KEY);
const ticks = pathTicks(path);
const DAY = tickAt(Date.UTC(2026, 0, 5));

/** A deterministic stream of numbers in [0, 1) (the specs' own, not the market's). */
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

/** The plain answer: every tick in order, the running highest, the first at or beyond. */
function reference(coinId: CoinId, spec: ExitSpec, from: number, to: number): { tick: number; reason: number; level: number } | null {
  const prices = path.ticks(coinId, from, new Float64Array(to - from + 1));
  let highest = Number.NaN;
  for (let i = 0; i < prices.length; i++) {
    const p = prices[i]!;
    highest = Number.isNaN(highest) ? p : Math.max(highest, p);
    const stop = spec.trail > 0 ? Math.max(spec.stopLoss, Math.max(spec.entry, highest) * (1 - spec.trail)) : spec.stopLoss;
    if (p <= stop) return { tick: from + i, reason: STOP_LOSS, level: stop };
    if (p >= spec.takeProfit) return { tick: from + i, reason: TAKE_PROFIT, level: spec.takeProfit };
  }
  return null;
}

function scan(coinId: CoinId, spec: ExitSpec, opening: number, to: number, source: PriceTicks = ticks): ExitHit | null {
  const hit = newExitHit();
  const cursor: ExitCursor = { tick: opening, highest: Number.NaN };
  return scanExits(source, coinId, spec, cursor, to, hit) ? hit : null;
}

/** The same path from a source that keeps whole hours' minute candles and lets the scan read them in place (as the backtest market does). */
const keptHours = new Map<string, CandleArrays>();
const keeping: PriceTicks = {
  ...ticks,
  keptHour(coinId, hour) {
    const key = `${coinId}:${hour}`;
    let kept = keptHours.get(key);
    if (!kept) {
      kept = path.minuteCandles(coinId, hour * 60, 60);
      keptHours.set(key, kept);
    }
    return kept;
  },
};

describe('engine: exit scan', function () {
  this.timeout(60_000);

  for (const [label, source] of [['', ticks], [', reading kept hours in place', keeping]] as const) {
  it(`finds the first tick at or beyond a fixed stop or target, exactly as a plain loop does, from a few ticks to two days${label}`, function () {
    const random = lcg(42);
    const coinIds: CoinId[] = ['ethereum', 'bitcoin', 'uniswap'];
    let found = 0;
    for (let n = 0; n < 120; n++) {
      const coinId = coinIds[n % coinIds.length]!;
      const opening = DAY + Math.floor(random() * TICKS_PER_DAY);
      const span = [3, 20, 200, TICKS_PER_HOUR + 17, TICKS_PER_DAY, 2 * TICKS_PER_DAY][n % 6]!;
      const entry = path.price(coinId, opening);
      const width = [0.001, 0.005, 0.02, 0.05][Math.floor(random() * 4)]!;
      const spec: ExitSpec = { stopLoss: entry * (1 - width), trail: 0, entry, takeProfit: entry * (1 + width * (1 + random() * 2)) };
      const expected = reference(coinId, spec, opening + 1, opening + span);
      const hit = scan(coinId, spec, opening, opening + span, source);
      if (expected === null) {
        expect(hit, `case ${n}`).to.equal(null);
        continue;
      }
      found += 1;
      expect(hit, `case ${n}`).to.not.equal(null);
      expect({ tick: hit!.tick, reason: hit!.reason, level: hit!.level }, `case ${n}`).to.deep.equal(expected);
      expect(hit!.price, 'the crossing tick\'s own price').to.equal(path.price(coinId, expected.tick));
    }
    expect(found, 'a third of the cases cross a level').to.be.greaterThan(30);
  });
  }

  it('finds a crossing days after the opening on its tick, the whole days and hours before it skipped on their ranges', function () {
    const random = lcg(2024);
    let found = 0;
    for (let n = 0; n < 16; n++) {
      const coinId: CoinId = (['ethereum', 'bitcoin', 'solana', 'polkadot'] as const)[n % 4]!;
      const opening = DAY + Math.floor(random() * TICKS_PER_DAY);
      const days = 10;
      const prices = path.ticks(coinId, opening + 1, new Float64Array(days * TICKS_PER_DAY));
      // Levels just outside the first two days' range: any crossing comes later, inside a later day or hour.
      let low = Infinity;
      let high = 0;
      for (let i = 0; i < 2 * TICKS_PER_DAY; i++) {
        low = Math.min(low, prices[i]!);
        high = Math.max(high, prices[i]!);
      }
      const entry = prices[0]!;
      const spec: ExitSpec = n % 2 === 0 ? { stopLoss: low * 0.999, trail: 0, entry, takeProfit: high * 1.001 } : { stopLoss: low * 0.999, trail: 0, entry, takeProfit: Number.POSITIVE_INFINITY };
      const expected = reference(coinId, spec, opening + 1, opening + days * TICKS_PER_DAY);
      const hit = scan(coinId, spec, opening, opening + days * TICKS_PER_DAY);
      expect(hit === null ? null : { tick: hit.tick, reason: hit.reason, level: hit.level }, `case ${n}`).to.deep.equal(expected);
      if (expected) {
        found += 1;
        expect(expected.tick - opening, 'after two days').to.be.greaterThan(2 * TICKS_PER_DAY);
      }
    }
    expect(found).to.be.greaterThan(8);
  });

  it('trails a stop below the highest tick since the entry, tick by tick', function () {
    const random = lcg(7);
    let found = 0;
    for (let n = 0; n < 60; n++) {
      const coinId: CoinId = n % 2 === 0 ? 'solana' : 'ethereum';
      const opening = DAY + Math.floor(random() * TICKS_PER_DAY);
      const entry = path.price(coinId, opening) * 1.0003;
      const trail = [0.002, 0.005, 0.01][n % 3]!;
      const spec: ExitSpec = { stopLoss: entry * (1 - trail), trail, entry, takeProfit: Number.POSITIVE_INFINITY };
      const to = opening + [50, TICKS_PER_HOUR * 3, TICKS_PER_DAY][n % 3]!;
      const expected = reference(coinId, spec, opening + 1, to);
      const hit = scan(coinId, spec, opening, to);
      expect(hit === null ? null : { tick: hit.tick, reason: hit.reason, level: hit.level }, `case ${n}`).to.deep.equal(expected);
      if (expected) {
        found += 1;
        expect(expected.level, 'a trailing level at or above the initial stop').to.be.at.least(spec.stopLoss);
      }
    }
    expect(found).to.be.greaterThan(30);
  });

  it('finds the same crossing scanned at once or piece by piece, and again from the opening after a restart', function () {
    const random = lcg(99);
    for (let n = 0; n < 40; n++) {
      const coinId: CoinId = 'chainlink';
      const opening = DAY + Math.floor(random() * TICKS_PER_DAY);
      const entry = path.price(coinId, opening);
      const spec: ExitSpec = { stopLoss: entry * 0.99, trail: n % 2 === 0 ? 0.008 : 0, entry, takeProfit: entry * 1.015 };
      const end = opening + TICKS_PER_DAY;
      const whole = scan(coinId, spec, opening, end);
      // Notices at random moments, some lost: each scan goes from the last tick checked to now.
      const cursor: ExitCursor = { tick: opening, highest: Number.NaN };
      const hit = newExitHit();
      let pieces: ExitHit | null = null;
      for (let now = opening; now < end && !pieces; ) {
        now = Math.min(end, now + 1 + Math.floor(random() * (random() < 0.1 ? 2000 : 30)));
        if (scanExits(ticks, coinId, spec, cursor, now, hit)) pieces = { ...hit };
      }
      expect(pieces, `case ${n}`).to.deep.equal(whole);
      if (whole) {
        // A close that failed is found again: the cursor stayed before the crossing.
        expect(cursor.tick).to.equal(whole.tick - 1);
        expect(scanExits(ticks, coinId, spec, cursor, end, hit) && { ...hit }).to.deep.equal(whole);
      }
    }
  });

  it('pays the gap: a tick that jumps through the stop closes at its own price, below the level', function () {
    const coinId: CoinId = 'uniswap';
    const prices = path.ticks(coinId, DAY, new Float64Array(TICKS_PER_DAY));
    let i = 1;
    while (prices[i]! > prices[i - 1]! * 0.9985) i++; // a drop of more than 0.15 % in one tick
    const level = (prices[i]! + prices[i - 1]!) / 2;
    const hit = scan(coinId, { stopLoss: level, trail: 0, entry: prices[i - 1]!, takeProfit: Number.POSITIVE_INFINITY }, DAY + i - 1, DAY + i + 100);
    expect(hit).to.include({ tick: DAY + i, reason: STOP_LOSS, price: prices[i], level });
    expect(hit!.price).to.be.lessThan(level * 0.9993);
  });

  it('reads no tick after the last that has happened', function () {
    const now = DAY + 5000;
    const bounded = pathTicks(path, () => now);
    const entry = path.price('bitcoin', DAY);
    const spec: ExitSpec = { stopLoss: entry * 0.5, trail: 0, entry, takeProfit: entry * 2 };
    const cursor: ExitCursor = { tick: DAY, highest: Number.NaN };
    expect(scanExits(bounded, 'bitcoin', spec, cursor, now, newExitHit())).to.equal(false);
    expect(cursor.tick).to.equal(now);
    expect(() => scanExits(bounded, 'bitcoin', spec, cursor, now + 1, newExitHit())).to.throw(RangeError, /has not happened yet/);
    expect(() => bounded.minuteCandles('bitcoin', Math.floor(now / 12), 2, { time: new Float64Array(2), open: new Float64Array(2), high: new Float64Array(2), low: new Float64Array(2), close: new Float64Array(2), volume: new Float64Array(2) })).to.throw(RangeError);
  });

  it('checks a lone live price the same way (a source without ticks)', function () {
    const spec: ExitSpec = { stopLoss: 95, trail: 0.05, entry: 100, takeProfit: 120 };
    const cursor: ExitCursor = { tick: -1, highest: Number.NaN };
    const hit = newExitHit();
    expect(exitAtPrice(spec, cursor, 110, hit)).to.equal(false);
    expect(exitAtPrice(spec, cursor, 105, hit), 'the trail from 110 is 104.5').to.equal(false);
    expect(exitAtPrice(spec, cursor, 104, hit)).to.equal(true);
    expect(hit).to.include({ reason: STOP_LOSS, price: 104 });
    expect(hit.level).to.be.closeTo(104.5, 1e-9);
    expect(exitAtPrice(spec, { tick: -1, highest: Number.NaN }, 121, hit) && hit.reason).to.equal(TAKE_PROFIT);
  });
});
