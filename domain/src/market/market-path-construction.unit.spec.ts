/**
 * The path is the construction market-path.ts's header describes, number for number: a plain
 * reference written from that description (no caches, no scratch buffers, one formula for every
 * bridge) gives the same log price at every tick, and the same minute volumes. market-path.unit.spec.ts
 * checks what follows from the construction (candles made of ticks, no seams, no edge); this checks
 * the construction itself, cheaply, on the first days of the simulated history.
 */
import { expect } from 'chai';
import { chachaBlock, MARKET_CHACHA_ROUNDS } from './chacha';
import { coinById, type CoinId } from './coins';
import { HOURS_PER_DAY, MarketClock, MINUTES_PER_DAY, MINUTES_PER_HOUR, type DayClock } from './market-clock';
import { MarketPath, SIMULATION_EPOCH_MS, TICKS_PER_DAY, TICKS_PER_HOUR, TICKS_PER_MINUTE } from './market-path';
import { normalFromWord } from './normal-quantile';

const KEY = Uint32Array.from([7, 0x9e3779b9, 0x243f6a88, 3, 4, 5, 6, 0x85a308d3]);

/** "pric": the purpose word of a price block. */
const PRICE_PURPOSE = 0x70726963;
/** FNV-1a of the coin's id. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return h >>> 0;
}

/** The reference: one coin's path from the header's description. */
class Reference {
  private readonly sd: number;
  private readonly rho: number;
  private readonly start: number;
  private readonly levels: number[];

  constructor(
    private readonly clock: MarketClock,
    private readonly coin: CoinId,
  ) {
    const { simulation } = coinById(coin);
    this.sd = simulation.annualVolatility / Math.sqrt(365 * 24 * 60);
    this.rho = coin === 'bitcoin' ? 1 : simulation.btcCorrelation;
    this.start = Math.log(simulation.startingPriceUsd);
    this.levels = [this.start];
  }

  /** Word `word` of the price block of (coin, minute). */
  private word(coin: CoinId, minute: number, word: number): number {
    const block = new Uint32Array(16);
    chachaBlock(KEY, minute, fnv1a(coin), PRICE_PURPOSE, 0, MARKET_CHACHA_ROUNDS, block);
    return block[word]!;
  }

  /** The coin's normal of word `word` of minute `minute`'s block: with bitcoin's by rho. */
  normal(minute: number, word: number): number {
    const own = normalFromWord(this.word(this.coin, minute, word));
    if (this.coin === 'bitcoin') return own;
    return this.rho * normalFromWord(this.word('bitcoin', minute, word)) + Math.sqrt(1 - this.rho ** 2) * own;
  }

  private bitcoinNormal(minute: number, word: number): number {
    return normalFromWord(this.word('bitcoin', minute, word));
  }

  /** Midnight log prices: the previous one, pulled towards the start (half-life 180 days), plus the day's normal step. */
  dayLevel(day: number): number {
    while (this.levels.length <= day) {
      const d = this.levels.length - 1;
      const level = this.levels[d]!;
      const pulled = level - (Math.LN2 / 180) * (level - this.start);
      this.levels.push(pulled + this.sd * Math.sqrt(this.clock.dayTotal(d)) * this.normal((d + 1) * MINUTES_PER_DAY, 0));
    }
    return this.levels[day]!;
  }

  /**
   * A bridge from `from` to `to` over intervals of these variances: each next point is the current one
   * moved towards the end by its interval's share of the remaining variance, plus a normal of variance
   * v (R - v) / R (in units of the coin's minute variance).
   */
  private bridge(from: number, to: number, variances: number[], normalOf: (point: number) => number): number[] {
    const points = [from];
    let x = from;
    let remaining = variances.reduce((a, b) => a + b, 0);
    for (let i = 0; i < variances.length - 1; i++) {
      const v = variances[i]!;
      const after = remaining - v;
      x += (v / remaining) * (to - x) + this.sd * Math.sqrt((v * after) / remaining) * normalOf(i + 1);
      points.push(x);
      remaining = after;
    }
    points.push(to);
    return points;
  }

