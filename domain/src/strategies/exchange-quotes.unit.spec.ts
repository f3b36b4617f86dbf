/** Per-exchange quotes: deterministic from the closes known, reverting to the reference, blind to what follows. */
import { expect } from 'chai';
import { BASIS_WINDOW, exchangeQuotes } from './exchange-quotes';

function walk(n: number, seed: number): number[] {
  let s = seed;
  const closes = [2000];
  for (let i = 1; i < n; i++) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    closes.push(closes[i - 1]! * Math.exp(((s / 2 ** 31) - 0.5) * 0.007));
  }
  return closes;
}

describe('exchange quotes', function () {
  it('are the reference plus a small basis per exchange, the same for the same closes', function () {
    const closes = walk(500, 7);
    const a = exchangeQuotes(closes);
    expect(a.map((q) => q.exchange)).to.deep.equal(['binance', 'coinbase', 'kraken']);
    expect(exchangeQuotes(closes)).to.deep.equal(a);
    for (const q of a) expect(Math.abs(q.price / closes.at(-1)! - 1)).to.be.below(0.01);
  });

  it('do not depend on where the window starts, nor on anything after the last close', function () {
    const closes = walk(1000, 11);
    const at = 700;
    const known = closes.slice(0, at);
    expect(exchangeQuotes(known.slice(-BASIS_WINDOW - 1))).to.deep.equal(exchangeQuotes(known));
    const otherFuture = [...known, ...walk(300, 99).map((c) => c * 3)];
    expect(exchangeQuotes(otherFuture.slice(0, at))).to.deep.equal(exchangeQuotes(known));
  });

  it('on a flat market every exchange quotes the reference (the basis reverts to zero)', function () {
    const closes = [...walk(300, 3), ...Array.from({ length: 300 }, () => 2500)];
    for (const q of exchangeQuotes(closes)) expect(q.basis).to.be.closeTo(0, 1e-9);
  });
});
