/**
 * Two things the risk screens show in words, at the edges no other spec reached: the risk stream's
 * refusals of a malformed alert or bot refusal (the risk monitor and the bot are its only callers,
 * but a bad record must never reach an event: 400 with the field), and the Active Trades tab's rule
 * column for a manual plan without a stop or a target and for a volatility stop.
 */
import { expect } from 'chai';
import { validationRefusal } from '../shared/validation-refusal.fixtures';
import { DEFAULT_RISK_PROFILE } from './contracts';
import { riskDecider, type RaiseRiskAlert, type RecordBotRefusal } from './risk.decider';
import { stopRuleText } from './stop-levels';

const NOW = '2026-03-04T05:06:07.000Z';
const alert = (data: Partial<Record<keyof RaiseRiskAlert['data'], unknown>>): RaiseRiskAlert => ({
  type: 'RaiseRiskAlert',
  data: { userId: 'u1', alertId: 'a1', conditionKey: 'c1', kind: 'DRAWDOWN', severity: 'high', symbol: null, message: 'Drawdown 12%', value: 12, threshold: 10, ...data } as RaiseRiskAlert['data'],
  metadata: { now: NOW },
});
const refusal = (data: Partial<Record<keyof RecordBotRefusal['data'], unknown>>): RecordBotRefusal => ({
  type: 'RecordBotRefusal',
  data: { userId: 'u1', signalId: 's1', signalEventId: 'e1', symbol: 'ETH', signalType: 'BUY', candleTime: NOW, decision: { rule: 'FIXED_SIZE', text: 'refused', figures: {} }, ...data } as RecordBotRefusal['data'],
  metadata: { now: NOW },
});
describe('risk stream refusals and the rule column', function () {
  it("an alert's symbol is a coin's or null; anything else is refused naming the field", function () {
    const state = riskDecider.initialState();
    expect(riskDecider.decide(alert({ symbol: 'ETH' }), state)[0]!.data).to.include({ symbol: 'ETH' });
    expect(riskDecider.decide(alert({ symbol: null }), state)[0]!.data).to.include({ symbol: null });
    const error = validationRefusal(() => riskDecider.decide(alert({ symbol: 42 }), state));
    expect([error.message, error.extra]).to.deep.equal(['symbol must be a string or null', { field: 'symbol' }]);
  });

  it("a bot refusal: its decision is the contract's, its signal type BUY, SELL or ARBITRAGE", function () {
    const state = riskDecider.initialState();
    expect(riskDecider.decide(refusal({ signalType: 'ARBITRAGE' }), state)[0]!.data).to.include({ signalType: 'ARBITRAGE', refusedAt: NOW });
    const type = validationRefusal(() => riskDecider.decide(refusal({ signalType: 'HOLD' }), state));
    expect([type.message, type.extra]).to.deep.equal(['signalType must be one of BUY, SELL, ARBITRAGE', { field: 'signalType' }]);
    const decision = validationRefusal(() => riskDecider.decide(refusal({ decision: { rule: 'FIXED_SIZE', text: 'x' } }), state));
    expect(decision.message).to.match(/^decision is not a bot decision: Invalid input: expected record, received undefined$/);
    expect(decision.extra).to.deep.equal({ field: 'decision' });
  });

  it('the rule column: a manual plan without a stop or a target says so; a volatility stop names sigma in percent, or unknown', function () {
    const manual = (stopLossPercent: number | null, takeProfitPercent: number | null) =>
      stopRuleText({ kind: 'MANUAL', stopLoss: null, takeProfit: null, stopLossPercent, takeProfitPercent }, DEFAULT_RISK_PROFILE, 100, 100, Number.NaN, Number.NaN);
    expect(manual(null, 10)).to.equal('Manual: no stop, target 10% above');
    expect(manual(3, null)).to.equal('Manual: stop 3% below entry, no target');
    const volatility = { ...DEFAULT_RISK_PROFILE, stopLossType: 'volatility' as const, stopLossValue: 2, takeProfitRatio: 2.5 };
    expect(stopRuleText({ kind: 'PROFILE', atr: null, sigma: null }, volatility, 100, 100, Number.NaN, 0.0125)).to.equal("Volatility: 2 x sigma 1.250% below entry, target 2.5 x the stop's distance");
    expect(stopRuleText({ kind: 'PROFILE', atr: null, sigma: null }, volatility, 100, 100, Number.NaN, Number.NaN)).to.equal("Volatility: 2 x sigma (unknown) below entry, target 2.5 x the stop's distance");
    const atr = { ...volatility, stopLossType: 'atr' as const };
    expect(stopRuleText({ kind: 'PROFILE', atr: null, sigma: null }, atr, 100, 100, 1.5, Number.NaN)).to.equal("ATR: 2 x ATR14 $1.50 below entry, target 2.5 x the stop's distance");
    expect(stopRuleText({ kind: 'PROFILE', atr: null, sigma: null }, atr, 100, 100, Number.NaN, Number.NaN)).to.equal("ATR: 2 x ATR14 (unknown) below entry, target 2.5 x the stop's distance");
  });
});
