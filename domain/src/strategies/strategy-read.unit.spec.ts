/** Cards and performance from the read models: periods bound the paper trades, the source is stated. */
import { expect } from 'chai';
import { strategyCard, roundTripsIn, strategyPerformance, signalResponse, NOT_ENOUGH_TRADES } from './strategy-read';
import { configKey, defaultConfiguration, strategyIdOfType, strategyInfo } from './strategy-catalogue';
import type { StrategySignalView, StrategyView } from './strategy-view';

const key = configKey('technical', defaultConfiguration('technical'));
const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1) + minutes * 60_000).toISOString();
const sell = (entryMin: number, exitMin: number, netReturn: number, strategyKey = key): StrategySignalView => ({
  signalId: `s${exitMin}`, configId: 'c', configKey: strategyKey, strategyKey, strategyType: 'technical', symbol: 'ETH', type: 'SELL', price: 1, confidence: 60,
  candleTime: at(exitMin), candleTimeMs: Date.parse(at(exitMin)), closedAtMs: Date.parse(at(exitMin + 5)), reasons: ['why'], hasTrade: true, arbitrage: null,
  trade: { entryPrice: 1, entryTime: at(entryMin), exitPrice: 1, exitTime: at(exitMin), grossReturn: netReturn + 0.2, netReturn },
});

describe('strategy read', function () {
  it('paper round trips count only inside an activation period with that configuration, by their candles\' closes (entry included)', function () {
    const periods = [{ configKey: key, fromMs: Date.parse(at(100)), toMs: Date.parse(at(200)) }];
    // Candles open at the minutes given and close 5 minutes later: the one opened at 96 closed after the activation at 100.
    const signals = [sell(90, 110, 1), sell(105, 120, 2), sell(150, 196, 3), sell(130, 140, 4, 'other'), sell(160, 170, -1), sell(96, 150, 5)];
    expect(roundTripsIn(periods, signals).map((t) => t.netReturn)).to.deep.equal([2, 5, -1]);
  });

  it('a never-configured strategy reads its defaults, inactive, figures null with "not enough trades"', function () {
    const card = strategyCard(strategyInfo('rsi-technical'), null, [], null);
    expect(card).to.include({ active: false, figuresSource: 'none', sampleSize: 0, figuresNote: NOT_ENOUGH_TRADES, winRate: null });
    expect(card.configuration).to.deep.equal({ rsiPeriod: 14, rsiOverbought: 70, stopLoss: 2, takeProfit: 4 });
    expect(card.bounds['rsiPeriod']).to.deep.equal({ min: 2, max: 100, integer: true });
  });

  it('under 20 paper trades the latest backtest with more is measured instead, and says so', function () {
    const paper = Array.from({ length: 3 }, (_, i) => sell(i, i + 1, 1).trade!);
    const backtest = Array.from({ length: 25 }, (_, i) => sell(i, i + 1, i % 2 ? 1 : -0.5).trade!);
    const view: StrategyView = { userId: 'u', strategyId: 'rsi-technical', strategyType: 'technical', active: true, configuration: null, configKey: null, activatedAt: at(0), periods: [], updatedAt: at(0) };
    const card = strategyCard(strategyInfo('rsi-technical'), view, paper, backtest);
    expect(card).to.include({ figuresSource: 'backtest', sampleSize: 25, figuresNote: null, winRate: 48 });
    expect(strategyCard(strategyInfo('rsi-technical'), view, paper, null)).to.include({ figuresSource: 'paper', sampleSize: 3, winRate: null });
    expect(strategyPerformance(paper, null).performance.map((p) => p.cumulativeReturn)).to.deep.equal([1, 2.01, 3.03]);
  });

  it('a strategy signal as the API sends it: the reasons joined as its description, the net return of the trade it closed or null; each type names its strategy', function () {
    const s = { signalId: 's1', configId: 'c', configKey: 'k', strategyType: 'technical', symbol: 'ETH', type: 'SELL', price: 3100, confidence: 64, candleTime: '2026-03-04T05:00:00.000Z', reasons: ['RSI 72 > 70', 'above the band'], trade: null, arbitrage: null, strategyKey: 'k', candleTimeMs: 0, closedAtMs: 0, hasTrade: false } as unknown as StrategySignalView;
    expect(signalResponse('rsi-technical', s)).to.deep.equal({ id: 's1', strategyId: 'rsi-technical', strategyName: strategyInfo('rsi-technical').name, symbol: 'ETH', type: 'SELL', description: 'RSI 72 > 70; above the band', reasons: ['RSI 72 > 70', 'above the band'], price: 3100, confidence: 64, candleTime: '2026-03-04T05:00:00.000Z', netReturn: null });
    const traded = { ...s, trade: { entryPrice: 3000, entryTime: 'a', exitPrice: 3100, exitTime: 'b', grossReturn: 0.0333, netReturn: 0.0313 } } as StrategySignalView;
    expect(signalResponse('rsi-technical', traded).netReturn).to.equal(0.0313);
    expect([strategyIdOfType('technical'), strategyIdOfType('neural'), strategyIdOfType('arbitrage')]).to.deep.equal(['rsi-technical', 'neural-network', 'cross-exchange-arbitrage']);
  });
});
