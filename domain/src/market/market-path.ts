/**
 * The simulated market's one price path: every coin's price at every tick (TICK_MS = 5 s) since
 * SIMULATION_EPOCH_MS is a pure function of (key, coin, tick). Trades fill at it, ticks are samples
 * of it, and candles of every width are built from it (a minute's open, high, low and close are its
 * first, highest, lowest and last tick), so nothing that happens on the market lies outside its
 * candles, and a candle opens one tick after the previous one closed.
 *
 * How any tick is found without walking from the epoch (a Lévy, or Brownian-bridge, construction):
 * - The log price is Brownian motion run on the market's clock (market-clock.ts): each tick interval
 *   has a variance, the coin's volatility times the clock's variance of its minute (spread evenly
 *   over the minute's 12 ticks, plus the minute's jump on one of them).
 * - Days: the log price at each UTC midnight is the previous midnight's plus a normal step with the
 *   day's total variance (and a weak pull, half-life 180 days, towards the coin's starting price, so
 *   prices stay plausible for years). Days are few (about 2,300 since the epoch), so they are
 *   computed in order once and kept.
 * - Hours, minutes, ticks: between two known points, the points in between are drawn from their law
 *   given both ends, one after another (a Brownian bridge with uneven variances: each next point is
 *   the current one moved towards the end by the share of the remaining variance its interval
 *   carries, plus a normal of variance v (R - v) / R). A day's 23 inner hour points, an hour's 59
 *   minute points, a minute's 11 tick points.
 * Drawing the ends first and the middle given the ends is the same law as drawing the steps in time
 * order: the path is a forward process. What is known at tick n (the path up to n) says nothing about
 * the steps after n beyond their variance: the bridge's pull towards an end it has not reached yet is
 * exactly offset, on average over the end's law, by where that end was drawn from. The clock's
 * factors are drawn apart from the path's normals, so they say how much the price will move, never
 * where. (The old path drew minute prices first and ticks as a bridge towards the next minute's price
 * while trades filled at the minute's price: ticks knew the next fill. Here the tick is the only
 * price at any moment.)
 *
 * Randomness: each point's normal comes from one 32-bit word of a ChaCha block of the market's key
 * (chacha.ts), the block of (coin, minute) and the word of the tick within the minute: point n uses
 * word n mod 12 of block n / 12, whichever level draws it. So the whole path of a coin is 12 words a
 * minute, and any tick, minute or day can be computed on its own. Words 12 to 15 of a block serve the
 * minute's volume. A coin other than bitcoin moves with bitcoin: its normal at each point is
 * rho * bitcoin's normal at that point + sqrt(1 - rho^2) * its own (rho from the coin catalogue), on
 * the same clock, so its returns correlate with bitcoin's by rho at every scale from a tick to a year;
 * at a jump's tick it is bitcoin's normal alone, so a jump moves every coin the same way.
 *
 * Volume (USD) accrues tick by tick: the coin's daily volume spread over the day's ticks, times the
 * clock's volume level of the minute, times a lognormal factor of the coin's minute, and three times
 * as much after a jump within its minute. A minute's volume never depends on a tick after it.
 *
 * Cost: a year of one coin's 1-minute candles computes 6.3 million ticks, each a ChaCha word and a
 * table lookup (two of each for a coin other than bitcoin), in a few hundred milliseconds (bench:
 * `npm run bench:market`, `npm run market:stats`). Caches (never a source of truth, a fresh path
 * answers the same): each coin's daily levels, the hour points of recent days, the minute points and
 * minute candles of recent hours, the open/high/low/close/volume of every hour and day computed, so a
 * wide chart is assembled from them and only its ragged edges are recomputed. The caches are per
 * instance: keep one MarketPath per process and key.
 *
 * Nothing here reads a clock: callers pass tick indexes (`tickAt` turns a time into one).
 */
import { chachaBlock, MARKET_CHACHA_ROUNDS, type ChaChaKey } from './chacha';
import { coinById, type CoinId } from './coins';
import { HOURS_PER_DAY, MarketClock, MINUTES_PER_DAY, MINUTES_PER_HOUR, type DayClock } from './market-clock';
import { normalFromWord } from './normal-quantile';

