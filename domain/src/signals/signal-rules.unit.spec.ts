/**
 * The signal rules one by one (each indicator's BUY, SELL and HOLD, with its threshold), the weights
 * and the score threshold, volume as confirmation, and the confidence of each verdict.
 */
import { expect } from 'chai';
import {
  SIGNAL_FORMULA,
  SIGNAL_WEIGHTS,
  confidenceFromReasons,
  evaluateSignalRules,
  isMixedEvidence,
  signalScore,
  voteWeights,
  type IndicatorReadings,
  type SignalIndicator,
  type SignalType,
} from './signal-rules';

/** Nothing known but the price: every test adds the readings it is about. */
const bare: IndicatorReadings = { price: 100, rsi: null, macd: null, sma20: null, sma50: null, ema20: null, ema20Previous: null, volumeRatio: null };

function says(readings: Partial<IndicatorReadings>, indicator: SignalIndicator): SignalType | undefined {
  return evaluateSignalRules({ ...bare, ...readings }).reasons.find((r) => r.indicator === indicator)?.says;
}

describe('signal rules', function () {
  it('with no readings: HOLD, confidence 0, no reasons', function () {
    expect(evaluateSignalRules(bare)).to.deep.equal({ type: 'HOLD', confidence: 0, score: 0, formula: SIGNAL_FORMULA, mixed: false, reasons: [] });
  });

  it('RSI: below 30 BUY (oversold), above 70 SELL (overbought), 30 to 70 HOLD', function () {
    expect(says({ rsi: 29.9 }, 'RSI')).to.equal('BUY');
    expect(says({ rsi: 30 }, 'RSI')).to.equal('HOLD');
    expect(says({ rsi: 70 }, 'RSI')).to.equal('HOLD');
    expect(says({ rsi: 70.1 }, 'RSI')).to.equal('SELL');
    const [oversold] = evaluateSignalRules({ ...bare, rsi: 25 }).reasons;
    expect(oversold).to.deep.include({ indicator: 'RSI', value: 25, threshold: 30, says: 'BUY' });
    expect(oversold!.text).to.match(/oversold/);
    expect(evaluateSignalRules({ ...bare, rsi: 75 }).reasons[0]).to.deep.include({ threshold: 70, says: 'SELL' });
    expect(evaluateSignalRules({ ...bare, rsi: 60 }).reasons[0]).to.deep.include({ threshold: 70, says: 'HOLD' });
  });

  it('MACD: above its signal line BUY, below SELL, on it HOLD; the signal line is the threshold', function () {
    expect(says({ macd: { macd: 1, signal: 0.5, histogram: 0.5 } }, 'MACD')).to.equal('BUY');
    expect(says({ macd: { macd: 0.5, signal: 1, histogram: -0.5 } }, 'MACD')).to.equal('SELL');
    expect(says({ macd: { macd: 1, signal: 1, histogram: 0 } }, 'MACD')).to.equal('HOLD');
    expect(evaluateSignalRules({ ...bare, macd: { macd: -2, signal: -3, histogram: 1 } }).reasons[0]).to.deep.include({ value: -2, threshold: -3, says: 'BUY' });
  });

  it('SMA20 and SMA50: price above BUY, below SELL, on it HOLD', function () {
    expect(says({ sma20: 99 }, 'SMA20')).to.equal('BUY');
    expect(says({ sma20: 101 }, 'SMA20')).to.equal('SELL');
    expect(says({ sma20: 100 }, 'SMA20')).to.equal('HOLD');
    expect(says({ sma50: 99 }, 'SMA50')).to.equal('BUY');
    expect(says({ sma50: 101 }, 'SMA50')).to.equal('SELL');
    expect(says({ sma50: 100 }, 'SMA50')).to.equal('HOLD');
    expect(evaluateSignalRules({ ...bare, sma50: 90 }).reasons[0]).to.deep.include({ indicator: 'SMA50', value: 100, threshold: 90 });
  });

  it('EMA20 trend: rising since the previous candle BUY, falling SELL, flat HOLD; needs both', function () {
    expect(says({ ema20: 101, ema20Previous: 100 }, 'EMA20')).to.equal('BUY');
    expect(says({ ema20: 99, ema20Previous: 100 }, 'EMA20')).to.equal('SELL');
    expect(says({ ema20: 100, ema20Previous: 100 }, 'EMA20')).to.equal('HOLD');
    expect(says({ ema20: 100 }, 'EMA20')).to.equal(undefined);
  });

  it('volume confirms: HIGH says the direction the others lean to, NORMAL and LOW say HOLD', function () {
    const up = { sma20: 90 };
    const down = { sma20: 110 };
    expect(says({ ...up, volumeRatio: 2 }, 'VOLUME')).to.equal('BUY');
    expect(says({ ...down, volumeRatio: 2 }, 'VOLUME')).to.equal('SELL');
    expect(says({ volumeRatio: 2 }, 'VOLUME')).to.equal('HOLD');
    expect(says({ ...up, volumeRatio: 1 }, 'VOLUME')).to.equal('HOLD');
    expect(says({ ...up, volumeRatio: 0.3 }, 'VOLUME')).to.equal('HOLD');
    expect(says({ ...up, volumeRatio: Number.NaN }, 'VOLUME')).to.equal(undefined);
    // With confirmation the BUY is stronger than without; LOW volume dilutes it.
    expect(evaluateSignalRules({ ...bare, ...up, volumeRatio: 2 }).confidence).to.equal(100);
    expect(evaluateSignalRules({ ...bare, ...up, volumeRatio: 0.3 }).confidence).to.equal(50);
  });

  it('weights: RSI and MACD count double, so they outvote one average', function () {
    // RSI BUY (2) against SMA20 SELL (1): score 1/3, a BUY of confidence 33.
    expect(evaluateSignalRules({ ...bare, rsi: 20, sma20: 110 })).to.deep.include({ type: 'BUY', confidence: 33 });
    // MACD SELL (2) against SMA50 BUY (1): a SELL of 33.
    expect(evaluateSignalRules({ ...bare, macd: { macd: 0, signal: 1, histogram: -1 }, sma50: 90 })).to.deep.include({ type: 'SELL', confidence: 33 });
  });

  it('BUY or SELL needs a net score of a quarter of the weight; HOLD below it, with the confidence that nothing leans', function () {
    // RSI HOLD (2) + SMA20 BUY (1) + SMA50 HOLD (1): score 1/4, just BUY.
    expect(evaluateSignalRules({ ...bare, rsi: 50, sma20: 90, sma50: 100 })).to.deep.include({ type: 'BUY', confidence: 25 });
    // One more neutral weight (MACD on its line): score 1/6, HOLD, confidence 83.
    expect(evaluateSignalRules({ ...bare, rsi: 50, sma20: 90, sma50: 100, macd: { macd: 1, signal: 1, histogram: 0 } })).to.deep.include({ type: 'HOLD', confidence: 83 });
    expect(evaluateSignalRules({ ...bare, sma20: 110, sma50: 100 })).to.deep.include({ type: 'SELL', confidence: 50 });
  });

  it('everything agreeing: confidence 100', function () {
    const all: IndicatorReadings = { price: 100, rsi: 80, macd: { macd: -1, signal: 0, histogram: -1 }, sma20: 110, sma50: 120, ema20: 105, ema20Previous: 106, volumeRatio: 3 };
    const verdict = evaluateSignalRules(all);
    expect(verdict.type).to.equal('SELL');
    expect(verdict.confidence).to.equal(100);
    expect(verdict.reasons.map((r) => r.indicator)).to.deep.equal(['RSI', 'MACD', 'SMA20', 'SMA50', 'EMA20', 'VOLUME']);
    expect(verdict.reasons.every((r) => r.says === 'SELL' && r.text.length > 0)).to.equal(true);
  });

  describe('confidence that can be followed (weighted-vote-v2)', function () {
    /** RSI BUY (2), MACD SELL (2), SMA20 BUY (1), SMA50 SELL (1), EMA20 BUY (1), volume NORMAL: HOLD (1). */
    const split: IndicatorReadings = { price: 100, rsi: 20, macd: { macd: 0, signal: 1, histogram: -1 }, sma20: 90, sma50: 110, ema20: 101, ema20Previous: 100, volumeRatio: 1 };

    it('a HOLD from votes that cancel out is low confidence, marked mixed (it read 88%)', function () {
      const verdict = evaluateSignalRules(split);
      expect([verdict.type, verdict.confidence]).to.deep.equal(['HOLD', 13]);
      // BUY 4, SELL 3, HOLD 1 of 8: score 1/8, a HOLD that only the volume reading backs.
      expect(voteWeights(verdict.reasons)).to.deep.equal({ buy: 4, sell: 3, hold: 1, total: 8 });
      expect(verdict).to.deep.include({ type: 'HOLD', score: 0.125, confidence: 13, mixed: true });
    });

    it('a HOLD of neutral readings is confident and not mixed', function () {
      const neutral: IndicatorReadings = { price: 100, rsi: 50, macd: { macd: 1, signal: 1, histogram: 0 }, sma20: 100, sma50: 100, ema20: 100, ema20Previous: 100, volumeRatio: 1 };
      expect(evaluateSignalRules(neutral)).to.deep.include({ type: 'HOLD', score: 0, confidence: 100, mixed: false });
      // One average leaning up among neutrals: still a HOLD, 7 of 8 saying so.
      expect(evaluateSignalRules({ ...neutral, sma20: 99 })).to.deep.include({ type: 'HOLD', score: 0.125, confidence: 88, mixed: false });
    });

    it('a BUY is the BUY weight net of the SELL weight; heavy dissent marks it mixed', function () {
      // RSI BUY, MACD BUY, SMA20 BUY (5) against SMA50 SELL and EMA20 SELL (2), volume NORMAL: (5 - 2) / 8.
      const dissent: IndicatorReadings = { price: 100, rsi: 20, macd: { macd: 1, signal: 0, histogram: 1 }, sma20: 90, sma50: 110, ema20: 99, ema20Previous: 100, volumeRatio: 1 };
      expect(evaluateSignalRules(dissent)).to.deep.include({ type: 'BUY', score: 0.375, confidence: 38, mixed: true });
      // SMA50 and EMA20 neutral instead: nothing cancels, (5 - 0) / 8, not mixed.
      expect(evaluateSignalRules({ ...dissent, sma50: 100, ema20: 100 })).to.deep.include({ type: 'BUY', confidence: 63, mixed: false });
    });

    it('each reason carries its weight and vote; the verdict its score and the formula', function () {
      const verdict = evaluateSignalRules(split);
      expect(verdict.formula).to.equal('weighted-vote-v2');
      expect(verdict.reasons.map((r) => [r.indicator, r.weight, r.vote])).to.deep.equal([
        ['RSI', 2, 1],
        ['MACD', 2, -1],
        ['SMA20', 1, 1],
        ['SMA50', 1, -1],
        ['EMA20', 1, 1],
        ['VOLUME', 1, 0],
      ]);
      for (const r of verdict.reasons) expect(r.weight).to.equal(SIGNAL_WEIGHTS[r.indicator]);
    });

    it('the confidence, score and type are recomputed from the reasons alone, for every combination of votes', function () {
      const rsis = [null, 20, 50, 80];
      const macds = [null, { macd: 1, signal: 0, histogram: 1 }, { macd: 0, signal: 0, histogram: 0 }, { macd: 0, signal: 1, histogram: -1 }];
      const averages = [null, 90, 100, 110];
      const emas: Array<[number | null, number | null]> = [[null, null], [101, 100], [100, 100], [99, 100]];
      const volumes = [null, 0.3, 1, 2];
      let checked = 0;
      for (const rsi of rsis)
        for (const macd of macds)
          for (const sma20 of averages)
            for (const sma50 of averages)
              for (const [ema20, ema20Previous] of emas)
                for (const volumeRatio of volumes) {
                  const verdict = evaluateSignalRules({ price: 100, rsi, macd, sma20, sma50, ema20, ema20Previous, volumeRatio });
                  const again = confidenceFromReasons(verdict.reasons, verdict.formula);
                  expect(again).to.deep.equal({ type: verdict.type, score: verdict.score, confidence: verdict.confidence, mixed: verdict.mixed });
                  expect(signalScore(voteWeights(verdict.reasons))).to.equal(verdict.score);
                  expect(isMixedEvidence(verdict.type, voteWeights(verdict.reasons))).to.equal(verdict.mixed);
                  // Conflicting evidence never reads as high confidence.
                  if (verdict.mixed) expect(verdict.confidence).to.be.at.most(50);
                  checked++;
                }
      expect(checked).to.equal(4 * 4 * 4 * 4 * 4 * 4);
    });

    it('the earlier formula (weighted-vote-v1, stored signals) counted cancelled votes towards HOLD', function () {
      const { reasons } = evaluateSignalRules(split);
      expect(confidenceFromReasons(reasons, 'weighted-vote-v1')).to.deep.equal({ type: 'HOLD', score: 0.125, confidence: 88, mixed: true });
    });
  });
});
