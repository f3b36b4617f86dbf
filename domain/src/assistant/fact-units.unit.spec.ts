/**
 * A fact says how its value is written (its unit) as well as the text, so the chat window can tell a
 * dollar amount from a count or a date; a zero price reads as the screens write it; a time the read
 * could not parse is shown as given rather than breaking the answer; only a whole fact counts as one;
 * and a trailing run of commas is punctuation, not part of a number.
 */
import { expect } from 'chai';
import { facts, isFact, numbersIn, priceText, quantityText, screens, timeText } from './facts';
import { explainTerm } from './glossary';

const W = { source: screens.dashboard, api: 'GET /api/portfolio' };

describe('assistant: facts and their units', () => {
  it('each constructor gives the whole fact: id, label, the value as read, its unit, its text and where it is seen', () => {
    const at = { source: '/', api: 'GET /api/portfolio' };
    expect(facts.usd('p.total', 'Total value', 1_234.5, W)).to.deep.equal({ id: 'p.total', label: 'Total value', value: 1_234.5, unit: 'usd', text: '$1,234.50', ...at });
    expect(facts.signedUsd('p.daily', 'P&L today', -3, W)).to.deep.equal({ id: 'p.daily', label: 'P&L today', value: -3, unit: 'usd', text: '-$3.00', ...at });
    expect(facts.price('c.price', 'Price', 0.36123, W)).to.deep.equal({ id: 'c.price', label: 'Price', value: 0.36123, unit: 'price', text: '$0.3612', ...at });
    expect(facts.percent('s.win', 'Win rate', 20.7, W)).to.deep.equal({ id: 's.win', label: 'Win rate', value: 20.7, unit: 'percent', text: '20.70%', ...at });
    expect(facts.percent('m.acc', 'Accuracy', 55.14, W, 1).text).to.equal('55.1%');
    expect(facts.signedPercent('p.pct', 'P&L (%)', 1.234, W)).to.deep.equal({ id: 'p.pct', label: 'P&L (%)', value: 1.234, unit: 'percent', text: '+1.23%', ...at });
    expect(facts.plainPercent('r.stop', 'Stop', 2.5, W)).to.deep.equal({ id: 'r.stop', label: 'Stop', value: 2.5, unit: 'percent', text: '2.5%', ...at });
    expect(facts.quantity('q', 'Quantity', 0.5, 'ETH', W)).to.deep.equal({ id: 'q', label: 'Quantity', value: 0.5, unit: 'quantity', text: '0.5000 ETH', ...at });
    expect(facts.count('n', 'Trades', 1_250, W)).to.deep.equal({ id: 'n', label: 'Trades', value: 1_250, unit: 'count', text: '1,250', ...at });
    expect(facts.number('x', 'Ratio', 2.456, W)).to.deep.equal({ id: 'x', label: 'Ratio', value: 2.456, unit: 'number', text: '2.46', ...at });
    expect(facts.text('v', 'Volume', 'HIGH', W)).to.deep.equal({ id: 'v', label: 'Volume', value: 'HIGH', unit: 'text', text: 'HIGH', ...at });
    expect(facts.time('t', 'Time', '2026-03-04T14:05:00.000Z', W)).to.deep.equal({ id: 't', label: 'Time', value: '2026-03-04T14:05:00.000Z', unit: 'time', text: '2026-03-04 14:05 UTC', ...at });
  });

  it('a zero price or amount reads with the usual decimals, not eight of them', () => {
    expect(priceText(0)).to.equal('$0.00');
    expect(quantityText(0, 'ETH')).to.equal('0.0000 ETH');
  });

  it('a time that is not a date is written as given', () => {
    expect(timeText('not a date')).to.equal('not a date');
    expect(facts.time('t', 'Time', '', W).text).to.equal('');
  });

  it('only a whole fact is a fact: every field present (a null value is a value), nothing else', () => {
    const whole = { id: 'a', label: 'A', value: null, unit: 'usd', text: '$1.00', source: '/', api: 'GET /api/portfolio' };
    expect(isFact(whole)).to.equal(true);
    expect(isFact({ ...whole, id: 1 })).to.equal(false);
    for (const field of ['id', 'text', 'unit', 'source', 'api', 'value'] as const) {
      const { [field]: _left, ...rest } = whole;
      expect(isFact(rest), `without ${field}`).to.equal(false);
    }
    expect(isFact(null)).to.equal(false);
    expect(isFact('$1.00')).to.equal(false);
    expect(isFact(3)).to.equal(false);
  });

  it('a trailing run of commas after a number is punctuation', () => {
    expect(numbersIn('positions: 1,, then 2,,, done')).to.deep.equal(['1', '2']);
  });

  it("a definition's constants keep their units: whole periods are counts, a share is a number", () => {
    expect(explainTerm('kelly').constants.map((f) => [f.id, f.unit, f.text])).to.deep.equal([
      ['term.kelly.closes', 'count', '20'],
      ['term.kelly.half', 'number', '0.5'],
    ]);
    expect(explainTerm('macd').constants.map((f) => [f.id, f.unit])).to.deep.equal([
      ['term.macd.fast', 'count'],
      ['term.macd.slow', 'count'],
      ['term.macd.signal', 'count'],
      ['term.macd.weight', 'count'],
    ]);
  });
});
