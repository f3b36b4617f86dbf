import { expect } from 'chai';
import { calculatePositionSize, calculateStopLoss } from './risk-calculator';

describe('risk calculators (local, no calls)', () => {
  it('sizes a position so that the stop loses exactly the risked share of the account', () => {
    const result = calculatePositionSize({ accountBalance: 10_000, riskPercent: 2, entryPrice: 2_000, stopLossPrice: 1_960 });
    expect(result.ok).to.equal(true);
    if (!result.ok) return;
    expect(result.value.riskAmount).to.equal(200);
    expect(result.value.quantity).to.equal(5);
    expect(result.value.positionValue).to.equal(10_000);
    expect(result.value.percentOfAccount).to.equal(100);
    // A stop above the entry (a short) sizes the same on the distance.
    const short = calculatePositionSize({ accountBalance: 10_000, riskPercent: 1, entryPrice: 100, stopLossPrice: 104 });
    expect(short.ok && short.value.quantity).to.equal(25);
  });

  it('refuses input that would show NaN or Infinity', () => {
    const base = { accountBalance: 10_000, riskPercent: 2, entryPrice: 2_000, stopLossPrice: 1_960 };
    expect(calculatePositionSize({ ...base, stopLossPrice: 2_000 })).to.deep.equal({ ok: false, error: 'Stop loss must differ from the entry price' });
    expect(calculatePositionSize({ ...base, accountBalance: 0 }).ok).to.equal(false);
    expect(calculatePositionSize({ ...base, riskPercent: Number.NaN }).ok).to.equal(false);
    expect(calculatePositionSize({ ...base, riskPercent: 101 }).ok).to.equal(false);
    expect(calculatePositionSize({ ...base, entryPrice: -1 }).ok).to.equal(false);
  });

  it('puts a long stop below the entry and its target at ratio x the risk above', () => {
    const result = calculateStopLoss({ entryPrice: 2_000, stopLossPercent: 2, riskRewardRatio: 2, side: 'long' });
    expect(result).to.deep.equal({ ok: true, value: { stopLossPrice: 1_960, takeProfitPrice: 2_080, riskPerUnit: 40, rewardPerUnit: 80 } });
  });

  it('mirrors the levels for a short, and refuses a target at or below 0', () => {
    const result = calculateStopLoss({ entryPrice: 100, stopLossPercent: 5, riskRewardRatio: 3, side: 'short' });
    expect(result).to.deep.equal({ ok: true, value: { stopLossPrice: 105, takeProfitPrice: 85, riskPerUnit: 5, rewardPerUnit: 15 } });
    expect(calculateStopLoss({ entryPrice: 100, stopLossPercent: 50, riskRewardRatio: 2, side: 'short' }).ok).to.equal(false);
    expect(calculateStopLoss({ entryPrice: 100, stopLossPercent: 100, riskRewardRatio: 2, side: 'long' }).ok).to.equal(false);
  });
});
