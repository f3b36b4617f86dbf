/**
 * The market figures at their edges (market-figures.ts), against values worked out by hand: just
 * enough candles for ATR14 and for a deviation, Wilder's smoothing starting after the first 14 true
 * ranges, a range over part of a series, a 30-day series longer than 512 returns, and the correlation
 * of returns on the candle times both coins have (series of different spans, a missing candle, exactly
 * three common returns, returns that do not vary). A figure that lacks data is NaN.
 */
import { expect } from 'chai';
import type { Candle } from '../market/coins';
import { candleColumns, coinFigures, FIVE_MINUTES_MS, rangePercent, returnCorrelation, returnsStdev, wilderAtr } from './market-figures';

const T0 = Date.UTC(2026, 2, 4, 10, 0);
const HOUR_MS = 3_600_000;
const candle = (i: number, close: number, high = close + 1, low = close - 1, width = FIVE_MINUTES_MS): Candle => ({ time: T0 + i * width, open: close, high, low, close, volume: 1 });
const columns = (candles: Candle[], widthMs = FIVE_MINUTES_MS) => candleColumns(candles, widthMs, Infinity);

/** A series of 5-minute candles at the given candle numbers, its closes moving by the given log returns (the first close 100). */
function withReturns(at: number[], returns: number[]) {
  let close = 100;
  return columns(
    at.map((i, k) => {
      if (k > 0) close *= Math.exp(returns[k - 1]!);
      return candle(i, close);
    }),
  );
}
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);

