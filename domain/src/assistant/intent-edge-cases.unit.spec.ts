/**
 * The questions at the edges of intent recognition (intents.ts): text as phones and keyboards type
 * it (curly apostrophes, stray spaces), the coin a question names first when it names several, a
 * follow-up that keeps the previous question's intent only when it is a coin question and only from
 * the latest one, the side a purchase names, what counts as asking for a prediction, a refusal of the
 * bot's (not any word of refusal), and a greeting that opens a longer message.
 */
import { expect } from 'chai';
import { findCoin, normalise, recognise } from './intents';

const intentOf = (question: string) => recognise(question).intent;

describe('assistant: intent recognition at its edges', () => {
  it('reads text as typed: curly apostrophes are apostrophes, runs of spaces are one, leading and trailing spaces do not count', () => {
    expect(normalise('  What\u2019s   my\tP&L?  ')).to.equal("what's my p&l?");
    expect(intentOf('   hi   ')).to.equal('greeting');
    expect(intentOf('Why didn\u2019t the bot buy SOL?')).to.equal('bot_refusals');
    expect(recognise('what  if my stop loss were 3%')).to.deep.include({ intent: 'what_if', whatIf: { setting: 'stopLoss', value: 3, days: null } });
  });

  it('the coin named first in the question is the one meant, a symbol in capitals among them', () => {
    expect(findCoin('ETH or SOL?')).to.equal('ETH');
    expect(findCoin('solana or bitcoin?')).to.equal('SOL');
    expect(findCoin('LINK or ETH, which is up?')).to.equal('LINK');
    expect(findCoin('ETH or LINK?')).to.equal('ETH');
  });

  it("a question with its own intent keeps it, whatever was asked before; a follow-up takes the latest question's intent", () => {
    const signalBefore = [{ role: 'user' as const, content: 'signal for ETH' }];
    expect(recognise('What is the RSI of BTC?', signalBefore)).to.deep.equal({ intent: 'indicators', symbol: 'BTC', term: 'rsi', side: null });
    expect(recognise('what is the price of BTC?', signalBefore)).to.deep.equal({ intent: 'price', symbol: 'BTC', term: null, side: null });
    expect(recognise('Tell me a joke', signalBefore)).to.deep.equal({ intent: 'unknown', symbol: null, term: null, side: null });
    const history = [
      { role: 'user' as const, content: 'signal for BTC' },
      { role: 'assistant' as const, content: 'The latest BTC signal is ...' },
      { role: 'user' as const, content: 'What is the RSI of BTC?' },
      { role: 'assistant' as const, content: 'On the 5-minute candle ...' },
    ];
    expect(recognise('and ETH?', history)).to.deep.equal({ intent: 'indicators', symbol: 'ETH', term: null, side: null });
    expect(recognise('and ETH?', [...history, { role: 'user', content: 'how is my portfolio' }])).to.deep.equal({ intent: 'price', symbol: 'ETH', term: null, side: null });
  });

  it('a purchase is the BUY side, in any of its forms', () => {
    expect(recognise('which coins have I purchased?').side).to.equal('BUY');
    expect(recognise('show my last purchase').side).to.equal('BUY');
  });

  it('a prediction is a question about the future of a price or a coin; the future of my plan is not one', () => {
    expect(intentOf('what will ETH do tomorrow?')).to.equal('prediction');
    expect(intentOf('is the price going to rise?')).to.equal('prediction');
    expect(intentOf('will my subscription renew next month?')).to.equal('subscription');
  });

  it("a term asked about in the model's context is still explained; only the model's own verdict is the model's data", () => {
    expect(recognise('what is walk-forward analysis for the model?')).to.deep.include({ intent: 'explain', term: 'walk_forward' });
    expect(intentOf('what is the verdict of the model')).to.equal('model');
  });

  it("a refusal is the bot's: why a buy did not happen, or a signal refused or rejected; a refusal word alone is not", () => {
    expect(intentOf("why didn't I buy SOL?")).to.equal('bot_refusals');
    expect(intentOf('which signals were refused?')).to.equal('bot_refusals');
    expect(intentOf('were any signals rejected?')).to.equal('bot_refusals');
    expect(intentOf('was the signal rejected?')).to.equal('bot_refusals');
    expect(intentOf('Why is my drawdown not zero?')).to.equal('risk_status');
    expect(intentOf('was my order rejected?')).to.equal('recent_trades');
  });

  it('a price needs a coin; my balance or cash is the portfolio', () => {
    expect(intentOf('what is the price of solana')).to.equal('price');
    expect(intentOf('What is my balance')).to.equal('portfolio');
    expect(intentOf('how much cash do I have')).to.equal('portfolio');
  });

  it('a message that opens with a greeting is a greeting; one with "hi" further in is not', () => {
    expect(recognise('hello, how is the weather over there')).to.deep.equal({ intent: 'greeting', symbol: null, term: null, side: null });
    expect(intentOf('say hi to the team')).to.equal('unknown');
  });
});
