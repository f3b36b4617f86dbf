/**
 * The portfolio's remembered trade ids (idempotency, portfolio.ts): asked along a chain of states, the
 * ids are counted and the counts handed on; every answer is the array's own `includes`, past the
 * memory's 500 (ids dropped), with an id remembered twice, and for an array asked about again after its
 * counts moved on.
 */
import { expect } from 'chai';
import { rememberTradeId, remembersTradeId, TRADE_ID_MEMORY } from './portfolio';

describe('remembered trade ids', function () {
  it('answer as the array does along a chain of 1,300 trades, a repeated id and the dropped ones included', function () {
    let ids: string[] = [];
    const states: string[][] = [];
    const repeated: string[] = [];
    for (let n = 0; n < 1300; n++) {
      // Every 97th trade repeats an id still remembered (a stream written before the memory checked it).
      const id = n % 97 === 96 ? ids[ids.length - 10]! : `t-${n}`;
      if (n % 97 === 96) repeated.push(id);
      for (const asked of [`t-${n}`, `t-${n - 1}`, `t-${n - TRADE_ID_MEMORY}`, `t-${n - TRADE_ID_MEMORY + 1}`, `t-${n - 600}`, 'never', ...repeated]) {
        expect(remembersTradeId(ids, asked), `${asked} after ${n}`).to.equal(ids.includes(asked));
      }
      states.push(ids);
      ids = rememberTradeId(ids, id);
      expect(ids.length).to.be.at.most(TRADE_ID_MEMORY);
    }
    // Older arrays (their counts handed on) and a branch from one of them still answer as themselves.
    for (const old of [states[700]!, states[1100]!, states[1299]!]) {
      for (const asked of ['t-650', 't-1000', 't-1200', 'never']) expect(remembersTradeId(old, asked), asked).to.equal(old.includes(asked));
      const branch = rememberTradeId(old, 'branch');
      expect(remembersTradeId(branch, 'branch')).to.equal(true);
      expect(remembersTradeId(branch, old[0]!)).to.equal(branch.includes(old[0]!));
    }
  });
});
