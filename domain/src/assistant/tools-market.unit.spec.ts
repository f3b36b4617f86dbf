/**
 * The assistant's look-ups of the market and the model (a coin's latest signal, its indicators, its
 * price, the AI model's measured accuracy): each figure written as the dashboard writes it and linked
 * to the dashboard's read, and each reading (oversold, bullish, above the average) the one the
 * dashboard's thresholds give, including at the thresholds themselves. Results are compared whole,
 * with texts worked out by hand from the responses built here.
 */
import { expect } from 'chai';
import type { IndicatorsResponse, Signal } from '../signals/contracts';
import type { MlStatusResponse } from '../ml/contracts';
import type { Fact } from './contracts';
import { indicatorsResult, modelResult, priceResult, signalResult } from './tools';

const NOW = '2026-03-04T14:05:00.000Z';
const NOW_TEXT = '2026-03-04 14:05 UTC';

const on =
  (source: string, api: string) =>
  (id: string, label: string, value: Fact['value'], unit: Fact['unit'], text: string): Fact => ({ id, label, value, unit, text, source, api });
const signals = on('/', 'GET /api/signals');
const indicators = on('/', 'GET /api/indicators');
const prices = on('/', 'GET /api/price');
const ml = on('/', 'GET /api/ml-status');

const signal: Signal = {
  id: 's1', signalId: 's1', symbol: 'ETH', type: 'BUY', description: 'x', confidence: 67, score: 0.5, formula: 'weighted-vote-v2', mixed: true, weights: { buy: 5, sell: 1.5, hold: 2, total: 8.5 }, price: 3100.5, timestamp: NOW, candleTime: NOW,
  reasons: [
    { indicator: 'RSI', value: 28.1, threshold: 30, says: 'BUY', vote: 1, weight: 2, text: 'RSI 28.1 is below 30: oversold' },
    { indicator: 'MACD', value: -0.4, threshold: 0, says: 'SELL', vote: -1, weight: 1.5, text: 'MACD is below its signal line' },
  ],
};

const btc: IndicatorsResponse = {
  coinId: 'bitcoin', symbol: 'BTC', interval: '5m', intervalMinutes: 5, candleTime: NOW, price: 61_234.5, rsi: 71.234, macd: 12.3456, macdSignal: 10.1, macdHistogram: 2.2456,
  ma20: 61_000, sma20: 61_000, sma50: 60_500.25, ema20: 61_100.1, volume: 'HIGH',
};
const eth = (over: Partial<IndicatorsResponse>): IndicatorsResponse => ({
  coinId: 'ethereum', symbol: 'ETH', interval: '5m', intervalMinutes: 5, candleTime: NOW, price: 3000, rsi: 50, macd: 0.0123, macdSignal: -0.5, macdHistogram: 0.5123,
  ma20: 3000, sma20: 3000, sma50: 2950, ema20: 2990, volume: 'NORMAL',
  ...over,
});

const houseModel: MlStatusResponse = {
  modelType: 'neural_network', modelName: 'Neural Network', trainingDataDays: 30, accuracy: 50.8, baseline: 50.4, interval: { low: 48.9, high: 52.7 }, verdict: 'no edge', testSamples: 2500, lastTraining: NOW,
  owner: 'house', status: 'READY', training: null, lastFailure: null, lastJobId: 'j1', symbol: 'ETH', candleMinutes: 5, dataAsOf: NOW,
};

