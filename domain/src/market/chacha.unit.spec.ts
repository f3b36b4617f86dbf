/**
 * The market's ChaCha block function is ChaCha: at 20 rounds its blocks are OpenSSL's ChaCha20
 * keystream (node:crypto, RFC 8439's layout: a 32-bit block counter and a 96-bit nonce), for the
 * RFC's test key and for random keys, counters and nonces; fewer rounds give other words.
 */
import { expect } from 'chai';
import { createCipheriv, randomBytes } from 'node:crypto';
import { chachaBlock, chachaKeyFromBytes, MARKET_CHACHA_ROUNDS } from './chacha';

function openSslBlock(key: Uint8Array, counter: number, nonce: Uint8Array): Uint32Array {
  const iv = Buffer.alloc(16);
  iv.writeUInt32LE(counter >>> 0, 0);
  Buffer.from(nonce).copy(iv, 4);
  const cipher = createCipheriv('chacha20', key, iv);
  const stream = Buffer.concat([cipher.update(Buffer.alloc(64)), cipher.final()]);
  return Uint32Array.from({ length: 16 }, (_, i) => stream.readUInt32LE(4 * i));
}

function ourBlock(key: Uint8Array, counter: number, nonce: Uint8Array, rounds: number): Uint32Array {
  const out = new Uint32Array(16);
  const n = Buffer.from(nonce);
  chachaBlock(chachaKeyFromBytes(key), counter, n.readUInt32LE(0), n.readUInt32LE(4), n.readUInt32LE(8), rounds, out);
  return out;
}

describe('ChaCha block function', function () {
  it("is RFC 8439's ChaCha20 at 20 rounds: the RFC's block test (section 2.3.2)", function () {
    const key = Uint8Array.from({ length: 32 }, (_, i) => i);
    const nonce = Uint8Array.from([0, 0, 0, 0x09, 0, 0, 0, 0x4a, 0, 0, 0, 0]);
    const ours = ourBlock(key, 1, nonce, 20);
    expect(Array.from(ours)).to.deep.equal(Array.from(openSslBlock(key, 1, nonce)));
    // The RFC's serialized block starts 10 f1 e7 e4 d1 3b 59 15.
    expect(Buffer.from(ours.buffer).subarray(0, 8).toString('hex')).to.equal('10f1e7e4d13b5915');
  });

  it('agrees with OpenSSL for random keys, counters (up to 2^32 - 1) and nonces', function () {
    for (let i = 0; i < 50; i++) {
      const key = randomBytes(32);
      const nonce = randomBytes(12);
      const counter = i === 0 ? 0xffffffff : randomBytes(4).readUInt32LE(0);
      expect(Array.from(ourBlock(key, counter, nonce, 20)), `case ${i}`).to.deep.equal(Array.from(openSslBlock(key, counter, nonce)));
    }
  });

  it('gives other words with the rounds the market uses, and refuses a key of the wrong size', function () {
    const key = randomBytes(32);
    const nonce = randomBytes(12);
    expect(Array.from(ourBlock(key, 7, nonce, MARKET_CHACHA_ROUNDS))).to.not.deep.equal(Array.from(ourBlock(key, 7, nonce, 20)));
    expect(() => chachaKeyFromBytes(new Uint8Array(31))).to.throw(RangeError);
  });
});