export const TICK_MS = 5000;
export const TICKS_PER_MINUTE = 12;
export const TICKS_PER_HOUR = TICKS_PER_MINUTE * MINUTES_PER_HOUR;
export const TICKS_PER_DAY = TICKS_PER_HOUR * HOURS_PER_DAY;
export const MINUTE_MS = 60_000;

/** The first tick of simulated history: 2020-01-01T00:00:00Z, a UTC midnight and a Wednesday. */
export const SIMULATION_EPOCH_MS = Date.UTC(2020, 0, 1);

/** Word 14 of a price block (word 13 is the coin's code, word 12 the minute). */
const PRICE_PURPOSE = 0x70726963;
/** The pull of a day's log price towards the coin's starting level: half-life 180 days. */
const REVERSION_PER_DAY = Math.LN2 / 180;
/** Spread of the log of a coin's own volume factor per minute. */
const VOLUME_NOISE = 0.35;
/** Volume after a jump, within its minute, against before it. */
const JUMP_VOLUME_BOOST = 3;
const DAYS_PER_YEAR = 365;

/** Bridge constants of a minute without a jump (12 equal tick intervals): pull 1 / (12 - k), spread sqrt((11 - k) / (12 - k)). */
const EVEN_PULL = Float64Array.from({ length: TICKS_PER_MINUTE - 1 }, (_, k) => 1 / (TICKS_PER_MINUTE - k));
const EVEN_SPREAD = Float64Array.from({ length: TICKS_PER_MINUTE - 1 }, (_, k) => Math.sqrt((TICKS_PER_MINUTE - 1 - k) / (TICKS_PER_MINUTE - k)));

const MINUTE_CACHE_HOURS = 64;
const DAY_POINTS_CACHE = 64;

/** The tick at or before `timeMs` (the price at any moment is its last tick's). Refuses times before the epoch. */
export function tickAt(timeMs: number): number {
  if (!Number.isFinite(timeMs)) throw new RangeError(`not a time: ${timeMs}`);
  const tick = Math.floor((timeMs - SIMULATION_EPOCH_MS) / TICK_MS);
  if (tick < 0) throw new RangeError(`the simulated market starts at ${new Date(SIMULATION_EPOCH_MS).toISOString()}`);
  return tick;
}

/** When tick `tick` happens (ms since the Unix epoch). */
export function tickTime(tick: number): number {
  return SIMULATION_EPOCH_MS + tick * TICK_MS;
}

/** Open, high, low, close and volume of a span of ticks. */
export interface Summary {
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** Minute candles as typed arrays (`time` in ms since the Unix epoch): no object per candle. */
export interface CandleArrays {
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
}

export function candleArrays(count: number): CandleArrays {
  return {
    time: new Float64Array(count),
    open: new Float64Array(count),
    high: new Float64Array(count),
    low: new Float64Array(count),
    close: new Float64Array(count),
    volume: new Float64Array(count),
  };
}

/** A stable 32-bit code for a coin (FNV-1a of its id), so paths do not depend on the catalogue's order. */
function coinCode(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

class LruCache<V> {
  private readonly map = new Map<number, V>();
  constructor(private readonly capacity: number) {}
  get(key: number): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key); // Map order is the LRU order
      this.map.set(key, value);
    }
    return value;
  }
  set(key: number, value: V): void {
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value!);
  }
}

/** An hour's 60 minute candles in one buffer: open, high, low, close, volume, 60 each. */
const HOUR_CANDLES = 5 * MINUTES_PER_HOUR;
const OPEN = 0;
const HIGH = MINUTES_PER_HOUR;
const LOW = 2 * MINUTES_PER_HOUR;
const CLOSE = 3 * MINUTES_PER_HOUR;
const VOLUME = 4 * MINUTES_PER_HOUR;

/** A day's summaries: 24 hours then the day, 5 numbers each (open NaN: not computed yet). */
const DAY_SUMMARIES = 5 * (HOURS_PER_DAY + 1);

