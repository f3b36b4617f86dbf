/** latestIndicators: the last point of each dashboard indicator, null until each one is defined. */
import { expect } from 'chai';
import { ema } from './ema';
import { latestIndicators } from './latest';
import { macd } from './macd';
import { rsi } from './rsi';
import { sma } from './sma';
import { volumeRatio } from './volume-level';

/** A deterministic wavy market of `count` candles. */
function market(count: number): { closes: Float64Array; volumes: Float64Array } {
  const closes = Float64Array.from({ length: count }, (_, i) => 2000 + 40 * Math.sin(i / 6) + 15 * Math.cos(i / 2.3));
  const volumes = Float64Array.from({ length: count }, (_, i) => 1000 + 600 * Math.sin(i / 4));
  return { closes, volumes };
}

describe('latest indicators', function () {
  it('is all null without candles', function () {
    expect(latestIndicators([], [])).to.deep.equal({ rsi: null, macd: null, sma20: null, sma50: null, ema20: null, volumeLevel: null });
  });

  it('fills in each indicator at the candle count where it becomes defined', function () {
    const defined = (count: number) => {
      const { closes, volumes } = market(count);
      const latest = latestIndicators(closes, volumes);
      return Object.entries(latest).filter(([, v]) => v !== null).map(([k]) => k).sort();
    };
    expect(defined(1)).to.deep.equal(['ema20']);
    expect(defined(14)).to.deep.equal(['ema20']);
    expect(defined(15)).to.deep.equal(['ema20', 'rsi']);
    expect(defined(20)).to.deep.equal(['ema20', 'rsi', 'sma20', 'volumeLevel']);
    expect(defined(33)).to.deep.equal(['ema20', 'rsi', 'sma20', 'volumeLevel']); // MACD line, no signal yet
    expect(defined(34)).to.deep.equal(['ema20', 'macd', 'rsi', 'sma20', 'volumeLevel']);
    expect(defined(49)).to.deep.equal(['ema20', 'macd', 'rsi', 'sma20', 'volumeLevel']);
    expect(defined(50)).to.deep.equal(['ema20', 'macd', 'rsi', 'sma20', 'sma50', 'volumeLevel']);
  });

  it('gives the last point of each series', function () {
    const { closes, volumes } = market(300);
    const latest = latestIndicators(closes, volumes);
    const m = macd(closes);
    expect(latest.rsi).to.equal(rsi(closes)[299]);
    expect(latest.macd).to.deep.equal({ macd: m.macd[299], signal: m.signal[299], histogram: m.histogram[299] });
    expect(latest.sma20).to.equal(sma(closes, 20)[299]);
    expect(latest.sma50).to.equal(sma(closes, 50)[299]);
    expect(latest.ema20).to.equal(ema(closes, 20, 'first')[299]);
    const ratio = volumeRatio(volumes)[299]!;
    expect(latest.volumeLevel).to.equal(ratio > 1.5 ? 'HIGH' : ratio < 0.5 ? 'LOW' : 'NORMAL');
  });

  it('takes plain arrays as well as typed ones', function () {
    const { closes, volumes } = market(60);
    expect(latestIndicators(Array.from(closes), Array.from(volumes))).to.deep.equal(latestIndicators(closes, volumes));
  });

  it('reports a volume spike on the last candle as HIGH and a dry spell as LOW', function () {
    const closes = new Float64Array(30).fill(10);
    const spike = new Float64Array(30).fill(100);
    spike[29] = 400;
    const dry = new Float64Array(30).fill(100);
    dry[29] = 20;
    expect(latestIndicators(closes, spike).volumeLevel).to.equal('HIGH');
    expect(latestIndicators(closes, dry).volumeLevel).to.equal('LOW');
    expect(latestIndicators(closes, new Float64Array(30).fill(100)).volumeLevel).to.equal('NORMAL');
  });
});
