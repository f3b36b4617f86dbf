/** How a trade's lot reads on Trade History (issue 16): the rule, what is left of a BUY, a SELL's rule. */
import { expect } from 'chai';
import type { Trade } from '@papertrade/domain/trading/read-contracts';
import { arbitrageLegLabel, decisionLabel, executionLabel, lotRuleNote, lotState, signalSource } from './trade-labels';

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

describe('what a fill met (issue 17)', () => {
  const execution = { mid: 3000, halfSpread: 0.00005, impact: 0.0000020033, filledAt: '2026-03-04T05:06:05.000Z', intendedAt: null, delayMs: null, level: null };

  it('the mid, the half spread and the impact in basis points', () => {
    expect(executionLabel({ execution })).to.equal('mid $3,000.00 · spread 0.5 bp · impact 0.02 bp');
    expect(executionLabel({ execution: { ...execution, halfSpread: 0.0003, impact: 0.00000001 } })).to.equal('mid $3,000.00 · spread 3 bp · impact <0.01 bp');
  });

  it('a bot order that filled late says by how much; one on time says nothing more', () => {
    expect(executionLabel({ execution: { ...execution, intendedAt: '2026-03-04T05:05:05.000Z', delayMs: 0 } })).to.equal('mid $3,000.00 · spread 0.5 bp · impact 0.02 bp');
    expect(executionLabel({ execution: { ...execution, intendedAt: '2026-03-04T05:04:40.000Z', delayMs: 85_000 } })).to.equal('mid $3,000.00 · spread 0.5 bp · impact 0.02 bp · +1 min 25 s late');
    expect(executionLabel({ execution: { ...execution, delayMs: 5000 } })).to.match(/· \+5 s late$/);
  });

  it('a stop loss or take profit close names the level its tick crossed; a fill before issue 17 has no line', () => {
    expect(executionLabel({ execution: { ...execution, mid: 2930, level: 2940 } })).to.equal('mid $2,930.00 · spread 0.5 bp · impact 0.02 bp · level $2,940.00');
    expect(executionLabel({ execution: null })).to.equal(null);
  });
});

describe('trade history: strategy trades and arbitrage pairs (issue 19)', () => {
  it("the Signal Source names the user strategy as the server labels it; a house signal keeps its type, a blank one reads Manual", () => {
    expect(signalSource({ source: 'RSI Mean Reversion strategy' })).to.equal('RSI Mean Reversion strategy');
    expect(signalSource({ source: 'Cross-Exchange Arbitrage strategy' })).to.equal('Cross-Exchange Arbitrage strategy');
    expect(signalSource({ source: 'BUY signal' })).to.equal('BUY signal');
    expect(signalSource({ source: ' ' })).to.equal('Manual');
  });

  it("an arbitrage leg says where it traded and which pair; other trades nothing", () => {
    const pairId = '1a2b3c4d-0000-5000-8000-000000000000';
    expect(arbitrageLegLabel({ type: 'BUY', pairId, exchange: 'binance' })).to.equal('Bought on Binance · pair 1a2b3c4d');
    expect(arbitrageLegLabel({ type: 'SELL', pairId, exchange: 'coinbase' })).to.equal('Sold on Coinbase Pro · pair 1a2b3c4d');
    expect(arbitrageLegLabel({ type: 'BUY', pairId: null, exchange: null })).to.equal(null);
  });

  it("a pair's SELL leg took its own BUY's lot", () => {
    const sell = { ...buy, type: 'SELL' as const, status: 'CLOSED' as const, closeReason: 'SELL' as const, remainingQuantity: null, soldQuantity: null };
    expect(lotState({ ...sell, lotRule: 'PAIR' }, coins)).to.equal("its pair's BUY");
  });
});
