/**
 * The market's clock (how much the whole market moves and trades each minute): a function of the key
 * and the minute alone, averaging 1 so a coin's catalogue volatility and volume hold, with the
 * daily and weekly seasons where the bands put them and about one jump a day.
 */
import { expect } from 'chai';
import { CASCADE_LOG_VARIANCES, HOURS_PER_DAY, JUMP_POSITIONS, JUMPS_PER_DAY, MarketClock, MINUTE_LOG_VARIANCE, MINUTES_PER_DAY, varianceSeason, volumeSeason } from './market-clock';
import { mean } from './stylized-facts';

const key = (n: number) => Uint32Array.from([n, 11, 12, 13, 14, 15, 16, 17]);
/** 2024-06-01, day 1,613 since the epoch (2020-01-01, a Wednesday); a Saturday. */
const FIRST = 1613;

describe('market clock', function () {
  this.timeout(60_000);

  it('is a function of the key and the day: the same from a fresh clock in any order, another for another key', function () {
    const a = new MarketClock(key(1));
    const b = new MarketClock(key(1));
    for (let d = FIRST + 20; d >= FIRST; d -= 5) b.dayClock(d);
    for (let d = FIRST; d <= FIRST + 20; d += 5) {
      const x = a.dayClock(d);
      const y = b.dayClock(d);
      expect(Array.from(y.minuteVariance), `day ${d}`).to.deep.equal(Array.from(x.minuteVariance));
      expect(Array.from(y.minuteVolume)).to.deep.equal(Array.from(x.minuteVolume));
      expect(Array.from(y.jumpInterval)).to.deep.equal(Array.from(x.jumpInterval));
    }
    expect(new MarketClock(key(2)).dayTotal(FIRST)).to.not.equal(a.dayTotal(FIRST));
  });

  it("adds each day's minutes into its hours and its total, jumps included", function () {
    const clock = new MarketClock(key(3));
    for (let d = FIRST; d < FIRST + 30; d++) {
      const day = clock.dayClock(d);
      let total = 0;
      for (let h = 0; h < HOURS_PER_DAY; h++) {
        const hour = day.minuteVariance.subarray(h * 60, h * 60 + 60).reduce((a, b) => a + b, 0);
        expect(day.hourVariance[h]).to.be.closeTo(hour, hour * 1e-12);
        total += hour;
      }
      expect(day.total).to.be.closeTo(total, total * 1e-12);
      expect(clock.dayTotal(d)).to.equal(day.total);
      for (let m = 0; m < MINUTES_PER_DAY; m++) {
        const jump = day.minuteVariance[m]! - day.minuteBaseVariance[m]!;
        expect(jump > 0, `day ${d} minute ${m}: a jump has its tick`).to.equal(day.jumpInterval[m]! >= 0);
        expect(day.jumpInterval[m]!).to.be.below(JUMP_POSITIONS);
      }
    }
  });

  it('averages one average minute a minute over a year, with about JUMPS_PER_DAY jumps a day', function () {
    const clock = new MarketClock(key(4));
    let variance = 0;
    let volume = 0;
    let jumps = 0;
    for (let d = FIRST; d < FIRST + 365; d++) {
      const day = clock.dayClock(d);
      variance += day.total;
      volume += day.minuteVolume.reduce((a, b) => a + b, 0);
      jumps += day.jumpInterval.filter((j) => j >= 0).length;
    }
    // The slowest factors (11 days) leave a year's mean a few percent from 1.
    expect(variance / (365 * MINUTES_PER_DAY)).to.be.within(0.8, 1.25);
    expect(volume / (365 * MINUTES_PER_DAY)).to.be.within(0.85, 1.15);
    expect(jumps / 365).to.be.within(0.8 * JUMPS_PER_DAY, 1.2 * JUMPS_PER_DAY);
  });

  it("clusters: a minute's variance follows the one before it more than one an hour later, and both more than chance", function () {
    const clock = new MarketClock(key(5));
    const logs: number[] = [];
    for (let d = FIRST; d < FIRST + 60; d++) for (const v of clock.dayClock(d).minuteBaseVariance) logs.push(Math.log(v));
    const corr = (lag: number) => {
      const xs = logs.slice(0, -lag);
      const ys = logs.slice(lag);
      const mx = mean(xs);
      const my = mean(ys);
      let sxy = 0;
      let sxx = 0;
      let syy = 0;
      for (let i = 0; i < xs.length; i++) {
        sxy += (xs[i]! - mx) * (ys[i]! - my);
        sxx += (xs[i]! - mx) ** 2;
        syy += (ys[i]! - my) ** 2;
      }
      return sxy / Math.sqrt(sxx * syy);
    };
    const total = CASCADE_LOG_VARIANCES.reduce((a, b) => a + b, 0) + MINUTE_LOG_VARIANCE;
    expect(corr(1)).to.be.within(0.6, 0.95);
    expect(corr(60)).to.be.within(0.3, corr(1));
    expect(corr(60 * 24 * 20)).to.be.below(0.2);
    expect(total).to.be.within(1.4, 2); // the spread that gives 1-minute kurtosis in the band (market:stats)
  });

  it('moves and trades most around 14:30 UTC and least in the Asian night, less at weekends; each table averages 1 over a week', function () {
    for (const table of [varianceSeason, volumeSeason]) {
      expect(mean(table)).to.be.closeTo(1, 1e-12);
      const wednesday = table.subarray(3 * MINUTES_PER_DAY, 4 * MINUTES_PER_DAY);
      const peak = wednesday.indexOf(Math.max(...wednesday));
      const trough = wednesday.indexOf(Math.min(...wednesday));
      expect(peak / 60, 'peak hour').to.be.within(14, 15);
      expect(trough / 60, 'trough hour').to.be.within(2, 3);
      const saturday = mean(table.subarray(6 * MINUTES_PER_DAY, 7 * MINUTES_PER_DAY));
      expect(saturday / mean(wednesday)).to.be.within(0.5, 0.7);
    }
    const wednesday = volumeSeason.subarray(3 * MINUTES_PER_DAY, 4 * MINUTES_PER_DAY);
    expect(Math.max(...wednesday) / Math.min(...wednesday)).to.be.within(2, 4);
  });
});
