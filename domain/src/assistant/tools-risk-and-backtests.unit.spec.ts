/**
 * The assistant's look-ups of the user's risk and plan (risk profile, risk now, alerts, subscription)
 * and of backtests (the history, and a what-if's two runs): each figure written as Risk Management,
 * the dashboard, Subscription or Backtesting writes it and linked to that screen's read; a stop set in
 * ATR or sigma is stated in its unit, never as a percent; the backtester's fractions are stated as
 * percents. Results are compared whole, with texts worked out by hand from the responses built here.
 */
import { expect } from 'chai';
import type { BacktestFigures, BacktestHistoryItem } from '../backtest/contracts';
import type { SubscriptionResponse } from '../subscription/contracts';
import { DEFAULT_RISK_PROFILE, type RiskProfile } from '../trading/contracts';
import type { RiskParametersResponse, RiskResponse } from '../trading/read-contracts';
import type { Fact } from './contracts';
import { alertsResult, backtestsResult, riskProfileResult, riskStatusResult, subscriptionResult, whatIfResult } from './tools';

const NOW = '2026-03-04T14:05:00.000Z';
const NOW_TEXT = '2026-03-04 14:05 UTC';

const on =
  (source: string, api: string) =>
  (id: string, label: string, value: Fact['value'], unit: Fact['unit'], text: string): Fact => ({ id, label, value, unit, text, source, api });
const parameters = on('/risk-management', 'GET /api/risk/parameters');
const risk = on('/', 'GET /api/risk');
const alerts = on('/risk-management?tab=alerts', 'GET /api/risk/alerts');
const subscriptionScreen = on('/subscription', 'GET /api/subscription');
const history = on('/backtesting', 'GET /api/backtest/history');
const backtester = on('/backtesting', 'the backtester (house signals, paper engine)');

const params = (over: Partial<RiskParametersResponse>): RiskParametersResponse => ({
  maxPositionSize: 5, maxConcurrentTrades: 5, maxDailyLoss: 500, maxDrawdown: 15, stopLossType: 'trailing', stopLossValue: 2.5, takeProfitRatio: 2.5, riskRewardRatio: 2,
  kellyCriterionEnabled: true, dynamicPositionSizing: false, correlationLimit: 0.7, volatilityThreshold: 30, customised: true,
  ...over,
});

const riskNow: RiskResponse = {
  settings: { maxPositionSize: 5, stopLossPercent: 2, takeProfitPercent: 5, stopLoss: 2, takeProfit: 5, dailyLossLimit: 500, enableNotifications: true, autoRetrain: true, stopLossType: 'fixed', stopLossUnit: 'percent' },
  maxPositionSize: 5, stopLossPercent: 2, takeProfitPercent: 5, dailyLossLimit: 500, stopLossType: 'fixed', stopLossUnit: 'percent', dailyPnL: -12.3, dailyLossUsed: 12.3, dailyLossUsedPercent: 2.46,
  portfolioRiskAmount: 108.7, portfolioRiskPercent: 1.06, openPositions: 2,
  drawdown: { peak: 10_400, value: 10_234.56, percent: 1.59, maxDrawdown: 15, entriesPaused: false, reason: null },
};

const subscription = (over: Partial<SubscriptionResponse>): SubscriptionResponse => ({
  tier: 'PREMIUM', subscriptionStatus: 'ACTIVE', isCancelled: true, endsAt: { day: 3, month: 4, year: 2026, formatted: 'April 3, 2026', iso: '2026-04-03T14:05:00.000Z' }, daysRemaining: 30,
  usage: { tradingStrategies: { used: 0, limit: null, tracked: false }, exchanges: { used: 0, limit: null, tracked: false }, apiCalls: { used: 3, limit: null, tracked: true }, trades: { used: 3, limit: null, tracked: true } },
  plan: { id: 'premium', tier: 'PREMIUM', name: 'Premium Pro', priceUsdPerMonth: 29, mostPopular: true, features: [], limits: { tradingStrategies: null, exchanges: null, apiCalls: null } } as unknown as SubscriptionResponse['plan'],
  ...over,
});

const figures = (totalReturn: number, finalBalance: number, totalTrades: number, winRate: number, maxDrawdown: number): BacktestFigures => ({
  totalReturn, winRate, maxDrawdown, totalTrades, finalBalance, sharpeRatio: 0.8,
  performanceMetrics: { winningTrades: Math.round(totalTrades * winRate), losingTrades: totalTrades - Math.round(totalTrades * winRate), averageWin: 42.5, averageLoss: -31.25, profitFactor: 1.2, volatility: 0.31 },
});

