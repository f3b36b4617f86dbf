/**
 * The house strategy's weighted vote on hand-built candles: a flat market votes HOLD on every
 * indicator (equal values are neither above nor below), each indicator that comes into reading changes
 * the evidence and so gives a signal, and its confidence is the backing weight over all the weight
 * (SIGNAL_WEIGHTS: RSI 2, MACD 2, SMA20 1, SMA50 1, EMA20 1, VOLUME 1). And which candles are too close
 * to a threshold to trust the whole-series indicators, so are recomputed over their own window.
 */
import { expect } from 'chai';
import type { Candle } from '../market/coins';
import { ema, macd, rsi } from '../market/indicators';
import { readingsOfLastCandle } from '../signals/readings';
import { evaluateSignalRules } from '../signals/signal-rules';
import { emptyCandles, type Candles } from './candles';
import { HOUSE_WINDOW, houseSignals, houseStats, type HouseParameters } from './house-signals';

const FIVE = 5 * 60_000;
const BUY = 1;
const SELL = -1;
const HOLD = 2;

function candlesOf(closes: readonly number[], volumes: readonly number[]): Candles {
  const c = emptyCandles(closes.length, 5);
  closes.forEach((x, i) => {
    c.time[i] = i * FIVE;
    c.open[i] = c.high[i] = c.low[i] = c.close[i] = x;
    c.volume[i] = volumes[i]!;
  });
  return c;
}

/** The signals as {candle: [type, confidence]}, candles with none left out. */
function signalsOf(c: Candles, p: HouseParameters): Record<number, [number, number]> {
  const out = new Int8Array(c.length);
  const confidence = new Uint8Array(c.length);
  houseSignals(c, p, out, confidence);
  const answer: Record<number, [number, number]> = {};
  for (let i = 0; i < c.length; i++) if (out[i] !== 0) answer[i] = [out[i]!, confidence[i]!];
  return answer;
}

const flat = (n: number, x: number) => Array.from({ length: n }, () => x);

describe('house signals: the weighted vote', function () {
  it('a flat market with an oversold bound above its RSI (50): each indicator coming into reading gives a signal, its confidence the share of the BUY weight', function () {
    // k=1: EMA20 vs its previous HOLD (1)                  -> HOLD, 100
    // k=14: RSI 50 < 60 BUY (2) + EMA HOLD (1)             -> score 2/3, BUY 67
    // k=19: + SMA20 HOLD (1) + volume ratio 1 HOLD (1)     -> 2/5, BUY 40
    // k=25: the MACD line alone, no signal line yet: no vote, no change
    // k=33: + MACD equal to its signal line, HOLD (2)      -> 2/7, BUY 29
    // k=49: + SMA50 HOLD (1)                               -> 2/8 = 0.25, at the threshold: BUY 25
    const c = candlesOf(flat(60, 100), flat(60, 1));
    expect(signalsOf(c, { rsiOversold: 60, rsiOverbought: 70, scoreThreshold: 0.25 })).to.deep.equal({
      1: [HOLD, 100],
      14: [BUY, 67],
      19: [BUY, 40],
      33: [BUY, 29],
      49: [BUY, 25],
    });
  });

  it('an RSI exactly at a bound is neither oversold nor overbought: it votes HOLD', function () {
    // Flat: RSI 50, at both bounds. Every vote HOLD, so each new reading (RSI at 14, SMA20 and volume at 19, MACD at 33) is a HOLD signal at 100.
    const c = candlesOf(flat(40, 100), flat(40, 1));
    expect(signalsOf(c, { rsiOversold: 50, rsiOverbought: 50, scoreThreshold: 0.25 })).to.deep.equal({
      1: [HOLD, 100],
      14: [HOLD, 100],
      19: [HOLD, 100],
      33: [HOLD, 100],
    });
  });

  it('a rising market before the other indicators read: the EMA20 alone votes BUY, with all the weight', function () {
    // Closes 100, 101, ... 110: only EMA20 (above its previous value) reads; RSI needs 14 changes, SMA20 and the volume 20 candles.
    const closes = Array.from({ length: 11 }, (_, i) => 100 + i);
    const c = candlesOf(closes, flat(11, 1));
    expect(signalsOf(c, { rsiOversold: 30, rsiOverbought: 70, scoreThreshold: 0.25 })).to.deep.equal({ 1: [BUY, 100] });
  });

  it('volume exactly 1.5 times its average is not high: it votes HOLD even when the others lean BUY', function () {
    // Volumes 37 then 57 at k=19: average (19*37 + 57) / 20 = 38, ratio 57/38 = 1.5 exactly.
    // k=19: RSI BUY (2), EMA HOLD (1), SMA20 HOLD (1), volume HOLD (1) -> 2/5, BUY 40. k=20: ratio 37/37.6, HOLD: no change.
    const volumes = flat(30, 37);
    volumes[19] = 57;
    const c = candlesOf(flat(30, 100), volumes);
    expect(signalsOf(c, { rsiOversold: 60, rsiOverbought: 70, scoreThreshold: 0.25 })).to.deep.equal({
      1: [HOLD, 100],
      14: [BUY, 67],
      19: [BUY, 40],
    });
  });

  it('high volume in a market that leans neither way votes HOLD, so it changes nothing', function () {
    // Flat prices, default bounds: every vote HOLD; a volume spike (ratio 10/1.45 > 1.5) with no lean is still HOLD.
    const volumes = flat(40, 1);
    volumes[25] = 10;
    const c = candlesOf(flat(40, 100), volumes);
    expect(signalsOf(c, { rsiOversold: 30, rsiOverbought: 70, scoreThreshold: 0.25 })).to.deep.equal({
      1: [HOLD, 100],
      14: [HOLD, 100],
      19: [HOLD, 100],
      33: [HOLD, 100],
    });
  });
});

