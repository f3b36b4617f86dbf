/**
 * The signal decider as given/when/then: a first signal, a new one only when the evidence changes
 * (type, or any indicator's verdict), nothing for the same candle twice or an older candle.
 */
import { specFor } from '../shared/decider-specification';
import { ValidationError } from '../shared/errors';
import { expect } from 'chai';
import { fold } from '../shared/decider';
import { upcastSignalEvent, type SignalEvent, type SignalGeneratedV1 } from './signal';
import { signalDecider, type EvaluateSignal } from './signal.decider';
import { evaluateSignalRules, type IndicatorReadings } from './signal-rules';

const spec = specFor(signalDecider);
const T0 = '2026-03-04T05:00:00.000Z';
const T1 = '2026-03-04T05:05:00.000Z';
const T_BEFORE = '2026-03-04T04:55:00.000Z';

/** Price above both averages, MACD above its line, RSI neutral: a BUY. */
const bullish: IndicatorReadings = { price: 100, rsi: 55, macd: { macd: 1, signal: 0.5, histogram: 0.5 }, sma20: 95, sma50: 90, ema20: 96, ema20Previous: 95, volumeRatio: 1 };
/** Below both averages, MACD below, EMA falling: a SELL. */
const bearish: IndicatorReadings = { price: 80, rsi: 45, macd: { macd: -1, signal: -0.5, histogram: -0.5 }, sma20: 85, sma50: 90, ema20: 84, ema20Previous: 85, volumeRatio: 1 };

const evaluate = (candleTime: string, readings: IndicatorReadings, signalId = `id-${candleTime}`): EvaluateSignal => ({
  type: 'EvaluateSignal',
  data: { signalId, symbol: 'eth', candleTime, readings },
});

function generated(candleTime: string, readings: IndicatorReadings, signalId = `id-${candleTime}`): SignalEvent {
  const verdict = evaluateSignalRules(readings);
  return {
    type: 'SignalGenerated',
    data: { signalId, symbol: 'ETH', type: verdict.type, confidence: verdict.confidence, score: verdict.score, formula: verdict.formula, price: readings.price, candleTime, reasons: verdict.reasons },
  };
}

/** The same signal as schema version 1 stored it: no score or formula, reasons without weight or vote. */
function storedV1(candleTime: string, readings: IndicatorReadings): SignalGeneratedV1 {
  const { score: _score, formula: _formula, reasons, ...rest } = generated(candleTime, readings).data;
  return { type: 'SignalGenerated', data: { ...rest, reasons: reasons.map(({ vote: _vote, weight: _weight, ...r }) => r) } };
}

describe('signal decider', function () {
  it('a first evaluation generates a signal: the rules verdict, the candle, the id given, the symbol upper case', function () {
    spec.given([]).when(evaluate(T0, bullish)).then([generated(T0, bullish)]);
  });

  it('a first evaluation generates a signal even when it says HOLD', function () {
    const flat: IndicatorReadings = { ...bullish, sma20: 100, sma50: 100, macd: { macd: 1, signal: 1, histogram: 0 }, ema20: 95 };
    spec.given([]).when(evaluate(T0, flat)).then([generated(T0, flat)]);
  });

  it('a later candle with another type generates a new signal', function () {
    spec.given([generated(T0, bullish)]).when(evaluate(T1, bearish)).then([generated(T1, bearish)]);
  });

  it('a later candle with the same type and verdicts appends nothing, even when the values moved', function () {
    const moved: IndicatorReadings = { ...bullish, price: 101, rsi: 58, sma20: 96 };
    spec.given([generated(T0, bullish)]).when(evaluate(T1, moved)).then([]);
  });

  it('the same type with one indicator changing its verdict is new evidence', function () {
    const rsiOverbought: IndicatorReadings = { ...bullish, rsi: 75 }; // still a BUY, RSI now says SELL
    spec.given([generated(T0, bullish)]).when(evaluate(T1, rsiOverbought)).then([generated(T1, rsiOverbought)]);
  });

  it('an indicator appearing (enough history now) is new evidence', function () {
    const early: IndicatorReadings = { ...bullish, sma50: null };
    spec.given([generated(T0, early)]).when(evaluate(T1, bullish)).then([generated(T1, bullish)]);
  });

  it('the same candle evaluated twice appends once', function () {
    spec.given([generated(T0, bullish)]).when(evaluate(T0, bearish)).then([]);
  });

  it('an older candle than the last evaluated is ignored', function () {
    spec.given([generated(T0, bullish)]).when(evaluate(T_BEFORE, bearish)).then([]);
  });

  it('refuses a candle time that is not a time', function () {
    spec.given([]).when(evaluate('yesterday', bullish)).thenThrows(ValidationError, /candleTime/);
  });

  it('writes schema version 2: the score and formula, and each reason its weight and vote', function () {
    const [event] = signalDecider.decide(evaluate(T0, bullish), signalDecider.initialState());
    expect(signalDecider.schemaVersion).to.equal(2);
    expect(event!.data).to.deep.include({ formula: 'weighted-vote-v2' });
    expect(event!.data.score).to.be.a('number');
    expect(event!.data.reasons.every((r) => typeof r.weight === 'number' && [1, 0, -1].includes(r.vote))).to.equal(true);
  });

  describe('stored version 1 events (before score and formula)', function () {
    it('upcast to version 2 without changing what they said: weights of the table, votes from says, the score, formula v1', function () {
      const v1 = storedV1(T0, bullish);
      const upcast = upcastSignalEvent({ type: v1.type, data: v1.data, schemaVersion: 1 });
      const current = generated(T0, bullish);
      expect(upcast.data).to.deep.equal({ ...current.data, formula: 'weighted-vote-v1' });
      // Version 2 passes through untouched.
      expect(upcastSignalEvent({ type: current.type, data: current.data, schemaVersion: 2 })).to.deep.equal(current);
    });

    it('still decide what is new: the same evidence after a version 1 signal appends nothing, new evidence a version 2 signal', function () {
      const state = fold(signalDecider, [upcastSignalEvent({ ...storedV1(T0, bullish), schemaVersion: 1 })]);
      expect(signalDecider.decide(evaluate(T1, { ...bullish, price: 101 }), state)).to.deep.equal([]);
      expect(signalDecider.decide(evaluate(T1, bearish), state)).to.deep.equal([generated(T1, bearish)]);
    });
  });
});
