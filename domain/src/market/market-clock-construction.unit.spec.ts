/**
 * The clock is the construction market-clock.ts's header describes, number for number: a plain
 * reference written from that description and the figures below (a lookup per factor, no rung
 * bookkeeping, no scratch day) gives the same variance, volume level and jump of every minute.
 * market-clock.unit.spec.ts checks what follows from it over a year (clustering, jumps a day, the
 * average minute); this checks the construction itself, cheaply, on a few days.
 */
import { expect } from 'chai';
import { chachaBlock, MARKET_CHACHA_ROUNDS } from './chacha';
import { CASCADE_BLOCK_MINUTES, CASCADE_LOG_VARIANCES, HOURS_PER_DAY, JUMP_POSITIONS, MARKET_NONCE, MarketClock, MINUTE_LOG_VARIANCE, MINUTES_PER_DAY, MINUTES_PER_HOUR, varianceSeason, volumeSeason } from './market-clock';
import { normalFromWord, uniformFromWord } from './normal-quantile';

let KEY = Uint32Array.from([11, 0x9e3779b9, 0x243f6a88, 3, 4, 5, 6, 0x85a308d3]);
const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY;
/** What each ChaCha block of the clock is for (word 14). */
const MINUTE_FACTOR = 1;
const JUMPS = 2;
const PHASES = 3;
const CASCADE = 0x100;

/** The figures of the seasons and jumps. */
const PEAK_UTC_HOUR = 14.5;
const VARIANCE_AMPLITUDE = 0.55;
const VOLUME_AMPLITUDE = 0.45;
const WEEKEND_VARIANCE = 0.6;
const WEEKEND_VOLUME = 0.62;
const JUMP_MIN = 20;
const JUMP_MAX = 250;
/**
 * The mean extra variance of a jump: min(250, 20 U^(-1/2)) for U uniform on (0, 1) is 250 below
 * U = (20/250)^2 = 0.0064 and 20 U^(-1/2) above, so its mean is 250 x 0.0064 + 40 (1 - 0.08) = 38.4;
 * one a day on average, so the minutes without their jumps keep 1 - 38.4 / 1440 of the variance.
 */
const DIFFUSIVE_SHARE = 1 - 38.4 / MINUTES_PER_DAY;

function block(counter: number, purpose: number): Uint32Array {
  const out = new Uint32Array(16);
  chachaBlock(KEY, counter, MARKET_NONCE, purpose, 0, MARKET_CHACHA_ROUNDS, out);
  return out;
}

/** A weekly table from its definition: exp(a cos(2 pi (hour - 14.5) / 24)) at each minute's middle, weekends scaled, divided by the week's mean. */
function season(amplitude: number, weekend: number): number[] {
  const raw = Array.from({ length: MINUTES_PER_WEEK }, (_, m) => {
    const weekday = Math.floor(m / MINUTES_PER_DAY); // 0 Sunday
    const hour = (m % MINUTES_PER_DAY) / 60 + 1 / 120;
    return Math.exp(amplitude * Math.cos((2 * Math.PI * (hour - PEAK_UTC_HOUR)) / 24)) * (weekday === 0 || weekday === 6 ? weekend : 1);
  });
  const mean = raw.reduce((a, b) => a + b, 0) / MINUTES_PER_WEEK;
  return raw.map((x) => x / mean);
}

interface ReferenceMinute {
  variance: number;
  baseVariance: number;
  jumpInterval: number;
  volume: number;
}

