/** The strategy signal stream: position-aware rules per type, round trips on exits, one signal per candle. */
import { expect } from 'chai';
import { specFor } from '../shared/decider-specification';
import { defaultConfiguration } from './strategy-catalogue';
import { strategySignalDecider, type EvaluateStrategy, type StrategyInputs, type StrategySignalEvent } from './strategy-signals';

const spec = specFor(strategySignalDecider);
const tech = defaultConfiguration('technical');
const neural = defaultConfiguration('neural');
const T1 = '2026-03-04T10:00:00.000Z';
const T2 = '2026-03-04T10:05:00.000Z';
const evaluate = (inputs: StrategyInputs, candleTime = T1): EvaluateStrategy => ({
  type: 'EvaluateStrategy',
  data: { signalId: `s-${candleTime}`, configId: 'c1', configKey: 'k', symbol: 'ETH', candleTime, inputs },
});
const technical = (rsi: number, previousRsi: number, close: number): StrategyInputs => ({ strategyType: 'technical', configuration: tech, rsi, previousRsi, close });
const bought = (price: number, candleTime = T1): StrategySignalEvent => ({
  type: 'StrategySignalGenerated',
  data: { signalId: `s-${candleTime}`, configId: 'c1', configKey: 'k', strategyType: 'technical', symbol: 'ETH', type: 'BUY', price, confidence: 75, candleTime, reasons: [], trade: null, arbitrage: null },
});
const eventsOf = (command: EvaluateStrategy, given: StrategySignalEvent[] = []) => strategySignalDecider.decide(command, given.reduce(strategySignalDecider.evolve, strategySignalDecider.initialState()));

describe('strategy signals', function () {
  it('technical: flat, RSI entering oversold (below 100 - rsiOverbought) buys with the reason', function () {
    const [event] = eventsOf(evaluate(technical(25, 31, 2000)));
    expect(event!.data.type).to.equal('BUY');
    expect(event!.data.reasons[0]).to.equal('RSI(14) 25.0 entered oversold (below 30.0)');
    expect(event!.data.trade).to.equal(null);
  });

  it('technical: RSI already oversold the candle before, or not oversold, trades nothing', function () {
    spec.given([]).when(evaluate(technical(25, 28, 2000))).then([]);
    spec.given([]).when(evaluate(technical(45, 50, 2000))).then([]);
  });

  it('technical: long, the stop loss sells with the round trip (gross and after the fee both ways)', function () {
    const [event] = eventsOf(evaluate(technical(40, 41, 1960), T2), [bought(2000)]);
    expect(event!.data.type).to.equal('SELL');
    expect(event!.data.reasons[0]).to.match(/^Stop loss: close 1960.00 is 2.00% below the entry 2000.00/);
    expect(event!.data.trade).to.deep.equal({ entryPrice: 2000, entryTime: T1, exitPrice: 1960, exitTime: T2, grossReturn: -2, netReturn: -2.1958 });
  });

  it('technical: long, the take profit and RSI entering overbought sell; between them nothing', function () {
    expect(eventsOf(evaluate(technical(60, 61, 2080), T2), [bought(2000)])[0]!.data.reasons[0]).to.match(/^Take profit/);
    expect(eventsOf(evaluate(technical(72, 69, 2010), T2), [bought(2000)])[0]!.data.reasons[0]).to.equal('RSI(14) 72.0 entered overbought (above 70.0)');
    spec.given([bought(2000)]).when(evaluate(technical(60, 61, 2010), T2)).then([]);
    // Long already: an oversold entry does not buy twice.
    spec.given([bought(2000)]).when(evaluate(technical(25, 31, 1990), T2)).then([]);
  });

  it('a candle at or before the last signal appends nothing (replays, racing engines)', function () {
    spec.given([bought(2000, T2)]).when(evaluate(technical(72, 69, 2010), T1)).then([]);
    spec.given([bought(2000, T2)]).when(evaluate(technical(72, 69, 2010), T2)).then([]);
  });

  it('neural: buys when P(up) reaches the threshold, sells when long and P(down) does', function () {
    const inputs = (p: number): StrategyInputs => ({ strategyType: 'neural', configuration: neural, probabilityUp: p, close: 2000, model: 'House model 1a2b3c4d' });
    expect(eventsOf(evaluate(inputs(0.6)))[0]!.data.type).to.equal('BUY');
    spec.given([]).when(evaluate(inputs(0.59))).then([]);
    spec.given([]).when(evaluate(inputs(0.2))).then([]);
    const [sell] = eventsOf(evaluate(inputs(0.35), T2), [bought(1900)]);
    expect(sell!.data.type).to.equal('SELL');
    expect(sell!.data.confidence).to.equal(65);
    expect(sell!.data.reasons[0]).to.equal('House model 1a2b3c4d gives a down candle 65.0% (threshold 60.0%)');
  });

  it('arbitrage: trades only when the spread net of both exchanges\' fees exceeds minSpread', function () {
    const config = { ...defaultConfiguration('arbitrage'), minSpread: 0.5 };
    // Kraken 1 % above Binance: net of 0.1 % + 0.26 % about 0.63 %.
    const quotes = [{ exchange: 'binance' as const, price: 2000, basis: 0 }, { exchange: 'coinbase' as const, price: 2005, basis: 0 }, { exchange: 'kraken' as const, price: 2020, basis: 0 }];
    const [event] = eventsOf(evaluate({ strategyType: 'arbitrage', configuration: config, quotes, close: 2000 }));
    expect(event!.data.arbitrage).to.include({ buyExchange: 'binance', sellExchange: 'kraken', sizeUsd: 1000, referencePrice: 2000 });
    expect(event!.data.arbitrage!.netSpread).to.be.closeTo(((2020 * 0.9974) / (2000 * 1.001) - 1) * 100, 1e-3);
    expect(event!.data.trade!.netReturn).to.equal(event!.data.arbitrage!.netSpread);
    spec.given([]).when(evaluate({ strategyType: 'arbitrage', configuration: { ...config, minSpread: 0.7 }, quotes, close: 2000 })).then([]);
    // A 0.5 % gross spread between Binance and Coinbase Pro is less than their 0.6 % of fees.
    const thin = [quotes[0]!, { ...quotes[1]!, price: 2010 }, { ...quotes[2]!, price: 2000 }];
    spec.given([]).when(evaluate({ strategyType: 'arbitrage', configuration: { ...config, minSpread: 0 }, quotes: thin, close: 2000 })).then([]);
  });
});
