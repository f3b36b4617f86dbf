/**
 * The statistics behind the market's stylized facts, on samples small enough to work by hand: log
 * returns, thinning a series, the population standard deviation and excess kurtosis (divided by n),
 * autocorrelation over the pairs that exist, annualised volatility, mean volume by UTC hour and the
 * weekend-to-weekday volume ratio, and what it means to fall within a band. The market:stats script
 * judges the simulated market with these, so a slip here would pass or fail the market for nothing.
 */
import { expect } from 'chai';
import {
  absolute,
  annualisedVolatility,
  autocorrelation,
  everyNth,
  excessKurtosis,
  logReturns,
  standardDeviation,
  volumeByUtcHour,
  weekendToWeekdayVolume,
  within,
} from './stylized-facts';

const MINUTES_A_DAY = 1440;

/** 1-minute volumes, a whole day at each of the given per-minute volumes, one day after another. */
function daysOfMinutes(perMinute: number[]): Float64Array {
  const out = new Float64Array(perMinute.length * MINUTES_A_DAY);
  perMinute.forEach((v, d) => out.fill(v, d * MINUTES_A_DAY, (d + 1) * MINUTES_A_DAY));
  return out;
}

describe('stylized facts: the statistics', function () {
  describe('log returns', function () {
    it('are ln(next / previous), one fewer than the values', function () {
      const r = logReturns([100, 200, 50]);
      expect(r).to.have.length(2);
      expect(r[0]).to.be.closeTo(Math.LN2, 1e-15);
      expect(r[1]).to.be.closeTo(-2 * Math.LN2, 1e-15);
    });

    it('are none for one value or none', function () {
      expect(logReturns([42])).to.have.length(0);
      expect(logReturns([])).to.have.length(0);
    });
  });

  describe('every nth value', function () {
    it('takes every step-th value from the offset on, the last one included when it exists', function () {
      const values = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
      expect(Array.from(everyNth(values, 3, 2))).to.deep.equal([2, 5, 8]);
      expect(Array.from(everyNth(values, 4))).to.deep.equal([0, 4, 8]);
      expect(Array.from(everyNth(values, 3, 0))).to.deep.equal([0, 3, 6, 9]);
    });

    it('is empty when the offset is past the end', function () {
      expect(everyNth([1, 2], 1, 5)).to.have.length(0);
    });
  });

  describe('standard deviation', function () {
    it('is the population one (divided by n): 2 for 2, 4, 4, 4, 5, 5, 7, 9', function () {
      // mean 5; squared deviations 9, 1, 1, 1, 0, 0, 4, 16 sum to 32; 32 / 8 = 4.
      expect(standardDeviation([2, 4, 4, 4, 5, 5, 7, 9])).to.equal(2);
    });

    it('is 0 for a constant series, wherever it sits', function () {
      expect(standardDeviation([7, 7, 7])).to.equal(0);
    });
  });

  describe('excess kurtosis', function () {
    it('is m4 / m2^2 - 3 from the central moments: -0.21875 for 2, 4, 4, 4, 5, 5, 7, 9', function () {
      // Deviations from 5: -3, -1, -1, -1, 0, 0, 2, 4. m2 = 32 / 8 = 4, m4 = (81 + 1 + 1 + 1 + 0 + 0 + 16 + 256) / 8 = 44.5.
      // 44.5 / 16 - 3 = -0.21875, exact in binary.
      expect(excessKurtosis([2, 4, 4, 4, 5, 5, 7, 9])).to.equal(-0.21875);
    });

    it('is -2, its least possible value, for two equally likely values, wherever they sit', function () {
      // A two-point sample has m4 = m2^2.
      expect(excessKurtosis([10, 14])).to.equal(-2);
    });

    it('grows with a fat tail: one outlier among equal values', function () {
      // 0, 0, 0, 4: mean 1, deviations -1, -1, -1, 3; m2 = 12 / 4 = 3, m4 = (1 + 1 + 1 + 81) / 4 = 21; 21 / 9 - 3 = -2/3.
      // 0 x 8 and 9: mean 1, deviations -1 (x8), 8; m2 = 72 / 9 = 8, m4 = (8 + 4096) / 9 = 456; 456 / 64 - 3 = 4.125.
      expect(excessKurtosis([0, 0, 0, 4])).to.be.closeTo(-2 / 3, 1e-15);
      expect(excessKurtosis([0, 0, 0, 0, 0, 0, 0, 0, 9])).to.equal(4.125);
    });
  });

  describe('autocorrelation', function () {
    it('correlates x[i] with x[i + lag] over the pairs that exist', function () {
      // Lag 1 of 1, 2, 1, 3: pairs (1, 2), (2, 1), (1, 3). Means 4/3 and 2; sxy = -1, sxx = 2/3, syy = 2;
      // r = -1 / sqrt(4/3) = -sqrt(3) / 2.
      expect(autocorrelation([1, 2, 1, 3], 1)).to.be.closeTo(-Math.sqrt(3) / 2, 1e-12);
    });

    it('is -1 at lag 1 and +1 at lag 2 for a series that alternates', function () {
      const xs = [1, -1, 1, -1, 1, -1];
      expect(autocorrelation(xs, 1)).to.be.closeTo(-1, 1e-12);
      expect(autocorrelation(xs, 2)).to.be.closeTo(1, 1e-12);
    });
  });

  it('absolute values keep the magnitude and drop the sign', function () {
    expect(Array.from(absolute([-1.5, 2, -0, 0.25]))).to.deep.equal([1.5, 2, 0, 0.25]);
  });

  it('annualised volatility is the standard deviation times the square root of the periods a year', function () {
    // Standard deviation 2 (above), 9 periods a year: 2 * 3.
    expect(annualisedVolatility([2, 4, 4, 4, 5, 5, 7, 9], 9)).to.equal(6);
  });

  describe('volume by UTC hour', function () {
    it('averages each minute into its UTC hour of day, across midnight, from any starting minute', function () {
      // 23:58 and 23:59 fall in hour 23, 00:00 and 00:01 of the next day in hour 0.
      const start = Date.UTC(2024, 0, 1, 23, 58);
      const byHour = volumeByUtcHour([1, 3, 10, 20], start);
      expect(byHour).to.have.length(24);
      expect(byHour[23]).to.equal(2);
      expect(byHour[0]).to.equal(15);
      // An hour no minute fell in has no mean.
      expect(byHour[22]).to.be.NaN;
      expect(byHour[1]).to.be.NaN;
    });

    it('fills two whole hours from a start on the hour', function () {
      const volumes = new Float64Array(120);
      volumes.fill(1, 0, 60);
      volumes.fill(4, 60, 120);
      volumes[59] = 61; // the last minute of 14:00 (mean (59 + 61) / 60 = 2)
      const byHour = volumeByUtcHour(volumes, Date.UTC(2024, 5, 3, 14));
      expect(byHour[14]).to.equal(2);
      expect(byHour[15]).to.equal(4);
      expect(byHour[13]).to.be.NaN;
      expect(byHour[16]).to.be.NaN;
    });
  });

  describe('weekend to weekday volume', function () {
    // 2024-01-01 (UTC) was a Monday.
    const monday = Date.UTC(2024, 0, 1);

    it('is the mean daily volume of Saturdays and Sundays over that of Monday to Friday', function () {
      // Per minute: Mon 1, Tue 2, Wed 3, Thu 4, Fri 5 (mean day 3 x 1440), Sat 1.5, Sun 0.5 (mean day 1 x 1440).
      const volumes = daysOfMinutes([1, 2, 3, 4, 5, 1.5, 0.5]);
      expect(weekendToWeekdayVolume(volumes, monday)).to.be.closeTo(1 / 3, 1e-12);
    });

    it('counts whole days only: a partial day at the end is left out', function () {
      const volumes = new Float64Array(8 * MINUTES_A_DAY - 1);
      volumes.set(daysOfMinutes([1, 2, 3, 4, 5, 1.5, 0.5]));
      volumes.fill(1000, 7 * MINUTES_A_DAY); // the next Monday, one minute short
      expect(weekendToWeekdayVolume(volumes, monday)).to.be.closeTo(1 / 3, 1e-12);
    });

    it('reads the weekday of each day from the start: a week from Saturday', function () {
      // Sat 2, Sun 6 (mean day 4 x 1440); Mon to Fri 1, 1, 1, 1, 6 (mean day 2 x 1440).
      const saturday = Date.UTC(2024, 0, 6);
      expect(weekendToWeekdayVolume(daysOfMinutes([2, 6, 1, 1, 1, 1, 6]), saturday)).to.be.closeTo(2, 1e-12);
    });

    it('refuses minutes that do not start at a UTC midnight', function () {
      expect(() => weekendToWeekdayVolume(daysOfMinutes([1, 1, 1, 1, 1, 1, 1]), monday + 60_000)).to.throw(RangeError, /UTC midnight/);
    });
  });

  describe('within a band', function () {
    const band = { min: 0.2, max: 0.4, source: 'a test' };

    it('includes both ends', function () {
      expect(within(0.2, band)).to.equal(true);
      expect(within(0.4, band)).to.equal(true);
      expect(within(0.3, band)).to.equal(true);
    });

    it('excludes values below the minimum or above the maximum', function () {
      expect(within(0.19, band)).to.equal(false);
      expect(within(0.41, band)).to.equal(false);
    });
  });
});
