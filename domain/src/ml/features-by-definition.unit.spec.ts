/**
 * Each feature is what its name says: every value of every row recomputed here from its definition
 * (log returns of a close over the one k candles before, the RSI centred and scaled, the MACD
 * histogram and the distances to the averages over the close, the log of volume over its 20-candle
 * average, the sample standard deviation of the last 20 one-candle log returns, the range over the
 * close), on a made-up series whose returns, volumes and ranges all vary. A candle with no volume
 * has a volume feature of 0, not minus infinity.
 */
import { expect } from 'chai';
import { ema } from '../market/indicators/ema';
import { macd } from '../market/indicators/macd';
import { rsi } from '../market/indicators/rsi';
import { computeFeatures, FEATURE_COUNT, FEATURE_NAMES, FEATURE_WARMUP, type CandleColumnsInput } from './features';

const N = 75;
/** A wavy, slowly rising close; volume that varies, and none at all at candle 60; ranges of different widths. */
function series(): CandleColumnsInput & { close: Float64Array; volume: Float64Array; high: Float64Array; low: Float64Array } {
  const close = Float64Array.from({ length: N }, (_, i) => 100 * Math.exp(0.03 * Math.sin(i * 0.7) + 0.002 * i + 0.01 * Math.cos(i * 1.9)));
  const volume = Float64Array.from({ length: N }, (_, i) => (i === 60 ? 0 : 1000 + 37 * (i % 7) + 5 * i));
  const high = Float64Array.from(close, (c, i) => c * (1 + 0.004 * ((i % 3) + 1)));
  const low = Float64Array.from(close, (c, i) => c * (1 - 0.003 * ((i % 5) + 1)));
  const time = Float64Array.from({ length: N }, (_, i) => i * 300_000);
  return { time, close, volume, high, low };
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const window = (xs: ArrayLike<number>, i: number, length: number) => Array.from(xs).slice(i - length + 1, i + 1);

/** Row of candle i by the definitions in the file comment of features.ts. */
function expectedRow(s: ReturnType<typeof series>, i: number): Record<(typeof FEATURE_NAMES)[number], number> {
  const { close, volume, high, low } = s;
  const c = close[i]!;
  const logReturn = (k: number) => Math.log(close[k]! / close[k - 1]!);
  const returns = Array.from({ length: 20 }, (_, j) => logReturn(i - 19 + j));
  const m = mean(returns);
  const averageVolume = mean(window(volume, i, 20));
  return {
    return_1: Math.log(c / close[i - 1]!),
    return_3: Math.log(c / close[i - 3]!),
    return_12: Math.log(c / close[i - 12]!),
    return_48: Math.log(c / close[i - 48]!),
    rsi_14: rsi(close, 14)[i]! / 100 - 0.5,
    macd_histogram: macd(close).histogram[i]! / c,
    distance_sma_20: c / mean(window(close, i, 20)) - 1,
    distance_sma_50: c / mean(window(close, i, 50)) - 1,
    distance_ema_20: c / ema(close, 20)[i]! - 1,
    volume_ratio_20: volume[i]! > 0 ? Math.log(volume[i]! / averageVolume) : 0,
    volatility_20: Math.sqrt(returns.reduce((sum, r) => sum + (r - m) ** 2, 0) / 19),
    range: (high[i]! - low[i]!) / c,
  };
}

describe('ML features by definition', function () {
  const s = series();
  // Computed in a hook, not when the file loads: a mutation run runs the hooks again for each mutant.
  let f: ReturnType<typeof computeFeatures>;
  before(function () {
    f = computeFeatures(s);
  });

  it('one row per candle from the warm-up on, each the candle it is computed at', function () {
    expect(f.rows).to.equal(N - FEATURE_WARMUP);
    expect(Array.from(f.index)).to.deep.equal(Array.from({ length: N - FEATURE_WARMUP }, (_, r) => r + FEATURE_WARMUP));
  });

  it('every feature of every row is its definition', function () {
    for (let r = 0; r < f.rows; r++) {
      const i = f.index[r]!;
      const want = expectedRow(s, i);
      FEATURE_NAMES.forEach((name, j) => {
        const got = f.values[r * FEATURE_COUNT + j]!;
        expect(got, `${name} at candle ${i}`).to.be.closeTo(want[name], 1e-9 * Math.max(1, Math.abs(want[name])));
      });
    }
  });

  it('the features move: returns and distances of both signs, a volatility above 0, RSI off its middle', function () {
    const column = (name: (typeof FEATURE_NAMES)[number]) => Array.from({ length: f.rows }, (_, r) => f.values[r * FEATURE_COUNT + FEATURE_NAMES.indexOf(name)]!);
    for (const name of ['return_1', 'return_3', 'distance_sma_20', 'distance_ema_20', 'volume_ratio_20'] as const) {
      expect(Math.min(...column(name)), name).to.be.lessThan(0);
      expect(Math.max(...column(name)), name).to.be.greaterThan(0);
    }
    expect(Math.min(...column('volatility_20'))).to.be.greaterThan(0);
    expect(column('rsi_14').some((x) => Math.abs(x) > 0.05)).to.equal(true);
  });

  it('a candle without volume has a volume feature of 0 (there is nothing to take the log of)', function () {
    const r = 60 - FEATURE_WARMUP;
    expect(f.values[r * FEATURE_COUNT + FEATURE_NAMES.indexOf('volume_ratio_20')]).to.equal(0);
    // And with no volume in the whole window the average is 0 too: still 0.
    const silent = { ...s, volume: new Float64Array(N) };
    const g = computeFeatures(silent);
    for (let row = 0; row < g.rows; row++) expect(g.values[row * FEATURE_COUNT + FEATURE_NAMES.indexOf('volume_ratio_20')]).to.equal(0);
  });
});