/** A deterministic random walk around 100 and volumes from 50 to 150. */
function walk(n: number): { closes: number[]; volumes: number[] } {
  let s = 12345;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const closes: number[] = [];
  const volumes: number[] = [];
  let x = 100;
  for (let i = 0; i < n; i++) {
    x += next() - 0.5;
    closes.push(x);
    volumes.push(50 + 100 * next());
  }
  return { closes, volumes };
}

describe('house signals: the candles too close to a threshold are recomputed over their own window', function () {
  const N = HOUSE_WINDOW + 12;
  const K = HOUSE_WINDOW + 6;
  const defaults: HouseParameters = { rsiOversold: 30, rsiOverbought: 70, scoreThreshold: 0.25 };
  const recomputed = (closes: number[], volumes: number[], p: HouseParameters = defaults) => {
    houseStats.recomputed = -1;
    houseSignals(candlesOf(closes, volumes), p, new Int8Array(closes.length));
    return houseStats.recomputed;
  };
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

  it('a market clear of every threshold recomputes nothing', function () {
    const { closes, volumes } = walk(N);
    expect(recomputed(closes, volumes)).to.equal(0);
  });

  it('an RSI within 1e-4 of the oversold bound is recomputed, and of the overbought bound too', function () {
    const { closes, volumes } = walk(N);
    const r = rsi(Float64Array.from(closes))[K]!;
    expect(recomputed(closes, volumes, { ...defaults, rsiOversold: r + 5e-5 }), 'oversold').to.equal(1);
    expect(recomputed(closes, volumes, { ...defaults, rsiOversold: 1, rsiOverbought: r - 5e-5 }), 'overbought').to.equal(1);
  });

  it('a MACD line within 1e-7 of the price of its signal line is recomputed', function () {
    const { closes, volumes } = walk(N);
    // The MACD line at K is linear in the close at K: solve for the close that puts it on the previous signal value, then
    // move off by a residual of 1e-6 (the signal line follows at 0.8 of the gap): well inside 1e-7 x price (1e-5), far outside 1e-9.
    const lineAt = (x: number) => {
      const cs = Float64Array.from(closes);
      cs[K] = x;
      return macd(cs).macd[K]!;
    };
    const signalBefore = macd(Float64Array.from(closes)).signal[K - 1]!;
    const x0 = closes[K]!;
    const m0 = lineAt(x0);
    const slope = lineAt(x0 + 1) - m0;
    const gap = 1e-6 / 0.8;
    closes[K] = x0 + (signalBefore + gap - m0) / slope;
    const m = macd(Float64Array.from(closes));
    expect(Math.abs(m.macd[K]! - m.signal[K]!)).to.be.within(5e-7, 2e-6);
    expect(recomputed(closes, volumes)).to.equal(1);
  });

  it('an EMA20 within 1e-7 of the price of its previous value is recomputed', function () {
    const { closes, volumes } = walk(N);
    const previous = ema(Float64Array.from(closes), 20, 'first')[K - 1]!;
    closes[K] = previous + 1e-6 / (2 / 21); // the EMA moves 2/21 of the gap: 1e-6
    expect(recomputed(closes, volumes)).to.equal(1);
  });

  it('a price equal to its SMA20, or to its SMA50, is recomputed', function () {
    const a = walk(N);
    a.closes[K] = mean(a.closes.slice(K - 19, K)); // then the mean of the 20 is the price
    expect(recomputed(a.closes, a.volumes), 'SMA20').to.equal(1);
    const b = walk(N);
    b.closes[K] = mean(b.closes.slice(K - 49, K));
    expect(recomputed(b.closes, b.volumes), 'SMA50').to.equal(1);
  });

  it('a volume ratio at the high level (1.5) or the low one (0.5) is recomputed', function () {
    const a = walk(N);
    const before = a.volumes.slice(K - 19, K).reduce((x, y) => x + y, 0);
    a.volumes[K] = (3 * before) / 37; // v = 1.5 (before + v) / 20
    expect(recomputed(a.closes, a.volumes), 'high').to.equal(1);
    const b = walk(N);
    b.volumes[K] = b.volumes.slice(K - 19, K).reduce((x, y) => x + y, 0) / 39; // v = 0.5 (before + v) / 20
    expect(recomputed(b.closes, b.volumes), 'low').to.equal(1);
  });

  /**
   * The live engine at candle k: the rules over the window of HOUSE_WINDOW candles ending at k, and a
   * signal when the evidence (type and each indicator's vote) differs from candle k - 1's.
   */
  function liveSignals(closes: number[], volumes: number[], from: number): Record<number, [number, number]> {
    const candles: Candle[] = closes.map((x, i) => ({ time: i * FIVE, open: x, high: x, low: x, close: x, volume: volumes[i]! }));
    const verdictAt = (k: number) => evaluateSignalRules(readingsOfLastCandle(candles.slice(k - HOUSE_WINDOW + 1, k + 1))!.readings);
    const evidence = (k: number) => {
      const v = verdictAt(k);
      return `${v.type} ${v.reasons.map((r) => `${r.indicator}:${r.vote}`).join(' ')}`;
    };
    const answer: Record<number, [number, number]> = {};
    for (let k = from; k < closes.length; k++) {
      if (evidence(k) === evidence(k - 1)) continue;
      const v = verdictAt(k);
      answer[k] = [v.type === 'BUY' ? BUY : v.type === 'SELL' ? SELL : HOLD, v.confidence];
    }
    return answer;
  }

  it('a recomputed candle votes as the live engine over its own window: the same signals and confidences', function () {
    const cases: Record<string, { closes: number[]; volumes: number[] }> = {};
    const a = walk(N);
    a.closes[K] = mean(a.closes.slice(K - 19, K));
    cases['price on its SMA20'] = a;
    const a2 = walk(N);
    a2.closes[K] = mean(a2.closes.slice(K - 49, K));
    a2.volumes[K] = 4 * a2.volumes[K]!;
    cases['price on its SMA50, on high volume'] = a2;
    const a3 = walk(N);
    a3.closes[K] = ema(Float64Array.from(a3.closes), 20, 'first')[K - 1]! + 1e-6 / (2 / 21);
    a3.volumes[K] = 4 * a3.volumes[K]!;
    cases['EMA20 on its previous value, on high volume'] = a3;
    const b = walk(N);
    b.closes[K] = mean(b.closes.slice(K - 49, K));
    cases['price on its SMA50'] = b;
    const c = walk(N);
    c.closes[K] = ema(Float64Array.from(c.closes), 20, 'first')[K - 1]! + 1e-6 / (2 / 21);
    cases['EMA20 on its previous value'] = c;
    const d = walk(N);
    d.volumes[K] = (3 * d.volumes.slice(K - 19, K).reduce((x, y) => x + y, 0)) / 37;
    cases['volume ratio at 1.5'] = d;
    for (const [name, { closes, volumes }] of Object.entries(cases)) {
      expect(recomputed(closes, volumes), name).to.equal(1);
      const all = signalsOf(candlesOf(closes, volumes), defaults);
      const house = Object.fromEntries(Object.entries(all).filter(([k]) => Number(k) >= HOUSE_WINDOW));
      expect(house, name).to.deep.equal(liveSignals(closes, volumes, HOUSE_WINDOW));
    }
  });
});