describe('assistant tools: risk, plan and backtests', () => {
  it('the risk profile tool states every rule as Risk Management shows it, with the take profit worked out from the stop and the ratio', () => {
    expect(riskProfileResult(params({}))).to.deep.equal({
      customised: true,
      stopLossType: 'trailing',
      maxPositionSize: parameters('risk.maxPositionSize', 'Max position size', 5, 'percent', '5%'),
      stopLossType_: parameters('risk.stopLossType', 'Stop-loss type', 'trailing', 'text', 'trailing'),
      stopLossValue: parameters('risk.stopLossValue', 'Stop-loss value', 2.5, 'percent', '2.5%'),
      takeProfitRatio: parameters('risk.takeProfitRatio', 'Take-profit ratio', 2.5, 'number', '2.5'),
      // 2.5 % x 2.5 = 6.25 %
      takeProfit: parameters('risk.takeProfit', 'Take profit', 6.25, 'percent', '6.25%'),
      riskRewardRatio: parameters('risk.riskRewardRatio', 'Minimum reward/risk', 2, 'number', '2'),
      maxDailyLoss: parameters('risk.maxDailyLoss', 'Daily loss limit', 500, 'usd', '$500.00'),
      maxDrawdown: parameters('risk.maxDrawdown', 'Max drawdown', 15, 'percent', '15%'),
      maxConcurrentTrades: parameters('risk.maxConcurrentTrades', 'Max concurrent trades', 5, 'count', '5'),
      kelly: parameters('risk.kellyCriterionEnabled', 'Kelly sizing', 'on', 'text', 'on'),
      dynamicSizing: parameters('risk.dynamicPositionSizing', 'Dynamic sizing', 'off', 'text', 'off'),
      correlationLimit: parameters('risk.correlationLimit', 'Correlation limit', 0.7, 'number', '0.7'),
      volatilityThreshold: parameters('risk.volatilityThreshold', 'Volatility threshold', 30, 'percent', '30%'),
    });
  });

  it('the take profit is the stop times the ratio, to the cent of a percent', () => {
    // 1.5 % x 1.55 = 2.325 %, stated as 2.33 %
    expect(riskProfileResult(params({ stopLossType: 'fixed', stopLossValue: 1.5, takeProfitRatio: 1.55 })).takeProfit).to.deep.equal(parameters('risk.takeProfit', 'Take profit', 2.33, 'percent', '2.33%'));
  });

  it('a stop set in ATR or sigma is stated in that unit, and so is its target, never as a percent', () => {
    const atr = riskProfileResult(params({ stopLossType: 'atr', stopLossValue: 1.5, takeProfitRatio: 2, kellyCriterionEnabled: false, dynamicPositionSizing: true, customised: false }));
    expect(atr).to.deep.include({ customised: false, stopLossType: 'atr' });
    expect([atr.stopLossType_, atr.stopLossValue, atr.takeProfit, atr.kelly, atr.dynamicSizing]).to.deep.equal([
      parameters('risk.stopLossType', 'Stop-loss type', 'ATR', 'text', 'ATR'),
      parameters('risk.stopLossValue', 'Stop-loss value (times ATR14)', 1.5, 'number', '1.5'),
      parameters('risk.takeProfit', 'Take profit (in the stop\u2019s unit)', 3, 'number', '3'),
      parameters('risk.kellyCriterionEnabled', 'Kelly sizing', 'off', 'text', 'off'),
      parameters('risk.dynamicPositionSizing', 'Dynamic sizing', 'on', 'text', 'on'),
    ]);
    const sigma = riskProfileResult(params({ stopLossType: 'volatility', stopLossValue: 2, takeProfitRatio: 1.5 }));
    expect([sigma.stopLossType_, sigma.stopLossValue, sigma.takeProfit]).to.deep.equal([
      parameters('risk.stopLossType', 'Stop-loss type', 'volatility', 'text', 'volatility'),
      parameters('risk.stopLossValue', 'Stop-loss value (times sigma)', 2, 'number', '2'),
      parameters('risk.takeProfit', 'Take profit (in the stop\u2019s unit)', 3, 'number', '3'),
    ]);
    expect(riskProfileResult(params({ stopLossType: 'fixed' })).stopLossType_.text).to.equal('fixed');
  });

  it("the risk status tool states today's loss against the daily limit, the drawdown from the peak and what the stops would lose, as the dashboard does", () => {
    expect(riskStatusResult(riskNow)).to.deep.equal({
      dailyPnl: risk('risk.dailyPnL', '24h P&L', -12.3, 'usd', '-$12.30'),
      dailyLossUsed: risk('risk.dailyLossUsed', "Today's loss", 12.3, 'usd', '$12.30'),
      dailyLossLimit: risk('risk.dailyLossLimit', 'Daily loss limit', 500, 'usd', '$500.00'),
      dailyLossUsedPercent: risk('risk.dailyLossUsedPercent', 'Daily loss limit used', 2.46, 'percent', '2.46%'),
      drawdown: risk('risk.drawdown.percent', 'Drawdown from the peak', 1.59, 'percent', '1.59%'),
      maxDrawdown: risk('risk.drawdown.maxDrawdown', 'Max drawdown', 15, 'percent', '15%'),
      peak: risk('risk.drawdown.peak', 'Recorded peak', 10_400, 'usd', '$10,400.00'),
      entriesPaused: false,
      pauseReason: null,
      portfolioRisk: risk('risk.portfolioRiskAmount', 'Lost if every stop were hit', 108.7, 'usd', '$108.70'),
      portfolioRiskPercent: risk('risk.portfolioRiskPercent', 'Portfolio at risk', 1.06, 'percent', '1.06%'),
      openPositions: risk('risk.openPositions', 'Open positions', 2, 'count', '2'),
    });
  });

  it('when the drawdown rule pauses entries, the risk status says so and why', () => {
    const reason = 'Drawdown 16.35% is above the maximum 15%';
    const paused = riskStatusResult({ ...riskNow, drawdown: { peak: 10_400, value: 8_700, percent: 16.35, maxDrawdown: 15, entriesPaused: true, reason } });
    expect(paused).to.deep.include({ entriesPaused: true, pauseReason: risk('risk.drawdown.reason', 'Why entries are paused', reason, 'text', reason) });
    expect(paused.drawdown).to.deep.equal(risk('risk.drawdown.percent', 'Drawdown from the peak', 16.35, 'percent', '16.35%'));
  });

  it('the alerts tool lists each alert with its severity, message and time, and counts those not yet acknowledged, linking to the Alerts tab', () => {
    const result = alertsResult({
      unacknowledged: 1,
      alerts: [
        { id: 'a1', kind: 'DAILY_LOSS', severity: 'medium', symbol: null, message: 'Daily loss of $250.00 has reached 50% of the $500.00 limit', value: 250, threshold: 250, acknowledged: false, acknowledgedAt: null, timestamp: NOW, resolved: false, resolvedAt: null, resolution: null },
        { id: 'a2', kind: 'DRAWDOWN', severity: 'high', symbol: null, message: 'Drawdown 16.35% is above the maximum 15%', value: 16.35, threshold: 15, acknowledged: true, acknowledgedAt: NOW, timestamp: '2026-03-03T09:30:00.000Z', resolved: true, resolvedAt: NOW, resolution: null },
      ],
    });
    expect(result).to.deep.equal({
      unacknowledged: alerts('alerts.unacknowledged', 'Unacknowledged alerts', 1, 'count', '1'),
      total: alerts('alerts.total', 'Alerts', 2, 'count', '2'),
      alerts: [
        {
          kind: 'DAILY_LOSS',
          severity: alerts('alert.a1.severity', 'Severity', 'medium', 'text', 'medium'),
          message: alerts('alert.a1.message', 'Alert', 'Daily loss of $250.00 has reached 50% of the $500.00 limit', 'text', 'Daily loss of $250.00 has reached 50% of the $500.00 limit'),
          time: alerts('alert.a1.timestamp', 'Raised', NOW, 'time', NOW_TEXT),
          acknowledged: false,
          resolved: false,
        },
        {
          kind: 'DRAWDOWN',
          severity: alerts('alert.a2.severity', 'Severity', 'high', 'text', 'high'),
          message: alerts('alert.a2.message', 'Alert', 'Drawdown 16.35% is above the maximum 15%', 'text', 'Drawdown 16.35% is above the maximum 15%'),
          time: alerts('alert.a2.timestamp', 'Raised', '2026-03-03T09:30:00.000Z', 'time', '2026-03-03 09:30 UTC'),
          acknowledged: true,
          resolved: true,
        },
      ],
    });
  });

  it('the subscription tool states the plan, its monthly price and, once cancelled, when access ends and the days left', () => {
    expect(subscriptionResult(subscription({}))).to.deep.equal({
      tier: subscriptionScreen('subscription.tier', 'Tier', 'PREMIUM', 'text', 'PREMIUM'),
      status: subscriptionScreen('subscription.status', 'Status', 'ACTIVE', 'text', 'ACTIVE'),
      plan: subscriptionScreen('subscription.plan', 'Plan', 'Premium Pro', 'text', 'Premium Pro'),
      price: subscriptionScreen('subscription.price', 'Price per month', 29, 'usd', '$29.00'),
      cancelled: true,
      endsAt: subscriptionScreen('subscription.endsAt', 'Access ends', '2026-04-03T14:05:00.000Z', 'time', '2026-04-03 14:05 UTC'),
      daysRemaining: subscriptionScreen('subscription.daysRemaining', 'Days remaining', 30, 'count', '30'),
    });
    expect(subscriptionResult(subscription({ isCancelled: false, endsAt: null, daysRemaining: null }))).to.deep.include({ cancelled: false, endsAt: null, daysRemaining: null });
  });

  it('the backtests tool lists the latest runs with strategy, coin, period and status, and once completed the closed trades, win rate and return as percents', () => {
    const items: BacktestHistoryItem[] = [
      { id: 'bt2', configId: 'c2', totalTrades: null, winRate: null, totalReturn: null, status: 'RUNNING', strategyId: 'ma-crossover', symbol: 'BTC', startDate: '2026-02-01T00:00:00.000Z', endDate: '2026-03-01T00:00:00.000Z', initialCapital: 10_000, createdAt: NOW },
      { id: 'bt1', configId: 'c1', totalTrades: 14, winRate: 0.5714, totalReturn: -0.0125, status: 'COMPLETED', strategyId: 'rsi-mean-reversion', symbol: 'ETH', startDate: '2025-09-01T00:00:00.000Z', endDate: '2026-03-01T00:00:00.000Z', initialCapital: 10_000, createdAt: NOW },
    ];
    const names: Record<string, string> = { 'ma-crossover': 'Moving Average Crossover', 'rsi-mean-reversion': 'RSI Mean Reversion' };
    expect(backtestsResult(items, (id) => names[id] ?? id)).to.deep.equal({
      count: history('backtests.count', 'Backtests listed', 2, 'count', '2'),
      backtests: [
        {
          id: 'bt2',
          strategy: history('backtests.bt2.strategy', 'Strategy', 'Moving Average Crossover', 'text', 'Moving Average Crossover'),
          symbol: 'BTC',
          status: history('backtests.bt2.status', 'Status', 'running', 'text', 'running'),
          start: history('backtests.bt2.start', 'Period start', '2026-02-01T00:00:00.000Z', 'time', '2026-02-01 00:00 UTC'),
          end: history('backtests.bt2.end', 'Period end', '2026-03-01T00:00:00.000Z', 'time', '2026-03-01 00:00 UTC'),
          totalTrades: null,
          winRate: null,
          totalReturn: null,
        },
        {
          id: 'bt1',
          strategy: history('backtests.bt1.strategy', 'Strategy', 'RSI Mean Reversion', 'text', 'RSI Mean Reversion'),
          symbol: 'ETH',
          status: history('backtests.bt1.status', 'Status', 'completed', 'text', 'completed'),
          start: history('backtests.bt1.start', 'Period start', '2025-09-01T00:00:00.000Z', 'time', '2025-09-01 00:00 UTC'),
          end: history('backtests.bt1.end', 'Period end', '2026-03-01T00:00:00.000Z', 'time', '2026-03-01 00:00 UTC'),
          totalTrades: history('backtests.bt1.totalTrades', 'Closed trades', 14, 'count', '14'),
          winRate: history('backtests.bt1.winRate', 'Win rate', 57.14, 'percent', '57.1%'),
          totalReturn: history('backtests.bt1.totalReturn', 'Total return', -1.25, 'percent', '-1.25%'),
        },
      ],
    });
    expect(backtestsResult([], (id) => id)).to.deep.equal({ count: history('backtests.count', 'Backtests listed', 0, 'count', '0'), backtests: [] });
  });

  it("a what-if states the period replayed, then each run's settings and figures side by side; a run that closed no trade has no win rate", () => {
    const profile: RiskProfile = { ...DEFAULT_RISK_PROFILE, stopLossType: 'trailing', stopLossValue: 2.5, takeProfitRatio: 2.5, maxPositionSize: 5 };
    const changed: RiskProfile = { ...profile, stopLossType: 'fixed', stopLossValue: 3 };
    const result = whatIfResult({
      symbol: 'ETH', setting: 'stopLoss', value: 3, days: 30, startMs: Date.parse('2026-02-02T14:05:00.000Z'), endMs: Date.parse(NOW), initialCapital: 10_000,
      profile, changedProfile: changed, current: figures(0.0125, 10_125, 14, 0.5, 0.0412), changed: figures(-0.015, 9_850, 0, 0, 0.04),
    });
    expect(result).to.deep.equal({
      symbol: 'ETH',
      setting: 'stopLoss',
      days: backtester('whatIf.days', 'Days replayed', 30, 'count', '30'),
      start: backtester('whatIf.start', 'Period start', '2026-02-02T14:05:00.000Z', 'time', '2026-02-02 14:05 UTC'),
      end: backtester('whatIf.end', 'Period end', NOW, 'time', NOW_TEXT),
      startingCash: backtester('whatIf.startingCash', 'Starting cash', 10_000, 'usd', '$10,000.00'),
      value: backtester('whatIf.value', 'The value asked', 3, 'percent', '3%'),
      current: {
        stopType: backtester('whatIf.current.stopType', 'Stop-loss type', 'trailing', 'text', 'trailing'),
        stopValue: backtester('whatIf.current.stopValue', 'Stop loss', 2.5, 'percent', '2.5%'),
        takeProfit: backtester('whatIf.current.takeProfit', 'Take profit', 6.25, 'percent', '6.25%'),
        maxPositionSize: backtester('whatIf.current.maxPositionSize', 'Max position size', 5, 'percent', '5%'),
        totalReturn: backtester('whatIf.current.totalReturn', 'Total return', 1.25, 'percent', '+1.25%'),
        finalBalance: backtester('whatIf.current.finalBalance', 'Final balance', 10_125, 'usd', '$10,125.00'),
        closedTrades: backtester('whatIf.current.closedTrades', 'Closed trades', 14, 'count', '14'),
        winRate: backtester('whatIf.current.winRate', 'Win rate', 50, 'percent', '50.0%'),
        maxDrawdown: backtester('whatIf.current.maxDrawdown', 'Max drawdown', 4.12, 'percent', '4.12%'),
      },
      changed: {
        stopType: backtester('whatIf.changed.stopType', 'Stop-loss type', 'fixed', 'text', 'fixed'),
        stopValue: backtester('whatIf.changed.stopValue', 'Stop loss', 3, 'percent', '3%'),
        takeProfit: backtester('whatIf.changed.takeProfit', 'Take profit', 7.5, 'percent', '7.5%'),
        maxPositionSize: backtester('whatIf.changed.maxPositionSize', 'Max position size', 5, 'percent', '5%'),
        totalReturn: backtester('whatIf.changed.totalReturn', 'Total return', -1.5, 'percent', '-1.50%'),
        finalBalance: backtester('whatIf.changed.finalBalance', 'Final balance', 9_850, 'usd', '$9,850.00'),
        closedTrades: backtester('whatIf.changed.closedTrades', 'Closed trades', 0, 'count', '0'),
        winRate: null,
        maxDrawdown: backtester('whatIf.changed.maxDrawdown', 'Max drawdown', 4, 'percent', '4.00%'),
      },
    });
  });

  it("a what-if run with an ATR stop states the stop and its target in the stop's unit, not as percents", () => {
    const profile: RiskProfile = { ...DEFAULT_RISK_PROFILE, stopLossType: 'atr', stopLossValue: 1.5, takeProfitRatio: 2 };
    const result = whatIfResult({
      symbol: 'BTC', setting: 'maxPositionSize', value: 10, days: 7, startMs: Date.parse('2026-02-25T14:05:00.000Z'), endMs: Date.parse(NOW), initialCapital: 10_000,
      profile, changedProfile: { ...profile, maxPositionSize: 10 }, current: figures(0, 10_000, 1, 1, 0), changed: figures(0, 10_000, 1, 1, 0),
    });
    expect([result.current.stopType, result.current.stopValue, result.current.takeProfit, result.changed.maxPositionSize]).to.deep.equal([
      backtester('whatIf.current.stopType', 'Stop-loss type', 'ATR', 'text', 'ATR'),
      backtester('whatIf.current.stopValue', 'Stop loss (times the stop\u2019s unit)', 1.5, 'number', '1.5'),
      backtester('whatIf.current.takeProfit', 'Take profit (in the stop\u2019s unit)', 3, 'number', '3'),
      backtester('whatIf.changed.maxPositionSize', 'Max position size', 10, 'percent', '10%'),
    ]);
    expect(result.current.winRate).to.deep.equal(backtester('whatIf.current.winRate', 'Win rate', 100, 'percent', '100.0%'));
  });
});
