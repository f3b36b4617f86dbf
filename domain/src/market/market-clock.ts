/**
 * The market's clock: how much the whole market moves and trades in each minute since the epoch,
 * the same for every coin (a coin scales it by its own volatility and volume). The price path
 * (market-path.ts) is Brownian motion run on this clock, so everything that makes the market look
 * like a crypto market rather than a random walk with constant volatility lives here:
 *
 * - Volatility clustering and fat tails: a minute's variance is a product of random factors, each
 *   constant on blocks of its own length (4 minutes to 11 days, a geometric ladder; each ladder rung's
 *   blocks start at a phase of its own so no two rungs switch together), plus a factor of the minute
 *   alone. This is a multiplicative volatility cascade in the spirit of Calvet and Fisher's
 *   Markov-switching multifractal, with fixed block lengths instead of random switching times, so
 *   the factor of any minute is one lookup, not a walk from the epoch. The log of each factor is
 *   normal (lognormal factors, each of mean 1); their overlapping block lengths give the slow,
 *   nearly logarithmic decay of the autocorrelation of absolute returns that real markets show, and
 *   the spread of the product gives the fat tails of one-minute returns (a normal scaled by a
 *   random volatility is fat-tailed). Hourly returns add up sixty minutes and are less fat-tailed,
 *   as real ones are.
 * - Jumps: about JUMPS_PER_DAY times a day the whole market takes one large step (a single tick
 *   interval gets extra variance, Pareto-sized), the market's news moments.
 * - Seasonality: deterministic functions of UTC time. Variance and volume peak in the European and
 *   US overlap (around 14:30 UTC) and are lowest in the Asian night; weekends move and trade less.
 *
 * Everything random is a ChaCha block of the market's key (chacha.ts) at a counter that names the
 * block, so the clock of any minute can be computed on its own, and the clock says nothing about
 * prices (it is drawn apart from the price path's normals: the path is a forward process whatever the
 * clock). Every factor has mean 1 and the seasonal tables average 1 over a week, so a coin's variance
 * per minute averages its catalogue volatility: `minuteVariance` is in units of the average minute.
 *
 * The price path needs each day's total variance, from the epoch on (a day's closing price is drawn
 * from its opening price with that variance), so `dayTotal` keeps every day's total once computed
 * (a few hundred microseconds a day; about 0.2 s for the first six years). The minutes of a day are
 * kept for the last few days asked.
 */
import { chachaBlock, MARKET_CHACHA_ROUNDS, type ChaChaKey } from './chacha';
import { normalFromWord, uniformFromWord } from './normal-quantile';

export const MINUTES_PER_HOUR = 60;
export const HOURS_PER_DAY = 24;
export const MINUTES_PER_DAY = MINUTES_PER_HOUR * HOURS_PER_DAY;
const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY;
/** The simulation's epoch (2020-01-01, day 0) is a Wednesday: its minute 0 is this minute of a week that starts on Sunday 00:00 UTC. */
const EPOCH_MINUTE_OF_WEEK = 3 * MINUTES_PER_DAY;

/** Word 13 of the clock's ChaCha blocks (the coins use their own); word 14 says what the block is for. */
export const MARKET_NONCE = 0x6d6b7421;
const Purpose = { MinuteFactor: 1, Jumps: 2, Phases: 3, Cascade: 0x100 } as const;

/** The cascade: block lengths in minutes and the variance of each factor's log. */
export const CASCADE_BLOCK_MINUTES: readonly number[] = [4, 16, 64, 256, 1024, 4096, 16384];
export const CASCADE_LOG_VARIANCES: readonly number[] = [0.25, 0.2, 0.2, 0.25, 0.25, 0.2, 0.15];
/** Variance of the log of the factor each minute has alone. */
export const MINUTE_LOG_VARIANCE = 0.25;

/** Jumps of the whole market: how many a day on average, and their extra variance in average minutes (Pareto, tail index JUMP_TAIL, from JUMP_MIN, at most JUMP_MAX). */
export const JUMPS_PER_DAY = 1;
const JUMP_MIN = 20;
const JUMP_MAX = 250;
const JUMP_TAIL = 2;
/** At most this many jumps a day (the count is Poisson; more than this is about 1e-5 a day at one a day on average). */
const MAX_JUMPS_PER_DAY = 7;
/** Jumps fall on one of the first JUMP_POSITIONS tick intervals of a minute, so the tick that shows one is within the minute. */
export const JUMP_POSITIONS = 11;

