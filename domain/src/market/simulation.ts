/**
 * The simulated market: every coin's price at every minute since SIMULATION_EPOCH_MS is a pure
 * function of (seed, coin, minute). Two processes with the same seed agree without sharing anything,
 * any candle of the past can be regenerated exactly, and a backtest sees what the paper bot saw.
 *
 * How it looks like a market rather than a sine wave:
 * - fat tails: daily and hourly shocks are Student-t with 5 degrees of freedom (excess kurtosis 6),
 *   scaled to unit variance; minute shocks are normal scaled by a market-wide variance weight per
 *   minute drawn so that each is a Student-t with 6 degrees of freedom (the t as a variance mixture);
 * - volatility clustering: daily volatility follows GARCH(1,1) (persistence 0.97), hours within a
 *   day share a market-wide activity level that drifts from hour to hour (AR(1)), and minutes within
 *   an hour share their hour's volatility;
 * - an intraday rhythm: volatility and volume peak in the European/US overlap (around 15:00 UTC) and
 *   are lowest in the Asian night (around 03:00 UTC);
 * - a common factor: each coin's shock is `rho * bitcoin's shock + sqrt(1 - rho^2) * its own`, with
 *   rho from the coin catalogue, at the daily, hourly and minute level alike;
 * - levels that stay plausible for years: the daily log price reverts slowly (half-life 180 days)
 *   towards the coin's starting price.
 *
 * Randomness is counter-based: a uniform number is an xxHash32-style hash of (seed, coin, stream,
 * index, k), so the shock of minute m needs no minute before it. Levels are cumulative sums, so the
 * path is built top-down and bridged: a day's return comes from the daily process (sequential over
 * days, but days are few: about 2,300 since the epoch, computed once per coin and kept); the 24
 * hourly returns of a day are drawn and then conditioned to add up exactly to the day's return (the
 * Brownian-bridge correction: each raw shock gives up a share of the excess proportional to its
 * variance, which is exactly the Gaussian conditional mean); the 60 minute returns of an hour are
 * conditioned to add up to the hour's return the same way. So the level at any minute is the day's
 * opening level plus at most 23 hourly and 59 minute returns, and it agrees at every boundary.
 *
 * Candles: a minute has one price; a candle's open is its first minute's price, close its last
 * minute's, high/low the extremes over its minutes, volume (USD) the sum. Hour and day summaries are
 * kept per coin once computed, so a long range of wide candles is assembled from days and hours, and
 * only ragged edges are computed minute by minute. The first request for a year of daily candles
 * still computes the year's 525,600 minutes once (the day highs and lows depend on them); later ones
 * read the summaries.
 *
 * Between minutes (for a live feed that ticks every few seconds): `livePriceAt` follows a path at
 * one-second resolution from each minute's price to the next one's, a Brownian bridge with the
 * minute's own variance (the same bitcoin factor, shocks from their own stream of the same hash). At
 * second 0 of every minute it is that minute's price exactly, so ticks and minute candles agree, and
 * nothing about the minute prices changes. Caveat: a bridge knows where it ends, so within a minute
 * the live price drifts towards the next minute's price before that minute begins; whatever trades
 * reads minute prices (`priceAt`, `quote`), never the live path.
 *
 * Nothing here reads a clock: callers pass `now`.
 */
import { candleIntervalForDays, type CandleInterval } from './candle-interval';
import { coinById, coins, type Candle, type Coin, type CoinId, type PricePoint } from './coins';

export const MINUTE_MS = 60_000;
export const SECOND_MS = 1000;
const SECONDS_PER_MINUTE = 60;
const MINUTES_PER_HOUR = 60;
const HOURS_PER_DAY = 24;
const MINUTES_PER_DAY = MINUTES_PER_HOUR * HOURS_PER_DAY;
const DAYS_PER_YEAR = 365;

/** The first minute of simulated history (2020-01-01T00:00:00Z, a UTC midnight). */
export const SIMULATION_EPOCH_MS = Date.UTC(2020, 0, 1);

