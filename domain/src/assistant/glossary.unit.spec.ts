/**
 * The assistant's definitions: each states only figures that are the product's own constants (passed
 * as facts, so the grounding rule holds for explanations too), the constants are the ones the rules
 * use, and every term is found by its own name.
 */
import { expect } from 'chai';
import { MACD_PERIODS } from '../market/indicators/macd';
import { RSI_PERIOD } from '../market/indicators/rsi';
import { RSI_OVERBOUGHT, RSI_OVERSOLD } from '../signals/signal-rules';
import { KELLY_MIN_CLOSES } from '../trading/entry-rules';
import { numbersIn } from './facts';
import { explainTerm, glossaryTerms, termNames } from './glossary';
import { findTerm } from './intents';

const constant = (term: (typeof glossaryTerms)[number], name: string) => explainTerm(term).constants.find((f) => f.id === `term.${term}.${name}`);

describe('assistant: the glossary', () => {
  it('every explanation states no number but its constants (each a fact)', () => {
    for (const term of glossaryTerms) {
      const { text, constants } = explainTerm(term);
      const known = new Set(constants.flatMap((f) => numbersIn(f.text)));
      for (const n of numbersIn(text)) expect(known.has(n), `${term}: "${n}" in "${text}"`).to.equal(true);
      expect(text.length, term).to.be.greaterThan(80);
    }
  });

  it("the constants are the rules' own: RSI Wilder 14 with 30/70, MACD 12/26/9, half Kelly from 20 closes, Sharpe over 365 days", () => {
    expect(constant('rsi', 'period')?.value).to.equal(RSI_PERIOD).and.equal(14);
    expect([constant('rsi', 'oversold')?.value, constant('rsi', 'overbought')?.value]).to.deep.equal([RSI_OVERSOLD, RSI_OVERBOUGHT]);
    expect([constant('macd', 'fast')?.value, constant('macd', 'slow')?.value, constant('macd', 'signal')?.value]).to.deep.equal([MACD_PERIODS.fast, MACD_PERIODS.slow, MACD_PERIODS.signal]);
    expect(explainTerm('macd').text).to.contain('12-candle').and.contain('26-candle').and.contain('9-candle');
    expect(constant('kelly', 'closes')?.value).to.equal(KELLY_MIN_CLOSES);
    expect(constant('kelly', 'half')?.text).to.equal('0.5');
    expect(explainTerm('sharpe').text).to.contain('365 days');
    expect(explainTerm('drawdown').text).to.contain('0.25%');
    expect(explainTerm('paper_trading').text).to.contain('$10,000.00').and.contain('0.1%');
  });

  it('says what each stop-loss type does as stop-levels.ts implements it', () => {
    const stops = explainTerm('stop_loss').text;
    expect(stops).to.contain('fixed sits v percent below the entry price');
    expect(stops).to.contain('trailing sits v percent below the highest price since the entry');
    expect(stops).to.contain('atr sits v times the coin\u2019s ATR14'.replace('\u2019', "'"));
    expect(stops).to.contain('volatility sits v times sigma');
    expect(stops).to.contain('the stop is taken as hit first');
    expect(explainTerm('take_profit').text).to.contain("take-profit ratio times the initial stop's distance");
    expect(explainTerm('profit_factor').text).to.contain('gross profit over the gross loss');
    expect(explainTerm('walk_forward').text).to.contain('the next window that the choice never saw');
  });

  it('every term is found by each of its names', () => {
    for (const { name, term } of termNames) {
      const found = findTerm(`what is ${name}?`);
      // A name may contain a longer term's name only if it is that term (e.g. 'trailing stop loss').
      expect(found, name).to.equal(term);
    }
  });
});
