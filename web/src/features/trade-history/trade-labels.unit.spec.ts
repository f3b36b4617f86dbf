/** How a trade's lot reads on Trade History (issue 16): the rule, what is left of a BUY, a SELL's rule. */
import { expect } from 'chai';
import type { Trade } from '@papertrade/domain/trading/read-contracts';
import { lotRuleNote, lotState } from './trade-labels';

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