  /** The 13 log prices of minute `minute`: its 12 ticks and the next minute's first. */
  minuteLogs(minute: number): number[] {
    const day = Math.floor(minute / MINUTES_PER_DAY);
    const hourOfDay = Math.floor((minute - day * MINUTES_PER_DAY) / MINUTES_PER_HOUR);
    const hour = day * HOURS_PER_DAY + hourOfDay;
    const clock = this.clock.dayClock(day);
    // A day's hour points, word 0 of each hour's first minute.
    const hours = this.bridge(this.dayLevel(day), this.dayLevel(day + 1), Array.from(clock.hourVariance), (h) => this.normal(day * MINUTES_PER_DAY + h * MINUTES_PER_HOUR, 0));
    // An hour's minute points, word 0 of each minute.
    const hourMinutes = Array.from(clock.minuteVariance.subarray(hourOfDay * MINUTES_PER_HOUR, (hourOfDay + 1) * MINUTES_PER_HOUR));
    const minutes = this.bridge(hours[hourOfDay]!, hours[hourOfDay + 1]!, hourMinutes, (j) => this.normal(hour * MINUTES_PER_HOUR + j, 0));
    // A minute's ticks: 12 even intervals of its base variance, the jump's interval carrying the rest;
    // tick k's normal is word k, bitcoin's alone at the jump.
    const m = minute - day * MINUTES_PER_DAY;
    const base = clock.minuteBaseVariance[m]!;
    const jump = clock.jumpInterval[m]!;
    const variances = Array.from({ length: TICKS_PER_MINUTE }, (_, k) => base / TICKS_PER_MINUTE + (k === jump ? clock.minuteVariance[m]! - base : 0));
    const j = minute - hour * MINUTES_PER_HOUR;
    return this.bridge(minutes[j]!, minutes[j + 1]!, variances, (k) => (k - 1 === jump ? this.bitcoinNormal(minute, k) : this.normal(minute, k)));
  }

  /**
   * USD traded in ticks [first, last] of a minute: the coin's daily volume per tick, times the clock's
   * level of the minute, times a lognormal factor (word 12, spread 0.35, mean 1), three times as much
   * at each tick after the minute's jump.
   */
  volume(minute: number, first = 0, last = TICKS_PER_MINUTE - 1): number {
    const day = Math.floor(minute / MINUTES_PER_DAY);
    const clock: DayClock = this.clock.dayClock(day);
    const m = minute - day * MINUTES_PER_DAY;
    const factor = Math.exp(0.35 * normalFromWord(this.word(this.coin, minute, 12)) - 0.35 ** 2 / 2);
    const perTick = (coinById(this.coin).simulation.dailyVolumeUsd / (MINUTES_PER_DAY * TICKS_PER_MINUTE)) * clock.minuteVolume[m]! * factor;
    const jump = clock.jumpInterval[m]!;
    let total = 0;
    for (let k = first; k <= last; k++) total += perTick * (jump >= 0 && k > jump ? 3 : 1);
    return total;
  }
}

/** The first minute of day `day` with a jump, and one without. */
function minutesOf(clock: MarketClock, day: number): { jump: number; plain: number; jumpInterval: number } {
  const dayClock = clock.dayClock(day);
  const withJump = dayClock.jumpInterval.findIndex((j) => j >= 0);
  const without = dayClock.jumpInterval.findIndex((j, m) => j < 0 && m > 700);
  if (withJump < 0) throw new Error(`day ${day} has no jump: pick another day for this spec`);
  return { jump: day * MINUTES_PER_DAY + withJump, plain: day * MINUTES_PER_DAY + without, jumpInterval: dayClock.jumpInterval[withJump]! };
}

