import { expect } from 'chai';
import { positionSizeWarning, positionSizeWarningText } from './position-size';

describe('paper-trading: the maximum position size check before a BUY', () => {
  const base = { price: 0.36, heldQuantity: 0, totalValue: 10_000, maxPositionPercent: 7 };

  it('warns when the position after the BUY would be above the maximum, with both figures', () => {
    // 5,750 MATIC at $0.36 = $2,070: 20.7% of $10,000.
    const warning = positionSizeWarning({ ...base, amount: 5750 });
    expect(warning?.percent).to.be.closeTo(20.7, 1e-9);
    expect(warning?.maxPercent).to.equal(7);
    expect(positionSizeWarningText(warning!)).to.equal('This position would be 20.7% of your portfolio; your maximum is 7%');
  });

  it('counts the coins held already', () => {
    // 1,000 held + 1,000 bought at $0.36 = $720: 7.2% > 7%; the 1,000 alone would be 3.6%.
    expect(positionSizeWarning({ ...base, amount: 1000, heldQuantity: 1000 })?.percent).to.be.closeTo(7.2, 1e-9);
    expect(positionSizeWarning({ ...base, amount: 1000 })).to.equal(null);
  });

  it('lets a position at the maximum through, and has nothing to say without a total, a price or an amount', () => {
    expect(positionSizeWarning({ ...base, price: 1, amount: 700 })).to.equal(null);
    expect(positionSizeWarning({ ...base, price: 1, amount: 700.01 })).to.not.equal(null);
    expect(positionSizeWarning({ ...base, amount: 5750, totalValue: 0 })).to.equal(null);
    expect(positionSizeWarning({ ...base, amount: 5750, price: 0 })).to.equal(null);
    expect(positionSizeWarning({ ...base, amount: 0 })).to.equal(null);
  });

  it('writes a fractional maximum as set', () => {
    expect(positionSizeWarningText({ percent: 12.345, maxPercent: 0.5 })).to.equal('This position would be 12.3% of your portfolio; your maximum is 0.5%');
  });
});
