/**
 * The chart's geometry (spec sections 2 and 9): bands, bodies, wicks and colours, the three overlays,
 * support and resistance, the tooltip's nearest candle, and that 2,000 candles cost one look at
 * each candle (reads of their fields are counted, not timed).
 */
import { expect } from 'chai';
import { ema } from '@papertrade/domain/market/indicators/ema';
import { sma } from '@papertrade/domain/market/indicators/sma';
import {
  buildChartGeometry,
  candleAt,
  DOWN_COLOUR,
  nearestCandleIndex,
  UP_COLOUR,
  type Candle,
  type ChartMargins,
} from './chart-geometry';

const NO_MARGINS: ChartMargins = { top: 0, right: 0, bottom: 0, left: 0 };
const HOUR = 3_600_000;
/** d3's line writes coordinates to 3 decimals. */
const PATH_DIGITS = 1e-3;

/** `count` deterministic wavy candles, an hour apart, alternating up and down. */
function market(count: number): Candle[] {
  return Array.from({ length: count }, (_, i) => {
    const open = 2000 + 40 * Math.sin(i / 6);
    const close = open + (i % 2 === 0 ? 5 : -5) + 3 * Math.cos(i / 3);
    return { time: i * HOUR, open, close, high: Math.max(open, close) + 4, low: Math.min(open, close) - 4, volume: 100 + i };
  });
}

function candle(open: number, close: number, high = Math.max(open, close), low = Math.min(open, close)): Candle {
  return { time: 0, open, close, high, low, volume: 1 };
}

/** The points of an SVG path made of M and L commands. */
function points(path: string | null): Array<[number, number]> {
  expect(path).to.be.a('string');
  return Array.from(path!.matchAll(/[ML]([-\d.e]+),([-\d.e]+)/g), (m) => [Number(m[1]), Number(m[2])]);
}

