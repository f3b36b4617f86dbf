/** How the panel shows a signal's confidence following from its reasons (weighted-vote-v2, and v1 for stored signals). */
import { expect } from 'chai';
import type { Signal } from '@papertrade/domain/signals/contracts';
import { explainSignal, reasonContribution } from './signal-explanation';
import { confidenceNote } from './signal-summary';

type Reason = Signal['reasons'][number];
const reason = (indicator: Reason['indicator'], says: Reason['says'], weight: number): Reason => ({
  indicator,
  says,
  vote: says === 'BUY' ? 1 : says === 'SELL' ? -1 : 0,
  weight,
  value: 1,
  threshold: 1,
  text: '',
});

/** RSI BUY, MACD SELL, SMA20 BUY, SMA50 SELL, EMA20 BUY, VOLUME HOLD: votes that cancel out. */
const split: Signal = {
  id: 'a',
  signalId: 'a',
  symbol: 'ETH',
  type: 'HOLD',
  description: '',
  confidence: 13,
  score: 0.125,
  formula: 'weighted-vote-v2',
  mixed: true,
  weights: { buy: 4, sell: 3, hold: 1, total: 8 },
  price: 3000,
  timestamp: '2026-01-01T00:05:01.000Z',
  candleTime: '2026-01-01T00:00:00.000Z',
  reasons: [reason('RSI', 'BUY', 2), reason('MACD', 'SELL', 2), reason('SMA20', 'BUY', 1), reason('SMA50', 'SELL', 1), reason('EMA20', 'BUY', 1), reason('VOLUME', 'HOLD', 1)],
};

describe('signal explanation', function () {
  it('a reason contributes its weight times its vote', function () {
    expect(split.reasons.map(reasonContribution)).to.deep.equal(['+2', '−2', '+1', '−1', '+1', '0']);
  });

  it('a HOLD whose votes cancel: the score, a low confidence from the HOLD weight alone, and why it is mixed', function () {
    expect(explainSignal(split)).to.deep.equal({
      score: 'score = (+2 −2 +1 −1 +1 0) / 8 = +0.13, between −0.25 and +0.25 → HOLD',
      confidence: 'confidence = HOLD weight / all weight = 1 / 8 = 13%',
      mixed: 'Mixed evidence: BUY 4 against SELL 3 cancels 6 of the weight, more than the 1 backing HOLD',
      formula: 'weighted-vote-v2',
    });
    expect(confidenceNote(split, 'ETH')).to.equal('Low (mixed evidence), from the latest ETH signal (HOLD)');
  });

  it('a BUY: its weight net of the SELL weight', function () {
    const buy: Signal = {
      ...split,
      type: 'BUY',
      confidence: 63,
      score: 0.625,
      mixed: false,
      weights: { buy: 5, sell: 0, hold: 3, total: 8 },
      reasons: [reason('RSI', 'BUY', 2), reason('MACD', 'BUY', 2), reason('SMA20', 'BUY', 1), reason('SMA50', 'HOLD', 1), reason('EMA20', 'HOLD', 1), reason('VOLUME', 'HOLD', 1)],
    };
    expect(explainSignal(buy)).to.deep.equal({
      score: 'score = (+2 +2 +1 0 0 0) / 8 = +0.63 ≥ +0.25 → BUY',
      confidence: 'confidence = (BUY weight − SELL weight) / all weight = (5 − 0) / 8 = 63%',
      mixed: null,
      formula: 'weighted-vote-v2',
    });
    expect(confidenceNote(buy, 'ETH')).to.equal('Medium, from the latest ETH signal (BUY)');
    const sell: Signal = { ...buy, type: 'SELL', score: -0.625, weights: { buy: 0, sell: 5, hold: 3, total: 8 }, reasons: buy.reasons.map((r) => (r.says === 'BUY' ? reason(r.indicator, 'SELL', r.weight) : r)) };
    expect(explainSignal(sell).score).to.equal('score = (−2 −2 −1 0 0 0) / 8 = −0.63 ≤ −0.25 → SELL');
    expect(explainSignal(sell).confidence).to.equal('confidence = (SELL weight − BUY weight) / all weight = (5 − 0) / 8 = 63%');
  });

  it('a stored signal of the earlier formula says which rule its confidence came from', function () {
    const v1: Signal = { ...split, confidence: 88, formula: 'weighted-vote-v1' };
    expect(explainSignal(v1)).to.deep.include({
      confidence: 'confidence (weighted-vote-v1, the earlier formula) = 1 − |score| = 88%; weighted-vote-v2 would give 1 / 8 = 13%',
      formula: 'weighted-vote-v1',
    });
    expect(explainSignal({ ...v1, type: 'BUY', confidence: 50, score: 0.5 }).confidence).to.equal('confidence (weighted-vote-v1, the earlier formula) = |score| = 50%');
  });

  it('a signal without readings', function () {
    expect(explainSignal({ ...split, confidence: 0, score: 0, mixed: false, weights: { buy: 0, sell: 0, hold: 0, total: 0 }, reasons: [] })).to.deep.equal({
      score: 'No indicator had a reading: score 0 → HOLD',
      confidence: 'confidence = 0%',
      mixed: null,
      formula: 'weighted-vote-v2',
    });
  });
});