/** Seasonality: log-amplitudes of the daily cycle (peak at SEASON_PEAK_UTC_HOUR) and the weekend's factors. */
const SEASON_PEAK_UTC_HOUR = 14.5;
const VARIANCE_DAILY_LOG_AMPLITUDE = 0.55;
const VOLUME_DAILY_LOG_AMPLITUDE = 0.45;
const WEEKEND_VARIANCE = 0.6;
const WEEKEND_VOLUME = 0.62;
/** How strongly volume follows the cascade's activity (its log scales by this). */
const VOLUME_ACTIVITY_EXPONENT = 0.5;

/** Minutes of the days asked most recently, kept for the path. */
export const DAY_CACHE = 16;

/** Expected extra variance of one jump, in average minutes (a truncated Pareto). */
function meanJump(): number {
  const uCap = (JUMP_MIN / JUMP_MAX) ** JUMP_TAIL;
  const k = 1 - 1 / JUMP_TAIL;
  return JUMP_MAX * uCap + (JUMP_MIN * (1 - uCap ** k)) / k;
}

/** The share of the average minute's variance that the jumps do not take. */
const DIFFUSIVE_SHARE = 1 - (JUMPS_PER_DAY / MINUTES_PER_DAY) * meanJump();

const CASCADE_TOTAL_LOG_VARIANCE = CASCADE_LOG_VARIANCES.reduce((a, b) => a + b, 0);

function weeklyTable(dailyLogAmplitude: number, weekendFactor: number): Float64Array {
  const table = new Float64Array(MINUTES_PER_WEEK);
  let sum = 0;
  for (let m = 0; m < MINUTES_PER_WEEK; m++) {
    const day = Math.floor(m / MINUTES_PER_DAY); // 0 Sunday ... 6 Saturday
    const hour = (m % MINUTES_PER_DAY) / MINUTES_PER_HOUR + 0.5 / MINUTES_PER_HOUR;
    const angle = (2 * Math.PI * (hour - SEASON_PEAK_UTC_HOUR)) / HOURS_PER_DAY;
    const value = Math.exp(dailyLogAmplitude * Math.cos(angle)) * (day === 0 || day === 6 ? weekendFactor : 1);
    table[m] = value;
    sum += value;
  }
  const mean = sum / MINUTES_PER_WEEK;
  for (let m = 0; m < MINUTES_PER_WEEK; m++) table[m] = table[m]! / mean;
  return table;
}

/** Variance and volume by minute of the week (Sunday 00:00 UTC first), each averaging 1 over a week. */
export const varianceSeason = weeklyTable(VARIANCE_DAILY_LOG_AMPLITUDE, WEEKEND_VARIANCE);
export const volumeSeason = weeklyTable(VOLUME_DAILY_LOG_AMPLITUDE, WEEKEND_VOLUME);

/** One day's minutes on the clock. Read-only for callers. */
export interface DayClock {
  day: number;
  /** Each minute's variance, jumps included, in average minutes. */
  minuteVariance: Float64Array;
  /** Each minute's variance without its jump (what each of its ticks carries, spread evenly). */
  minuteBaseVariance: Float64Array;
  /** The tick interval (0 .. JUMP_POSITIONS - 1) of the minute's jump, -1 for none. */
  jumpInterval: Int8Array;
  /** The market's volume level of each minute (1 on average). */
  minuteVolume: Float64Array;
  /** The variance of each hour (sum of its minutes). */
  hourVariance: Float64Array;
  total: number;
}

/** A day's arrays, to be written by dayClockInto (which sets the day too). */
function emptyDay(): DayClock {
  return {
    day: Number.NaN,
    minuteVariance: new Float64Array(MINUTES_PER_DAY),
    minuteBaseVariance: new Float64Array(MINUTES_PER_DAY),
    jumpInterval: new Int8Array(MINUTES_PER_DAY),
    minuteVolume: new Float64Array(MINUTES_PER_DAY),
    hourVariance: new Float64Array(HOURS_PER_DAY),
    total: 0,
  };
}