class CoinPath {
  private readonly code: number;
  private readonly btcCode: number;
  private readonly rho: number;
  private readonly idio: number;
  /** Standard deviation of the log price over an average minute. */
  private readonly sd: number;
  private readonly startLevel: number;
  /** USD per tick in an average minute. */
  private readonly tickVolume: number;
  private dayLevels = new Float64Array(1024);
  private knownLevels = 1;
  private readonly dayPoints = new LruCache<Float64Array>(DAY_POINTS_CACHE);
  private readonly minutePoints = new LruCache<Float64Array>(MINUTE_CACHE_HOURS);
  private readonly hourCandleCache = new LruCache<Float64Array>(MINUTE_CACHE_HOURS);
  private readonly summaries = new Map<number, Float64Array>();
  // Scratch (no allocation per tick or per minute).
  private readonly words = new Uint32Array(16 * MINUTES_PER_HOUR);
  private readonly btcWords = new Uint32Array(16 * MINUTES_PER_HOUR);
  private readonly pointWords = new Uint32Array(16);
  private readonly suffix = new Float64Array(MINUTES_PER_HOUR + 1);
  private readonly tickLogs = new Float64Array(TICKS_PER_MINUTE + 1);
  private lastMinute = -1;
  private readonly lastMinuteLogs = new Float64Array(TICKS_PER_MINUTE + 1);

  constructor(
    private readonly key: ChaChaKey,
    private readonly clock: MarketClock,
    readonly coinId: CoinId,
  ) {
    const coin = coinById(coinId);
    this.code = coinCode(coin.id);
    this.btcCode = coinCode('bitcoin');
    this.rho = coin.id === 'bitcoin' ? 1 : coin.simulation.btcCorrelation;
    this.idio = Math.sqrt(Math.max(0, 1 - this.rho * this.rho));
    this.sd = coin.simulation.annualVolatility / Math.sqrt(DAYS_PER_YEAR * MINUTES_PER_DAY);
    this.startLevel = Math.log(coin.simulation.startingPriceUsd);
    this.tickVolume = coin.simulation.dailyVolumeUsd / (MINUTES_PER_DAY * TICKS_PER_MINUTE);
    this.dayLevels[0] = this.startLevel;
  }

  /** The words of the price blocks of minutes [first, first + count) (count <= 60) into the scratch arrays. */
  private loadWords(first: number, count: number): void {
    for (let i = 0; i < count; i++) {
      chachaBlock(this.key, first + i, this.code, PRICE_PURPOSE, 0, MARKET_CHACHA_ROUNDS, this.words, 16 * i);
      if (this.rho < 1) chachaBlock(this.key, first + i, this.btcCode, PRICE_PURPOSE, 0, MARKET_CHACHA_ROUNDS, this.btcWords, 16 * i);
    }
  }

  /** The coin's normal for word `w` of the loaded blocks. */
  private normal(w: number): number {
    if (this.rho >= 1) return normalFromWord(this.words[w]!);
    return this.rho * normalFromWord(this.btcWords[w]!) + this.idio * normalFromWord(this.words[w]!);
  }

  /** Bitcoin's normal for word `w` of the loaded blocks (the market's own move). */
  private marketNormal(w: number): number {
    return normalFromWord(this.rho >= 1 ? this.words[w]! : this.btcWords[w]!);
  }

  /**
   * The normal of the point at minute `minute`'s first tick (word 0 of its block), on its own
   * scratch: a day or hour point may be needed while an hour's blocks are loaded.
   */
  private minutePointNormal(minute: number): number {
    chachaBlock(this.key, minute, this.code, PRICE_PURPOSE, 0, MARKET_CHACHA_ROUNDS, this.pointWords);
    const own = normalFromWord(this.pointWords[0]!);
    if (this.rho >= 1) return own;
    chachaBlock(this.key, minute, this.btcCode, PRICE_PURPOSE, 0, MARKET_CHACHA_ROUNDS, this.pointWords);
    return this.rho * normalFromWord(this.pointWords[0]!) + this.idio * own;
  }

