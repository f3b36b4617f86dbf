/** How a trade's lot reads on Trade History (issue 16): the rule, what is left of a BUY, a SELL's rule. */
import { expect } from 'chai';
import type { Trade } from '@papertrade/domain/trading/read-contracts';
import { decisionLabel, lotRuleNote, lotState } from './trade-labels';

const buy: Pick<Trade, 'type' | 'status' | 'closeReason' | 'amount' | 'remainingQuantity' | 'soldQuantity' | 'lotRule'> = {
  type: 'BUY',
  status: 'OPEN',
  closeReason: null,
  amount: 0.5,
  remainingQuantity: 0.5,
  soldQuantity: 0,
  lotRule: null,
};
const coins = (n: number) => n.toFixed(4);

describe('trade history: lots', () => {
  it('names the rule sales follow', () => {
    expect(lotRuleNote('FIFO')).to.match(/^Sells are matched to buys first in, first out \(FIFO\)/);
    expect(lotRuleNote('AVERAGE_COST')).to.match(/average cost/);
  });

  it("says what is left of a BUY partly sold, nothing for one untouched, 'sold' or 'reset' once closed", () => {
    expect(lotState(buy, coins)).to.equal(null);
    expect(lotState({ ...buy, remainingQuantity: 0.4, soldQuantity: 0.1 }, coins)).to.equal('0.4000 left of 0.5000');
    expect(lotState({ ...buy, status: 'CLOSED', closeReason: 'STOP_LOSS', remainingQuantity: 0, soldQuantity: 0.5 }, coins)).to.equal('sold');
    expect(lotState({ ...buy, status: 'CLOSED', closeReason: 'RESET', remainingQuantity: 0, soldQuantity: 0 }, coins)).to.equal('reset');
  });

  it('says which rule a SELL followed', () => {
    const sell = { ...buy, type: 'SELL' as const, status: 'CLOSED' as const, closeReason: 'SELL' as const, remainingQuantity: null, soldQuantity: null };
    expect(lotState({ ...sell, lotRule: 'FIFO' }, coins)).to.equal('FIFO');
    expect(lotState({ ...sell, lotRule: 'AVERAGE_COST' }, coins)).to.equal('average cost');
  });
});

describe('trade decisions (issue 17)', () => {
  it('a bot trade shows its rule and the text the bot recorded', () => {
    const decision = { rule: 'FIXED_SIZE' as const, text: 'bought 5.00% of $10,000.00 ...', figures: { sizePercent: 5 } };
    expect(decisionLabel({ type: 'BUY', decision, exits: { kind: 'PROFILE', stopLoss: null, takeProfit: null, stopLossPercent: null, takeProfitPercent: null } })).to.deep.equal({
      rule: 'Fixed size',
      text: 'bought 5.00% of $10,000.00 ...',
    });
  });

  it('a manual BUY shows the exits its person set, or that it has none; other trades nothing', () => {
    expect(decisionLabel({ type: 'BUY', decision: null, exits: { kind: 'MANUAL', stopLoss: 2910, takeProfit: null, stopLossPercent: 3, takeProfitPercent: null } })).to.deep.equal({
      rule: 'Manual',
      text: 'stop loss $2,910.00 (3% below), no take profit',
    });
    expect(decisionLabel({ type: 'BUY', decision: null, exits: { kind: 'NONE', stopLoss: null, takeProfit: null, stopLossPercent: null, takeProfitPercent: null } })).to.deep.equal({ rule: 'Manual', text: 'no automatic exit' });
    expect(decisionLabel({ type: 'SELL', decision: null, exits: null })).to.equal(null);
    expect(decisionLabel({ type: 'BUY', decision: null, exits: null }), 'a BUY stored before plans').to.equal(null);
  });
});
