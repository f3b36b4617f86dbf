/** The signals read models' evolves: one document per signal, counts per type; the API's signal from a document. */
import { expect } from 'chai';
import { signalSchema } from './contracts';
import type { SignalGenerated, SignalGeneratedV1 } from './signal';
import { evaluateSignalRules, type IndicatorReadings } from './signal-rules';
import { describeSignal, emptySignalCounts, evolveSignalCounts, evolveSignalView, toSignal } from './signal-view';

const signal = (type: 'BUY' | 'SELL' | 'HOLD'): SignalGenerated => ({
  type: 'SignalGenerated',
  data: { signalId: 's1', symbol: 'ETH', type, confidence: 60, score: 0.6, formula: 'weighted-vote-v2', price: 3000, candleTime: '2026-03-04T05:00:00.000Z', reasons: [] },
});

/** RSI BUY, MACD SELL, SMA20 BUY, SMA50 SELL, EMA20 BUY, volume NORMAL: votes that cancel out. */
const split: IndicatorReadings = { price: 100, rsi: 20, macd: { macd: 0, signal: 1, histogram: -1 }, sma20: 90, sma50: 110, ema20: 101, ema20Previous: 100, volumeRatio: 1 };

function generatedFrom(readings: IndicatorReadings): SignalGenerated {
  const v = evaluateSignalRules(readings);
  return {
    type: 'SignalGenerated',
    data: { signalId: 's2', symbol: 'ADA', type: v.type, confidence: v.confidence, score: v.score, formula: v.formula, price: readings.price, candleTime: '2026-03-04T05:00:00.000Z', reasons: v.reasons },
  };
}

describe('signals read models', function () {
  it('a signal document is the event data plus its candle time in ms and the time it was generated', function () {
    expect(evolveSignalView(null, signal('BUY'), '2026-03-04T05:05:01.000Z')).to.deep.equal({
      ...signal('BUY').data,
      candleTimeMs: Date.parse('2026-03-04T05:00:00.000Z'),
      generatedAt: '2026-03-04T05:05:01.000Z',
    });
  });

  it('counts each type and the total; other events change nothing', function () {
    let counts = emptySignalCounts();
    for (const type of ['BUY', 'BUY', 'SELL', 'HOLD'] as const) counts = evolveSignalCounts(counts, signal(type));
    expect(counts).to.deep.equal({ total: 4, buy: 2, sell: 1, hold: 1 });
    expect(evolveSignalCounts(counts, { type: 'UserRegistered', data: {} })).to.deep.equal(counts);
    expect(evolveSignalView(null, { type: 'UserRegistered', data: {} })).to.equal(null);
  });

  it("the API's signal: the spec's id, description and timestamp, the weights the confidence follows from", function () {
    const doc = evolveSignalView(null, generatedFrom(split), '2026-03-04T05:05:02.000Z')!;
    const api = signalSchema.parse(toSignal(doc));
    expect(api).to.deep.include({ id: 's2', signalId: 's2', type: 'HOLD', confidence: 13, score: 0.125, formula: 'weighted-vote-v2', mixed: true, timestamp: '2026-03-04T05:05:02.000Z' });
    expect(api.weights).to.deep.equal({ buy: 4, sell: 3, hold: 1, total: 8 });
    expect(api.description).to.equal('HOLD (13% confidence, mixed evidence): RSI, SMA20, EMA20 say BUY; MACD, SMA50 say SELL; VOLUME says HOLD');
    expect(api).not.to.have.property('candleTimeMs');
  });

  it('a document of a version 1 event (or one written before the upcast) reads as formula v1, timestamped at its candle close', function () {
    const { score: _s, formula: _f, reasons, ...rest } = generatedFrom(split).data;
    const v1: SignalGeneratedV1 = { type: 'SignalGenerated', data: { ...rest, confidence: 88, reasons: reasons.map(({ vote: _v, weight: _w, ...r }) => r) } };
    const oldDoc = { ...v1.data, candleTimeMs: Date.parse(v1.data.candleTime) };
    for (const doc of [oldDoc, evolveSignalView(null, v1)!]) {
      const api = signalSchema.parse(toSignal(doc as Parameters<typeof toSignal>[0]));
      expect(api).to.deep.include({ confidence: 88, formula: 'weighted-vote-v1', score: 0.125, mixed: true, timestamp: '2026-03-04T05:05:00.000Z' });
      expect(api.reasons.map((r) => [r.indicator, r.weight, r.vote])).to.deep.equal([
        ['RSI', 2, 1],
        ['MACD', 2, -1],
        ['SMA20', 1, 1],
        ['SMA50', 1, -1],
        ['EMA20', 1, 1],
        ['VOLUME', 1, 0],
      ]);
    }
  });

  it('describes a signal without readings, and agreeing ones', function () {
    expect(describeSignal('HOLD', 0, false, [])).to.equal('HOLD (0% confidence): no indicator has a reading yet');
    expect(
      describeSignal('SELL', 100, false, [
        { indicator: 'RSI', says: 'SELL' },
        { indicator: 'MACD', says: 'SELL' },
      ]),
    ).to.equal('SELL (100% confidence): RSI, MACD say SELL');
  });
});
