/**
 * scrypt runs in libuv's pool but on the same cores as the event loop: at most SCRYPT_CONCURRENCY
 * derivations may run at once (one core left to the event loop). Counted, not timed: node:crypto's
 * scrypt is wrapped to count the calls in flight.
 */
import { expect } from 'chai';
import crypto from 'node:crypto';
import os from 'node:os';
import { syncBuiltinESMExports } from 'node:module';
import { SCRYPT_CONCURRENCY, dummyVerify, hashPassword, scryptSlots, verifyPassword } from './passwords';

describe('password hashes: scrypt concurrency is capped', function () {
  const original = crypto.scrypt;
  let inFlight = 0;
  let most = 0;
  let calls = 0;

  before(function () {
    const counting = (...args: unknown[]) => {
      const done = args.pop() as (err: Error | null, key: Buffer) => void;
      calls += 1;
      inFlight += 1;
      most = Math.max(most, inFlight);
      (original as (...a: unknown[]) => void)(...args, (err: Error | null, key: Buffer) => {
        inFlight -= 1;
        done(err, key);
      });
    };
    crypto.scrypt = counting as typeof crypto.scrypt;
    syncBuiltinESMExports();
  });
  after(function () {
    crypto.scrypt = original;
    syncBuiltinESMExports();
  });
  beforeEach(function () {
    most = 0;
    calls = 0;
  });

  it('leaves one core to the event loop, and runs at least one', function () {
    expect(SCRYPT_CONCURRENCY).to.equal(Math.max(1, os.availableParallelism() - 1));
  });

  it('runs at most SCRYPT_CONCURRENCY derivations at once, hashing and verifying alike; the rest queue', async function () {
    const stored = await hashPassword('hunter22');
    const total = 3 * SCRYPT_CONCURRENCY + 2;
    const work = Array.from({ length: total }, (_, i) =>
      i % 3 === 0 ? hashPassword(`pw-${i}`) : i % 3 === 1 ? verifyPassword('hunter22', stored) : dummyVerify('nobody'),
    );
    expect(scryptSlots().pending + scryptSlots().active).to.be.greaterThan(SCRYPT_CONCURRENCY);
    const results = await Promise.all(work);
    expect(results.filter((r) => r === true)).to.have.length(work.filter((_, i) => i % 3 === 1).length);
    expect(calls).to.be.at.least(total);
    expect(most).to.equal(SCRYPT_CONCURRENCY);
    expect(scryptSlots()).to.deep.equal({ active: 0, pending: 0 });
  });
});