describe('market figures at their edges', function () {
  describe('ATR14', function () {
    it('is measured from exactly 15 candles: the mean of the 14 true ranges after the first candle', function () {
      // Closes flat at 100; every true range 2 but the 15th candle's, 16 (108 - 92). The first candle's
      // own range (150 - 50) is no true range: it has no close before it.
      const candles = [candle(0, 100, 150, 50), ...range(1, 14).map((i) => candle(i, 100)), candle(14, 100, 108, 92)];
      expect(wilderAtr(columns(candles))).to.equal((13 * 2 + 16) / 14);
    });

    it("smooths only the candles after those first 14 true ranges (Wilder's: previous x 13 + true range, / 14)", function () {
      // The first value 3 (as above), then a 16th candle of true range 2: (3 x 13 + 2) / 14.
      const candles = [candle(0, 100, 150, 50), ...range(1, 14).map((i) => candle(i, 100)), candle(14, 100, 108, 92), candle(15, 100)];
      expect(wilderAtr(columns(candles))).to.be.closeTo((3 * 13 + 2) / 14, 1e-12);
    });
  });

  describe('the deviation of returns', function () {
    it('is measured from two returns (three closes): their difference over the square root of 2', function () {
      const c = columns([candle(0, 100), candle(1, 110), candle(2, 99)]);
      expect(returnsStdev(c.close, 0, 3)).to.be.closeTo(Math.abs(Math.log(1.1) - Math.log(0.9)) / Math.SQRT2, 1e-12);
    });

    it('of a day without candles is NaN, as are its range, ATR14 and sigma20', function () {
      const month = columns(range(0, 30).map((i) => candle(i, 100 + (i % 3), undefined, undefined, 4 * HOUR_MS)), 4 * HOUR_MS);
      const f = coinFigures(columns([]), month);
      expect(f.recentVolatility, 'recent volatility').to.be.NaN;
      expect(f.sigma20, 'sigma20').to.be.NaN;
      expect(f.range24hPercent, 'range').to.be.NaN;
      expect(f.atr14, 'ATR14').to.be.NaN;
      expect(f.averageVolatility, 'the month is there').to.be.a('number').and.not.NaN;
    });

    it('covers a 30-day series of more than 512 returns (720 hourly candles), scaled to five minutes', function () {
      // Closes alternate 100, 110, ...: 360 returns of +ln 1.1 and 359 of -ln 1.1. Mean ln 1.1 / 719;
      // sum of squared deviations 719 L^2 - L^2 / 719; over 718: L^2 x 720 / 719. Scaled by sqrt(5 / 60).
      const month = columns(range(0, 720).map((i) => candle(i, i % 2 === 0 ? 100 : 110, undefined, undefined, HOUR_MS)), HOUR_MS);
      const day = columns(range(0, 30).map((i) => candle(i, 100)));
      const L = Math.log(1.1);
      expect(coinFigures(day, month).averageVolatility).to.be.closeTo(L * Math.sqrt(720 / 719) * Math.sqrt(5 / 60), 1e-12);
    });

    it('of a 30-day series without a candle width cannot be scaled to five minutes: NaN', function () {
      const month = candleColumns(range(0, 30).map((i) => candle(i, 100 + (i % 3), undefined, undefined, 4 * HOUR_MS)), 0, Infinity);
      const day = columns(range(0, 30).map((i) => candle(i, 100)));
      expect(coinFigures(day, month).averageVolatility).to.be.NaN;
    });
  });

  it('the range of part of a series reads only the candles in it', function () {
    // Candles 0 and 3 hold the extremes; candles 1 and 2 range from 98 to 110.
    const c = columns([candle(0, 100, 120, 95), candle(1, 102, 105, 100), candle(2, 104, 110, 98), candle(3, 100, 130, 90)]);
    expect(rangePercent(c, 1, 3)).to.be.closeTo(((110 - 98) / 98) * 100, 1e-12);
  });

  describe('the correlation of returns', function () {
    // Returns a 0.01, 0.02, 0.03, 0.04 and b 0.01, 0.03, 0.02, 0.04: deviations from the mean 0.025
    // (in hundredths) -1.5, -0.5, 0.5, 1.5 and -1.5, 0.5, -0.5, 1.5; covariance 2.25 - 0.25 - 0.25 + 2.25 = 4,
    // each variance 5: 4 / 5 = 0.8.
    it('is the Pearson correlation of the two coins\' log returns (0.8 here, worked out by hand)', function () {
      const a = withReturns(range(0, 5), [0.01, 0.02, 0.03, 0.04]);
      const b = withReturns(range(0, 5), [0.01, 0.03, 0.02, 0.04]);
      expect(returnCorrelation(a, b)).to.be.closeTo(0.8, 1e-9);
      expect(returnCorrelation(b, a)).to.be.closeTo(0.8, 1e-9);
    });

    it('is measured from exactly three common returns', function () {
      // Deviations -1, 0, 1 and -1, 1, 0: covariance 1, variances 2 and 2: 0.5.
      const a = withReturns(range(0, 4), [0.01, 0.02, 0.03]);
      const b = withReturns(range(0, 4), [0.01, 0.03, 0.02]);
      expect(returnCorrelation(a, b)).to.be.closeTo(0.5, 1e-9);
    });

    it('reads only the returns both coins have, whichever began or ended first and across a candle one of them lacks', function () {
      // a: candles 0 to 9. b: candles 2 to 8 without candle 5, so b's move from 4 to 6 (a jump of 0.2)
      // is no return of a candle: the common returns are those ending at candles 3, 4, 7 and 8, chosen
      // as in the 0.8 example; a's other returns are moves b does not share.
      const a = withReturns(range(0, 10), [-0.05, 0.07, 0.01, 0.02, -0.06, 0.09, 0.03, 0.04, -0.08]);
      const b = withReturns([2, 3, 4, 6, 7, 8], [0.01, 0.03, 0.2, 0.02, 0.04]);
      expect(returnCorrelation(a, b)).to.be.closeTo(0.8, 1e-9);
      expect(returnCorrelation(b, a)).to.be.closeTo(0.8, 1e-9);
    });

    it('is NaN when one coin\'s returns do not vary (a price that doubles every candle), never a rounding error pushed to 1 or -1', function () {
      const doubling = columns([100, 200, 400, 800, 1600].map((c, i) => candle(i, c)));
      const moving = columns([100, 103, 101, 106, 104].map((c, i) => candle(i, c)));
      expect(returnCorrelation(doubling, moving)).to.be.NaN;
      expect(returnCorrelation(moving, doubling)).to.be.NaN;
    });
  });
});