export class MarketClock {
  private readonly block = new Uint32Array(16);
  /** Per cascade rung: the offset of its blocks, the block in hand, its factor's log, and the ChaCha block its words come from. */
  private readonly phases: Float64Array;
  private readonly rungBlock: Float64Array;
  private readonly rungValue: Float64Array;
  private readonly rungCounter: Float64Array;
  private readonly rungWords: Uint32Array[];
  private readonly rungScale: Float64Array;
  private totals = new Float64Array(1024);
  private knownDays = 0;
  private readonly days = new Map<number, DayClock>();
  private readonly scratch: DayClock = emptyDay();

  constructor(private readonly key: ChaChaKey) {
    const rungs = CASCADE_BLOCK_MINUTES.length;
    chachaBlock(key, 0, MARKET_NONCE, Purpose.Phases, 0, MARKET_CHACHA_ROUNDS, this.block);
    this.phases = Float64Array.from(CASCADE_BLOCK_MINUTES, (length, k) => Math.floor(uniformFromWord(this.block[k]!) * length));
    this.rungBlock = new Float64Array(rungs).fill(-1);
    this.rungValue = new Float64Array(rungs);
    this.rungCounter = new Float64Array(rungs).fill(-1);
    this.rungWords = Array.from({ length: rungs }, () => new Uint32Array(16));
    this.rungScale = Float64Array.from(CASCADE_LOG_VARIANCES, Math.sqrt);
  }

  /** The total variance of day `day` (since the epoch), in average minutes. */
  dayTotal(day: number): number {
    if (day >= this.knownDays) {
      if (day >= this.totals.length) {
        const grown = new Float64Array(Math.max(day + 1, this.totals.length * 2));
        grown.set(this.totals);
        this.totals = grown;
      }
      for (let d = this.knownDays; d <= day; d++) this.totals[d] = (this.days.get(d) ?? this.dayClockInto(d, this.scratch)).total;
      this.knownDays = day + 1;
    }
    return this.totals[day]!;
  }

  /** The minutes of day `day`, kept for the DAY_CACHE days asked last. */
  dayClock(day: number): DayClock {
    const cached = this.days.get(day);
    if (cached) {
      this.days.delete(day); // Map order is the LRU order
      this.days.set(day, cached);
      return cached;
    }
    // A new object each time: a caller may still hold the one the cache lets go.
    const computed = this.dayClockInto(day, emptyDay());
    this.days.set(day, computed);
    if (this.days.size > DAY_CACHE) this.days.delete(this.days.keys().next().value!);
    return computed;
  }

  /** The minutes of day `day`, written into `target` (for a caller that walks many days with one scratch day). */
  dayClockInto(day: number, target: DayClock): DayClock {
    target.day = day;
    const first = day * MINUTES_PER_DAY;
    const { minuteVariance, minuteBaseVariance, jumpInterval, minuteVolume, hourVariance } = target;
    const minuteScale = Math.sqrt(MINUTE_LOG_VARIANCE);
    const varianceShift = -(CASCADE_TOTAL_LOG_VARIANCE + MINUTE_LOG_VARIANCE) / 2;
    const volumeShift = -(VOLUME_ACTIVITY_EXPONENT * VOLUME_ACTIVITY_EXPONENT * CASCADE_TOTAL_LOG_VARIANCE) / 2;
    const block = this.block;
    // A day starts at a UTC midnight, as the week does (Sunday 00:00): its minutes are one stretch of the week's.
    const weekStart = (first + EPOCH_MINUTE_OF_WEEK) % MINUTES_PER_WEEK;
    let cascade = Number.NaN;
    let volumeActivity = 0;
    // Stryker disable next-line EqualityOperator: equivalent as `<=`, a 1441st minute writes past the day's arrays (ignored) and moves the rungs to the next day's first minute (a function of the minute: the next day gets the same); `>=` (no minute) is also the loop's `false` mutant's case, which stays.
    for (let i = 0; i < MINUTES_PER_DAY; i++) {
      const m = first + i;
      // Stryker disable next-line ConditionalExpression: equivalent as `true`, minute m's words are block m / 16 rounded down (chachaBlock truncates its counter), so loading it at every minute loads the same words; `false` (the words never loaded) fails as the `!==` mutant (loaded at the wrong minutes) does, which stays.
      if ((i & 15) === 0) chachaBlock(this.key, m / 16, MARKET_NONCE, Purpose.MinuteFactor, 0, MARKET_CHACHA_ROUNDS, block);
      if (this.advanceRungs(m) || Number.isNaN(cascade)) {
        cascade = 0;
        for (let k = 0; k < this.rungValue.length; k++) cascade += this.rungValue[k]!;
        volumeActivity = Math.exp(VOLUME_ACTIVITY_EXPONENT * cascade + volumeShift);
      }
      const base = DIFFUSIVE_SHARE * varianceSeason[weekStart + i]! * Math.exp(cascade + minuteScale * normalFromWord(block[i & 15]!) + varianceShift);
      minuteBaseVariance[i] = base;
      minuteVariance[i] = base;
      jumpInterval[i] = -1;
      minuteVolume[i] = volumeSeason[weekStart + i]! * volumeActivity;
    }
    this.addJumps(day, target);
    let total = 0;
    for (let h = 0; h < HOURS_PER_DAY; h++) {
      let sum = 0;
      for (let j = h * MINUTES_PER_HOUR; j < (h + 1) * MINUTES_PER_HOUR; j++) sum += minuteVariance[j]!;
      hourVariance[h] = sum;
      total += sum;
    }
    target.total = total;
    return target;
  }

