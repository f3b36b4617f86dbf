import { expect } from 'chai';
import type { CoinPricesResponse, SupportedCoinsResponse } from '@papertrade/domain/market/contracts';
import { coinRows, filterCoins, popularCoins, POPULAR_COIN_IDS } from './coin-search';
import { newestQuote } from './live-price';

const supported = {
  ethereum: { name: 'Ethereum', symbol: 'ETH', icon: 'Ξ', color: '#627EEA' },
  bitcoin: { name: 'Bitcoin', symbol: 'BTC', icon: '₿', color: '#F7931A' },
  solana: { name: 'Solana', symbol: 'SOL', icon: 'S', color: '#9945FF' },
  'avalanche-2': { name: 'Avalanche', symbol: 'AVAX', icon: 'A', color: '#E84142' },
  cardano: { name: 'Cardano', symbol: 'ADA', icon: 'A', color: '#0033AD' },
} as SupportedCoinsResponse;
const prices = { ethereum: { price: 3000, changePercent24h: -1.5 }, solana: { price: 150, changePercent24h: null } } as CoinPricesResponse;

describe('coin selector list', () => {
  const rows = coinRows(supported, prices);

  it('lists every supported coin with its price when known, null otherwise', () => {
    expect(rows.map((r) => r.id)).to.deep.equal(['ethereum', 'bitcoin', 'solana', 'avalanche-2', 'cardano']);
    expect(rows[0]).to.include({ price: 3000, changePercent24h: -1.5, symbol: 'ETH' });
    expect(rows[1]).to.include({ price: null, changePercent24h: null });
    expect(coinRows(supported, undefined).every((r) => r.price === null)).to.equal(true);
  });

  it('filters by name, symbol or id in any case; an empty search lists all', () => {
    expect(filterCoins(rows, 'sol').map((r) => r.id)).to.deep.equal(['solana']);
    expect(filterCoins(rows, 'BTC').map((r) => r.id)).to.deep.equal(['bitcoin']);
    expect(filterCoins(rows, 'avalanche-2').map((r) => r.id)).to.deep.equal(['avalanche-2']);
    expect(filterCoins(rows, '  ').length).to.equal(rows.length);
    expect(filterCoins(rows, 'zzz')).to.deep.equal([]);
  });

  it('the Popular row is bitcoin, ethereum, binancecoin, cardano, solana, when supported', () => {
    expect(POPULAR_COIN_IDS).to.deep.equal(['bitcoin', 'ethereum', 'binancecoin', 'cardano', 'solana']);
    expect(popularCoins(rows).map((r) => r.id)).to.deep.equal(['bitcoin', 'ethereum', 'cardano', 'solana']);
  });
});

describe('live price', () => {
  const polled = { price: 100, changePercent24h: 1, at: '2026-01-01T00:00:05.000Z' };
  it('takes the newer of the polled answer and the tick', () => {
    expect(newestQuote(polled, { ...polled, price: 101, at: '2026-01-01T00:00:06.000Z' })?.price).to.equal(101);
    expect(newestQuote(polled, { ...polled, price: 99, at: '2026-01-01T00:00:04.000Z' })?.price).to.equal(100);
    expect(newestQuote(undefined, polled)?.price).to.equal(100);
    expect(newestQuote(polled, undefined)?.price).to.equal(100);
    expect(newestQuote(undefined, undefined)).to.equal(undefined);
  });
});
