import { expect } from 'chai';
import { boundsOf, fieldsOf, typeOf } from './schema-summary';

describe('API reference: JSON Schema in a few words', () => {
  it('types: enums, unions, arrays, formats', () => {
    expect(typeOf({ type: 'string', enum: ['BUY', 'SELL'] })).to.equal('"BUY" | "SELL"');
    expect(typeOf({ anyOf: [{ type: 'string' }, { type: 'null' }] })).to.equal('string | null');
    expect(typeOf({ type: 'array', items: { type: 'integer' } })).to.equal('array of integer');
    expect(typeOf({ type: 'string', format: 'date-time' })).to.equal('string (date-time)');
    expect(typeOf({})).to.equal('any');
  });

  it('bounds: exclusive and inclusive limits, whole numbers, lengths, defaults', () => {
    expect(boundsOf({ type: 'number', exclusiveMinimum: 0, maximum: 10 })).to.deep.equal(['> 0', '≤ 10']);
    expect(boundsOf({ type: 'integer', minimum: 1, maximum: 100, default: 20 })).to.deep.equal(['≥ 1', '≤ 100', 'whole number', 'default 20']);
    expect(boundsOf({ type: 'string', minLength: 6, maxLength: 256 })).to.deep.equal(['at least 6 characters', 'at most 256 characters']);
  });

  it('fields of an object, required marked; none for other schemas', () => {
    const fields = fieldsOf({ type: 'object', properties: { amount: { type: 'number', description: 'Coins' }, symbol: { type: 'string' } }, required: ['amount'] });
    expect(fields).to.deep.equal([
      { name: 'amount', type: 'number', required: true, bounds: [], description: 'Coins' },
      { name: 'symbol', type: 'string', required: false, bounds: [] },
    ]);
    expect(fieldsOf({ type: 'string' })).to.deep.equal([]);
    expect(fieldsOf(undefined)).to.deep.equal([]);
  });
});