  /** Log price at the start of day `day` (UTC midnight). */
  dayLevel(day: number): number {
    if (day >= this.knownLevels) {
      if (day >= this.dayLevels.length) {
        const grown = new Float64Array(Math.max(day + 1, this.dayLevels.length * 2));
        grown.set(this.dayLevels);
        this.dayLevels = grown;
      }
      for (let d = this.knownLevels - 1; d < day; d++) {
        const level = this.dayLevels[d]!;
        const spread = this.sd * Math.sqrt(this.clock.dayTotal(d));
        this.dayLevels[d + 1] = level - REVERSION_PER_DAY * (level - this.startLevel) + spread * this.minutePointNormal((d + 1) * MINUTES_PER_DAY);
      }
      this.knownLevels = day + 1;
    }
    return this.dayLevels[day]!;
  }

  /** Log prices at the 25 hour boundaries of day `day` (its midnight to the next). */
  private hourPoints(day: number, dayClock: DayClock): Float64Array {
    const cached = this.dayPoints.get(day);
    if (cached) return cached;
    const points = new Float64Array(HOURS_PER_DAY + 1);
    points[0] = this.dayLevel(day);
    points[HOURS_PER_DAY] = this.dayLevel(day + 1);
    this.bridge(points, dayClock.hourVariance, 0, HOURS_PER_DAY, (h) => this.minutePointNormal(day * MINUTES_PER_DAY + h * MINUTES_PER_HOUR));
    this.dayPoints.set(day, points);
    return points;
  }

  /**
   * Fills points[1 .. n - 1] between the known points[0] and points[n]: interval i (variance
   * variances[offset + i] average minutes) ends at point i + 1, whose normal is normalOf(i + 1).
   */
  private bridge(points: Float64Array, variances: Float64Array, offset: number, n: number, normalOf: (point: number) => number): void {
    const suffix = this.suffix;
    suffix[n] = 0;
    for (let i = n - 1; i >= 0; i--) suffix[i] = suffix[i + 1]! + variances[offset + i]!;
    const end = points[n]!;
    let x = points[0]!;
    for (let i = 0; i < n - 1; i++) {
      const v = variances[offset + i]!;
      const remaining = suffix[i]!;
      const after = suffix[i + 1]!;
      x += (v / remaining) * (end - x) + this.sd * Math.sqrt((v * after) / remaining) * normalOf(i + 1);
      points[i + 1] = x;
    }
  }

  /** Log prices at the 61 minute boundaries of hour `hour` (since the epoch). The hour's words must be loaded when `loaded`. */
  private minutePointsOf(hour: number, loaded: boolean): Float64Array {
    const cached = this.minutePoints.get(hour);
    if (cached) return cached;
    const day = Math.floor(hour / HOURS_PER_DAY);
    const h = hour - day * HOURS_PER_DAY;
    const dayClock = this.clock.dayClock(day);
    const hours = this.hourPoints(day, dayClock);
    if (!loaded) this.loadWords(hour * MINUTES_PER_HOUR, MINUTES_PER_HOUR);
    const points = new Float64Array(MINUTES_PER_HOUR + 1);
    points[0] = hours[h]!;
    points[MINUTES_PER_HOUR] = hours[h + 1]!;
    this.bridge(points, dayClock.minuteVariance, h * MINUTES_PER_HOUR, MINUTES_PER_HOUR, (j) => this.normal(16 * j));
    this.minutePoints.set(hour, points);
    return points;
  }

  /**
   * The 13 log prices of minute `minute` (its 12 ticks and the next minute's first) into `out`,
   * from the minute's points and its block (loaded at slot `slot`).
   */
  private minuteTicks(start: number, end: number, dayClock: DayClock, minuteOfDay: number, slot: number, out: Float64Array): void {
    out[0] = start;
    out[TICKS_PER_MINUTE] = end;
    const base = dayClock.minuteBaseVariance[minuteOfDay]!;
    const jump = dayClock.jumpInterval[minuteOfDay]!;
    const w = 16 * slot;
    let x = start;
    if (jump < 0) {
      const s = this.sd * Math.sqrt(base / TICKS_PER_MINUTE);
      for (let k = 0; k < TICKS_PER_MINUTE - 1; k++) {
        x += EVEN_PULL[k]! * (end - x) + s * EVEN_SPREAD[k]! * this.normal(w + k + 1);
        out[k + 1] = x;
      }
      return;
    }
    // A jump: interval `jump` carries the minute's extra variance.
    const each = base / TICKS_PER_MINUTE;
    const extra = dayClock.minuteVariance[minuteOfDay]! - base;
    let remaining = base + extra;
    for (let k = 0; k < TICKS_PER_MINUTE - 1; k++) {
      const v = k === jump ? each + extra : each;
      const after = remaining - v;
      // The jump's point moves every coin with bitcoin (news moves the whole market one way): its
      // normal is bitcoin's alone, the same standard normal, so the law of the coin's path is unchanged.
      const z = k === jump ? this.marketNormal(w + k + 1) : this.normal(w + k + 1);
      x += (v / remaining) * (end - x) + this.sd * Math.sqrt(Math.max(0, (v * after) / remaining)) * z;
      out[k + 1] = x;
      remaining = after;
    }
  }