describe('assistant tools: the market and the model', () => {
  it("the signal tool states a coin's latest signal, its confidence, price and time, and each indicator's vote with its weight, beside the counts, linking to the dashboard", () => {
    expect(signalResult('ETH', signal, { total: 1250, buy: 10, sell: 12, hold: 18 })).to.deep.equal({
      symbol: 'ETH',
      signal: {
        type: signals('signal.ETH.type', 'ETH signal', 'BUY', 'text', 'BUY'),
        confidence: signals('signal.ETH.confidence', 'ETH signal confidence', 67, 'percent', '67%'),
        price: signals('signal.ETH.price', 'ETH price at the signal', 3100.5, 'price', '$3,100.50'),
        time: signals('signal.ETH.timestamp', 'ETH signal time', NOW, 'time', NOW_TEXT),
        mixed: true,
        reasons: [
          signals('signal.ETH.reason.RSI', 'RSI says BUY (weight 2)', 'RSI 28.1 is below 30: oversold', 'text', 'RSI 28.1 is below 30: oversold'),
          signals('signal.ETH.reason.MACD', 'MACD says SELL (weight 1.5)', 'MACD is below its signal line', 'text', 'MACD is below its signal line'),
        ],
      },
      counts: {
        total: signals('signals.ETH.total', 'ETH signals generated', 1250, 'count', '1,250'),
        buy: signals('signals.ETH.buy', 'ETH BUY signals', 10, 'count', '10'),
        sell: signals('signals.ETH.sell', 'ETH SELL signals', 12, 'count', '12'),
        hold: signals('signals.ETH.hold', 'ETH HOLD signals', 18, 'count', '18'),
      },
    });
  });

  it('a coin without a signal yet has none, and its counts are still stated', () => {
    expect(signalResult('SOL', null, { total: 0, buy: 0, sell: 0, hold: 0 })).to.deep.equal({
      symbol: 'SOL',
      signal: null,
      counts: {
        total: signals('signals.SOL.total', 'SOL signals generated', 0, 'count', '0'),
        buy: signals('signals.SOL.buy', 'SOL BUY signals', 0, 'count', '0'),
        sell: signals('signals.SOL.sell', 'SOL SELL signals', 0, 'count', '0'),
        hold: signals('signals.SOL.hold', 'SOL HOLD signals', 0, 'count', '0'),
      },
    });
  });

  it("the indicators tool states a coin's readings on the candle they are of, as the dashboard writes them, with RSI's thresholds and each reading's verdict", () => {
    expect(indicatorsResult(btc)).to.deep.equal({
      symbol: 'BTC',
      price: indicators('indicators.BTC.price', 'BTC close of the candle', 61_234.5, 'price', '$61,234.50'),
      candleTime: indicators('indicators.BTC.candleTime', 'Candle', NOW, 'time', NOW_TEXT),
      interval: indicators('indicators.BTC.intervalMinutes', 'Candle width (minutes)', 5, 'count', '5'),
      rsi: indicators('indicators.BTC.rsi', 'BTC RSI', 71.234, 'number', '71.23'),
      rsiReading: 'Overbought',
      rsiOversold: indicators('indicators.BTC.rsiOversold', 'RSI oversold below', 30, 'count', '30'),
      rsiOverbought: indicators('indicators.BTC.rsiOverbought', 'RSI overbought above', 70, 'count', '70'),
      macd: indicators('indicators.BTC.macd', 'BTC MACD', 12.3456, 'number', '12.35'),
      macdSignal: indicators('indicators.BTC.macdSignal', 'BTC MACD signal line', 10.1, 'number', '10.1'),
      macdReading: 'Bullish',
      sma20: indicators('indicators.BTC.sma20', 'BTC SMA20', 61_000, 'price', '$61,000.00'),
      sma50: indicators('indicators.BTC.sma50', 'BTC SMA50', 60_500.25, 'price', '$60,500.25'),
      ema20: indicators('indicators.BTC.ema20', 'BTC EMA20', 61_100.1, 'price', '$61,100.10'),
      ma20Reading: 'Above MA',
      volume: indicators('indicators.BTC.volume', 'BTC volume level', 'HIGH', 'text', 'HIGH'),
    });
  });

  it('a MACD under one dollar keeps four decimals so it does not read as zero', () => {
    const r = indicatorsResult(eth({ macd: 0.0123, macdSignal: -0.5 }));
    expect([r.macd, r.macdSignal]).to.deep.equal([
      indicators('indicators.ETH.macd', 'ETH MACD', 0.0123, 'number', '0.0123'),
      indicators('indicators.ETH.macdSignal', 'ETH MACD signal line', -0.5, 'number', '-0.5'),
    ]);
    expect(indicatorsResult(eth({ macd: -1.23456 })).macd?.text).to.equal('-1.23');
  });

  it('RSI reads oversold below 30, overbought above 70, and neutral from 30 to 70 inclusive', () => {
    const reading = (rsi: number | null) => indicatorsResult(eth({ rsi })).rsiReading;
    expect([29.99, 30, 50, 70, 70.01, null].map(reading)).to.deep.equal(['Oversold', 'Neutral', 'Neutral', 'Neutral', 'Overbought', null]);
  });

  it('MACD reads bullish above its signal line, bearish below it, flat on it, and nothing when either is missing', () => {
    const reading = (macd: number | null, macdSignal: number | null) => indicatorsResult(eth({ macd, macdSignal })).macdReading;
    expect([reading(0.2, 0.1), reading(0.1, 0.2), reading(0.1, 0.1), reading(null, 0.1), reading(0.1, null), reading(null, null)]).to.deep.equal(['Bullish', 'Bearish', 'Flat', null, null, null]);
  });

  it('the price reads above its 20-candle average only when strictly above it', () => {
    const reading = (price: number, ma20: number | null) => indicatorsResult(eth({ price, ma20 })).ma20Reading;
    expect([reading(3001, 3000), reading(3000, 3000), reading(2999, 3000), reading(3000, null)]).to.deep.equal(['Above MA', 'Below MA', 'Below MA', null]);
  });

  it('a reading not computed yet (too few candles) is left out rather than stated as a number', () => {
    const r = indicatorsResult(eth({ rsi: null, macd: null, macdSignal: null, macdHistogram: null, ma20: null, sma20: null, sma50: null, ema20: null, volume: null }));
    expect(r).to.deep.include({ rsi: null, rsiReading: null, macd: null, macdSignal: null, macdReading: null, sma20: null, sma50: null, ema20: null, ma20Reading: null, volume: null });
    expect(r.price).to.deep.equal(indicators('indicators.ETH.price', 'ETH close of the candle', 3000, 'price', '$3,000.00'));
  });

  it("the price tool states a coin's price and its signed 24-hour change as of a time; without a day of history, no change", () => {
    expect(priceResult({ coinId: 'bitcoin', symbol: 'BTC', price: 61_234.5, changePercent24h: -1.234, at: NOW })).to.deep.equal({
      symbol: 'BTC',
      price: prices('price.BTC.price', 'BTC price', 61_234.5, 'price', '$61,234.50'),
      change24h: prices('price.BTC.changePercent24h', 'BTC 24h change', -1.234, 'percent', '-1.23%'),
      at: prices('price.BTC.at', 'As of', NOW, 'time', NOW_TEXT),
    });
    expect(priceResult({ coinId: 'polygon', symbol: 'MATIC', price: 0.36123, changePercent24h: null, at: NOW })).to.deep.equal({
      symbol: 'MATIC',
      price: prices('price.MATIC.price', 'MATIC price', 0.36123, 'price', '$0.3612'),
      change24h: null,
      at: prices('price.MATIC.at', 'As of', NOW, 'time', NOW_TEXT),
    });
  });

  it('the model tool states whose model it is, its held-out accuracy beside the baseline with the 95% interval, and the verdict', () => {
    expect(modelResult(houseModel)).to.deep.equal({
      status: 'READY',
      owner: ml('ml.owner', 'Whose model', 'the house model', 'text', 'the house model'),
      model: ml('ml.modelName', 'Model', 'Neural Network', 'text', 'Neural Network'),
      trainingDays: ml('ml.trainingDataDays', 'Training days', 30, 'count', '30'),
      accuracy: ml('ml.accuracy', 'Held-out accuracy', 50.8, 'percent', '50.8%'),
      baseline: ml('ml.baseline', 'Majority baseline', 50.4, 'percent', '50.4%'),
      intervalLow: ml('ml.interval.low', '95% interval, low', 48.9, 'percent', '48.9%'),
      intervalHigh: ml('ml.interval.high', '95% interval, high', 52.7, 'percent', '52.7%'),
      intervalLevel: ml('ml.interval.level', 'Interval confidence level', 95, 'percent', '95%'),
      verdict: ml('ml.verdict', 'Verdict', 'no edge', 'text', 'no edge'),
      testSamples: ml('ml.testSamples', 'Held-out candles', 2500, 'count', '2,500'),
      lastTraining: ml('ml.lastTraining', 'Last training', NOW, 'time', NOW_TEXT),
      training: null,
    });
  });

  it("a user's own model in its first training has no figures yet, only its place in the queue and whether it runs", () => {
    const training = (status: 'QUEUED' | 'RUNNING', queuePosition: number): MlStatusResponse => ({
      ...houseModel, owner: 'own', status: 'TRAINING', accuracy: null, baseline: null, interval: null, verdict: null, testSamples: null, lastTraining: null,
      training: { jobId: 'j2', status, queuePosition, requestedAt: NOW, modelType: 'neural_network', trainingDays: 30 },
    });
    const queued = modelResult(training('QUEUED', 3));
    expect(queued).to.deep.include({ status: 'TRAINING', accuracy: null, baseline: null, intervalLow: null, intervalHigh: null, verdict: null, testSamples: null, lastTraining: null });
    expect(queued.owner).to.deep.equal(ml('ml.owner', 'Whose model', 'your own model', 'text', 'your own model'));
    expect(queued.training).to.deep.equal({ queuePosition: ml('ml.training.queuePosition', 'Place in the queue', 3, 'count', '3'), running: false });
    expect(modelResult(training('RUNNING', 0)).training).to.deep.equal({ queuePosition: ml('ml.training.queuePosition', 'Place in the queue', 0, 'count', '0'), running: true });
  });
});