/** Daily GARCH(1,1): sigma2' = omega + ALPHA * shock^2 + BETA * sigma2, omega keeping the long-run variance. */
const GARCH_ALPHA = 0.07;
const GARCH_BETA = 0.9;
/** Daily volatility never exceeds this multiple of the long-run level (keeps extreme paths finite). */
const MAX_VOL_MULTIPLE = 2.5;
/** Mean reversion of the daily log price towards the starting price: half-life 180 days. */
const REVERSION_PER_DAY = Math.LN2 / 180;
/** Hour-to-hour persistence of market activity within a day, and how much it moves volatility. */
const ACTIVITY_PERSISTENCE = 0.8;
const ACTIVITY_SCALE = 0.5;
/** Student-t degrees of freedom of daily and hourly shocks. */
const T_DOF = 5;
const T_UNIT_VARIANCE = Math.sqrt((T_DOF - 2) / T_DOF);
/** Degrees of freedom of the minute shocks' variance mixture (chi-square with an even count: one log). */
const MINUTE_T_DOF = 6;
/** Mean of |t| for a unit-variance t6, to keep volume's link to the size of a move mean-neutral. */
const MEAN_ABS_MINUTE_MOVE = 0.75;

/** Intraday rhythm by UTC hour: 1 on average, about 1.5 at 15:00 UTC, about 0.6 at 03:00 UTC. */
export const hourOfDayActivity: readonly number[] = (() => {
  const raw = Array.from({ length: HOURS_PER_DAY }, (_, hour) => {
    const distance = Math.min(Math.abs(hour - 15), HOURS_PER_DAY - Math.abs(hour - 15));
    return 0.55 + 1.1 * Math.exp(-(distance * distance) / (2 * 3.5 * 3.5));
  });
  const mean = raw.reduce((a, b) => a + b, 0) / raw.length;
  return raw.map((v) => v / mean);
})();

// ---------------------------------------------------------------------------------------------
// Counter-based randomness

const PRIME1 = 0x9e3779b1;
const PRIME2 = 0x85ebca77;
const PRIME3 = 0xc2b2ae3d;
const PRIME5 = 0x165667b1;

function round32(acc: number, input: number): number {
  const a = (acc + Math.imul(input, PRIME2)) | 0;
  return Math.imul((a << 13) | (a >>> 19), PRIME1);
}

