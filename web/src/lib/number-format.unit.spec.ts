import { expect } from 'chai';
import { direction, formatEth, formatSignedPercent, formatSignedUsd, formatUsd, MISSING, pnlPercentOfTotal } from './number-format';

describe('number formats', () => {
  it('shows dollars with 2 decimals and grouping', () => {
    expect(formatUsd(10000)).to.equal('$10,000.00');
    expect(formatUsd(1234.567)).to.equal('$1,234.57');
  });

  it('signs the P&L in dollars', () => {
    expect(formatSignedUsd(12.345)).to.equal('+$12.35');
    expect(formatSignedUsd(-1500)).to.equal('-$1,500.00');
    expect(formatSignedUsd(0)).to.equal('$0.00');
    expect(formatSignedUsd(-0.001)).to.equal('$0.00');
  });

  it('gives the P&L as a percentage of the total value, 0.00% when the total is 0', () => {
    expect(formatSignedPercent(pnlPercentOfTotal(50, 10000))).to.equal('+0.50%');
    expect(formatSignedPercent(pnlPercentOfTotal(-250, 10000))).to.equal('-2.50%');
    expect(formatSignedPercent(pnlPercentOfTotal(25, 0))).to.equal('0.00%');
  });

  it('shows ETH to 4 decimals', () => {
    expect(formatEth(1.23456)).to.equal('1.2346 ETH');
    expect(formatEth(0)).to.equal('0.0000 ETH');
  });

  it('never invents a number for a missing value', () => {
    for (const format of [formatUsd, formatSignedUsd, formatSignedPercent, formatEth]) {
      expect(format(null)).to.equal(MISSING);
      expect(format(undefined)).to.equal(MISSING);
      expect(format(Number.NaN)).to.equal(MISSING);
    }
  });

  it('tells up from down', () => {
    expect(direction(3)).to.equal('up');
    expect(direction(-3)).to.equal('down');
    expect(direction(0)).to.equal('flat');
    expect(direction(null)).to.equal('flat');
  });
});
