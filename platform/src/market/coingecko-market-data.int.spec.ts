/**
 * The CoinGecko adapter against a local fake of the public API (node:http) that answers in the
 * documented shapes: success, caching (the fake counts requests), the call budget, 429, server
 * errors, answers of the wrong shape, and an address where nothing listens.
 */
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ValidationError } from '@papertrade/domain/shared/errors';
import { coins, type CoinId } from '@papertrade/domain/market/coins';
import { CoinGeckoMarketData } from './coingecko-market-data';
import { MarketDataUnavailableError } from './market-data';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const START = Date.UTC(2025, 5, 1, 12, 0, 0);

type Mode = 'ok' | '429' | '500' | 'wrong-shape' | 'not-json';

interface Fake {
  baseUrl: string;
  requests: string[];
  mode: Mode;
  retryAfter: string | undefined;
  close(): Promise<void>;
}

/** Prices of the fake: 1000 + coin index, changing a little with time, so answers are checkable. */
function fakePrice(upstreamId: string, time: number): number {
  return 1000 + upstreamId.length + Math.sin(time / HOUR);
}

async function startFake(now: () => number): Promise<Fake> {
  const fake: Fake = { baseUrl: '', requests: [], mode: 'ok', retryAfter: undefined, close: async () => {} };
  const server = http.createServer((req, res) => {
    fake.requests.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://fake');
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (fake.mode === '429') return send(429, { status: { error_code: 429, error_message: "You've exceeded the Rate Limit." } }, fake.retryAfter ? { 'retry-after': fake.retryAfter } : {});
    if (fake.mode === '500') return send(503, { error: 'maintenance' });
    if (fake.mode === 'not-json') return send(200, '<html>Cloudflare</html>');
    const t = now();
    if (url.pathname === '/api/v3/coins/markets') {
      expect(url.searchParams.get('vs_currency')).to.equal('usd');
      const ids = (url.searchParams.get('ids') ?? '').split(',');
      if (fake.mode === 'wrong-shape') return send(200, ids.map((id) => ({ id, current_price: 'a lot' })));
      return send(
        200,
        ids.map((id, rank) => ({
          id,
          symbol: id.slice(0, 3),
          name: id,
          image: `https://coin-images.coingecko.com/coins/images/${rank}/large/${id}.png`,
          current_price: fakePrice(id, t),
          market_cap: 1e9,
          market_cap_rank: rank + 1,
          fully_diluted_valuation: 1e9,
          total_volume: 5e7,
          high_24h: 1100,
          low_24h: 900,
          price_change_24h: 12.5,
          price_change_percentage_24h: 1.25,
          market_cap_change_24h: 1e7,
          market_cap_change_percentage_24h: 1,
          circulating_supply: 1e6,
          total_supply: 1e6,
          max_supply: null,
          ath: 2000,
          ath_change_percentage: -50,
          ath_date: '2024-03-14T07:10:36.635Z',
          atl: 1,
          atl_change_percentage: 1e5,
          atl_date: '2015-10-20T00:00:00.000Z',
          roi: null,
          last_updated: new Date(t - 30_000).toISOString(),
        })),
      );
    }
    const match = /^\/api\/v3\/coins\/([^/]+)\/(ohlc|market_chart)$/.exec(url.pathname);
    if (match) {
      const [, id, endpoint] = match as unknown as [string, string, string];
      const days = Number(url.searchParams.get('days'));
      if (fake.mode === 'wrong-shape') return send(200, { prices: 'none' });
      if (endpoint === 'ohlc') {
        // Documented granularity: 1-2 days 30 minutes, 3-30 days 4 hours, beyond 4 days; time = close time.
        const width = days <= 2 ? 30 * MINUTE : days <= 30 ? 4 * HOUR : 4 * DAY;
        const rows: number[][] = [];
        for (let close = Math.floor(t / width) * width; close > t - days * DAY; close -= width) {
          const p = fakePrice(id, close);
          rows.unshift([close, p - 1, p + 2, p - 3, p]);
        }
        return send(200, rows);
      }
      const step = days <= 1 ? 5 * MINUTE : days <= 90 ? HOUR : DAY;
      const points: number[][] = [];
      for (let time = t; time > t - days * DAY; time -= step) points.unshift([time, fakePrice(id, time)]);
      return send(200, {
        prices: points,
        market_caps: points.map(([time]) => [time, 1e9]),
        total_volumes: points.map(([time]) => [time, 2.4e7]),
      });
    }
    send(404, { error: 'coin not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}

describe('CoinGecko market data (local fake of the public API)', function () {
  let now = START;
  const clock = () => new Date(now);
  let fake: Fake;

  beforeEach(async function () {
    now = START;
    fake = await startFake(() => now);
  });
  afterEach(async function () {
    await fake.close();
  });

  const adapter = (requestsPerMinute = 10) => new CoinGeckoMarketData({ baseUrl: fake.baseUrl, clock, requestsPerMinute });

  it('serves every coin price with its 24-hour change from one markets call, polygon as matic-network', async function () {
    const market = adapter();
    const prices = await market.prices();
    expect(prices.map((p) => p.coinId)).to.deep.equal(coins.map((c) => c.id));
    const polygon = prices.find((p) => p.coinId === 'polygon')!;
    expect(polygon).to.deep.include({ symbol: 'MATIC', price: fakePrice('matic-network', START), change24h: 12.5, changePercent24h: 1.25, volume24h: 5e7 });
    expect(polygon.at).to.equal(new Date(START - 30_000).toISOString());
    expect((await market.price('bitcoin')).price).to.equal(fakePrice('bitcoin', START));
    expect(fake.requests).to.have.length(1);
    expect(fake.requests[0]).to.contain('/coins/markets?vs_currency=usd&ids=').and.contain('matic-network');
  });

  it('quotes the live prices for an order whatever the time asked (no path), each with when CoinGecko observed it and a minute of the 24-hour volume', async function () {
    const market = adapter();
    expect(market.ticks).to.equal(null);
    const quotes = await market.quotesAt(START - 3_600_000);
    expect(quotes.map((q) => q.coinId)).to.deep.equal(coins.map((c) => c.id));
    expect(quotes.find((q) => q.coinId === 'polygon')).to.deep.equal({ coinId: 'polygon', symbol: 'MATIC', price: fakePrice('matic-network', START), filledAt: new Date(START - 30_000).toISOString(), minuteVolumeUsd: 5e7 / 1440 });
  });

  it('serves candles from the OHLC endpoint, trimmed to the range, with volume estimated from the market chart', async function () {
    const market = adapter();
    const series = await market.candles('ethereum', 7);
    expect(series.interval).to.deep.equal({ label: '4h', minutes: 240 });
    expect(series.candles).to.have.length(42);
    const last = series.candles.at(-1)!;
    expect(last.time).to.equal(START - 4 * HOUR);
    expect(last.close).to.equal(fakePrice('ethereum', START));
    expect(last.high).to.equal(last.close + 2);
    expect(last.volume).to.be.closeTo((2.4e7 * 4) / 24, 1e-6);
    for (const c of series.candles) expect(c.time + 4 * HOUR).to.be.greaterThan(START - 7 * DAY);
    expect(fake.requests.sort()).to.deep.equal([
      '/api/v3/coins/ethereum/market_chart?vs_currency=usd&days=7',
      '/api/v3/coins/ethereum/ohlc?vs_currency=usd&days=7',
    ]);

    // A range between the allowed values is fetched at the next one and trimmed.
    const twoDays = await market.candles('solana', 2);
    expect(fake.requests).to.include('/api/v3/coins/solana/ohlc?vs_currency=usd&days=7');
    expect(twoDays.candles).to.have.length(12);
    const hour = await market.candles('solana', 0.04);
    expect(fake.requests).to.include('/api/v3/coins/solana/ohlc?vs_currency=usd&days=1');
    expect(hour.interval.label).to.equal('30m');
    expect(hour.candles.length).to.be.within(1, 2);
  });

  it('serves history as the market chart prices of the range', async function () {
    const market = adapter();
    const history = await market.history('cardano', 1);
    expect(history).to.have.length(288);
    expect(history.at(-1)).to.deep.equal({ time: START, price: fakePrice('cardano', START) });
    expect(history[0]!.time).to.be.at.least(START - DAY);
    expect(fake.requests).to.deep.equal(['/api/v3/coins/cardano/market_chart?vs_currency=usd&days=1']);
  });

  it('caches answers for as long as CoinGecko does, and shares one call between concurrent requests', async function () {
    const market = adapter();
    await Promise.all([market.prices(), market.prices(), market.price('solana')]);
    expect(fake.requests).to.have.length(1);
    now += 59_000;
    await market.prices();
    expect(fake.requests).to.have.length(1);
    now += 2_000;
    const later = await market.prices();
    expect(fake.requests).to.have.length(2);
    expect(later[0]!.price).to.equal(fakePrice('ethereum', now));

    await market.candles('bitcoin', 30);
    await market.candles('bitcoin', 14); // a different OHLC range
    await market.history('bitcoin', 20); // the market chart of the 30-day range, already cached
    expect(fake.requests).to.have.length(2 + 4);
    now += 14 * MINUTE;
    await market.candles('bitcoin', 30);
    expect(fake.requests).to.have.length(6);
    now += 2 * MINUTE; // OHLC cached 15 minutes, the 30-day market chart 30
    await market.candles('bitcoin', 30);
    expect(fake.requests).to.have.length(7);
  });

  it('answers 429 with a clear rate-limit error, stops calling until Retry-After has passed, and serves a recent answer meanwhile', async function () {
    const market = adapter();
    fake.mode = '429';
    fake.retryAfter = '30';
    const error = await market.prices().then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(MarketDataUnavailableError);
    const unavailable = error as MarketDataUnavailableError;
    expect(unavailable.status).to.equal(503);
    expect(unavailable.reason).to.equal('rate-limited');
    expect(unavailable.message).to.equal('CoinGecko rate limit reached (429)');
    expect(unavailable.retryAfterSeconds).to.equal(30);
    expect(unavailable.extra).to.deep.equal({ reason: 'rate-limited' });

    fake.mode = 'ok';
    now += 10_000;
    const cooling = await market.price('bitcoin').then(() => undefined, (e: unknown) => e);
    expect((cooling as MarketDataUnavailableError).reason).to.equal('rate-limited');
    expect((cooling as MarketDataUnavailableError).retryAfterSeconds).to.equal(20);
    expect(fake.requests).to.have.length(1);

    now += 20_000;
    const fresh = await market.prices();
    expect(fake.requests).to.have.length(2);

    now += 2 * MINUTE; // stale now, and CoinGecko says no: the two-minute-old answer stands in
    fake.mode = '429';
    fake.retryAfter = undefined;
    expect(await market.prices()).to.deep.equal(fresh);
    now += 60_000; // the 429 without Retry-After cooled down for 60 s
    now += 9 * MINUTE; // 12 minutes old: too old to stand in
    fake.mode = '500';
    const tooOld = await market.prices().then(() => undefined, (e: unknown) => e);
    expect((tooOld as MarketDataUnavailableError).reason).to.equal('upstream-error');
    expect((tooOld as MarketDataUnavailableError).message).to.equal('CoinGecko is failing (503)');
  });

  it('spends at most its call budget per minute', async function () {
    const market = adapter(2);
    await market.history('bitcoin', 1);
    await market.history('ethereum', 1);
    const error = await market.history('solana', 1).then(() => undefined, (e: unknown) => e);
    expect((error as MarketDataUnavailableError).reason).to.equal('rate-limited');
    expect((error as MarketDataUnavailableError).message).to.equal('CoinGecko call budget spent (2 a minute)');
    expect((error as MarketDataUnavailableError).retryAfterSeconds).to.equal(30);
    expect(fake.requests).to.have.length(2);
    now += 30_000;
    await market.history('solana', 1);
    expect(fake.requests).to.have.length(3);
  });

  it('refuses answers of the wrong shape or not JSON at all', async function () {
    const market = adapter();
    fake.mode = 'wrong-shape';
    const wrong = await market.prices().then(() => undefined, (e: unknown) => e);
    expect((wrong as MarketDataUnavailableError).reason).to.equal('bad-response');
    expect((wrong as MarketDataUnavailableError).message).to.match(/^CoinGecko answered \/coins\/markets in an unexpected shape \(0\.current_price: /);
    const wrongChart = await market.candles('bitcoin', 7).then(() => undefined, (e: unknown) => e);
    expect((wrongChart as MarketDataUnavailableError).reason).to.equal('bad-response');
    fake.mode = 'not-json';
    const html = await market.history('uniswap', 1).then(() => undefined, (e: unknown) => e);
    expect((html as MarketDataUnavailableError).message).to.equal('CoinGecko answered /coins/uniswap/market_chart with something that is not JSON');
  });

  it('says when CoinGecko cannot be reached', async function () {
    await fake.close(); // nothing listens on the port any more
    const market = adapter();
    const error = await market.prices().then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(MarketDataUnavailableError);
    expect((error as MarketDataUnavailableError).reason).to.equal('unreachable');
    expect((error as MarketDataUnavailableError).message).to.match(/^CoinGecko cannot be reached/);
    expect((error as MarketDataUnavailableError).retryAfterSeconds).to.equal(30);
    fake = await startFake(() => now); // for afterEach
  });

  it('refuses an unknown coin and a bad range before calling anyone', async function () {
    const market = adapter();
    const coin = await market.candles('dogecoin' as CoinId, 7).then(() => undefined, (e: unknown) => e);
    expect(coin).to.be.instanceOf(ValidationError);
    expect((coin as ValidationError).message).to.equal('unknown coin id "dogecoin"');
    const days = await market.history('bitcoin', 400).then(() => undefined, (e: unknown) => e);
    expect((days as ValidationError).message).to.equal('days must be at most 365');
    expect(fake.requests).to.have.length(0);
  });
});