  /** USD traded at each tick of a minute before any jump (from the block loaded at `slot`). */
  private minuteTickVolume(dayClock: DayClock, minuteOfDay: number, slot: number): number {
    const noise = Math.exp(VOLUME_NOISE * normalFromWord(this.words[16 * slot + 12]!) - (VOLUME_NOISE * VOLUME_NOISE) / 2);
    return this.tickVolume * dayClock.minuteVolume[minuteOfDay]! * noise;
  }

  /** Ticks 0 .. last of a minute: their volume, with the boost after a jump (none for last = -1). */
  private static ticksVolume(perTick: number, jump: number, last: number): number {
    const boosted = jump < 0 ? 0 : Math.max(0, last - jump);
    return perTick * (last + 1 + (JUMP_VOLUME_BOOST - 1) * boosted);
  }

  /** The 60 minute candles of hour `hour`: computed (and its summary kept), or from the cache. */
  hourCandles(hour: number): Float64Array {
    const cached = this.hourCandleCache.get(hour);
    if (cached) return cached;
    const computed = this.computeHourCandles(hour, new Float64Array(HOUR_CANDLES));
    this.hourCandleCache.set(hour, computed);
    return computed;
  }

  /**
   * Writes hour `hour`'s 60 minute candles into `out` (HOUR_CANDLES numbers) and keeps its summary;
   * with `ticksOut`, the hour's 720 tick prices too (the ticks the candles are made of, as `ticks` gives them).
   */
  computeHourCandles(hour: number, out: Float64Array, ticksOut?: Float64Array): Float64Array {
    const day = Math.floor(hour / HOURS_PER_DAY);
    const h = hour - day * HOURS_PER_DAY;
    const dayClock = this.clock.dayClock(day);
    this.loadWords(hour * MINUTES_PER_HOUR, MINUTES_PER_HOUR);
    // Stryker disable next-line BooleanLiteral: equivalent, false loads the words just loaded again (the same words, so the same points).
    const points = this.minutePointsOf(hour, true);
    const ticks = this.tickLogs;
    let hourHigh = -Infinity;
    let hourLow = Infinity;
    let hourVolume = 0;
    for (let j = 0; j < MINUTES_PER_HOUR; j++) {
      const minuteOfDay = h * MINUTES_PER_HOUR + j;
      this.minuteTicks(points[j]!, points[j + 1]!, dayClock, minuteOfDay, j, ticks);
      if (ticksOut) for (let k = 0; k < TICKS_PER_MINUTE; k++) ticksOut[j * TICKS_PER_MINUTE + k] = Math.exp(ticks[k]!);
      let high = ticks[0]!;
      let low = high;
      for (let k = 1; k < TICKS_PER_MINUTE; k++) {
        high = Math.max(high, ticks[k]!);
        low = Math.min(low, ticks[k]!);
      }
      const volume = CoinPath.ticksVolume(this.minuteTickVolume(dayClock, minuteOfDay, j), dayClock.jumpInterval[minuteOfDay]!, TICKS_PER_MINUTE - 1);
      out[OPEN + j] = Math.exp(ticks[0]!);
      out[HIGH + j] = Math.exp(high);
      out[LOW + j] = Math.exp(low);
      out[CLOSE + j] = Math.exp(ticks[TICKS_PER_MINUTE - 1]!);
      out[VOLUME + j] = volume;
      hourHigh = Math.max(hourHigh, out[HIGH + j]!);
      hourLow = Math.min(hourLow, out[LOW + j]!);
      hourVolume += volume;
    }
    const summaries = this.daySummaries(day);
    const at = 5 * h;
    summaries[at] = out[OPEN]!;
    summaries[at + 1] = hourHigh;
    summaries[at + 2] = hourLow;
    summaries[at + 3] = out[CLOSE + MINUTES_PER_HOUR - 1]!;
    summaries[at + 4] = hourVolume;
    return out;
  }

