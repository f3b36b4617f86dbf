/**
 * The market endpoints through HTTP on the embedded app (PGlite, the simulated market at the real
 * clock): shapes checked with the contract's schemas, 40-300 candles for every dashboard range, the
 * newest candle closing at the current price, cache headers, and 404/400 (never 500) for bad input.
 *
 * The simulated price changes at every tick (5 s), so a test that compares two answers asks again
 * until both fall within one tick (the price's `at` before and after is the same). No answer holds a
 * price from after now: a price's tick and every candle's open time are at or before the request.
 */
import { expect } from 'chai';
import { candleIntervalForDays, MAX_CANDLES, MIN_CANDLES } from '@papertrade/domain/market/candle-interval';
import { coinIds, coins } from '@papertrade/domain/market/coins';
import {
  coinPriceResponseSchema,
  coinPricesResponseSchema,
  coinSummaryResponseSchema,
  historyResponseSchema,
  ohlcResponseSchema,
  supportedCoinsResponseSchema,
  type CoinPriceResponse,
} from '@papertrade/domain/market/contracts';
import { useHarness } from '../../../test/api-harness';
import { waitUntil } from '../../../test/wait';
import { chartMaxAgeSeconds } from './market-routes';

const DASHBOARD_RANGES = [0.04, 0.17, 1, 7, 30];
const MINUTE_MS = 60_000;
const TICK_MS = 5000;

