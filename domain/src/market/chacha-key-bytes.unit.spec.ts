/** A ChaCha key from bytes: refused unless 32 bytes long, and the error says how many were given. */
import { expect } from 'chai';
import { chachaKeyFromBytes } from './chacha';

describe('ChaCha key from bytes', function () {
  it('says how many bytes it got when they are not 32', function () {
    expect(() => chachaKeyFromBytes(new Uint8Array(31))).to.throw(RangeError, 'a ChaCha key is 32 bytes, got 31');
    expect(() => chachaKeyFromBytes(new Uint8Array(33))).to.throw(RangeError, 'got 33');
  });

  it('reads the 32 bytes as eight little-endian words', function () {
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => i);
    const key = chachaKeyFromBytes(bytes);
    expect(key).to.have.length(8);
    expect(key[0]).to.equal(0x03020100);
    expect(key[7]).to.equal(0x1f1e1d1c);
  });
});