  /** Moves every cascade rung to its block of minute `m`; true when any factor changed. */
  private advanceRungs(m: number): boolean {
    let changed = false;
    for (let k = 0; k < this.rungBlock.length; k++) {
      const blockIndex = Math.floor((m + this.phases[k]!) / CASCADE_BLOCK_MINUTES[k]!);
      // Stryker disable next-line ConditionalExpression: equivalent as `false`, the block in hand's factor is drawn again from the same word (the same factor, only slower); `true` (never moving) is also the `!==` mutant's case, which stays.
      if (blockIndex === this.rungBlock[k]) continue;
      const counter = Math.floor(blockIndex / 16);
      // Stryker disable next-line ConditionalExpression: equivalent as `true`, the ChaCha block in hand is computed again (the same words, only slower); `false` (never loaded) is also the `===` mutant's case, which stays.
      if (counter !== this.rungCounter[k]) {
        chachaBlock(this.key, counter, MARKET_NONCE, Purpose.Cascade + k, 0, MARKET_CHACHA_ROUNDS, this.rungWords[k]!);
        this.rungCounter[k] = counter;
      }
      this.rungBlock[k] = blockIndex;
      this.rungValue[k] = this.rungScale[k]! * normalFromWord(this.rungWords[k]![blockIndex & 15]!);
      changed = true;
    }
    return changed;
  }

  /** The day's jumps: a Poisson count, then for each a minute, a tick interval and a size (two in one minute add up at the first one's tick). */
  private addJumps(day: number, target: DayClock): void {
    const block = this.block;
    chachaBlock(this.key, day, MARKET_NONCE, Purpose.Jumps, 0, MARKET_CHACHA_ROUNDS, block);
    const u = uniformFromWord(block[0]!);
    // The inverse of the Poisson distribution function.
    let count = 0;
    let probability = Math.exp(-JUMPS_PER_DAY);
    let cumulative = probability;
    while (u > cumulative && count < MAX_JUMPS_PER_DAY) {
      count += 1;
      probability *= JUMPS_PER_DAY / count;
      cumulative += probability;
    }
    for (let j = 0; j < count; j++) {
      const where = block[1 + 2 * j]!;
      const minute = Math.floor(uniformFromWord(where) * MINUTES_PER_DAY);
      const size = Math.min(JUMP_MAX, JUMP_MIN * uniformFromWord(block[2 + 2 * j]!) ** (-1 / JUMP_TAIL));
      target.minuteVariance[minute] = target.minuteVariance[minute]! + size;
      if (target.jumpInterval[minute] === -1) target.jumpInterval[minute] = (where & 0xffff) % JUMP_POSITIONS;
    }
  }
}
