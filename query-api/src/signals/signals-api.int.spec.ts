/**
 * GET /api/signals and GET /api/indicators through HTTP on the embedded app (PGlite, the simulated
 * market at the real clock): signals newest first with their reasons and the counts, per symbol in
 * any case; what the signal engine writes shows up there; the indicators of the last closed 5-minute
 * candle, the same numbers the engine reads; 404 for an unknown symbol and 400 for a bad query.
 */
import { expect } from 'chai';
import { coins } from '@papertrade/domain/market/coins';
import { indicatorsResponseSchema, signalsResponseSchema } from '@papertrade/domain/signals/contracts';
import { closedCandles, readingsOfLastCandle } from '@papertrade/domain/signals/readings';
import { signalsStreamId } from '@papertrade/domain/signals/signal';
import { signalDecider } from '@papertrade/domain/signals/signal.decider';
import type { IndicatorReadings } from '@papertrade/domain/signals/signal-rules';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { silentLogger } from '@papertrade/platform/config/logger';
import Papa from 'papaparse';
import { useHarness } from '../../../test/api-harness';
import { SIGNALS_CSV_FIELDS } from './signals-routes';
import { waitUntil } from '../../../test/wait';
import { SignalEngine, signalIdFor, type Timer } from '../../../workers/src/signal-engine';

const buy: IndicatorReadings = { price: 100, rsi: 25, macd: { macd: 1, signal: 0, histogram: 1 }, sma20: 90, sma50: 80, ema20: 95, ema20Previous: 94, volumeRatio: 2 };
const sell: IndicatorReadings = { price: 100, rsi: 75, macd: { macd: -1, signal: 0, histogram: -1 }, sma20: 110, sma50: 120, ema20: 105, ema20Previous: 106, volumeRatio: 2 };
const hold: IndicatorReadings = { price: 100, rsi: 50, macd: { macd: 0, signal: 0, histogram: 0 }, sma20: 100, sma50: 100, ema20: 100, ema20Previous: 100, volumeRatio: 1 };

