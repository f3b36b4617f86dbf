/**
 * The signal decider as given/when/then: a first signal, a new one only when the evidence changes
 * (type, or any indicator's verdict), nothing for the same candle twice or an older candle.
 */
import { specFor } from '../shared/decider-specification';
import { ValidationError } from '../shared/errors';
import type { SignalEvent } from './signal';
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
  return { type: 'SignalGenerated', data: { signalId, symbol: 'ETH', type: verdict.type, confidence: verdict.confidence, price: readings.price, candleTime, reasons: verdict.reasons } };
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
});