  private daySummaries(day: number): Float64Array {
    let summaries = this.summaries.get(day);
    if (!summaries) {
      summaries = new Float64Array(DAY_SUMMARIES).fill(Number.NaN);
      this.summaries.set(day, summaries);
    }
    return summaries;
  }

  /** The summary of hour `hour`, computing its minutes (outside the minute cache) when not known yet. */
  hourSummary(hour: number, scratch: Float64Array): Summary {
    const day = Math.floor(hour / HOURS_PER_DAY);
    const at = 5 * (hour - day * HOURS_PER_DAY);
    const summaries = this.daySummaries(day);
    if (Number.isNaN(summaries[at]!)) this.computeHourCandles(hour, scratch);
    return { open: summaries[at]!, high: summaries[at + 1]!, low: summaries[at + 2]!, close: summaries[at + 3]!, volume: summaries[at + 4]! };
  }

  daySummary(day: number, scratch: Float64Array): Summary {
    const summaries = this.daySummaries(day);
    const at = 5 * HOURS_PER_DAY;
    if (Number.isNaN(summaries[at]!)) {
      let result: Summary | undefined;
      for (let h = 0; h < HOURS_PER_DAY; h++) result = merge(result, this.hourSummary(day * HOURS_PER_DAY + h, scratch));
      summaries[at] = result!.open;
      summaries[at + 1] = result!.high;
      summaries[at + 2] = result!.low;
      summaries[at + 3] = result!.close;
      summaries[at + 4] = result!.volume;
    }
    return { open: summaries[at]!, high: summaries[at + 1]!, low: summaries[at + 2]!, close: summaries[at + 3]!, volume: summaries[at + 4]! };
  }

  /** The 13 log prices of minute `minute` (its ticks and the next minute's first), kept for the minute asked last. */
  minuteLogs(minute: number): Float64Array {
    if (minute === this.lastMinute) return this.lastMinuteLogs;
    const hour = Math.floor(minute / MINUTES_PER_HOUR);
    const day = Math.floor(hour / HOURS_PER_DAY);
    const points = this.minutePointsOf(hour, false);
    const j = minute - hour * MINUTES_PER_HOUR;
    this.loadWords(minute, 1);
    this.minuteTicks(points[j]!, points[j + 1]!, this.clock.dayClock(day), minute - day * MINUTES_PER_DAY, 0, this.lastMinuteLogs);
    this.lastMinute = minute;
    return this.lastMinuteLogs;
  }

  /** Volume of ticks [first, last] of minute `minute` (0 <= first <= last < 12): ticks 0 .. last less ticks 0 .. first - 1 (none when first is 0). */
  minuteVolume(minute: number, first: number, last: number): number {
    const day = Math.floor(minute / MINUTES_PER_DAY);
    const dayClock = this.clock.dayClock(day);
    const minuteOfDay = minute - day * MINUTES_PER_DAY;
    this.loadWords(minute, 1);
    const perTick = this.minuteTickVolume(dayClock, minuteOfDay, 0);
    const jump = dayClock.jumpInterval[minuteOfDay]!;
    return CoinPath.ticksVolume(perTick, jump, last) - CoinPath.ticksVolume(perTick, jump, first - 1);
  }
}

function merge(a: Summary | undefined, b: Summary): Summary {
  if (!a) return b;
  return { open: a.open, high: Math.max(a.high, b.high), low: Math.min(a.low, b.low), close: b.close, volume: a.volume + b.volume };
}

/**
 * The price path of every coin for one market key. Methods take tick or minute indexes since the
 * epoch (`tickAt`, `tickTime`); prices are USD.
 */
export class MarketPath {
  private readonly clock: MarketClock;
  private readonly paths = new Map<CoinId, CoinPath>();
  private readonly scratch = new Float64Array(HOUR_CANDLES);

