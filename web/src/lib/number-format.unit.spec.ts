import { expect } from 'chai';
import {
  csvNumber,
  direction,
  formatAxisPrice,
  formatCoinAmount,
  formatCompactUsd,
  formatCount,
  formatEth,
  formatListPrice,
  formatPercent,
  formatPlainPercent,
  formatPrice,
  formatReading,
  formatSignedPercent,
  formatSignedUsd,
  formatUsd,
  MISSING,
  pnlPercentOfTotal,
} from './number-format';

describe('number formats', () => {
  it('shows money in dollars with 2 decimals and thousands separators', () => {
    expect(formatUsd(10000)).to.equal('$10,000.00');
    expect(formatUsd(1234.567)).to.equal('$1,234.57');
    // The toast read "$3455969.86".
    expect(formatUsd(3455969.86)).to.equal('$3,455,969.86');
    expect(formatUsd(-2.5)).to.equal('-$2.50');
  });

  it('shows a price by its magnitude: at least four significant digits and 2 decimals, at most 8 decimals', () => {
    expect(formatPrice(3455.123)).to.equal('$3,455.12');
    expect(formatPrice(67123.456)).to.equal('$67,123.46');
    expect(formatPrice(123.456)).to.equal('$123.46');
    expect(formatPrice(12.3456)).to.equal('$12.35');
    expect(formatPrice(7.12345)).to.equal('$7.123');
    // MATIC's entry, current price, stop and target read $0.36 / $0.35 / $0.38 with cents.
    expect(formatPrice(0.36123)).to.equal('$0.3612');
    expect(formatPrice(0.3528)).to.equal('$0.3528');
    expect(formatPrice(0.36)).to.equal('$0.3600');
    expect(formatPrice(0.00001234)).to.equal('$0.00001234');
    expect(formatPrice(0.000000014)).to.equal('$0.00000001');
    expect(formatPrice(0)).to.equal('$0.00');
  });

  it('writes an axis price with the decimals its tick step needs, up to 8', () => {
    expect(formatAxisPrice(3650, 50)).to.equal('$3,650');
    expect(formatAxisPrice(3650, 10)).to.equal('$3,650');
    expect(formatAxisPrice(101.5, 0.5)).to.equal('$101.5');
    expect(formatAxisPrice(0.455, 0.005)).to.equal('$0.455');
    expect(formatAxisPrice(0.45551, 0.00001)).to.equal('$0.45551');
    expect(formatAxisPrice(0.0000123, 0.0000001)).to.equal('$0.0000123');
    expect(formatAxisPrice(3650, Number.NaN)).to.equal('$3,650.00');
  });

  it('lists a plan price in whole dollars when it has no cents', () => {
    expect(formatListPrice(29)).to.equal('$29');
    expect(formatListPrice(0)).to.equal('$0');
    expect(formatListPrice(29.5)).to.equal('$29.50');
  });

  it('writes volume compactly', () => {
    expect(formatCompactUsd(645_430_000)).to.equal('$645.43M');
    expect(formatCompactUsd(1_234)).to.equal('$1.23K');
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

  it('writes percentages with 2 decimals unless told otherwise', () => {
    expect(formatPercent(20.7)).to.equal('20.70%');
    expect(formatPercent(74.25, 1)).to.equal('74.3%');
    expect(formatPercent(-3)).to.equal('-3.00%');
    expect(formatPercent(1234.5)).to.equal('1,234.50%');
  });

  it('writes a percentage someone set as set', () => {
    expect(formatPlainPercent(7)).to.equal('7%');
    expect(formatPlainPercent(0.5)).to.equal('0.5%');
    expect(formatPlainPercent(12.25)).to.equal('12.25%');
  });

  it('shows ETH and other coin amounts to 4 decimals, more for an amount 4 decimals would hide', () => {
    expect(formatEth(1.23456)).to.equal('1.2346 ETH');
    expect(formatEth(0)).to.equal('0.0000 ETH');
    expect(formatCoinAmount(0.01, 'ETH')).to.equal('0.0100 ETH');
    expect(formatCoinAmount(5000, 'MATIC')).to.equal('5,000.0000 MATIC');
    // The spec's 4 decimals (0.09554 ETH reads 0.0955 ETH), more only where 4 would read 0.0000.
    expect(formatCoinAmount(0.0123456, 'BTC')).to.equal('0.0123 BTC');
    expect(formatCoinAmount(0.09554, 'ETH')).to.equal('0.0955 ETH');
    expect(formatCoinAmount(0.00005, 'BTC')).to.equal('0.0001 BTC');
    expect(formatCoinAmount(0.00001234, 'BTC')).to.equal('0.00001234 BTC');
    expect(formatCoinAmount(0.00000001, 'BTC')).to.equal('0.00000001 BTC');
    expect(formatCoinAmount(1.5)).to.equal('1.5000');
  });

  it('writes an indicator reading with four significant digits, so a small MACD is not 0', () => {
    expect(formatReading(54.3219)).to.equal('54.32');
    expect(formatReading(70)).to.equal('70');
    expect(formatReading(-0.0012346)).to.equal('-0.001235');
    expect(formatReading(3455.129)).to.equal('3,455.13');
  });

  it('counts with thousands separators', () => {
    expect(formatCount(12345)).to.equal('12,345');
  });

  it('never invents a number for a missing value', () => {
    for (const format of [formatUsd, formatSignedUsd, formatSignedPercent, formatEth, formatPrice, formatPercent, formatReading, formatCount, formatCompactUsd, formatListPrice, formatPlainPercent]) {
      expect(format(null)).to.equal(MISSING);
      expect(format(undefined)).to.equal(MISSING);
      expect(format(Number.NaN)).to.equal(MISSING);
    }
    expect(formatCoinAmount(null, 'ETH')).to.equal(MISSING);
  });

  it('keeps a CSV cell a plain machine-readable number: every digit, no separators, no exponent', () => {
    expect(csvNumber(0.3612345678901)).to.equal(0.3612345678901);
    expect(csvNumber(3455969.86)).to.equal(3455969.86);
    // Negative numbers stay numbers (a text cell starting with '-' would be quoted as a formula).
    expect(csvNumber(-12.34)).to.equal(-12.34);
    expect(csvNumber(0.00000001)).to.equal('0.00000001');
    expect(csvNumber(0.000000123)).to.equal('0.000000123');
    expect(csvNumber(null)).to.equal(null);
    expect(csvNumber(Number.NaN)).to.equal(null);
  });

  it('tells up from down', () => {
    expect(direction(3)).to.equal('up');
    expect(direction(-3)).to.equal('down');
    expect(direction(0)).to.equal('flat');
    expect(direction(null)).to.equal('flat');
  });
});
