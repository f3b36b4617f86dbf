/**
 * isFact is a type guard on any value (collectFacts walks a tool's result with it, and it is exported
 * for any reader of one): a value that is not an object is no fact, and asking never throws.
 */
import { expect } from 'chai';
import { isFact } from './facts';

describe('assistant facts: the fact guard on values that are not objects', function () {
  it('answers false for nothing, null, a text, a number and a boolean, without throwing', function () {
    for (const value of [undefined, null, 'price', 42, true]) expect(isFact(value), String(value)).to.equal(false);
  });
});
