/** The signals read models' evolves: one document per signal, counts per type. */
import { expect } from 'chai';
import type { SignalGenerated } from './signal';
import { emptySignalCounts, evolveSignalCounts, evolveSignalView } from './signal-view';

const signal = (type: 'BUY' | 'SELL' | 'HOLD'): SignalGenerated => ({
  type: 'SignalGenerated',
  data: { signalId: 's1', symbol: 'ETH', type, confidence: 60, price: 3000, candleTime: '2026-03-04T05:00:00.000Z', reasons: [] },
});

describe('signals read models', function () {
  it('a signal document is the event data plus its candle time in ms', function () {
    expect(evolveSignalView(null, signal('BUY'))).to.deep.equal({ ...signal('BUY').data, candleTimeMs: Date.parse('2026-03-04T05:00:00.000Z') });
  });

  it('counts each type and the total; other events change nothing', function () {
    let counts = emptySignalCounts();
    for (const type of ['BUY', 'BUY', 'SELL', 'HOLD'] as const) counts = evolveSignalCounts(counts, signal(type));
    expect(counts).to.deep.equal({ total: 4, buy: 2, sell: 1, hold: 1 });
    expect(evolveSignalCounts(counts, { type: 'UserRegistered', data: {} })).to.deep.equal(counts);
    expect(evolveSignalView(null, { type: 'UserRegistered', data: {} })).to.equal(null);
  });
});