describe('market API (HTTP, embedded)', function () {
  this.timeout(60_000);
  const harness = useHarness();

  async function get(path: string) {
    return harness().request('GET', path);
  }

  /** Runs `read` between two price reads of `coinId` and returns its answer once both fall in one tick. */
  async function withinOneTick<T>(coinId: string, read: () => Promise<T>): Promise<{ price: CoinPriceResponse; value: T }> {
    return waitUntil(
      async () => {
        const before = coinPriceResponseSchema.parse((await get(`/api/coins/${coinId}/price`)).body);
        const value = await read();
        const after = coinPriceResponseSchema.parse((await get(`/api/coins/${coinId}/price`)).body);
        return before.at === after.at ? { price: before, value } : undefined;
      },
      { timeoutMs: 30_000, message: 'two price reads within one tick' },
    );
  }

  describe('GET /api/coins/supported', function () {
    it('maps every coin id of the catalogue to its name, symbol, icon and colour, cacheable', async function () {
      const res = await get('/api/coins/supported');
      expect(res.status).to.equal(200);
      const body = supportedCoinsResponseSchema.parse(res.body);
      expect(Object.keys(body)).to.deep.equal([...coinIds]);
      expect(body.ethereum).to.deep.equal({ name: 'Ethereum', symbol: 'ETH', icon: 'Ξ', color: '#627EEA' });
      expect(res.headers.get('cache-control')).to.equal('public, max-age=3600');
    });
  });

  describe('prices', function () {
    it('GET /api/coins/prices: every coin, keyed by id, the same prices as each coin asked alone', async function () {
      const { price, value } = await withinOneTick('bitcoin', async () => get('/api/coins/prices'));
      expect(value.status).to.equal(200);
      const body = coinPricesResponseSchema.parse(value.body);
      expect(Object.keys(body)).to.deep.equal([...coinIds]);
      expect(body.bitcoin).to.deep.equal({ price: price.price, changePercent24h: price.changePercent24h });
      expect(value.headers.get('cache-control')).to.equal('no-store');
    });

    it('GET /api/coins/{coinId}/price: the coin, its symbol, price, 24 h change and the tick it belongs to, never after now', async function () {
      for (const coin of coins) {
        const res = await get(`/api/coins/${coin.id}/price`);
        const answered = Date.now();
        expect(res.status, coin.id).to.equal(200);
        const body = coinPriceResponseSchema.parse(res.body);
        expect(body.coinId).to.equal(coin.id);
        expect(body.symbol).to.equal(coin.symbol);
        expect(Date.parse(body.at) % TICK_MS).to.equal(0);
        expect(Date.parse(body.at)).to.be.at.most(answered);
        expect(answered - Date.parse(body.at)).to.be.below(2 * MINUTE_MS);
      }
    });

    it('GET /api/price: ETH by default, any symbol in any case', async function () {
      const { price, value } = await withinOneTick('ethereum', async () => get('/api/price'));
      expect(value.status).to.equal(200);
      expect(coinPriceResponseSchema.parse(value.body)).to.deep.equal(price);

      const btc = await withinOneTick('bitcoin', async () => Promise.all(['btc', 'BTC', 'Btc', '%20btc%20'].map((s) => get(`/api/price?symbol=${s}`))));
      for (const res of btc.value) {
        expect(res.status).to.equal(200);
        expect(coinPriceResponseSchema.parse(res.body)).to.deep.equal(btc.price);
      }
      const empty = await get('/api/price?symbol=');
      expect(empty.status).to.equal(200);
      expect(empty.body.symbol).to.equal('ETH');
    });
  });

  describe('GET /api/coins/{coin}/ohlc', function () {
    for (const days of [...DASHBOARD_RANGES, 3, 365]) {
      it(`days=${days}: 40-300 candles of the ladder's width, in order, newest closing at the current price`, async function () {
        const interval = candleIntervalForDays(days);
        const { price, value: res } = await withinOneTick('ethereum', async () => get(`/api/coins/ethereum/ohlc?days=${days}`));
        expect(res.status).to.equal(200);
        const body = ohlcResponseSchema.parse(res.body);
        expect(body).to.include({ coinId: 'ethereum', days, interval: interval.label, intervalMinutes: interval.minutes });
        expect(body.candles.length).to.be.within(MIN_CANDLES, MAX_CANDLES);
        const widthMs = interval.minutes * MINUTE_MS;
        body.candles.forEach((c, i) => {
          expect(c.time % widthMs, 'aligned to the interval').to.equal(0);
          if (i > 0) expect(c.time - body.candles[i - 1]!.time).to.equal(widthMs);
          expect(c.high).to.be.at.least(Math.max(c.open, c.close));
          expect(c.low).to.be.at.most(Math.min(c.open, c.close));
        });
        const newest = body.candles.at(-1)!;
        expect(newest.close).to.equal(price.price);
        expect(newest.time, 'no candle after now').to.be.at.most(Date.now());
        expect(Date.parse(price.at)).to.be.within(newest.time, newest.time + widthMs - 1);
        // The range is covered: the oldest candle opens no later than `days` before now.
        expect(body.candles[0]!.time).to.be.at.most(Date.parse(price.at) - days * 1440 * MINUTE_MS + MINUTE_MS);
        expect(res.headers.get('cache-control')).to.equal(`public, max-age=${chartMaxAgeSeconds(interval.minutes)}`);
      });
    }

    it('caches a chart for a tenth of a candle, at least 5 s, at most 60 s', function () {
      expect([1, 5, 15, 60, 2880].map(chartMaxAgeSeconds)).to.deep.equal([6, 30, 60, 60, 60]);
    });
  });

  describe('GET /api/coins/{coin}/history', function () {
    it("is the chart's closes, point for point", async function () {
      const { value } = await withinOneTick('solana', async () => Promise.all([get('/api/coins/solana/history?days=7'), get('/api/coins/solana/ohlc?days=7')]));
      const [history, ohlc] = value;
      expect(history.status).to.equal(200);
      const points = historyResponseSchema.parse(history.body);
      const candles = ohlcResponseSchema.parse(ohlc.body).candles;
      expect(points).to.deep.equal(candles.map((c) => ({ time: c.time, price: c.close })));
      expect(history.headers.get('cache-control')).to.equal(ohlc.headers.get('cache-control'));
    });
  });

  describe('GET /api/coins/{coinId}/summary', function () {
    it("has the price, the 24 h change, the day's high, low and volume, and says the market is simulated", async function () {
      const { price, value: res } = await withinOneTick('cardano', async () => get('/api/coins/cardano/summary'));
      expect(res.status).to.equal(200);
      const body = coinSummaryResponseSchema.parse(res.body);
      expect(body).to.include({ coinId: 'cardano', name: 'Cardano', symbol: 'ADA', source: 'simulated', price: price.price, at: price.at });
      expect(body.changePercent24h).to.equal(price.changePercent24h);
      expect(body.change24h! / (body.price - body.change24h!)).to.be.closeTo(body.changePercent24h! / 100, 1e-9);
      expect(body.high24h).to.be.at.least(body.price);
      expect(body.low24h).to.be.at.most(body.price);
      expect(body.high24h).to.be.above(body.low24h);
      expect(body.volume24h).to.be.above(0);
    });
  });

  describe('bad input: 404 for an unknown coin, 400 naming the field, never 500', function () {
    const unknownCoins: Array<[string, string]> = [
      ['dogecoin', '"dogecoin"'],
      ['ETHEREUM', '"ETHEREUM"'],
      ['__proto__', '"__proto__"'],
      ['constructor', '"constructor"'],
      ['%00', '"\\u0000"'],
      ['eth%00ereum', '"eth\\u0000ereum"'],
      ['%E0%A4%A', '"%E0%A4%A"'],
      ['x'.repeat(5000), `"${'x'.repeat(40)}…"`],
    ];
    for (const [id, named] of unknownCoins) {
      for (const suffix of ['price', 'ohlc?days=7', 'history?days=7', 'summary']) {
        it(`/api/coins/${id.slice(0, 20)}/${suffix}: 404 naming ${named.slice(0, 20)}`, async function () {
          const res = await get(`/api/coins/${id}/${suffix}`);
          expect(res.status).to.equal(404);
          expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
          expect(res.body.detail).to.equal(`Unknown coin id ${named}; supported: ${coinIds.join(', ')}`);
        });
      }
    }

    const unknownSymbols: Array<[string, string]> = [
      ['DOGE', '"DOGE"'],
      ['__proto__', '"__proto__"'],
      ['%00', '"\\u0000"'],
      ['e'.repeat(32), `"${'e'.repeat(32)}"`],
    ];
    for (const [symbol, named] of unknownSymbols) {
      it(`/api/price?symbol=${symbol.slice(0, 12)}: 404 naming ${named.slice(0, 20)}`, async function () {
        const res = await get(`/api/price?symbol=${symbol}`);
        expect(res.status).to.equal(404);
        expect(res.body.detail).to.match(new RegExp(`^Unknown coin symbol ${named.replace(/\\/g, '\\\\')}; supported: ETH, BTC`));
      });
    }

    const badQueries: Array<[string, string]> = [
      ['/api/coins/ethereum/ohlc', 'days: is required'],
      ['/api/coins/ethereum/ohlc?days=', 'days: must be a number of days, such as 7 or 0.17'],
      ['/api/coins/ethereum/ohlc?days=0', 'days: must be greater than 0'],
      ['/api/coins/ethereum/ohlc?days=-7', 'days: must be greater than 0'],
      ['/api/coins/ethereum/ohlc?days=366', 'days: must be at most 365'],
      ['/api/coins/ethereum/ohlc?days=1e400', 'days: must be at most 365'],
      ['/api/coins/ethereum/ohlc?days=0.0001', 'days: must cover at least one minute (1/1440 of a day)'],
      ['/api/coins/ethereum/ohlc?days=seven', 'days: must be a number of days, such as 7 or 0.17'],
      ['/api/coins/ethereum/ohlc?days=NaN', 'days: must be a number of days, such as 7 or 0.17'],
      ['/api/coins/ethereum/ohlc?days=Infinity', 'days: must be a number of days, such as 7 or 0.17'],
      ['/api/coins/ethereum/ohlc?days=0x10', 'days: must be a number of days, such as 7 or 0.17'],
      ['/api/coins/ethereum/ohlc?days=7%00', 'days: must be a number of days, such as 7 or 0.17'],
      ['/api/coins/ethereum/ohlc?days=%F0', 'days: must be a number of days, such as 7 or 0.17'],
      [`/api/coins/ethereum/ohlc?days=${'9'.repeat(5000)}`, 'days: must be a number of days, at most 32 characters'],
      [`/api/coins/ethereum/ohlc?days=${'x'.repeat(5000)}`, 'days: must be a number of days, at most 32 characters'],
      ['/api/coins/ethereum/ohlc?days=1&days=7', 'days: must be given once'],
      ['/api/coins/ethereum/ohlc?days[]=7', 'days: is required; unknown field: days[]'],
      ['/api/coins/ethereum/ohlc?days=7&__proto__=1', 'unknown field: __proto__'],
      ['/api/coins/ethereum/ohlc?days=7&limit=5', 'unknown field: limit'],
      ['/api/coins/ethereum/history', 'days: is required'],
      ['/api/coins/ethereum/history?days=-1', 'days: must be greater than 0'],
      ['/api/coins/ethereum/history?days=7&days=7', 'days: must be given once'],
      ['/api/price?symbol=eth&symbol=btc', 'symbol: must be given once'],
      [`/api/price?symbol=${'e'.repeat(33)}`, 'symbol: must be a coin symbol such as ETH, at most 32 characters'],
      ['/api/price?coin=eth', 'unknown field: coin'],
    ];
    for (const [path, detail] of badQueries) {
      it(`${path.slice(0, 70)}: 400 "${detail}"`, async function () {
        const res = await get(path);
        expect(res.status).to.equal(400);
        expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
        expect(res.body.detail).to.equal(detail);
      });
    }

    it('accepts any range written as a plain decimal: .5, 2., +3, 1e1, 0.000695 and " 7 "', async function () {
      for (const days of ['.5', '2.', '+3', '1e1', '0.000695', '%207%20']) {
        const res = await get(`/api/coins/bitcoin/ohlc?days=${days}`);
        expect(res.status, days).to.equal(200);
        expect(ohlcResponseSchema.parse(res.body).candles.length).to.be.above(0);
      }
    });
  });
});

describe('market API when the source cannot answer (CoinGecko unreachable)', function () {
  this.timeout(60_000);
  // Nothing listens on the discard port of the loopback address: every call is refused at once.
  const harness = useHarness({ MARKET_DATA: 'coingecko', COINGECKO_URL: 'http://127.0.0.1:9' });

  for (const path of ['/api/coins/prices', '/api/coins/bitcoin/price', '/api/price', '/api/coins/bitcoin/ohlc?days=7', '/api/coins/bitcoin/history?days=1', '/api/coins/bitcoin/summary']) {
    it(`${path}: 503 with Retry-After, not 500`, async function () {
      const res = await harness().request('GET', path);
      expect(res.status).to.equal(503);
      expect(Number(res.headers.get('retry-after'))).to.be.at.least(1);
      expect(res.body.detail).to.be.a('string').and.not.be.empty;
    });
  }

  it('still serves the catalogue, and still refuses bad input before asking the source', async function () {
    expect((await harness().request('GET', '/api/coins/supported')).status).to.equal(200);
    expect((await harness().request('GET', '/api/coins/dogecoin/price')).status).to.equal(404);
    expect((await harness().request('GET', '/api/coins/bitcoin/ohlc?days=0')).status).to.equal(400);
  });
});