describe('signals API (HTTP, embedded)', function () {
  this.timeout(60_000);
  const harness = useHarness();

  async function get(path: string, headers: Record<string, string> = {}) {
    return harness().request('GET', path, { headers });
  }

  /** Evaluates a candle of `symbol` straight through the decider, as the engine does. */
  async function evaluate(symbol: string, candleTime: string, readings: IndicatorReadings) {
    const handler = new CommandHandler(harness().rt.infra.eventStore, () => new Date());
    return handler.handle(
      signalDecider,
      signalsStreamId(symbol),
      { type: 'EvaluateSignal', data: { signalId: signalIdFor(symbol, candleTime), symbol, candleTime, readings } },
      { actor: 'test', correlationId: 'test' },
    );
  }

  describe('GET /api/signals', function () {
    it('with no signal yet: an empty list and zero counts', async function () {
      const res = await get('/api/signals');
      expect(res.status).to.equal(200);
      expect(signalsResponseSchema.parse(res.body)).to.deep.equal({ symbol: null, signals: [], counts: { total: 0, buy: 0, sell: 0, hold: 0 }, total: 0, page: 1, pageSize: 50, totalPages: 0 });
    });

    it('lists signals newest candle first with their reasons, and counts them per symbol (any case) and overall', async function () {
      await evaluate('ETH', '2026-01-01T00:00:00.000Z', buy);
      await evaluate('BTC', '2026-01-01T00:05:00.000Z', hold);
      const last = await evaluate('ETH', '2026-01-01T00:10:00.000Z', sell);
      const res = await get('/api/signals', { 'x-min-position': String(last.position) });
      expect(res.status).to.equal(200);
      const body = signalsResponseSchema.parse(res.body);
      expect(body.signals.map((s) => [s.symbol, s.type, s.candleTime])).to.deep.equal([
        ['ETH', 'SELL', '2026-01-01T00:10:00.000Z'],
        ['BTC', 'HOLD', '2026-01-01T00:05:00.000Z'],
        ['ETH', 'BUY', '2026-01-01T00:00:00.000Z'],
      ]);
      expect(body.counts).to.deep.equal({ total: 3, buy: 1, sell: 1, hold: 1 });
      const [newest] = body.signals;
      expect(newest!.signalId).to.equal(signalIdFor('ETH', '2026-01-01T00:10:00.000Z'));
      expect(newest!.confidence).to.equal(100);
      expect(newest!.reasons.map((r) => r.indicator)).to.deep.equal(['RSI', 'MACD', 'SMA20', 'SMA50', 'EMA20', 'VOLUME']);
      expect(newest!.reasons[0]).to.deep.include({ indicator: 'RSI', value: 75, threshold: 70, says: 'SELL' });

      for (const symbol of ['eth', 'Eth', 'ETH', '%20eth%20']) {
        const eth = signalsResponseSchema.parse((await get(`/api/signals?symbol=${symbol}`)).body);
        expect(eth.symbol).to.equal('ETH');
        expect(eth.signals.map((s) => s.type)).to.deep.equal(['SELL', 'BUY']);
        expect(eth.counts).to.deep.equal({ total: 2, buy: 1, sell: 1, hold: 0 });
      }
      const btc = signalsResponseSchema.parse((await get('/api/signals?symbol=btc')).body);
      expect(btc.counts).to.deep.equal({ total: 1, buy: 0, sell: 0, hold: 1 });
      const sol = signalsResponseSchema.parse((await get('/api/signals?symbol=SOL')).body);
      expect(sol).to.deep.equal({ symbol: 'SOL', signals: [], counts: { total: 0, buy: 0, sell: 0, hold: 0 }, total: 0, page: 1, pageSize: 50, totalPages: 0 });
      // An empty symbol means every coin.
      expect(signalsResponseSchema.parse((await get('/api/signals?symbol=')).body).counts.total).to.equal(3);
    });

    it('says how each confidence follows from the reasons: weights, votes, score, formula; votes that cancel read as a mixed, low-confidence HOLD', async function () {
      // RSI BUY, MACD SELL, SMA20 BUY, SMA50 SELL, EMA20 BUY, volume NORMAL: BUY 4, SELL 3, HOLD 1 of 8.
      const split: IndicatorReadings = { price: 100, rsi: 20, macd: { macd: 0, signal: 1, histogram: -1 }, sma20: 90, sma50: 110, ema20: 101, ema20Previous: 100, volumeRatio: 1 };
      const result = await evaluate('LINK', '2026-01-01T00:00:00.000Z', split);
      const body = signalsResponseSchema.parse((await get('/api/signals?symbol=LINK', { 'x-min-position': String(result.position) })).body);
      const [signal] = body.signals;
      expect(signal).to.deep.include({ id: signal!.signalId, type: 'HOLD', confidence: 13, score: 0.125, formula: 'weighted-vote-v2', mixed: true });
      expect(signal!.weights).to.deep.equal({ buy: 4, sell: 3, hold: 1, total: 8 });
      expect(signal!.reasons.map((r) => [r.indicator, r.weight, r.vote])).to.deep.equal([
        ['RSI', 2, 1],
        ['MACD', 2, -1],
        ['SMA20', 1, 1],
        ['SMA50', 1, -1],
        ['EMA20', 1, 1],
        ['VOLUME', 1, 0],
      ]);
      expect(signal!.description).to.equal('HOLD (13% confidence, mixed evidence): RSI, SMA20, EMA20 say BUY; MACD, SMA50 say SELL; VOLUME says HOLD');
      // Generated now (the event's time), after its candle closed.
      expect(Date.parse(signal!.timestamp)).to.be.above(Date.parse('2026-01-01T00:05:00.000Z'));
    });

    it('shows what the signal engine writes: one signal per coin on start, ids from symbol and candle', async function () {
      const before = signalsResponseSchema.parse((await get('/api/signals')).body).counts.total;
      let fire: (() => void) | undefined;
      const timer: Timer = { set: (callback) => (fire = callback), clear: () => {} };
      const engine = new SignalEngine({ marketData: harness().rt.marketData, handler: new CommandHandler(harness().rt.infra.eventStore, harness().rt.clock), clock: harness().rt.clock, logger: silentLogger, timer });
      engine.start();
      fire!();
      await engine.idle();
      await engine.stop();
      expect(engine.status()).to.deep.include({ signalsGenerated: coins.length, failures: 0 });
      // The list and the counts are two projections, each with its own checkpoint: wait for both.
      const fromEngineIn = (parsed: { signals: Array<{ candleTime: string }> }) => parsed.signals.filter((s) => s.candleTime > '2026-01-01T00:10:00.000Z');
      const body = await waitUntil(async () => {
        const parsed = signalsResponseSchema.parse((await get('/api/signals')).body);
        return parsed.counts.total === before + coins.length && fromEngineIn(parsed).length === coins.length ? parsed : undefined;
      });
      const fromEngine = body.signals.filter((s) => s.candleTime > '2026-01-01T00:10:00.000Z');
      expect(fromEngine.map((s) => s.symbol).sort()).to.deep.equal(coins.map((c) => c.symbol).sort());
      for (const s of fromEngine) expect(s.signalId).to.equal(signalIdFor(s.symbol, s.candleTime));
    });
  });

  describe('GET /api/signals: pages and CSV', function () {
    let position: string;
    /** ADA's signals before these (the engine's of the spec above, when it ran): older than the five here. */
    let base: number;
    before(async function () {
      base = signalsResponseSchema.parse((await get('/api/signals?symbol=ADA')).body).total;
      for (let i = 0; i < 5; i++) position = String((await evaluate('ADA', `2030-02-01T00:${String(i * 5).padStart(2, '0')}:00.000Z`, i % 2 ? buy : sell)).position);
    });

    it('pages newest first: page and pageSize, with total and totalPages', async function () {
      const first = signalsResponseSchema.parse((await get('/api/signals?symbol=ada&pageSize=2', { 'x-min-position': position })).body);
      expect(first).to.include({ total: base + 5, page: 1, pageSize: 2, totalPages: Math.ceil((base + 5) / 2) });
      expect(first.signals.map((s) => s.candleTime)).to.deep.equal(['2030-02-01T00:20:00.000Z', '2030-02-01T00:15:00.000Z']);
      const third = signalsResponseSchema.parse((await get('/api/signals?symbol=ADA&pageSize=2&page=3')).body);
      expect(third.signals[0]!.candleTime).to.equal('2030-02-01T00:00:00.000Z');
      expect(signalsResponseSchema.parse((await get('/api/signals?symbol=ADA&page=9')).body).signals).to.deep.equal([]);
    });

    it('answers CSV for ?format=csv or Accept: text/csv: the whole filtered list, or the page asked for', async function () {
      for (const res of [await get('/api/signals?symbol=ADA&format=csv', { 'x-min-position': position }), await get('/api/signals?symbol=ADA', { accept: 'text/csv' })]) {
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.headers.get('content-type')).to.match(/^text\/csv/);
        expect(res.headers.get('content-disposition')).to.match(/^attachment; filename="signals-ADA-\d{4}-\d{2}-\d{2}\.csv"$/);
        expect(res.headers.get('x-total-count')).to.equal(String(base + 5));
        expect(res.headers.get('x-csv-truncated')).to.equal(null);
        const parsed = Papa.parse<Record<string, string>>(res.body as string, { header: true, skipEmptyLines: true });
        expect(parsed.meta.fields).to.deep.equal([...SIGNALS_CSV_FIELDS]);
        expect(parsed.data).to.have.length(base + 5);
        expect(parsed.data.slice(0, 5).map((r) => [r.candleTime, r.symbol, r.type])).to.deep.equal([
          ['2030-02-01T00:20:00.000Z', 'ADA', 'SELL'],
          ['2030-02-01T00:15:00.000Z', 'ADA', 'BUY'],
          ['2030-02-01T00:10:00.000Z', 'ADA', 'SELL'],
          ['2030-02-01T00:05:00.000Z', 'ADA', 'BUY'],
          ['2030-02-01T00:00:00.000Z', 'ADA', 'SELL'],
        ]);
        expect(parsed.data[0]!.reasons).to.match(/RSI/);
      }
      const page = await get('/api/signals?symbol=ADA&format=csv&pageSize=2&page=2');
      expect(page.headers.get('content-disposition')).to.equal('attachment; filename="signals-ADA-page-2.csv"');
      expect(Papa.parse<Record<string, string>>(page.body as string, { header: true, skipEmptyLines: true }).data.map((r) => r.candleTime)).to.deep.equal(['2030-02-01T00:10:00.000Z', '2030-02-01T00:05:00.000Z']);
      // ?format wins over Accept.
      expect((await get('/api/signals?symbol=ADA&format=json', { accept: 'text/csv' })).headers.get('content-type')).to.match(/^application\/json/);
    });
  });

  describe('GET /api/indicators', function () {
    it('defaults to ETH: the readings of the last closed 5-minute candle, the numbers the engine reads', async function () {
      const { res, expected } = await waitUntil(async () => {
        const series = await harness().rt.marketData.candles('ethereum', 1);
        const res = await get('/api/indicators');
        const again = await harness().rt.marketData.candles('ethereum', 1);
        const last = readingsOfLastCandle(closedCandles(series.candles, 5, Date.now()))!;
        // Same closed candle on both sides of the request (not across a candle boundary).
        return res.body?.candleTime === new Date(last.candle.time).toISOString() && again.candles.at(-2)?.time === series.candles.at(-2)?.time ? { res, expected: last } : undefined;
      });
      expect(res.status).to.equal(200);
      const body = indicatorsResponseSchema.parse(res.body);
      expect(body).to.deep.include({ coinId: 'ethereum', symbol: 'ETH', interval: '5m', intervalMinutes: 5, price: expected.readings.price });
      expect(body).to.deep.include({ rsi: expected.readings.rsi, sma20: expected.readings.sma20, sma50: expected.readings.sma50, ema20: expected.readings.ema20 });
      // The spec's names: macd a number (the line), macdSignal, ma20 (= sma20); the histogram beside them.
      expect(body).to.deep.include({
        macd: expected.readings.macd!.macd,
        macdSignal: expected.readings.macd!.signal,
        macdHistogram: expected.readings.macd!.histogram,
        ma20: expected.readings.sma20,
      });
      expect(body.rsi).to.be.within(0, 100);
      expect(body.volume).to.be.oneOf(['HIGH', 'LOW', 'NORMAL']);
      expect(Date.parse(body.candleTime) + 5 * 60_000).to.be.at.most(Date.now());
    });

    it('takes a symbol in any case', async function () {
      for (const symbol of ['btc', 'SOL', 'Uni']) {
        const res = await get(`/api/indicators?symbol=${symbol}`);
        expect(res.status, symbol).to.equal(200);
        expect(indicatorsResponseSchema.parse(res.body).symbol).to.equal(symbol.toUpperCase());
      }
    });
  });

  describe('bad input: 404 for an unknown symbol, 400 naming the field, never 500', function () {
    for (const endpoint of ['/api/signals', '/api/indicators']) {
      for (const [symbol, named] of [
        ['DOGE', '"DOGE"'],
        ['__proto__', '"__proto__"'],
        ['%00', '"\\u0000"'],
        ['e'.repeat(32), `"${'e'.repeat(32)}"`],
      ] as const) {
        it(`${endpoint}?symbol=${symbol.slice(0, 12)}: 404 naming ${named.slice(0, 20)}`, async function () {
          const res = await get(`${endpoint}?symbol=${symbol}`);
          expect(res.status).to.equal(404);
          expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
          expect(res.body.detail).to.equal(`Unknown coin symbol ${named}; supported: ETH, BTC, BNB, ADA, SOL, MATIC, LINK, AVAX, DOT, UNI`);
        });
      }
      for (const [query, detail] of [
        ['?symbol=eth&symbol=btc', 'symbol: must be given once'],
        [`?symbol=${'e'.repeat(33)}`, 'symbol: must be a coin symbol such as ETH, at most 32 characters'],
        ['?coin=eth', 'unknown field: coin'],
        ['?symbol[]=eth', 'unknown field: symbol[]'],
        ['?limit=5', 'unknown field: limit'],
        ...(endpoint === '/api/signals'
          ? ([
              ['?page=0', 'page: must be a whole number from 1 to 1000000'],
              ['?page=-1', 'page: must be a whole number from 1 to 1000000'],
              ['?page=1.5', 'page: must be a whole number from 1 to 1000000'],
              ['?page=abc', 'page: must be a whole number from 1 to 1000000'],
              ['?page=1&page=2', 'page: must be given once'],
              ['?pageSize=201', 'pageSize: must be a whole number from 1 to 200'],
              ['?pageSize=0', 'pageSize: must be a whole number from 1 to 200'],
              ['?format=xml', 'format: must be json or csv'],
            ] as const)
          : ([['?page=1', 'unknown field: page']] as const)),
      ] as const) {
        it(`${endpoint}${query.slice(0, 40)}: 400 "${detail}"`, async function () {
          const res = await get(`${endpoint}${query}`);
          expect(res.status).to.equal(400);
          expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
          expect(res.body.detail).to.equal(detail);
        });
      }
    }
  });

  // Last: its signals would show in the lists above.
  describe('GET /api/signals: revalidation', function () {
    it('may be kept by the browser and asked again: an ETag and no-cache; If-None-Match of the same answer is a 304 without a body, a new signal a new ETag', async function () {
      // Candles after any the engine evaluated at start (an older one appends nothing).
      const t0 = Math.ceil(Date.now() / 300_000) * 300_000 + 3_600_000;
      const first = await evaluate('SOL', new Date(t0).toISOString(), buy);
      const res = await get('/api/signals?symbol=SOL', { 'x-min-position': String(first.position) });
      expect(res.status).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('no-cache');
      const etag = res.headers.get('etag');
      expect(etag).to.match(/^"[\w-]{27}"$/);
      const again = await get('/api/signals?symbol=SOL', { 'if-none-match': etag!, 'x-min-position': String(first.position) });
      expect(again.status).to.equal(304);
      expect(again.body === null || again.body === '' || again.body === undefined).to.equal(true);
      // Another page is another answer.
      expect((await get('/api/signals?symbol=SOL&pageSize=10', { 'if-none-match': etag! })).status).to.equal(200);
      const next = await evaluate('SOL', new Date(t0 + 300_000).toISOString(), sell);
      const changed = await get('/api/signals?symbol=SOL', { 'if-none-match': etag!, 'x-min-position': String(next.position) });
      expect(changed.status).to.equal(200);
      expect(changed.headers.get('etag')).to.not.equal(etag);
      expect(signalsResponseSchema.parse(changed.body).signals.slice(0, 2).map((s) => s.type)).to.deep.equal(['SELL', 'BUY']);
      // A personal answer keeps no-store and no validator.
      const coinsRes = await get('/api/price?symbol=ETH');
      expect(coinsRes.headers.get('cache-control')).to.equal('no-store');
      expect(coinsRes.headers.get('etag')).to.equal(null);
    });
  });
});
