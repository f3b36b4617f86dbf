/**
 * The impact of an order that is worth nothing, or not a number: none (a fill never pays an impact it
 * cannot measure, nor a negative or unknown one).
 */
import { expect } from 'chai';
import { priceImpact } from './fills';

describe('engine: the impact of an order worth nothing', function () {
  it('is none for an order worth nothing, less than nothing, or an unknown amount', function () {
    for (const notional of [0, -500, Number.NaN]) expect(priceImpact('ethereum', notional, 2e6), String(notional)).to.equal(0);
  });
});