  constructor(private readonly key: ChaChaKey) {
    if (!(key instanceof Uint32Array) || key.length !== 8) throw new RangeError('a market key is 8 32-bit words');
    this.clock = new MarketClock(key);
  }

  private path(coinId: CoinId): CoinPath {
    let path = this.paths.get(coinId);
    if (!path) {
      path = new CoinPath(this.key, this.clock, coinById(coinId).id);
      this.paths.set(coinId, path);
    }
    return path;
  }

  /** The log price of tick `tick`. */
  logPrice(coinId: CoinId, tick: number): number {
    requireTick(tick);
    const minute = Math.floor(tick / TICKS_PER_MINUTE);
    return this.path(coinId).minuteLogs(minute)[tick - minute * TICKS_PER_MINUTE]!;
  }

  /** The price of tick `tick` (USD). */
  price(coinId: CoinId, tick: number): number {
    return Math.exp(this.logPrice(coinId, tick));
  }

  /** The prices of ticks [from, from + out.length) into `out`. */
  ticks<T extends Float64Array>(coinId: CoinId, from: number, out: T): T {
    requireTick(from);
    const path = this.path(coinId);
    for (let i = 0; i < out.length; ) {
      const tick = from + i;
      const minute = Math.floor(tick / TICKS_PER_MINUTE);
      const logs = path.minuteLogs(minute);
      for (let k = tick - minute * TICKS_PER_MINUTE; k < TICKS_PER_MINUTE && i < out.length; k++, i++) out[i] = Math.exp(logs[k]!);
    }
    return out;
  }

  /**
   * The 1-minute candles of minutes [from, from + count) (minute indexes since the epoch) into
   * typed arrays (given, or new). Whole hours are computed straight into them; summaries of the
   * hours and days they cover are kept, so wider candles over the same range cost nothing more.
   */
  minuteCandles(coinId: CoinId, from: number, count: number, out: CandleArrays = candleArrays(count)): CandleArrays {
    requireTick(from);
    const path = this.path(coinId);
    const scratch = this.scratch;
    for (let i = 0; i < count; ) {
      const minute = from + i;
      const hour = Math.floor(minute / MINUTES_PER_HOUR);
      const j = minute - hour * MINUTES_PER_HOUR;
      const take = Math.min(MINUTES_PER_HOUR - j, count - i);
      const candles = path.computeHourCandles(hour, scratch);
      for (let t = 0; t < take; t++) {
        out.time[i + t] = SIMULATION_EPOCH_MS + (minute + t) * MINUTE_MS;
        out.open[i + t] = candles[OPEN + j + t]!;
        out.high[i + t] = candles[HIGH + j + t]!;
        out.low[i + t] = candles[LOW + j + t]!;
        out.close[i + t] = candles[CLOSE + j + t]!;
        out.volume[i + t] = candles[VOLUME + j + t]!;
      }
      i += take;
    }
    return out;
  }

  /**
   * Hour `hour`'s 60 minute candles and its 720 tick prices at once (the same numbers minuteCandles and
   * ticks give, from one pass over the hour: a backtest reads both of a past hour, and each alone
   * computes the hour's path again).
   */
  hourWithTicks(coinId: CoinId, hour: number, out: CandleArrays, ticksOut: Float64Array): void {
    requireTick(hour * TICKS_PER_HOUR);
    if (out.time.length < MINUTES_PER_HOUR || ticksOut.length < TICKS_PER_HOUR) throw new RangeError('an hour needs room for 60 candles and 720 ticks');
    const candles = this.path(coinId).computeHourCandles(hour, this.scratch, ticksOut);
    const minute = hour * MINUTES_PER_HOUR;
    for (let j = 0; j < MINUTES_PER_HOUR; j++) {
      out.time[j] = SIMULATION_EPOCH_MS + (minute + j) * MINUTE_MS;
      out.open[j] = candles[OPEN + j]!;
      out.high[j] = candles[HIGH + j]!;
      out.low[j] = candles[LOW + j]!;
      out.close[j] = candles[CLOSE + j]!;
      out.volume[j] = candles[VOLUME + j]!;
    }
  }

