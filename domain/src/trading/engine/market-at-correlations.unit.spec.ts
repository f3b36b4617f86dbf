/**
 * The market the entry rules read, from made-up candles: only candles complete at the fill time count;
 * the signal coin's correlations are with the nine other coins (never with itself), built at once by
 * default; with lazyCorrelations each is computed when first read, once, and the object reads as the
 * plain one does (the same keys, in the same order, the same values) and cannot be changed.
 */
import { expect } from 'chai';
import { coins, type Candle, type CoinId } from '../../market/coins';
import { candleColumns, returnCorrelation, type CandleColumns } from '../market-figures';
import { botMarketOf, columnsAt } from './market-at';

const T0 = Date.UTC(2026, 0, 5);
const FIVE = 5 * 60_000;

/** 40 five-minute candles of a coin: a wave of its own period and phase, so each pair of coins correlates differently. */
function candlesOf(coinIndex: number): Candle[] {
  return Array.from({ length: 40 }, (_, i) => {
    const close = 100 + 5 * Math.sin((i * (coinIndex + 2)) / 7 + coinIndex);
    return { time: T0 + i * FIVE, open: close, high: close + 1, low: close - 1, close, volume: 1 };
  });
}

/** Every coin's month series, counting which were built. */
function months() {
  const built: CoinId[] = [];
  const month = (coinId: CoinId): CandleColumns => {
    built.push(coinId);
    return candleColumns(candlesOf(coins.findIndex((c) => c.id === coinId)), FIVE, T0 + 40 * FIVE);
  };
  return { month, built };
}

const DAY = candleColumns(candlesOf(0), FIVE, T0 + 40 * FIVE);
const others = coins.filter((c) => c.id !== 'ethereum').map((c) => c.symbol);

describe('engine: the market at a fill time, and its correlations', function () {
  it('counts only the candles complete at the fill time', function () {
    const series = { coinId: 'ethereum' as CoinId, interval: { label: '5m', minutes: 5 }, candles: candlesOf(0).slice(0, 3) };
    // Candles open at 0, 5 and 10 minutes; at 12 minutes the third is not complete.
    expect(Array.from(columnsAt(series, T0 + 12 * 60_000).time)).to.deep.equal([T0, T0 + FIVE]);
    expect(columnsAt(series, T0 + 15 * 60_000).length).to.equal(3);
  });

  it('by default builds every coin\'s month at once and correlates the coin with each other coin, never with itself', function () {
    const { month, built } = months();
    const market = botMarketOf('ethereum', DAY, month);
    expect([...built].sort()).to.deep.equal(coins.map((c) => c.id).sort());
    expect(Object.keys(market.correlations)).to.deep.equal(others);
    const mine = month('ethereum');
    for (const c of coins.filter((x) => x.id !== 'ethereum')) expect(market.correlations[c.symbol], c.symbol).to.equal(returnCorrelation(mine, month(c.id)));
  });

  it('lazily: builds another coin\'s month only when its correlation is first read, and only once', function () {
    const { month, built } = months();
    const market = botMarketOf('ethereum', DAY, month, true);
    expect(built).to.deep.equal(['ethereum']);
    const btc = market.correlations.BTC;
    expect(market.correlations.BTC).to.equal(btc);
    expect(built).to.deep.equal(['ethereum', 'bitcoin']);
    expect(btc).to.equal(returnCorrelation(month('ethereum'), month('bitcoin')));
  });

  it('lazily: reads as the plain object does, the same keys in the same order and the same values; the coin itself and unknown keys are absent', function () {
    const eager = botMarketOf('ethereum', DAY, months().month).correlations;
    const lazy = botMarketOf('ethereum', DAY, months().month, true).correlations;
    expect(Object.keys(lazy)).to.deep.equal(others);
    expect({ ...lazy }).to.deep.equal(eager);
    expect(JSON.stringify(lazy)).to.equal(JSON.stringify(eager));
    expect(Object.getOwnPropertyDescriptor(lazy, 'SOL')).to.deep.equal({ value: eager.SOL, writable: false, enumerable: true, configurable: true });
    expect('BTC' in lazy).to.equal(true);
    for (const absent of ['ETH', 'DOGE', 'toString']) {
      expect(absent in lazy, absent).to.equal(false);
      expect((lazy as Record<string, unknown>)[absent], absent).to.equal(undefined);
      expect(Object.getOwnPropertyDescriptor(lazy, absent), absent).to.equal(undefined);
    }
  });

  it('lazily: cannot be changed (as a frozen object: a write and a delete are refused, a definition throws)', function () {
    const lazy = botMarketOf('ethereum', DAY, months().month, true).correlations as Record<string, number>;
    const before = lazy.BTC;
    // Reflect's answers, not a thrown TypeError: a write to a frozen object throws only in strict code,
    // and the mutation runner loads specs as sloppy CommonJS.
    expect(Reflect.set(lazy, 'BTC', 1), 'a write refused').to.equal(false);
    expect(Reflect.deleteProperty(lazy, 'BTC'), 'a delete refused').to.equal(false);
    expect(() => Object.defineProperty(lazy, 'XRP', { value: 1 })).to.throw(TypeError);
    expect(lazy.BTC).to.equal(before);
    expect(Object.keys(lazy)).to.deep.equal(others);
  });
});
