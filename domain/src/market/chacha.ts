/**
 * The ChaCha block function (RFC 8439, section 2.3), written out here as the simulated market's
 * counter-based random number generator: block(key, counter, nonce) is 16 words that look random to
 * anyone without the 256-bit key, and any block can be computed on its own, so the market needs no
 * sequential state to regenerate any minute of any coin.
 *
 * Why a cipher and not a fast integer hash: the market is public to watch, and its key must stay
 * secret even from someone who records every price it ever served. With a non-cryptographic mix the
 * key could be recovered from enough outputs (the mixers are invertible bijections), and then every
 * future price follows. ChaCha with 8 rounds has no known attack better than trying keys; 20 rounds
 * (the RFC's) costs 2.5 times as much for a margin the market does not need. The spec checks the
 * 20-round output against OpenSSL's ChaCha20 (node:crypto), so the function is ChaCha, and the
 * market calls it with MARKET_CHACHA_ROUNDS.
 *
 * Allocation-free: the caller passes the output array, which is overwritten.
 */

/** The rounds the market uses (four double rounds). */
export const MARKET_CHACHA_ROUNDS = 8;

/** A 256-bit key as eight 32-bit words (little-endian words of the key bytes, as RFC 8439 reads them). */
export type ChaChaKey = Uint32Array;

const C0 = 0x61707865; // "expa"
const C1 = 0x3320646e; // "nd 3"
const C2 = 0x79622d32; // "2-by"
const C3 = 0x6b206574; // "te k"

/**
 * Writes the block for (key, counter, nonce0..2) into out[at .. at + 15]. `rounds` is even (two
 * rounds a loop: a column round and a diagonal round).
 */