describe('chart geometry', function () {
  describe('candles', function () {
    it('gets one band per candle inside the margins, a body 70% of the band centred in it', function () {
      const g = buildChartGeometry(market(10), { width: 170, height: 300, margins: { top: 10, right: 50, bottom: 20, left: 20 } });
      expect(g.plot).to.deep.equal({ x: 20, y: 10, width: 100, height: 270 });
      expect(g.x.bandwidth()).to.equal(10);
      g.candles.forEach((c, i) => {
        expect(c.x).to.be.closeTo(20 + 10 * i, 1e-9);
        expect(c.centre).to.be.closeTo(25 + 10 * i, 1e-9);
        expect(c.body.width).to.be.closeTo(7, 1e-9);
        expect(c.body.x).to.be.closeTo(21.5 + 10 * i, 1e-9);
        expect(c.wick.x).to.equal(c.centre);
      });
      expect(Array.from(g.centres)).to.deep.equal(g.candles.map((c) => c.centre));
    });

    it('keeps bodies at least 3 px wide when the bands are narrower', function () {
      const g = buildChartGeometry(market(200), { width: 100, height: 100, margins: NO_MARGINS });
      expect(g.x.bandwidth()).to.equal(0.5);
      expect(g.candles[7]!.body.width).to.equal(3);
      expect(g.candles[7]!.body.x).to.be.closeTo(g.candles[7]!.centre - 1.5, 1e-9);
    });

    it('draws the body from open to close and the wick from high to low, price up the screen', function () {
      const g = buildChartGeometry([candle(100, 150, 160, 90), candle(150, 120, 155, 110)], { width: 100, height: 400, margins: NO_MARGINS });
      // Domain 90..160 padded by 5% of 70 on each side, onto 400..0.
      expect(g.y.domain()).to.deep.equal([86.5, 163.5]);
      const [up, down] = g.candles;
      expect(up!.body.y).to.equal(g.y(150));
      expect(up!.body.height).to.be.closeTo(g.y(100) - g.y(150), 1e-9);
      expect(up!.wick).to.deep.include({ y1: g.y(160), y2: g.y(90) });
      expect(down!.body.y).to.equal(g.y(150));
      expect(down!.body.height).to.be.closeTo(g.y(120) - g.y(150), 1e-9);
      expect(g.y(160)).to.be.lessThan(g.y(90));
    });

    it('keeps bodies at least 1 px high (a doji)', function () {
      const g = buildChartGeometry([candle(100, 100, 120, 80), candle(100, 100.001, 120, 80)], { width: 100, height: 400, margins: NO_MARGINS });
      expect(g.candles[0]!.body.height).to.equal(1);
      expect(g.candles[1]!.body.height).to.equal(1);
    });

    it('colours a candle teal when close >= open, red when close < open', function () {
      const g = buildChartGeometry([candle(100, 101), candle(100, 100), candle(100, 99.99)], { width: 90, height: 90 });
      expect(g.candles.map((c) => [c.up, c.colour])).to.deep.equal([
        [true, UP_COLOUR],
        [true, UP_COLOUR],
        [false, DOWN_COLOUR],
      ]);
      expect([UP_COLOUR, DOWN_COLOUR]).to.deep.equal(['#26a69a', '#ef5350']);
    });

    it('still has a y domain when every price is the same', function () {
      const g = buildChartGeometry([candle(100, 100), candle(100, 100)], { width: 100, height: 100, margins: NO_MARGINS });
      expect(g.y.domain()).to.deep.equal([99, 101]);
      expect(g.candles[0]!.body.height).to.equal(1);
    });

    it('draws nothing without candles', function () {
      const g = buildChartGeometry([], { width: 800, height: 400 });
      expect(g.candles).to.deep.equal([]);
      expect(g.centres.length).to.equal(0);
      expect(g.overlays).to.deep.equal({ sma20: null, sma50: null, ema20: null });
      expect(g.levels).to.equal(null);
      expect(candleAt(g, 100)).to.equal(null);
    });
  });

  describe('overlays', function () {
    it('start sma20 at the 20th candle, sma50 at the 50th and ema20 at the first', function () {
      const candles = market(60);
      const g = buildChartGeometry(candles, { width: 600, height: 300, margins: NO_MARGINS });
      const sma20 = points(g.overlays.sma20);
      const sma50 = points(g.overlays.sma50);
      const ema20 = points(g.overlays.ema20);
      expect([sma20.length, sma50.length, ema20.length]).to.deep.equal([41, 11, 60]);
      // Only one M: the undefined points are skipped, not drawn as a gap or at 0.
      for (const path of [g.overlays.sma20, g.overlays.sma50, g.overlays.ema20]) expect(path!.match(/M/g)).to.have.length(1);
      expect(sma20[0]![0]).to.be.closeTo(g.centres[19]!, PATH_DIGITS);
      expect(sma50[0]![0]).to.be.closeTo(g.centres[49]!, PATH_DIGITS);
      expect(ema20[0]![0]).to.be.closeTo(g.centres[0]!, PATH_DIGITS);
    });

    it('follow the domain indicators over the closes', function () {
      const candles = market(60);
      const closes = Float64Array.from(candles, (c) => c.close);
      const g = buildChartGeometry(candles, { width: 600, height: 300, margins: NO_MARGINS });
      const mean20 = closes.subarray(0, 20).reduce((a, b) => a + b, 0) / 20;
      expect(points(g.overlays.sma20)[0]![1]).to.be.closeTo(g.y(mean20), PATH_DIGITS);
      expect(points(g.overlays.sma20)[40]![1]).to.be.closeTo(g.y(sma(closes, 20)[59]!), PATH_DIGITS);
      expect(points(g.overlays.sma50)[10]![1]).to.be.closeTo(g.y(sma(closes, 50)[59]!), PATH_DIGITS);
      expect(points(g.overlays.ema20)[0]![1]).to.be.closeTo(g.y(closes[0]!), PATH_DIGITS); // seeded with the first close
      expect(points(g.overlays.ema20)[59]![1]).to.be.closeTo(g.y(ema(closes, 20, 'first')[59]!), PATH_DIGITS);
      // The tooltip reads the same values, index for index with the candles.
      expect(Array.from(g.overlayValues.sma20)).to.deep.equal(Array.from(sma(closes, 20)));
      expect(Array.from(g.overlayValues.sma50)).to.deep.equal(Array.from(sma(closes, 50)));
      expect(Array.from(g.overlayValues.ema20)).to.deep.equal(Array.from(ema(closes, 20, 'first')));
    });

    it('are null until they have a point', function () {
      const g = buildChartGeometry(market(19), { width: 600, height: 300 });
      expect(g.overlays.sma20).to.equal(null);
      expect(g.overlays.sma50).to.equal(null);
      expect(points(g.overlays.ema20)).to.have.length(19);
      expect(points(buildChartGeometry(market(20), { width: 600, height: 300 }).overlays.sma20)).to.have.length(1);
    });
  });

  describe('support and resistance', function () {
    it('sit 10 percent inside the high-low range', function () {
      const g = buildChartGeometry([candle(120, 150, 200, 110), candle(150, 130, 160, 100)], { width: 100, height: 400 });
      expect(g.levels!.support.price).to.equal(110); // 100 + 10% of 100
      expect(g.levels!.resistance.price).to.equal(190); // 200 - 10% of 100
      expect(g.levels!.support.y).to.equal(g.y(110));
      expect(g.levels!.resistance.y).to.equal(g.y(190));
    });
  });

  describe('tooltip lookup', function () {
    const g = buildChartGeometry(market(10), { width: 100, height: 100, margins: NO_MARGINS }); // centres 5, 15, ..., 95

    it('finds the candle whose band centre is nearest to the mouse', function () {
      expect(nearestCandleIndex(g.centres, 5)).to.equal(0);
      expect(nearestCandleIndex(g.centres, 9.9)).to.equal(0);
      expect(nearestCandleIndex(g.centres, 10.1)).to.equal(1);
      expect(nearestCandleIndex(g.centres, 63)).to.equal(6);
      expect(nearestCandleIndex(g.centres, 10)).to.equal(1); // a tie goes to the later candle
      expect(candleAt(g, 63)).to.equal(g.candles[6]);
    });

    it('clamps to the first and last candle beyond either end, and finds none without candles', function () {
      expect(nearestCandleIndex(g.centres, -500)).to.equal(0);
      expect(nearestCandleIndex(g.centres, 5000)).to.equal(9);
      expect(nearestCandleIndex(new Float64Array(0), 10)).to.equal(-1);
      expect(nearestCandleIndex(g.centres, Number.NaN)).to.equal(-1);
    });
  });

  describe('with 2,000 candles', function () {
    /** The candles behind proxies that count every read of a price, time or volume field. */
    function counted(candles: Candle[]): { candles: Candle[]; reads: number[] } {
      const reads = candles.map(() => 0);
      const fields = new Set(['time', 'open', 'high', 'low', 'close', 'volume']);
      const proxies = candles.map(
        (c, i) =>
          new Proxy(c, {
            get(target, key, receiver) {
              if (typeof key === 'string' && fields.has(key)) reads[i]! += 1;
              return Reflect.get(target, key, receiver);
            },
          }),
      );
      return { candles: proxies, reads };
    }

    it('looks at each candle a fixed number of times, however many there are (one pass)', function () {
      const one = counted(market(1));
      buildChartGeometry(one.candles, { width: 800, height: 400 });
      const perCandle = one.reads[0]!;
      expect(perCandle).to.equal(7); // close, low, high for the scan; open, close, high, low to place it

      const many = counted(market(2000));
      const g = buildChartGeometry(many.candles, { width: 800, height: 400 });
      expect(g.candles).to.have.length(2000);
      expect(Math.max(...many.reads)).to.equal(perCandle);
      expect(Math.min(...many.reads)).to.equal(perCandle);
      expect(points(g.overlays.ema20)).to.have.length(2000);
      expect(points(g.overlays.sma50)).to.have.length(1951);
    });

    it('finds the tooltip candle by binary search: about log2(2000) reads of the centres', function () {
      const g = buildChartGeometry(market(2000), { width: 800, height: 400 });
      let reads = 0;
      const centres = new Proxy(g.centres, {
        get(target, key) {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads += 1;
          const value: unknown = Reflect.get(target, key);
          return value;
        },
      });
      for (const [mouseX, expected] of [[g.centres[1234]! + 0.1, 1234], [0, 0], [800, 1999]] as const) {
        reads = 0;
        expect(nearestCandleIndex(centres, mouseX)).to.equal(expected);
        expect(reads).to.be.at.most(Math.ceil(Math.log2(2000)) + 2);
      }
    });
  });
});