  /**
   * Open, high, low, close and volume of ticks [from, to): whole days and hours from their kept
   * summaries, whole minutes from their hour's candles, ragged minutes tick by tick.
   */
  summary(coinId: CoinId, from: number, to: number): Summary {
    requireTick(from);
    if (!(to > from)) throw new RangeError('a span needs at least one tick');
    const path = this.path(coinId);
    let result: Summary | undefined;
    let t = from;
    while (t < to) {
      if (t % TICKS_PER_DAY === 0 && t + TICKS_PER_DAY <= to) {
        result = merge(result, path.daySummary(t / TICKS_PER_DAY, this.scratch));
        t += TICKS_PER_DAY;
      } else if (t % TICKS_PER_HOUR === 0 && t + TICKS_PER_HOUR <= to) {
        result = merge(result, path.hourSummary(t / TICKS_PER_HOUR, this.scratch));
        t += TICKS_PER_HOUR;
      } else if (t % TICKS_PER_MINUTE === 0 && t + TICKS_PER_MINUTE <= to) {
        const minute = t / TICKS_PER_MINUTE;
        const hour = Math.floor(minute / MINUTES_PER_HOUR);
        const candles = path.hourCandles(hour);
        const last = Math.min((hour + 1) * MINUTES_PER_HOUR, Math.floor(to / TICKS_PER_MINUTE));
        for (let m = minute; m < last; m++) {
          const j = m - hour * MINUTES_PER_HOUR;
          result = merge(result, { open: candles[OPEN + j]!, high: candles[HIGH + j]!, low: candles[LOW + j]!, close: candles[CLOSE + j]!, volume: candles[VOLUME + j]! });
        }
        t = last * TICKS_PER_MINUTE;
      } else {
        const minute = Math.floor(t / TICKS_PER_MINUTE);
        const first = t - minute * TICKS_PER_MINUTE;
        const last = Math.min(TICKS_PER_MINUTE, to - minute * TICKS_PER_MINUTE) - 1;
        const logs = path.minuteLogs(minute);
        let high = logs[first]!;
        let low = high;
        for (let k = first + 1; k <= last; k++) {
          high = Math.max(high, logs[k]!);
          low = Math.min(low, logs[k]!);
        }
        const open = Math.exp(logs[first]!);
        const close = Math.exp(logs[last]!);
        result = merge(result, { open, high: Math.exp(high), low: Math.exp(low), close, volume: path.minuteVolume(minute, first, last) });
        t = minute * TICKS_PER_MINUTE + last + 1;
      }
    }
    return result!;
  }
}

function requireTick(tick: number): void {
  if (!Number.isSafeInteger(tick) || tick < 0) throw new RangeError(`not a tick of the simulated market: ${tick}`);
}

/** Keys whose shared path is kept (sharedMarketPath); a process serves one, its tests a few. */
export const SHARED_MARKET_PATHS_KEPT = 4;
const sharedPaths = new Map<string, MarketPath>();

/**
 * The process's one MarketPath for `key` (see the header: the caches are per instance, so every
 * reader of the same market shares them). A service already keeps one simulation; this is for a
 * process that makes several of one key (a test process's apps and specs), which then compute each
 * day's level, hour and minute once. A fresh path answers the same, so which instance answers never
 * changes an answer. The least recently asked key beyond SHARED_MARKET_PATHS_KEPT is let go.
 */
export function sharedMarketPath(key: ChaChaKey): MarketPath {
  const id = key instanceof Uint32Array ? Array.prototype.join.call(key, ',') : undefined;
  let path = id === undefined ? undefined : sharedPaths.get(id);
  if (path) {
    sharedPaths.delete(id!);
  } else {
    path = new MarketPath(key); // refuses a key that is not 8 words
    const oldest = sharedPaths.keys().next();
    if (sharedPaths.size >= SHARED_MARKET_PATHS_KEPT && !oldest.done) sharedPaths.delete(oldest.value);
  }
  sharedPaths.set(id!, path);
  return path;
}

/** Lets every shared path go: the next reader of a key computes afresh (mutation testing's hooks use it). */
export function forgetSharedMarketPaths(): void {
  sharedPaths.clear();
}