export function chachaBlock(key: ChaChaKey, counter: number, nonce0: number, nonce1: number, nonce2: number, rounds: number, out: Uint32Array, at = 0): void {
  const k0 = key[0]! | 0;
  const k1 = key[1]! | 0;
  const k2 = key[2]! | 0;
  const k3 = key[3]! | 0;
  const k4 = key[4]! | 0;
  const k5 = key[5]! | 0;
  const k6 = key[6]! | 0;
  const k7 = key[7]! | 0;
  const n12 = counter | 0;
  const n13 = nonce0 | 0;
  const n14 = nonce1 | 0;
  const n15 = nonce2 | 0;
  let x0 = C0;
  let x1 = C1;
  let x2 = C2;
  let x3 = C3;
  let x4 = k0;
  let x5 = k1;
  let x6 = k2;
  let x7 = k3;
  let x8 = k4;
  let x9 = k5;
  let x10 = k6;
  let x11 = k7;
  let x12 = n12;
  let x13 = n13;
  let x14 = n14;
  let x15 = n15;
  let t: number;
  for (let r = 0; r < rounds; r += 2) {
    // Column round: quarter rounds on (0,4,8,12) (1,5,9,13) (2,6,10,14) (3,7,11,15).
    x0 = (x0 + x4) | 0; t = x12 ^ x0; x12 = (t << 16) | (t >>> 16);
    x8 = (x8 + x12) | 0; t = x4 ^ x8; x4 = (t << 12) | (t >>> 20);
    x0 = (x0 + x4) | 0; t = x12 ^ x0; x12 = (t << 8) | (t >>> 24);
    x8 = (x8 + x12) | 0; t = x4 ^ x8; x4 = (t << 7) | (t >>> 25);
    x1 = (x1 + x5) | 0; t = x13 ^ x1; x13 = (t << 16) | (t >>> 16);
    x9 = (x9 + x13) | 0; t = x5 ^ x9; x5 = (t << 12) | (t >>> 20);
    x1 = (x1 + x5) | 0; t = x13 ^ x1; x13 = (t << 8) | (t >>> 24);
    x9 = (x9 + x13) | 0; t = x5 ^ x9; x5 = (t << 7) | (t >>> 25);
    x2 = (x2 + x6) | 0; t = x14 ^ x2; x14 = (t << 16) | (t >>> 16);
    x10 = (x10 + x14) | 0; t = x6 ^ x10; x6 = (t << 12) | (t >>> 20);
    x2 = (x2 + x6) | 0; t = x14 ^ x2; x14 = (t << 8) | (t >>> 24);
    x10 = (x10 + x14) | 0; t = x6 ^ x10; x6 = (t << 7) | (t >>> 25);
    x3 = (x3 + x7) | 0; t = x15 ^ x3; x15 = (t << 16) | (t >>> 16);
    x11 = (x11 + x15) | 0; t = x7 ^ x11; x7 = (t << 12) | (t >>> 20);
    x3 = (x3 + x7) | 0; t = x15 ^ x3; x15 = (t << 8) | (t >>> 24);
    x11 = (x11 + x15) | 0; t = x7 ^ x11; x7 = (t << 7) | (t >>> 25);
    // Diagonal round: (0,5,10,15) (1,6,11,12) (2,7,8,13) (3,4,9,14).
    x0 = (x0 + x5) | 0; t = x15 ^ x0; x15 = (t << 16) | (t >>> 16);
    x10 = (x10 + x15) | 0; t = x5 ^ x10; x5 = (t << 12) | (t >>> 20);
    x0 = (x0 + x5) | 0; t = x15 ^ x0; x15 = (t << 8) | (t >>> 24);
    x10 = (x10 + x15) | 0; t = x5 ^ x10; x5 = (t << 7) | (t >>> 25);
    x1 = (x1 + x6) | 0; t = x12 ^ x1; x12 = (t << 16) | (t >>> 16);
    x11 = (x11 + x12) | 0; t = x6 ^ x11; x6 = (t << 12) | (t >>> 20);
    x1 = (x1 + x6) | 0; t = x12 ^ x1; x12 = (t << 8) | (t >>> 24);
    x11 = (x11 + x12) | 0; t = x6 ^ x11; x6 = (t << 7) | (t >>> 25);
    x2 = (x2 + x7) | 0; t = x13 ^ x2; x13 = (t << 16) | (t >>> 16);
    x8 = (x8 + x13) | 0; t = x7 ^ x8; x7 = (t << 12) | (t >>> 20);
    x2 = (x2 + x7) | 0; t = x13 ^ x2; x13 = (t << 8) | (t >>> 24);
    x8 = (x8 + x13) | 0; t = x7 ^ x8; x7 = (t << 7) | (t >>> 25);
    x3 = (x3 + x4) | 0; t = x14 ^ x3; x14 = (t << 16) | (t >>> 16);
    x9 = (x9 + x14) | 0; t = x4 ^ x9; x4 = (t << 12) | (t >>> 20);
    x3 = (x3 + x4) | 0; t = x14 ^ x3; x14 = (t << 8) | (t >>> 24);
    x9 = (x9 + x14) | 0; t = x4 ^ x9; x4 = (t << 7) | (t >>> 25);
  }
  // The feed-forward: without it the rounds could be run backwards from an output to the key.
  out[at] = x0 + C0;
  out[at + 1] = x1 + C1;
  out[at + 2] = x2 + C2;
  out[at + 3] = x3 + C3;
  out[at + 4] = x4 + k0;
  out[at + 5] = x5 + k1;
  out[at + 6] = x6 + k2;
  out[at + 7] = x7 + k3;
  out[at + 8] = x8 + k4;
  out[at + 9] = x9 + k5;
  out[at + 10] = x10 + k6;
  out[at + 11] = x11 + k7;
  out[at + 12] = x12 + n12;
  out[at + 13] = x13 + n13;
  out[at + 14] = x14 + n14;
  out[at + 15] = x15 + n15;
}

/** A key from its 32 bytes (little-endian words), e.g. a SHA-256 digest of the deployment's seed. */
export function chachaKeyFromBytes(bytes: Uint8Array): ChaChaKey {
  if (bytes.length !== 32) throw new RangeError(`a ChaCha key is 32 bytes, got ${bytes.length}`);
  const words = new DataView(bytes.buffer, bytes.byteOffset, 32);
  return Uint32Array.from({ length: 8 }, (_, i) => words.getUint32(4 * i, true));
}
