import { expect } from 'chai';
import type { Signal, SignalsResponse } from '@papertrade/domain/signals/contracts';
import { confidenceLevel, latestSignal } from './signal-summary';

const signal = (id: string, confidence: number): Signal => ({
  id,
  signalId: id,
  symbol: 'ETH',
  type: 'BUY',
  description: `BUY (${confidence}% confidence): no indicator has a reading yet`,
  confidence,
  score: confidence / 100,
  formula: 'weighted-vote-v2',
  mixed: false,
  weights: { buy: 0, sell: 0, hold: 0, total: 0 },
  price: 3000,
  timestamp: '2026-01-01T00:05:00.000Z',
  candleTime: '2026-01-01T00:00:00.000Z',
  reasons: [],
});

describe('signal summary', () => {
  it('the latest signal is the first of the list (newest first), null when there is none', () => {
    const response: SignalsResponse = { symbol: 'ETH', signals: [signal('b', 70), signal('a', 90)], counts: { total: 2, buy: 2, sell: 0, hold: 0 }, total: 2, page: 1, pageSize: 50, totalPages: 1 };
    expect(latestSignal(response)?.id).to.equal('b');
    expect(latestSignal({ ...response, signals: [] })).to.equal(null);
  });

  it('reads confidence above 80 as High, above 60 as Medium, else Low', () => {
    expect(confidenceLevel(80.1)).to.equal('High');
    expect(confidenceLevel(80)).to.equal('Medium');
    expect(confidenceLevel(60.5)).to.equal('Medium');
    expect(confidenceLevel(60)).to.equal('Low');
  });
});