/** The clock of day `day`, minute by minute, from the header's description. */
function referenceDay(day: number): ReferenceMinute[] {
  const phases = block(0, PHASES);
  const cascadeSum = CASCADE_LOG_VARIANCES.reduce((a, b) => a + b, 0);
  const varianceTable = season(VARIANCE_AMPLITUDE, WEEKEND_VARIANCE);
  const volumeTable = season(VOLUME_AMPLITUDE, WEEKEND_VOLUME);
  const minutes: ReferenceMinute[] = [];
  for (let i = 0; i < MINUTES_PER_DAY; i++) {
    const m = day * MINUTES_PER_DAY + i;
    // Each rung: a factor constant on blocks of its length, starting at the rung's phase.
    let cascade = 0;
    CASCADE_BLOCK_MINUTES.forEach((length, k) => {
      const phase = Math.floor(uniformFromWord(phases[k]!) * length);
      const index = Math.floor((m + phase) / length);
      cascade += Math.sqrt(CASCADE_LOG_VARIANCES[k]!) * normalFromWord(block(Math.floor(index / 16), CASCADE + k)[index % 16]!);
    });
    const own = Math.sqrt(MINUTE_LOG_VARIANCE) * normalFromWord(block(Math.floor(m / 16), MINUTE_FACTOR)[m % 16]!);
    // Day 0 (2020-01-01) is a Wednesday: minute 3 x 1440 of a week that starts on Sunday.
    const weekMinute = (m + 3 * MINUTES_PER_DAY) % MINUTES_PER_WEEK;
    // Lognormal factors of mean 1: exp(x - var / 2).
    const base = DIFFUSIVE_SHARE * varianceTable[weekMinute]! * Math.exp(cascade + own - (cascadeSum + MINUTE_LOG_VARIANCE) / 2);
    const volume = volumeTable[weekMinute]! * Math.exp(0.5 * cascade - (0.25 * cascadeSum) / 2);
    minutes.push({ variance: base, baseVariance: base, jumpInterval: -1, volume });
  }
  for (const jump of referenceJumps(day)) {
    const minute = minutes[jump.minute]!;
    minute.variance += jump.size;
    if (minute.jumpInterval === -1) minute.jumpInterval = jump.interval;
  }
  return minutes;
}

/** A Poisson (mean 1, at most 7) count of jumps, each at a minute and tick interval, Pareto-sized. */
function referenceJumps(day: number): { minute: number; interval: number; size: number }[] {
  const words = block(day, JUMPS);
  const u = uniformFromWord(words[0]!);
  let count = 0;
  let cumulative = Math.exp(-1);
  let factorial = 1;
  while (u > cumulative && count < 7) {
    count++;
    factorial *= count;
    cumulative += Math.exp(-1) / factorial;
  }
  return Array.from({ length: count }, (_, j) => {
    const where = words[1 + 2 * j]!;
    return {
      minute: Math.floor(uniformFromWord(where) * MINUTES_PER_DAY),
      interval: (where & 0xffff) % JUMP_POSITIONS,
      size: Math.min(JUMP_MAX, JUMP_MIN * uniformFromWord(words[2 + 2 * j]!) ** -0.5),
    };
  });
}

function expectDay(clock: MarketClock, day: number): void {
  const actual = clock.dayClock(day);
  const expected = referenceDay(day);
  expect(actual.day).to.equal(day);
  expected.forEach((minute, i) => {
    const at = `day ${day} minute ${i}`;
    expect(actual.minuteBaseVariance[i], `${at} base variance`).to.be.closeTo(minute.baseVariance, minute.baseVariance * 1e-9);
    expect(actual.minuteVariance[i], `${at} variance`).to.be.closeTo(minute.variance, minute.variance * 1e-9);
    expect(actual.jumpInterval[i], `${at} jump`).to.equal(minute.jumpInterval);
    expect(actual.minuteVolume[i], `${at} volume`).to.be.closeTo(minute.volume, minute.volume * 1e-9);
  });
  for (let h = 0; h < HOURS_PER_DAY; h++) {
    const sum = expected.slice(h * MINUTES_PER_HOUR, (h + 1) * MINUTES_PER_HOUR).reduce((a, m) => a + m.variance, 0);
    expect(actual.hourVariance[h], `day ${day} hour ${h}`).to.be.closeTo(sum, sum * 1e-9);
  }
  const total = expected.reduce((a, m) => a + m.variance, 0);
  expect(actual.total, `day ${day} total`).to.be.closeTo(total, total * 1e-9);
}

