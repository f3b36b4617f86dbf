/**
 * What each reason tells the reader, word for word (the signals panel shows these sentences), and
 * the edges of the rules the first spec leaves open: the SELL threshold met exactly, a neutral RSI's
 * nearest bound, high volume among neutral readings, an EMA20 trend without its current value, and
 * a weighted-vote-v1 BUY's confidence.
 */
import { expect } from 'chai';
import { confidenceFromReasons, evaluateSignalRules, type IndicatorReadings, type SignalIndicator, type SignalReason } from './signal-rules';

/** Nothing known but the price: every test adds the readings it is about. */
const bare: IndicatorReadings = { price: 100, rsi: null, macd: null, sma20: null, sma50: null, ema20: null, ema20Previous: null, volumeRatio: null };

function reasonOf(readings: Partial<IndicatorReadings>, indicator: SignalIndicator): SignalReason | undefined {
  return evaluateSignalRules({ ...bare, ...readings }).reasons.find((r) => r.indicator === indicator);
}

const textOf = (readings: Partial<IndicatorReadings>, indicator: SignalIndicator) => reasonOf(readings, indicator)?.text;

describe('signal rules: the reasons as read, and the edges', function () {
  describe('each reason says in words what the reading is compared with', function () {
    it('RSI: oversold, overbought, or neutral between 30 and 70', function () {
      expect(textOf({ rsi: 25 }, 'RSI')).to.equal('RSI 25 is below 30: oversold');
      expect(textOf({ rsi: 75 }, 'RSI')).to.equal('RSI 75 is above 70: overbought');
      expect(textOf({ rsi: 50 }, 'RSI')).to.equal('RSI 50 is between 30 and 70: neutral');
    });

    it('MACD: above its signal line bullish, below bearish, on it neither', function () {
      expect(textOf({ macd: { macd: 1.5, signal: 0.25, histogram: 1.25 } }, 'MACD')).to.equal('MACD 1.5 is above its signal line 0.25: bullish');
      expect(textOf({ macd: { macd: -2, signal: -1, histogram: -1 } }, 'MACD')).to.equal('MACD -2 is below its signal line -1: bearish');
      expect(textOf({ macd: { macd: 1, signal: 1, histogram: 0 } }, 'MACD')).to.equal('MACD 1 is on its signal line');
    });

    it('SMA20 and SMA50 each name their own average: the 20-candle and the 50-candle one', function () {
      expect(textOf({ sma20: 99 }, 'SMA20')).to.equal('Price 100 is above the 20-candle average 99');
      expect(textOf({ sma20: 101 }, 'SMA20')).to.equal('Price 100 is below the 20-candle average 101');
      expect(textOf({ sma20: 100 }, 'SMA20')).to.equal('Price 100 is on the 20-candle average');
      expect(textOf({ sma50: 99 }, 'SMA50')).to.equal('Price 100 is above the 50-candle average 99');
      expect(textOf({ sma50: 101 }, 'SMA50')).to.equal('Price 100 is below the 50-candle average 101');
      expect(textOf({ sma50: 100 }, 'SMA50')).to.equal('Price 100 is on the 50-candle average');
    });

    it('EMA20: rose, fell or flat since the previous candle', function () {
      expect(textOf({ ema20: 101, ema20Previous: 100 }, 'EMA20')).to.equal('EMA20 rose to 101 from 100: uptrend');
      expect(textOf({ ema20: 99, ema20Previous: 100 }, 'EMA20')).to.equal('EMA20 fell to 99 from 100: downtrend');
      expect(textOf({ ema20: 100, ema20Previous: 100 }, 'EMA20')).to.equal('EMA20 is flat at 100');
    });

    it('volume: the multiple of its 20-candle average, and what it confirms', function () {
      expect(textOf({ sma20: 90, volumeRatio: 2 }, 'VOLUME')).to.equal('High volume (2x the 20-candle average) confirms the upward lean');
      expect(textOf({ sma20: 110, volumeRatio: 2 }, 'VOLUME')).to.equal('High volume (2x the 20-candle average) confirms the downward lean');
      expect(textOf({ volumeRatio: 2 }, 'VOLUME')).to.equal('High volume (2x the 20-candle average) with no direction to confirm');
      expect(textOf({ sma20: 90, volumeRatio: 0.3 }, 'VOLUME')).to.equal('Low volume (0.3x the 20-candle average) confirms nothing');
      expect(textOf({ sma20: 90, volumeRatio: 1 }, 'VOLUME')).to.equal('Normal volume (1x the 20-candle average) confirms nothing');
    });

    it('numbers read with six significant digits, from coin prices in the tens of thousands to cents', function () {
      expect(textOf({ price: 65432.123, sma20: 65000 }, 'SMA20')).to.equal('Price 65432.1 is above the 20-candle average 65000');
      expect(textOf({ price: 0.453219876, sma50: 0.46 }, 'SMA50')).to.equal('Price 0.45322 is below the 50-candle average 0.46');
      expect(textOf({ rsi: 29.87654 }, 'RSI')).to.equal('RSI 29.8765 is below 30: oversold');
    });
  });

  it('a neutral RSI is compared with the nearer bound; at 50, equally far from both, with the oversold 30', function () {
    expect(reasonOf({ rsi: 40 }, 'RSI')).to.deep.include({ says: 'HOLD', threshold: 30 });
    expect(reasonOf({ rsi: 35 }, 'RSI')).to.deep.include({ says: 'HOLD', threshold: 30 });
    expect(reasonOf({ rsi: 50 }, 'RSI')).to.deep.include({ says: 'HOLD', threshold: 30 });
    expect(reasonOf({ rsi: 50.5 }, 'RSI')).to.deep.include({ says: 'HOLD', threshold: 70 });
  });

  it('volume is compared with the bound of its level: LOW with 0.5, NORMAL and HIGH with 1.5', function () {
    expect(reasonOf({ volumeRatio: 0.3 }, 'VOLUME')).to.deep.include({ value: 0.3, threshold: 0.5, says: 'HOLD' });
    expect(reasonOf({ volumeRatio: 1 }, 'VOLUME')).to.deep.include({ value: 1, threshold: 1.5, says: 'HOLD' });
    expect(reasonOf({ volumeRatio: 2 }, 'VOLUME')).to.deep.include({ value: 2, threshold: 1.5 });
  });

  it('a SELL needs a score of -0.25 or less: exactly -0.25 is a SELL of confidence 25', function () {
    // RSI neutral (HOLD 2), price below SMA20 (SELL 1), on SMA50 (HOLD 1): score -1/4.
    expect(evaluateSignalRules({ ...bare, rsi: 50, sma20: 110, sma50: 100 })).to.deep.include({ type: 'SELL', score: -0.25, confidence: 25, mixed: false });
  });

  it('high volume confirms the weighted lean of the other indicators, neutral ones weighing nothing either way', function () {
    // MACD on its line (HOLD 2) and price below SMA20 (SELL 1): the lean is down, so high volume says SELL.
    const down = evaluateSignalRules({ ...bare, macd: { macd: 1, signal: 1, histogram: 0 }, sma20: 110, volumeRatio: 2 });
    expect(down.reasons.find((r) => r.indicator === 'VOLUME')?.says).to.equal('SELL');
    // HOLD 2, SELL 1 + 1 of 4: score -1/2, a SELL of 50.
    expect(down).to.deep.include({ type: 'SELL', score: -0.5, confidence: 50 });
    // Only neutral readings: nothing to confirm, high volume says HOLD and the HOLD is whole.
    const calm = evaluateSignalRules({ ...bare, rsi: 50, macd: { macd: 1, signal: 1, histogram: 0 }, volumeRatio: 2 });
    expect(calm.reasons.find((r) => r.indicator === 'VOLUME')?.says).to.equal('HOLD');
    expect(calm).to.deep.include({ type: 'HOLD', score: 0, confidence: 100 });
  });

  it('the EMA20 trend needs the EMA now as well as the one before: a previous value alone gives no reason', function () {
    const verdict = evaluateSignalRules({ ...bare, ema20: null, ema20Previous: 100 });
    expect(verdict.reasons).to.deep.equal([]);
    expect(verdict).to.deep.include({ type: 'HOLD', confidence: 0 });
  });

  it('weighted-vote-v1 rated a BUY or SELL by 100 · |score|, as v2 does', function () {
    // BUY 2 + 2 against SELL 1, of 5: score 0.6, confidence 60 by either formula.
    const buy = [
      { vote: 1 as const, weight: 2 },
      { vote: 1 as const, weight: 2 },
      { vote: -1 as const, weight: 1 },
    ];
    expect(confidenceFromReasons(buy, 'weighted-vote-v1')).to.deep.equal({ type: 'BUY', score: 0.6, confidence: 60, mixed: false });
    expect(confidenceFromReasons(buy, 'weighted-vote-v2')).to.deep.equal({ type: 'BUY', score: 0.6, confidence: 60, mixed: false });
    const sell = buy.map((r) => ({ ...r, vote: -r.vote as 1 | -1 }));
    expect(confidenceFromReasons(sell, 'weighted-vote-v1')).to.deep.equal({ type: 'SELL', score: -0.6, confidence: 60, mixed: false });
  });
});
