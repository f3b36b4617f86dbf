/**
 * What counts as news for the signal stream when the last signal was stored by someone else (an
 * earlier version of the rules, or a writer that listed its reasons in another order), how stored
 * signal data of unknown shape is read, the signal document of an event without a time, and the
 * EMA20 trend from the second candle on.
 */
import { expect } from 'chai';
import type { Candle } from '../market/coins';
import { specFor } from '../shared/decider-specification';
import { readingsOfLastCandle } from './readings';
import { signalsStreamId, upcastSignalEvent, upcastSignalGeneratedData, type SignalEvent } from './signal';
import { signalDecider, type EvaluateSignal } from './signal.decider';
import { evaluateSignalRules, type IndicatorReadings } from './signal-rules';
import { evolveSignalView } from './signal-view';

const spec = specFor(signalDecider);
const T0 = '2026-03-04T05:00:00.000Z';
const T1 = '2026-03-04T05:05:00.000Z';

/** RSI neutral (HOLD 2), MACD above its line, price above both averages, EMA rising (BUY 5), volume NORMAL (HOLD 1): a BUY, score 5/8. */
const bullish: IndicatorReadings = { price: 100, rsi: 55, macd: { macd: 1, signal: 0.5, histogram: 0.5 }, sma20: 95, sma50: 90, ema20: 96, ema20Previous: 95, volumeRatio: 1 };

const evaluate = (candleTime: string, readings: IndicatorReadings): EvaluateSignal => ({
  type: 'EvaluateSignal',
  data: { signalId: `id-${candleTime}`, symbol: 'eth', candleTime, readings },
});

function generated(candleTime: string, readings: IndicatorReadings): SignalEvent {
  const verdict = evaluateSignalRules(readings);
  return {
    type: 'SignalGenerated',
    data: { signalId: `id-${candleTime}`, symbol: 'ETH', type: verdict.type, confidence: verdict.confidence, score: verdict.score, formula: verdict.formula, price: readings.price, candleTime, reasons: verdict.reasons },
  };
}

describe('signal stream: news against a stored signal, and stored shapes', function () {
  it('the same indicator verdicts under another type are news: a HOLD stored by earlier rules, a BUY now', function () {
    const now = generated(T1, bullish);
    expect(now.data.type).to.equal('BUY');
    const earlier = generated(T0, bullish);
    const storedAsHold: SignalEvent = { ...earlier, data: { ...earlier.data, type: 'HOLD' } };
    spec.given([storedAsHold]).when(evaluate(T1, bullish)).then([now]);
  });

  it('the verdicts are compared as a set: the last signal listing the same ones in another order is no news', function () {
    const last = generated(T0, bullish);
    const reordered: SignalEvent = { ...last, data: { ...last.data, reasons: [...last.data.reasons].reverse() } };
    spec.given([reordered]).when(evaluate(T1, { ...bullish, price: 101, rsi: 60 })).then([]);
  });

  describe('stored signal data', function () {
    const v2 = generated(T0, bullish).data;

    it('data naming no formula the rules know (null, blank, a made-up name) reads as version 1: its score recomputed, formula v1', function () {
      for (const formula of [null, '', 'weighted-vote-v9']) {
        const stored = { ...v2, score: 0.99, formula } as unknown as Record<string, unknown>;
        const read = upcastSignalGeneratedData(stored);
        // BUY 5 of 8, nothing against: (5 - 0) / 8.
        expect(read.formula, String(formula)).to.equal('weighted-vote-v1');
        expect(read.score, String(formula)).to.equal(0.625);
      }
    });

    it('data naming a known formula is read as it is', function () {
      expect(upcastSignalGeneratedData({ ...v2, score: 0.99 })).to.deep.include({ formula: 'weighted-vote-v2', score: 0.99 });
      expect(upcastSignalGeneratedData({ ...v2, formula: 'weighted-vote-v1' })).to.deep.include({ formula: 'weighted-vote-v1', score: 0.625 });
    });

    it('an event of another type passes the upcast untouched', function () {
      const other = { type: 'SignalsPaused', data: { symbol: 'ETH' }, schemaVersion: 1 };
      expect(upcastSignalEvent(other)).to.equal(other);
      expect(other).to.deep.equal({ type: 'SignalsPaused', data: { symbol: 'ETH' }, schemaVersion: 1 });
    });

    it('the document of an event read without its time is the data and the candle time in ms, with no generatedAt at all', function () {
      expect(evolveSignalView(null, generated(T0, bullish))).to.deep.equal({ ...v2, candleTimeMs: Date.parse(T0) });
    });
  });

  it('from the second candle on the EMA20 has a trend: the previous value is the EMA of the first candle, its close', function () {
    const MIN = 60_000;
    const candle = (i: number, close: number): Candle => ({ time: i * 5 * MIN, open: close, high: close, low: close, close, volume: 1000 });
    const { readings } = readingsOfLastCandle([candle(0, 5), candle(1, 7)])!;
    // Seeded with the first close, smoothing 2/21: 5 + (7 - 5) · 2/21.
    expect(readings.ema20Previous).to.equal(5);
    expect(readings.ema20).to.be.closeTo(5 + (2 * 2) / 21, 1e-12);
    expect(evaluateSignalRules(readings).reasons.find((r) => r.indicator === 'EMA20')).to.deep.include({ says: 'BUY', threshold: 5 });
  });

  it('a coin\'s signals stream is named by its symbol in capitals; data stored without reasons reads with none', function () {
    expect(signalsStreamId('eth')).to.equal('signals-ETH');
    const { reasons: _r, formula: _f, ...bare } = generated(T0, bullish).data as unknown as Record<string, unknown>;
    expect(upcastSignalGeneratedData(bare)).to.deep.include({ reasons: [], score: 0, formula: 'weighted-vote-v1' });
  });
});
