/**
 * Facts are written the way the web app writes the same figure (web/src/lib/number-format.ts's
 * examples), so a figure in an answer reads as it does on the screen it links to; and the numbers a
 * text holds are found as written.
 */
import { expect } from 'chai';
import { collectFacts, facts, numbersIn, percentText, plainPercentText, priceText, quantityText, signedPercentText, signedUsdText, timeText, usdText } from './facts';

describe('assistant: facts', () => {
  it('money, prices, amounts and percentages as the screens write them', () => {
    expect(usdText(3_455_969.86)).to.equal('$3,455,969.86');
    expect(usdText(-2.5)).to.equal('-$2.50');
    expect([signedUsdText(12.34), signedUsdText(-12.34), signedUsdText(0), signedUsdText(-0.001)]).to.deep.equal(['+$12.34', '-$12.34', '$0.00', '$0.00']);
    expect([priceText(3455.12), priceText(12.345), priceText(7.1234), priceText(0.36123), priceText(0.0000123449)]).to.deep.equal(['$3,455.12', '$12.35', '$7.123', '$0.3612', '$0.00001234']);
    expect([quantityText(0.5, 'ETH'), quantityText(0.0000123449, 'BTC'), quantityText(1234.5, 'ADA')]).to.deep.equal(['0.5000 ETH', '0.00001234 BTC', '1,234.5000 ADA']);
    expect([percentText(20.7), percentText(74.34, 1), signedPercentText(1.234), signedPercentText(-0.5), signedPercentText(0.001)]).to.deep.equal(['20.70%', '74.3%', '+1.23%', '-0.50%', '0.00%']);
    expect([plainPercentText(7), plainPercentText(0.5), plainPercentText(12.25)]).to.deep.equal(['7%', '0.5%', '12.25%']);
    expect(timeText('2026-03-04T14:05:59.123Z')).to.equal('2026-03-04 14:05 UTC');
  });

  it('finds the numbers of a text as written; digits ending a name (SMA20) are part of the name', () => {
    expect(numbersIn('worth $10,234.56: +2.35% on 2026-03-04, 1 position')).to.deep.equal(['10,234.56', '2.35', '2026', '03', '04', '1']);
    expect(numbersIn('SMA20 above EMA20, ATR14, trader42')).to.deep.equal([]);
    expect(numbersIn('12-candle and 26-candle; 9, then')).to.deep.equal(['12', '26', '9']);
  });

  it('collects every fact of a result once, in order, at any depth', () => {
    const where = { source: '/', api: 'GET /api/portfolio' };
    const a = facts.usd('a', 'A', 1, where);
    const b = facts.count('b', 'B', 2, where);
    expect(collectFacts({ a, list: [{ b }, { again: a }], note: 'text', n: 3 })).to.deep.equal([a, b]);
  });
});