function avalanche(h: number): number {
  h ^= h >>> 15;
  h = Math.imul(h, PRIME2);
  h ^= h >>> 13;
  h = Math.imul(h, PRIME3);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A stable 32-bit key for a string (FNV-1a), so paths do not depend on the catalogue's order. */
function stringKey(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Streams of random numbers: one per purpose, so no two purposes ever share a draw. */
const Stream = { DayShock: 1, HourShock: 2, MinuteShock: 3, HourActivity: 4, MinuteWeight: 5, SecondShock: 6 } as const;
type Stream = (typeof Stream)[keyof typeof Stream];

/** The hash state for (key, stream, index); each draw k from it is one more round and an avalanche. */
function counter(key: number, stream: Stream, index: number): number {
  return round32(round32(round32(PRIME5, key), stream), index);
}

/** Uniform in (0, 1): draw k of a counter. 32 bits, so |normal| draws reach about 6.6. */
function uniform(state: number, k: number): number {
  return (avalanche(round32(state, k)) + 0.5) / 4294967296;
}

/** Two independent standard normals from one Box-Muller draw. */
function normalPair(key: number, stream: Stream, index: number): { first: number; second: number } {
  const state = counter(key, stream, index);
  const radius = Math.sqrt(-2 * Math.log(uniform(state, 0)));
  const angle = 2 * Math.PI * uniform(state, 1);
  return { first: radius * Math.cos(angle), second: radius * Math.sin(angle) };
}

/**
 * A minute's variance weight, shared by every coin (news moves the whole market in the same minute):
 * (nu - 2) / chi2_nu with nu = 6, mean 1. A normal shock scaled by its square root is a unit-variance
 * Student-t with 6 degrees of freedom (excess kurtosis 3): the t as the variance mixture it is.
 */
function minuteVarianceWeight(marketKey: number, index: number): number {
  const state = counter(marketKey, Stream.MinuteWeight, index);
  return (MINUTE_T_DOF - 2) / (-2 * Math.log(uniform(state, 0) * uniform(state, 1) * uniform(state, 2)));
}

function standardNormal(key: number, stream: Stream, index: number): number {
  const state = counter(key, stream, index);
  return Math.sqrt(-2 * Math.log(uniform(state, 0))) * Math.cos(2 * Math.PI * uniform(state, 1));
}

/** Student-t (5 degrees of freedom) scaled to unit variance: z / sqrt(chi2_5 / 5). */
function unitT(key: number, stream: Stream, index: number): number {
  const state = counter(key, stream, index);
  const radius = Math.sqrt(-2 * Math.log(uniform(state, 0)));
  const angle = 2 * Math.PI * uniform(state, 1);
  const z1 = radius * Math.cos(angle);
  const z2 = radius * Math.sin(angle);
  const chi2 = -2 * Math.log(uniform(state, 2) * uniform(state, 3)) + z2 * z2; // chi2_4 (two exponentials) + chi2_1
  return (z1 / Math.sqrt(chi2 / T_DOF)) * T_UNIT_VARIANCE;
}

// ---------------------------------------------------------------------------------------------
// One coin's path

/** Open, high, low, close and volume of a span, as a plain tuple-like record. */
interface Summary {
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

interface HourMinutes {
  prices: Float64Array;
  volumes: Float64Array;
  /** Each minute's variance of log return before the hour's bridge (what the live path between minutes uses). */
  variances: Float64Array;
}

interface DayDetail {
  /** Log level at the start of each hour. */
  hourLevels: Float64Array;
  hourReturns: Float64Array;
  hourVariances: Float64Array;
  /** Market activity of each hour (scales volatility and volume). */
  hourActivity: Float64Array;
  hourSummaries: (Summary | undefined)[];
  summary: Summary | undefined;
}

/** Most recently used hours' minute prices, per coin: enough for a chart's ragged edges and a tick loop. */
const MINUTE_CACHE_HOURS = 64;

class CoinPath {
  private readonly key: number;
  private readonly btcKey: number;
  private readonly marketKey: number;
  private readonly rho: number;
  private readonly idio: number;
  private readonly longRunVariance: number;
  private readonly omega: number;
  private readonly startLevel: number;
  private readonly baseMinuteVolume: number;
  /** Per day since the epoch: log level at 00:00 UTC, the day's variance and its return. */
  private readonly dayLevels: number[] = [];
  private readonly dayVariances: number[] = [];
  private readonly dayReturns: number[] = [];
  private readonly days = new Map<number, DayDetail>();
  private readonly hours = new Map<number, HourMinutes>();

  constructor(seed: number, readonly coin: Coin) {
    const seedKey = avalanche(round32(round32(PRIME5, seed >>> 0), Math.floor(seed / 4294967296)));
    this.key = avalanche(round32(seedKey, stringKey(coin.id)));
    this.btcKey = avalanche(round32(seedKey, stringKey('bitcoin')));
    this.marketKey = avalanche(round32(seedKey, stringKey('market activity')));
    this.rho = coin.simulation.btcCorrelation;
    this.idio = Math.sqrt(Math.max(0, 1 - this.rho * this.rho));
    const dailyVol = coin.simulation.annualVolatility / Math.sqrt(DAYS_PER_YEAR);
    this.longRunVariance = dailyVol * dailyVol;
    this.omega = this.longRunVariance * (1 - GARCH_ALPHA - GARCH_BETA);
    this.startLevel = Math.log(coin.simulation.startingPriceUsd);
    this.baseMinuteVolume = coin.simulation.dailyVolumeUsd / MINUTES_PER_DAY;
    this.dayLevels.push(this.startLevel);
    this.dayVariances.push(this.longRunVariance);
  }

  /** The coin's unit-variance shock: a share rho of bitcoin's shock plus its own. */
  private shock(stream: Stream, index: number): number {
    if (this.rho >= 1) return unitT(this.btcKey, stream, index);
    return this.rho * unitT(this.btcKey, stream, index) + this.idio * unitT(this.key, stream, index);
  }

  private extendDays(day: number): void {
    for (let d = this.dayReturns.length; d <= day; d++) {
      const level = this.dayLevels[d]!;
      const variance = this.dayVariances[d]!;
      const shock = Math.sqrt(variance) * this.shock(Stream.DayShock, d);
      const dayReturn = -REVERSION_PER_DAY * (level - this.startLevel) + shock;
      this.dayReturns.push(dayReturn);
      this.dayLevels.push(level + dayReturn);
      const next = this.omega + GARCH_ALPHA * shock * shock + GARCH_BETA * variance;
      this.dayVariances.push(Math.min(next, MAX_VOL_MULTIPLE * MAX_VOL_MULTIPLE * this.longRunVariance));
    }
  }

  private day(day: number): DayDetail {
    const cached = this.days.get(day);
    if (cached) return cached;
    this.extendDays(day);
    const dayReturn = this.dayReturns[day]!;
    const dayVariance = this.dayVariances[day]!;
    const firstHour = day * HOURS_PER_DAY;

    // Market-wide activity drifts through the day (AR(1) on a normal, started afresh each day).
    const hourActivity = new Float64Array(HOURS_PER_DAY);
    let g = standardNormal(this.marketKey, Stream.HourActivity, firstHour * 2 + 1);
    const weights = new Float64Array(HOURS_PER_DAY);
    let weightSum = 0;
    for (let h = 0; h < HOURS_PER_DAY; h++) {
      g = ACTIVITY_PERSISTENCE * g + Math.sqrt(1 - ACTIVITY_PERSISTENCE ** 2) * standardNormal(this.marketKey, Stream.HourActivity, (firstHour + h) * 2);
      const activity = hourOfDayActivity[h]! * Math.exp(ACTIVITY_SCALE * g - (ACTIVITY_SCALE * ACTIVITY_SCALE) / 2);
      hourActivity[h] = activity;
      weights[h] = activity;
      weightSum += activity;
    }

    // Raw hourly shocks, then the bridge: they must add up to the day's return exactly.
    const hourVariances = new Float64Array(HOURS_PER_DAY);
    const hourReturns = new Float64Array(HOURS_PER_DAY);
    let rawSum = 0;
    for (let h = 0; h < HOURS_PER_DAY; h++) {
      const variance = (dayVariance * weights[h]!) / weightSum;
      hourVariances[h] = variance;
      const raw = Math.sqrt(variance) * this.shock(Stream.HourShock, firstHour + h);
      hourReturns[h] = raw;
      rawSum += raw;
    }
    const excess = rawSum - dayReturn;
    const hourLevels = new Float64Array(HOURS_PER_DAY);
    let level = this.dayLevels[day]!;
    for (let h = 0; h < HOURS_PER_DAY; h++) {
      hourReturns[h] = hourReturns[h]! - (hourVariances[h]! / dayVariance) * excess;
      hourLevels[h] = level;
      level += hourReturns[h]!;
    }
    const detail: DayDetail = {
      hourLevels,
      hourReturns,
      hourVariances,
      hourActivity,
      hourSummaries: new Array<Summary | undefined>(HOURS_PER_DAY),
      summary: undefined,
    };
    this.days.set(day, detail);
    return detail;
  }

  /** The 60 minute prices and volumes of an hour (index since the epoch), bridged to the hour's return. */
  hourMinutes(hour: number): HourMinutes {
    const cached = this.hours.get(hour);
    if (cached) {
      this.hours.delete(hour); // re-insert: Map order is the LRU order
      this.hours.set(hour, cached);
      return cached;
    }
    const computed = this.computeHourMinutes(hour);
    this.hours.set(hour, computed);
    if (this.hours.size > MINUTE_CACHE_HOURS) this.hours.delete(this.hours.keys().next().value!);
    return computed;
  }

  private computeHourMinutes(hour: number): HourMinutes {
    const day = Math.floor(hour / HOURS_PER_DAY);
    const h = hour - day * HOURS_PER_DAY;
    const detail = this.day(day);
    const hourVariance = detail.hourVariances[h]!;
    const hourReturn = detail.hourReturns[h]!;
    const firstMinute = hour * MINUTES_PER_HOUR;

    // Minute shocks are normal with a market-wide variance weight per minute (t6 marginally, see
    // minuteVarianceWeight); normals come in Box-Muller pairs, one pair per two minutes.
    const weights = new Float64Array(MINUTES_PER_HOUR);
    const units = new Float64Array(MINUTES_PER_HOUR);
    let weightSum = 0;
    for (let j = 0; j < MINUTES_PER_HOUR; j += 2) {
      const pair = (firstMinute + j) / 2;
      const btc = normalPair(this.btcKey, Stream.MinuteShock, pair);
      if (this.rho >= 1) {
        units[j] = btc.first;
        units[j + 1] = btc.second;
      } else {
        const own = normalPair(this.key, Stream.MinuteShock, pair);
        units[j] = this.rho * btc.first + this.idio * own.first;
        units[j + 1] = this.rho * btc.second + this.idio * own.second;
      }
      const w0 = minuteVarianceWeight(this.marketKey, firstMinute + j);
      const w1 = minuteVarianceWeight(this.marketKey, firstMinute + j + 1);
      weights[j] = w0;
      weights[j + 1] = w1;
      weightSum += w0 + w1;
    }
    // Raw returns, then the bridge: the 60 must add up to the hour's return exactly.
    const returns = new Float64Array(MINUTES_PER_HOUR);
    let rawSum = 0;
    for (let j = 0; j < MINUTES_PER_HOUR; j++) {
      const raw = Math.sqrt((hourVariance * weights[j]!) / weightSum) * units[j]!;
      returns[j] = raw;
      rawSum += raw;
    }
    const excess = rawSum - hourReturn;

    // Volume: the hour's activity, the day's volatility against its long-run level, and the size of
    // the minute's own move (in units of the hour's average minute).
    const dayVolRatio = Math.sqrt(this.dayVariances[day]! / this.longRunVariance);
    const hourVolume = this.baseMinuteVolume * detail.hourActivity[h]! * dayVolRatio;
    const prices = new Float64Array(MINUTES_PER_HOUR);
    const volumes = new Float64Array(MINUTES_PER_HOUR);
    const variances = new Float64Array(MINUTES_PER_HOUR);
    let level = detail.hourLevels[h]!;
    for (let j = 0; j < MINUTES_PER_HOUR; j++) {
      const share = weights[j]! / weightSum;
      const move = Math.sqrt(share * MINUTES_PER_HOUR) * Math.abs(units[j]!);
      prices[j] = Math.exp(level);
      volumes[j] = hourVolume * (0.4 + (0.6 * move) / MEAN_ABS_MINUTE_MOVE);
      variances[j] = hourVariance * share;
      level += returns[j]! - share * excess;
    }
    return { prices, volumes, variances };
  }

  /**
   * The live path through a minute (index since the epoch): for each second s in 0..59, the log price
   * at s seconds less the minute's own log price. A random walk of 60 one-second steps with the
   * minute's variance, bridged so that it ends at the next minute's price: offset(s) = (s/60) r +
   * W(s) - (s/60) W(60), with r the minute's log return; offset(0) = 0. Not cached: 60 draws cost
   * microseconds, less than keeping them.
   */
  secondOffsets(minute: number): Float64Array {
    const hour = Math.floor(minute / MINUTES_PER_HOUR);
    const j = minute - hour * MINUTES_PER_HOUR;
    const current = this.hourMinutes(hour);
    const next = j + 1 < MINUTES_PER_HOUR ? current.prices[j + 1]! : this.hourMinutes(hour + 1).prices[0]!;
    const minuteReturn = Math.log(next / current.prices[j]!);
    const stepSd = Math.sqrt(current.variances[j]! / SECONDS_PER_MINUTE);

    const walk = new Float64Array(SECONDS_PER_MINUTE + 1);
    for (let s = 0; s < SECONDS_PER_MINUTE; s += 2) {
      const pair = minute * (SECONDS_PER_MINUTE / 2) + s / 2;
      const btc = normalPair(this.btcKey, Stream.SecondShock, pair);
      let first = btc.first;
      let second = btc.second;
      if (this.rho < 1) {
        const own = normalPair(this.key, Stream.SecondShock, pair);
        first = this.rho * btc.first + this.idio * own.first;
        second = this.rho * btc.second + this.idio * own.second;
      }
      walk[s + 1] = walk[s]! + stepSd * first;
      walk[s + 2] = walk[s + 1]! + stepSd * second;
    }
    const offsets = new Float64Array(SECONDS_PER_MINUTE);
    const end = walk[SECONDS_PER_MINUTE]!;
    for (let s = 1; s < SECONDS_PER_MINUTE; s++) {
      const t = s / SECONDS_PER_MINUTE;
      offsets[s] = t * minuteReturn + walk[s]! - t * end;
    }
    return offsets;
  }

  hourSummary(hour: number): Summary {
    const day = Math.floor(hour / HOURS_PER_DAY);
    const detail = this.day(day);
    const h = hour - day * HOURS_PER_DAY;
    const cached = detail.hourSummaries[h];
    if (cached) return cached;
    // Computed without entering the minute cache, so summarising a year does not evict the hours a
    // chart or a tick loop is using.
    const { prices, volumes } = this.hours.get(hour) ?? this.computeHourMinutes(hour);
    const summary = summarise(prices, volumes, 0, MINUTES_PER_HOUR);
    detail.hourSummaries[h] = summary;
    return summary;
  }

  daySummary(day: number): Summary {
    const detail = this.day(day);
    if (detail.summary) return detail.summary;
    let summary: Summary | undefined;
    for (let h = 0; h < HOURS_PER_DAY; h++) summary = merge(summary, this.hourSummary(day * HOURS_PER_DAY + h));
    detail.summary = summary!;
    return detail.summary;
  }
}

function summarise(prices: Float64Array, volumes: Float64Array, from: number, to: number): Summary {
  let high = -Infinity;
  let low = Infinity;
  let volume = 0;
  for (let j = from; j < to; j++) {
    const p = prices[j]!;
    if (p > high) high = p;
    if (p < low) low = p;
    volume += volumes[j]!;
  }
  return { open: prices[from]!, high, low, close: prices[to - 1]!, volume };
}

function merge(a: Summary | undefined, b: Summary): Summary {
  if (!a) return b;
  return { open: a.open, high: Math.max(a.high, b.high), low: Math.min(a.low, b.low), close: b.close, volume: a.volume + b.volume };
}

// ---------------------------------------------------------------------------------------------
// The market

export interface Quote {
  coinId: CoinId;
  price: number;
  /** Price 24 hours before `at`. */
  price24hAgo: number;
  change24h: number;
  changePercent24h: number;
  /** USD traded in the 24 hours up to `at`. */
  volume24h: number;
  /** The minute the price belongs to (ms); for a live quote, the second. */
  at: number;
}

export interface CandleSeries {
  coinId: CoinId;
  interval: CandleInterval;
  candles: Candle[];
}

/**
 * The simulated market for one seed. It memoises what it computes (daily levels, hour and day
 * summaries, recent hours' minutes), so keep one instance per process; that is a cache, never a
 * source of truth: a fresh instance answers the same.
 */
export class MarketSimulation {
  private readonly paths = new Map<CoinId, CoinPath>();

  constructor(readonly seed: number) {
    if (!Number.isSafeInteger(seed) || seed < 0) throw new RangeError(`seed must be a non-negative safe integer, got ${seed}`);
  }

  private path(coinId: CoinId): CoinPath {
    let path = this.paths.get(coinId);
    if (!path) {
      path = new CoinPath(this.seed, coinById(coinId));
      this.paths.set(coinId, path);
    }
    return path;
  }

  /** The price of the minute that contains `timeMs`. */
  priceAt(coinId: CoinId, timeMs: number): number {
    const minute = minuteIndex(timeMs);
    const hour = Math.floor(minute / MINUTES_PER_HOUR);
    return this.path(coinId).hourMinutes(hour).prices[minute - hour * MINUTES_PER_HOUR]!;
  }

  /** One candle over the minutes of [fromMs, toMs) (both rounded down to their minute). */
  candle(coinId: CoinId, fromMs: number, toMs: number): Candle {
    const from = minuteIndex(fromMs);
    const to = minuteIndex(toMs);
    if (to <= from) throw new RangeError('a candle needs at least one minute');
    return { time: minuteToMs(from), ...this.aggregate(this.path(coinId), from, to) };
  }

  /**
   * Candles of `intervalMinutes` aligned to multiples of the interval since the simulation epoch
   * (an even number of days after the Unix epoch, so every rung of the candle ladder is aligned to
   * Unix time too and daily candles open at 00:00 UTC), from the one containing `fromMs` to the one containing `toMs`; the
   * last candle ends at `toMs`'s minute (inclusive), so it may be partial.
   */
  candles(coinId: CoinId, fromMs: number, toMs: number, intervalMinutes: number): Candle[] {
    if (!Number.isInteger(intervalMinutes) || intervalMinutes < 1) throw new RangeError(`interval must be a whole number of minutes, got ${intervalMinutes}`);
    const path = this.path(coinId);
    const last = minuteIndex(toMs);
    const first = Math.floor(minuteIndex(Math.max(fromMs, SIMULATION_EPOCH_MS)) / intervalMinutes) * intervalMinutes;
    if (last < first) return [];
    const result: Candle[] = [];
    for (let start = first; start <= last; start = (Math.floor(start / intervalMinutes) + 1) * intervalMinutes) {
      const end = Math.min((Math.floor(start / intervalMinutes) + 1) * intervalMinutes, last + 1);
      result.push({ time: minuteToMs(start), ...this.aggregate(path, start, end) });
    }
    return result;
  }

  /** The chart for a range of `days` ending at `nowMs`, in the ladder's width for that range. */
  chart(coinId: CoinId, days: number, nowMs: number): CandleSeries {
    const interval = candleIntervalForDays(days);
    const fromMs = nowMs - Math.round(days * MINUTES_PER_DAY) * MINUTE_MS + MINUTE_MS;
    return { coinId, interval, candles: this.candles(coinId, fromMs, nowMs, interval.minutes) };
  }

  /** Closing prices of the chart for `days` ending at `nowMs` (one point per candle, at its open time). */
  history(coinId: CoinId, days: number, nowMs: number): PricePoint[] {
    return this.chart(coinId, days, nowMs).candles.map((c) => ({ time: c.time, price: c.close }));
  }

  /**
   * The live price at `timeMs`, to the second: the price of its minute at second 0, then along the
   * bridge towards the next minute's price (see the file's header). Ticks read this; candles never do.
   */
  livePriceAt(coinId: CoinId, timeMs: number): number {
    const minute = minuteIndex(timeMs);
    const second = Math.floor((timeMs - minuteToMs(minute)) / SECOND_MS);
    const price = this.priceAt(coinId, timeMs);
    if (second === 0) return price;
    return price * Math.exp(this.path(coinId).secondOffsets(minute)[second]!);
  }

  /**
   * A quote at `nowMs` to the second, on the live path: the price now and 24 hours before (the same
   * second of the day before). The volume is the minute quote's (volume accrues by the minute); `at`
   * is the second the price belongs to.
   */
  liveQuote(coinId: CoinId, nowMs: number): Quote {
    const at = Math.floor(nowMs / SECOND_MS) * SECOND_MS;
    const price = this.livePriceAt(coinId, at);
    const price24hAgo = this.livePriceAt(coinId, at - MINUTES_PER_DAY * MINUTE_MS);
    const change24h = price - price24hAgo;
    const { volume24h } = this.quote(coinId, at);
    return { coinId, price, price24hAgo, change24h, changePercent24h: (change24h / price24hAgo) * 100, volume24h, at };
  }

  liveQuotes(nowMs: number): Quote[] {
    return coins.map((c) => this.liveQuote(c.id, nowMs));
  }

  /** The price at `nowMs`, its change over 24 hours and the volume traded in them. */
  quote(coinId: CoinId, nowMs: number): Quote {
    const at = minuteToMs(minuteIndex(nowMs));
    const price = this.priceAt(coinId, at);
    const dayAgo = at - MINUTES_PER_DAY * MINUTE_MS;
    const price24hAgo = this.priceAt(coinId, dayAgo);
    const volume24h = this.aggregate(this.path(coinId), minuteIndex(dayAgo) + 1, minuteIndex(at) + 1).volume;
    const change24h = price - price24hAgo;
    return { coinId, price, price24hAgo, change24h, changePercent24h: (change24h / price24hAgo) * 100, volume24h, at };
  }

  quotes(nowMs: number): Quote[] {
    return coins.map((c) => this.quote(c.id, nowMs));
  }

  /** Minute prices and volumes over [fromMs, toMs), one 1-minute candle each (open = high = low = close). */
  minutes(coinId: CoinId, fromMs: number, toMs: number): Candle[] {
    const { prices, volumes } = this.minuteSeries(coinId, fromMs, toMs);
    const first = minuteToMs(minuteIndex(fromMs));
    return Array.from(prices, (p, i) => ({ time: first + i * MINUTE_MS, open: p, high: p, low: p, close: p, volume: volumes[i]! }));
  }

  /** The same as `minutes`, as two flat arrays (for statistics over a year of minutes). */
  minuteSeries(coinId: CoinId, fromMs: number, toMs: number): { prices: Float64Array; volumes: Float64Array } {
    const path = this.path(coinId);
    const from = minuteIndex(fromMs);
    const count = Math.max(0, minuteIndex(toMs) - from);
    const prices = new Float64Array(count);
    const volumes = new Float64Array(count);
    for (let i = 0; i < count; ) {
      const m = from + i;
      const hour = Math.floor(m / MINUTES_PER_HOUR);
      const j = m - hour * MINUTES_PER_HOUR;
      const take = Math.min(MINUTES_PER_HOUR - j, count - i);
      const minutes = path.hourMinutes(hour);
      prices.set(minutes.prices.subarray(j, j + take), i);
      volumes.set(minutes.volumes.subarray(j, j + take), i);
      i += take;
    }
    return { prices, volumes };
  }

  /** Minutes [from, to) (since the epoch): whole days and hours from their summaries, edges minute by minute. */
  private aggregate(path: CoinPath, from: number, to: number): Summary {
    let result: Summary | undefined;
    let m = from;
    while (m < to) {
      if (m % MINUTES_PER_DAY === 0 && m + MINUTES_PER_DAY <= to) {
        result = merge(result, path.daySummary(m / MINUTES_PER_DAY));
        m += MINUTES_PER_DAY;
      } else if (m % MINUTES_PER_HOUR === 0 && m + MINUTES_PER_HOUR <= to) {
        result = merge(result, path.hourSummary(m / MINUTES_PER_HOUR));
        m += MINUTES_PER_HOUR;
      } else {
        const hour = Math.floor(m / MINUTES_PER_HOUR);
        const j = m - hour * MINUTES_PER_HOUR;
        const end = Math.min(MINUTES_PER_HOUR, j + (to - m));
        const { prices, volumes } = path.hourMinutes(hour);
        result = merge(result, summarise(prices, volumes, j, end));
        m += end - j;
      }
    }
    return result!;
  }
}

/** Minutes since the simulation epoch of the minute containing `timeMs`; refuses times before it. */
function minuteIndex(timeMs: number): number {
  if (!Number.isFinite(timeMs)) throw new RangeError(`not a time: ${timeMs}`);
  const minute = Math.floor((timeMs - SIMULATION_EPOCH_MS) / MINUTE_MS);
  if (minute < 0) throw new RangeError(`the simulated market starts at ${new Date(SIMULATION_EPOCH_MS).toISOString()}`);
  return minute;
}

function minuteToMs(minute: number): number {
  return SIMULATION_EPOCH_MS + minute * MINUTE_MS;
}
