import { expect } from 'chai';
import { oncePerKey } from './once-per-key';

describe('subscription: reporting a payment session once (StrictMode runs effects twice)', () => {
  it('calls once per key and hands every caller the first call’s promise', async () => {
    const calls: string[] = [];
    const report = oncePerKey(async (key) => {
      calls.push(key);
      return `done ${key}`;
    });
    const first = report('cs_1');
    const second = report('cs_1');
    expect(second).to.equal(first);
    expect(await second).to.equal('done cs_1');
    expect(await report('cs_1')).to.equal('done cs_1');
    expect(calls).to.deep.equal(['cs_1']);
  });

  it('calls again for another key', async () => {
    const calls: string[] = [];
    const report = oncePerKey(async (key) => void calls.push(key));
    await Promise.all([report('cs_1'), report('cs_2'), report('cs_1')]);
    expect(calls).to.deep.equal(['cs_1', 'cs_2']);
  });

  it('does not retry a failed call on its own: every caller sees the same failure', async () => {
    let calls = 0;
    const report = oncePerKey(async () => {
      calls += 1;
      throw new Error('402: not paid');
    });
    const errors = await Promise.all([report('cs_1').catch((e: Error) => e.message), report('cs_1').catch((e: Error) => e.message)]);
    expect(errors).to.deep.equal(['402: not paid', '402: not paid']);
    expect(calls).to.equal(1);
  });
});