describe('market clock: the construction its header describes', function () {
  this.timeout(60_000);

  it('has the seasonal tables of their definition: peak at 14:30 UTC, weekends scaled, each averaging 1 over a week', function () {
    const variance = season(VARIANCE_AMPLITUDE, WEEKEND_VARIANCE);
    const volume = season(VOLUME_AMPLITUDE, WEEKEND_VOLUME);
    expect(varianceSeason.length).to.equal(MINUTES_PER_WEEK);
    expect(volumeSeason.length).to.equal(MINUTES_PER_WEEK);
    for (let m = 0; m < MINUTES_PER_WEEK; m += 7) {
      expect(varianceSeason[m], `variance at minute ${m} of the week`).to.be.closeTo(variance[m]!, 1e-12);
      expect(volumeSeason[m], `volume at minute ${m} of the week`).to.be.closeTo(volume[m]!, 1e-12);
    }
    // Monday's peak minute (14:29 to 14:30 is the minute whose middle is nearest 14:30) against its trough, 12 hours away.
    const monday = MINUTES_PER_DAY;
    expect(varianceSeason[monday + 14 * 60 + 29]! / varianceSeason[monday + 2 * 60 + 29]!).to.be.closeTo(Math.exp(2 * VARIANCE_AMPLITUDE * Math.cos(Math.PI / 1440)), 1e-9);
    expect(varianceSeason[14 * 60 + 29]! / varianceSeason[monday + 14 * 60 + 29]!, 'a Sunday against a Monday').to.be.closeTo(WEEKEND_VARIANCE, 1e-12);
    expect(volumeSeason[6 * MINUTES_PER_DAY + 100]! / volumeSeason[5 * MINUTES_PER_DAY + 100]!, 'a Saturday against a Friday').to.be.closeTo(WEEKEND_VOLUME, 1e-12);
  });

  it('gives every minute of a day the reference variance, volume level and jump, on days far apart', function () {
    const clock = new MarketClock(KEY);
    for (const day of [0, 1, 2, 40, 365]) expectDay(clock, day);
  });

  it('gives the same when the days are asked out of order, or a day again after others', function () {
    const clock = new MarketClock(KEY);
    for (const day of [365, 2, 40, 1, 0, 365, 2]) expectDay(clock, day);
  });

  it('adds up a day with several jumps', function () {
    let several = -1;
    for (let day = 0; day < 400 && several < 0; day++) if (referenceJumps(day).length >= 3) several = day;
    expect(several, 'a day with three jumps or more in the first 400').to.be.at.least(0);
    expectDay(new MarketClock(KEY), several);
    const jumps = referenceJumps(several);
    const total = referenceDay(several).reduce((a, m) => a + (m.variance - m.baseVariance), 0);
    expect(total).to.be.closeTo(jumps.reduce((a, j) => a + j.size, 0), 1e-9);
  });

  it('adds two jumps that fall in one minute, at the first one\'s tick interval', function () {
    // About one day in 5,500 has two jumps in one minute: look for one over other keys.
    const keep = KEY;
    try {
      let found: { key: Uint32Array; day: number; minute: number; interval: number } | undefined;
      for (let word = 0; word < 2000 && !found; word++) {
        KEY = Uint32Array.from([word, 1, 2, 3, 4, 5, 6, 7]);
        for (let day = 0; day < 40 && !found; day++) {
          const jumps = referenceJumps(day);
          const twice = jumps.find((jump, i) => jumps.findIndex((other) => other.minute === jump.minute) < i);
          if (twice) found = { key: KEY, day, minute: twice.minute, interval: jumps.find((jump) => jump.minute === twice.minute)!.interval };
        }
      }
      expect(found, 'a day with two jumps in one minute').to.not.equal(undefined);
      const { day, minute, interval } = found!;
      const clock = new MarketClock(found!.key);
      expectDay(clock, day);
      const jumps = referenceJumps(day).filter((jump) => jump.minute === minute);
      const actual = clock.dayClock(day);
      expect(actual.jumpInterval[minute]).to.equal(interval);
      expect(actual.minuteVariance[minute]! - actual.minuteBaseVariance[minute]!).to.be.closeTo(jumps.reduce((a, j) => a + j.size, 0), 1e-9);
    } finally {
      KEY = keep;
    }
  });

  it('keeps each day\'s total for the path, from the epoch on, in any order asked', function () {
    const clock = new MarketClock(KEY);
    const totals = [0, 1, 2, 3, 4, 5].map((day) => referenceDay(day).reduce((a, m) => a + m.variance, 0));
    expect(clock.dayTotal(5)).to.be.closeTo(totals[5]!, totals[5]! * 1e-9);
    for (const day of [3, 0, 4, 1, 2]) expect(clock.dayTotal(day), `day ${day}`).to.be.closeTo(totals[day]!, totals[day]! * 1e-9);
    const fresh = new MarketClock(KEY);
    fresh.dayClock(2);
    expect(fresh.dayTotal(2)).to.be.closeTo(totals[2]!, totals[2]! * 1e-9);
    expect(fresh.dayTotal(1)).to.be.closeTo(totals[1]!, totals[1]! * 1e-9);
  });
});
