/**
 * The chart's query function against a stubbed fetch: ohlc when it answers OK, the history fallback
 * when it does not (status, network or contract failure), the price for an empty history, 'Failed to
 * fetch price data' when both failed, and a cancelled query passed on rather than fallen back from.
 * The query options: one key per coin and range, refetched every 60 s.
 */
import { expect } from 'chai';
import { PRICE_DATA_FETCH_FAILED } from '../history-fallback';
import { CHART_REFETCH_MS, getChartData, ohlcQueryOptions } from './get-ohlc';

const NOW = Date.UTC(2026, 10, 22, 12);
const HOUR_MS = 3_600_000;
const OHLC = {
  coinId: 'ethereum',
  days: 7,
  interval: '1h',
  intervalMinutes: 60,
  candles: [
    { time: NOW - HOUR_MS, timestamp: NOW - HOUR_MS, timeLabel: 'Nov 22, 11:00', open: 100, high: 102, low: 99, close: 101, volume: 5 },
    { time: NOW, timestamp: NOW, timeLabel: 'Nov 22, 12:00', open: 101, high: 103, low: 100, close: 102, volume: 6 },
  ],
};

type Route = (url: URL) => Response | Promise<Response>;

describe('chart data (get-ohlc)', function () {
  const realFetch = globalThis.fetch;
  let requested: string[];

  function serve(route: Route) {
    globalThis.fetch = (async (input: string | URL | Request) => {
      const url = new URL(String(input), 'http://app.test');
      requested.push(url.pathname + url.search);
      return route(url);
    }) as typeof fetch;
  }
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

  beforeEach(() => {
    requested = [];
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('answers the ohlc candles and their width when the candle call is OK, without asking history', async function () {
    serve(() => json(OHLC));
    const data = await getChartData('ethereum', 7, undefined, () => NOW);
    expect(data).to.deep.equal({ days: 7, candles: OHLC.candles, intervalMinutes: 60, source: 'ohlc' });
    expect(requested).to.deep.equal(['/api/coins/ethereum/ohlc?days=7']);
  });

  for (const [name, failure] of [
    ['a 503', () => json({ title: 'Service Unavailable' }, 503)],
    ['a network error', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['an answer breaking the contract', () => json({ ...OHLC, candles: [{ time: 1 }] })],
  ] as const) {
    it(`falls back to history converted to candles after ${name}`, async function () {
      serve((url) => (url.pathname.endsWith('/ohlc') ? failure() : json([{ time: 1, price: 10 }, { time: 2, price: 12 }])));
      const data = await getChartData('ethereum', 0.17, undefined, () => NOW);
      expect(requested).to.deep.equal(['/api/coins/ethereum/ohlc?days=0.17', '/api/coins/ethereum/history?days=0.17']);
      expect(data.source).to.equal('history');
      expect(data.intervalMinutes).to.equal(null);
      expect(data.candles.map((c) => [c.open, c.close])).to.deep.equal([[10, 10], [10, 12]]);
      expect(data.candles.at(-1)!.time).to.equal(NOW);
    });
  }

  it('draws flat candles at the current price for an empty history', async function () {
    serve((url) => {
      if (url.pathname.endsWith('/ohlc')) return json({}, 500);
      if (url.pathname.endsWith('/history')) return json([]);
      return json({ coinId: 'solana', symbol: 'SOL', price: 150.5, changePercent24h: 1, at: new Date(NOW).toISOString() });
    });
    const data = await getChartData('solana', 1, undefined, () => NOW);
    expect(requested.at(-1)).to.equal('/api/coins/solana/price');
    expect(data.candles).to.have.length.greaterThan(0);
    expect(data.candles.every((c) => c.open === 150.5 && c.close === 150.5 && c.high === 150.5 && c.low === 150.5)).to.equal(true);
  });

  it("fails with 'Failed to fetch price data' when both calls failed", async function () {
    serve(() => json({}, 500));
    const error = await getChartData('ethereum', 7).then(() => null, (e: unknown) => e);
    expect(error).to.be.instanceOf(Error);
    expect((error as Error).message).to.equal(PRICE_DATA_FETCH_FAILED);
  });

  it('passes a cancellation on instead of falling back', async function () {
    const controller = new AbortController();
    serve(() => {
      controller.abort();
      return Promise.reject(new DOMException('The operation was aborted.', 'AbortError'));
    });
    const error = await getChartData('ethereum', 7, controller.signal).then(() => null, (e: unknown) => e);
    expect((error as Error).name).to.equal('AbortError');
    expect(requested).to.have.length(1);
  });

  it('keys the query per coin and range and refetches it every 60 s', function () {
    const a = ohlcQueryOptions('ethereum', 7);
    expect(a.refetchInterval).to.equal(CHART_REFETCH_MS).and.to.equal(60_000);
    const keys = [ohlcQueryOptions('ethereum', 7), ohlcQueryOptions('ethereum', 30), ohlcQueryOptions('bitcoin', 7)].map((o) => JSON.stringify(o.queryKey));
    expect(new Set(keys).size).to.equal(3);
    expect(JSON.stringify(a.queryKey)).to.equal(keys[0]);
  });
});
