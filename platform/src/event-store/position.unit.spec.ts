import { expect } from 'chai';
import { comparePositions, decodePosition, encodePosition, positionSchema, type Position } from './position';

const p = (major: number, minor: number) => encodePosition(major, minor);

describe('positions', function () {
  it('encodes two fixed-width decimal fields, from any integer type', function () {
    expect(encodePosition(1, 2)).to.equal('00000000000000000001-00000000000000000002');
    expect(encodePosition(12345n, '678')).to.equal('00000000000000012345-00000000000000000678');
    expect(encodePosition(0, 0)).to.equal('00000000000000000000-00000000000000000000');
    expect(encodePosition(2n ** 64n - 1n, 0)).to.equal('18446744073709551615-00000000000000000000');
  });

  it('refuses a negative field', function () {
    expect(() => encodePosition(-1, 0)).to.throw(RangeError, 'positions are non-negative');
    expect(() => encodePosition(0, -1n)).to.throw(RangeError, 'positions are non-negative');
  });

  it('decodes what it encoded and nothing else', function () {
    expect(decodePosition(p(7, 9))).to.deep.equal([7n, 9n]);
    expect(decodePosition(encodePosition(2n ** 63n, 2n ** 40n))).to.deep.equal([2n ** 63n, 2n ** 40n]);
    const valid = p(1, 2);
    for (const bad of ['', '1-2', `x${valid}`, `${valid}x`, valid.slice(1), valid.replace('-', '+'), `${valid.slice(0, 20)}-${'a'.repeat(20)}`]) {
      expect(() => decodePosition(bad as Position), bad).to.throw(RangeError, `not a position: ${bad}`);
    }
  });

  it('validates a client-sent position with a message saying where one comes from', function () {
    expect(positionSchema.parse(p(3, 4))).to.equal(p(3, 4));
    const result = positionSchema.safeParse('42');
    expect(result.error?.issues.map((i) => i.message)).to.deep.equal(['must be a position returned by a command']);
  });

  it('orders positions like the log, with undefined before everything', function () {
    expect(comparePositions(p(1, 5), p(1, 5))).to.equal(0);
    expect(comparePositions(undefined, undefined)).to.equal(0);
    expect(comparePositions(p(1, 9), p(2, 1))).to.be.lessThan(0);
    expect(comparePositions(p(2, 1), p(1, 9))).to.be.greaterThan(0);
    expect(comparePositions(p(1, 1), p(1, 2))).to.be.lessThan(0);
    expect(comparePositions(p(9, 0), p(10, 0))).to.be.lessThan(0);
    expect(comparePositions(undefined, p(0, 0))).to.be.lessThan(0);
    expect(comparePositions(p(0, 0), undefined)).to.be.greaterThan(0);
  });
});
