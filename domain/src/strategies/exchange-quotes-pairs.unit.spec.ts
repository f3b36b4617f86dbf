/**
 * Exchange quotes and the best arbitrage pair, by hand: each exchange quotes the reference times one
 * plus its basis (its weight times its EMA of the log returns), two closes are the least there can be
 * quotes of, the gross spread is the sell quote over the buy quote, and a pair is always two different
 * exchanges (buying and selling on one venue is no arbitrage, only two fees).
 */
import { expect } from 'chai';
import { bestArbitrage, exchangeQuotes, type ExchangeQuote } from './exchange-quotes';

describe('exchange quotes and pairs, by hand', function () {
  it('need two closes: one close has no return to make a basis of', function () {
    expect(() => exchangeQuotes([2000])).to.throw(RangeError, /at least two closes/);
    expect(() => exchangeQuotes([])).to.throw(RangeError, /at least two closes/);
    expect(exchangeQuotes([2000, 2000])).to.have.length(3);
  });

  it('quote the reference times (1 + basis), the basis the exchange\'s weight times its EMA of the returns', function () {
    // One return r = ln(110 / 100); an EMA from zero after one step is α·r. Binance: weight 0.5, α 0.5;
    // Coinbase: −0.8, 0.25; Kraken: 0.6, 0.1.
    const r = Math.log(1.1);
    const quotes = exchangeQuotes([100, 110]);
    const expected = { binance: 0.5 * 0.5 * r, coinbase: -0.8 * 0.25 * r, kraken: 0.6 * 0.1 * r };
    expect(quotes.map((q) => q.exchange)).to.deep.equal(['binance', 'coinbase', 'kraken']);
    for (const q of quotes) {
      expect(q.basis, q.exchange).to.be.closeTo(expected[q.exchange], 1e-12);
      expect(q.price, q.exchange).to.be.closeTo(110 * (1 + expected[q.exchange]), 1e-9);
    }
    // A rise: Binance and Kraken quote above the reference, Coinbase (which lags) below it.
    expect(quotes[0]!.price).to.be.above(110);
    expect(quotes[1]!.price).to.be.below(110);
  });

  it('the pair\'s gross spread is (sell − buy) / buy in percent, its net spread after both exchanges\' fees', function () {
    const quotes: ExchangeQuote[] = [
      { exchange: 'binance', price: 100, basis: 0 },
      { exchange: 'kraken', price: 101, basis: 0.01 },
    ];
    const best = bestArbitrage(quotes)!;
    expect(best).to.deep.include({ buyExchange: 'binance', buyPrice: 100, sellExchange: 'kraken', sellPrice: 101 });
    expect(best.grossSpread).to.be.closeTo(1, 1e-12);
    // Binance 0.1 %, Kraken 0.26 %: 101 × 0.9974 / (100 × 1.001) − 1.
    expect(best.netSpread).to.be.closeTo(((101 * 0.9974) / (100 * 1.001) - 1) * 100, 1e-9);
  });

  it('never pairs an exchange with itself: on a flat market the least-bad pair is Kraken to Binance, losing the fees', function () {
    const flat: ExchangeQuote[] = [
      { exchange: 'binance', price: 2000, basis: 0 },
      { exchange: 'coinbase', price: 2000, basis: 0 },
      { exchange: 'kraken', price: 2000, basis: 0 },
    ];
    // Buying and selling on Binance alone would cost only its 0.1 % twice (−0.2 %), less than any real
    // pair: it is no pair. Of the real ones, buy on Kraken (0.26 %) and sell on Binance (0.1 %):
    // 0.999 / 1.0026 − 1 ≈ −0.359 % (Binance to Kraken, 0.9974 / 1.001 − 1, is a hair worse).
    const best = bestArbitrage(flat)!;
    expect(best).to.deep.include({ buyExchange: 'kraken', sellExchange: 'binance', grossSpread: 0 });
    expect(best.netSpread).to.be.closeTo((0.999 / 1.0026 - 1) * 100, 1e-9);
  });
});
