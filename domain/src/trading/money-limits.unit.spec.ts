/**
 * The money rules a command meets before it reaches the state (money.ts) and how dollars read in a
 * message (money-text.ts): a price or quantity must be positive and finite, a quantity at most
 * 10,000,000 coins and at least one unit of 1e-8, each refusal a ValidationError naming its field; an
 * amount that rounds to nothing is 0, never -0; under a dollar reads with 4 decimals, zero and a
 * dollar with 2.
 */
import { expect } from 'chai';
import { validationRefusal } from '../shared/validation-refusal.fixtures';
import { MAX_QUANTITY, microsToCents, quantityToUnits, requirePositiveFinite, requireQuantityUnits, usdToMicros } from './money';
import { usdText } from './money-text';

describe('money limits', function () {
  it('refuses a price that is zero, negative, not a number or infinite, naming the field', function () {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '12' as unknown as number]) {
      const error = validationRefusal(() => requirePositiveFinite('price', bad));
      expect(error.message, String(bad)).to.equal(`price must be a positive finite number, got ${String(bad)}`);
      expect(error.extra, String(bad)).to.deep.equal({ field: 'price' });
      expect(error.status).to.equal(400);
    }
    expect(requirePositiveFinite('price', 0.0001)).to.equal(0.0001);
  });

  it('takes a quantity of exactly 10,000,000 coins and refuses one above it, naming the field', function () {
    expect(requireQuantityUnits('amount', MAX_QUANTITY)).to.equal(1_000_000_000_000_000);
    const error = validationRefusal(() => requireQuantityUnits('amount', 10_000_001));
    expect(error.message).to.equal('amount must be at most 10000000, got 10000001');
    expect(error.extra).to.deep.equal({ field: 'amount' });
  });

  it('takes a quantity of one unit (1e-8 coin) and refuses one that rounds to no unit, naming the field', function () {
    expect(requireQuantityUnits('amount', 0.00000001)).to.equal(1);
    expect(requireQuantityUnits('amount', 0.000000006), 'rounds up to one unit').to.equal(1);
    const error = validationRefusal(() => requireQuantityUnits('amount', 0.000000004));
    expect(error.message).to.equal('amount must be at least 1e-8 (8 decimals), got 4e-9');
    expect(error.extra).to.deep.equal({ field: 'amount' });
  });

  it('rounds an amount too small to count to 0, never -0 (a number format writes -0 as "-0.00")', function () {
    // -0.4999 cents, -0.4 micro-dollars, -0.4 units: each rounds to nothing.
    expect(Object.is(microsToCents(-4999), 0), 'cents').to.equal(true);
    expect(Object.is(usdToMicros(-0.0000004), 0), 'micros').to.equal(true);
    expect(Object.is(quantityToUnits(-0.000000004), 0), 'units').to.equal(true);
    expect(microsToCents(-5000), 'half a cent, away from zero').to.equal(-1);
  });

  it('writes dollars with 2 decimals from a dollar up and for zero, and with 4 below a dollar', function () {
    expect(usdText(0)).to.equal('$0.00');
    expect(usdText(1)).to.equal('$1.00');
    expect(usdText(-1)).to.equal('-$1.00');
    expect(usdText(0.999)).to.equal('$0.9990');
    expect(usdText(-0.36)).to.equal('-$0.3600');
    expect(usdText(3455969.86)).to.equal('$3,455,969.86');
  });
});