describe('market path: the construction its header describes', function () {
  this.timeout(60_000);
  const DAYS = [0, 1, 3];
  const COINS: CoinId[] = ['bitcoin', 'ethereum', 'polygon'];

  let clock: MarketClock;
  before(function () {
    clock = new MarketClock(KEY);
  });

  for (const coin of COINS) {
    it(`gives ${coin}'s midnights, hours, minutes and ticks as the reference does, jumps included`, function () {
      const path = new MarketPath(KEY);
      const reference = new Reference(new MarketClock(KEY), coin);
      for (const day of DAYS) {
        const { jump, plain, jumpInterval } = minutesOf(clock, day);
        const hourOfJump = Math.floor(jump / MINUTES_PER_HOUR);
        // Every minute of the jump's hour, the day's first minute and a minute without a jump.
        const minutes = [day * MINUTES_PER_DAY, plain, ...Array.from({ length: MINUTES_PER_HOUR }, (_, j) => hourOfJump * MINUTES_PER_HOUR + j)];
        for (const minute of minutes) {
          const expected = reference.minuteLogs(minute);
          const actual = Array.from({ length: TICKS_PER_MINUTE + 1 }, (_, k) => path.logPrice(coin, minute * TICKS_PER_MINUTE + k));
          actual.forEach((x, k) => expect(x, `${coin} minute ${minute} tick ${k}`).to.be.closeTo(expected[k]!, 1e-9));
        }
        expect(reference.minuteLogs(jump)[jumpInterval + 1], 'the reference drew the jump').to.be.a('number');
        expect(path.logPrice(coin, day * TICKS_PER_DAY), `${coin} midnight of day ${day}`).to.be.closeTo(reference.dayLevel(day), 1e-12);
      }
    });

    it(`gives ${coin}'s minute candles and volumes as the reference's ticks and volumes make them`, function () {
      const path = new MarketPath(KEY);
      const reference = new Reference(new MarketClock(KEY), coin);
      const { jump, jumpInterval } = minutesOf(clock, 1);
      const from = jump - 2;
      const candles = path.minuteCandles(coin, from, 5);
      for (let i = 0; i < 5; i++) {
        const minute = from + i;
        const ticks = reference.minuteLogs(minute).slice(0, TICKS_PER_MINUTE).map(Math.exp);
        expect(candles.time[i]).to.equal(SIMULATION_EPOCH_MS + minute * 60_000);
        expect(candles.open[i], `open ${minute}`).to.be.closeTo(ticks[0]!, ticks[0]! * 1e-9);
        expect(candles.high[i], `high ${minute}`).to.be.closeTo(Math.max(...ticks), ticks[0]! * 1e-9);
        expect(candles.low[i], `low ${minute}`).to.be.closeTo(Math.min(...ticks), ticks[0]! * 1e-9);
        expect(candles.close[i], `close ${minute}`).to.be.closeTo(ticks[TICKS_PER_MINUTE - 1]!, ticks[0]! * 1e-9);
        expect(candles.volume[i], `volume ${minute}`).to.be.closeTo(reference.volume(minute), reference.volume(minute) * 1e-12);
      }
      // Ragged spans of the jump's minute: before it, across it, after it.
      for (const [first, last] of [
        [0, jumpInterval],
        [1, Math.min(jumpInterval + 2, TICKS_PER_MINUTE - 1)],
        [jumpInterval + 1, TICKS_PER_MINUTE - 1],
        [TICKS_PER_MINUTE - 1, TICKS_PER_MINUTE - 1],
      ] as const) {
        const summary = path.summary(coin, jump * TICKS_PER_MINUTE + first, jump * TICKS_PER_MINUTE + last + 1);
        const expected = reference.volume(jump, first, last);
        expect(summary.volume, `ticks ${first}..${last} of the jump's minute (jump at ${jumpInterval})`).to.be.closeTo(expected, expected * 1e-12);
      }
    });
  }

  it('sums an hour and a day from the same minutes', function () {
    const path = new MarketPath(KEY);
    const reference = new Reference(new MarketClock(KEY), 'ethereum');
    const hour = 1 * HOURS_PER_DAY + 5;
    const logs = Array.from({ length: MINUTES_PER_HOUR }, (_, j) => reference.minuteLogs(hour * MINUTES_PER_HOUR + j).slice(0, TICKS_PER_MINUTE)).flat();
    const summary = path.summary('ethereum', hour * TICKS_PER_HOUR, (hour + 1) * TICKS_PER_HOUR);
    const volume = Array.from({ length: MINUTES_PER_HOUR }, (_, j) => reference.volume(hour * MINUTES_PER_HOUR + j)).reduce((a, b) => a + b, 0);
    expect(summary.open).to.be.closeTo(Math.exp(logs[0]!), 1e-6);
    expect(summary.close).to.be.closeTo(Math.exp(logs.at(-1)!), 1e-6);
    expect(summary.high).to.be.closeTo(Math.exp(Math.max(...logs)), 1e-6);
    expect(summary.low).to.be.closeTo(Math.exp(Math.min(...logs)), 1e-6);
    expect(summary.volume).to.be.closeTo(volume, volume * 1e-12);
  });
});
