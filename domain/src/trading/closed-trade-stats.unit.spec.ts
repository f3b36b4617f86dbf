/**
 * The closing trades' record Kelly sizing reads (portfolio.ts, countClose): every close counts, a
 * close with a gain is a win, one with a loss a loss, and one that breaks even neither; the amounts won
 * and lost add up in micro-dollars.
 */
import { expect } from 'chai';
import { countClose, emptyClosedTrades } from './portfolio';

describe('closed trade statistics', function () {
  it('count a gain as a win, a loss as a loss, and a close that breaks even as neither', function () {
    const afterWin = countClose(emptyClosedTrades(), 25_000_000);
    expect(afterWin).to.deep.equal({ closes: 1, wins: 1, losses: 0, winMicros: 25_000_000, lossMicros: 0 });
    const afterLoss = countClose(afterWin, -10_000_000);
    expect(afterLoss).to.deep.equal({ closes: 2, wins: 1, losses: 1, winMicros: 25_000_000, lossMicros: 10_000_000 });
    expect(countClose(afterLoss, 0)).to.deep.equal({ closes: 3, wins: 1, losses: 1, winMicros: 25_000_000, lossMicros: 10_000_000 });
  });
});
