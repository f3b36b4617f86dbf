/**
 * The trading reads through HTTP on the embedded app (PGlite, the simulated market at the real
 * clock): events appended with the portfolio and risk deciders through the command handler, then
 * read with X-Min-Position. Cash exact, totalValue = cash + positions to the cent at the price the
 * response names, daily P&L since 00:00 UTC at the price of that moment, trades paged and filtered
 * in the store, the demo portfolio for visitors, premium gating (visitor, free, premium, admin) and
 * 400 for bad query parameters; partial sells through POST /api/trades take FIFO lots, and the
 * trades' pnl add up to the portfolio's realised + unrealised P&L to the cent (issue 16).
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import Papa from 'papaparse';
import { coinBySymbol } from '../market/coin-params';
import { HOUSE_DEMO_USER_ID } from '@papertrade/domain/trading/house-demo';
import { portfolioStreamId, type TradeSource } from '@papertrade/domain/trading/portfolio';
import { portfolioDecider, type PortfolioCommand } from '@papertrade/domain/trading/portfolio.decider';
import {
  activeRiskTradesResponseSchema,
  botDecisionsResponseSchema,
  portfolioResponseSchema,
  riskAlertsResponseSchema,
  riskParametersResponseSchema,
  riskResponseSchema,
  tradesResponseSchema,
  type Trade,
} from '@papertrade/domain/trading/read-contracts';
import { riskStreamId } from '@papertrade/domain/trading/risk';
import { riskDecider, type RiskCommand } from '@papertrade/domain/trading/risk.decider';
import { DEFAULT_BOT_SETTINGS, DEFAULT_RISK_PARAMETERS } from '@papertrade/domain/trading/contracts';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import type { ExitRequest } from '@papertrade/domain/trading/portfolio.decider';
import { tickAt } from '@papertrade/domain/market/market-path';
import { useHarness } from '../../../test/api-harness';
import { waitUntil } from '../../../test/wait';
import { TRADES_CSV_FIELDS } from './trading-routes';

const HOUR = 3_600_000;
const cents = (usd: number) => Math.round(usd * 100);
const MANUAL: TradeSource = { kind: 'MANUAL' };

describe('trading read API (HTTP, embedded)', function () {
  this.timeout(120_000);
  const harness = useHarness();
  let position = '';

  const handler = () => new CommandHandler(harness().rt.infra.eventStore, () => new Date());
  const meta = { actor: 'test', correlationId: 'test' };

  async function portfolio(userId: string, command: Omit<PortfolioCommand, 'metadata'> & { now: string }) {
    const { now, ...rest } = command;
    const result = await handler().handle(portfolioDecider, portfolioStreamId(userId), { ...rest, metadata: { now } } as PortfolioCommand, meta);
    if (result.position) position = result.position;
    return result;
  }
  /** A trade; `exits` the plan of a BUY (the bot's follow the profile: { kind: 'PROFILE', ... }). */
  const trade = (userId: string, tradeId: string, side: 'BUY' | 'SELL', amount: number, price: number, now: Date, symbol = 'ETH', source: TradeSource = MANUAL, exits?: ExitRequest) =>
    portfolio(userId, { type: 'PlaceSimulatedTrade', data: { userId, tradeId, symbol, side, amount, price, source, ...(exits ? { exits } : {}) }, now: now.toISOString() });
  const BOT: ExitRequest = { kind: 'PROFILE', atr: null, sigma: null };
  async function risk(userId: string, command: RiskCommand) {
    const result = await handler().handle(riskDecider, riskStreamId(userId), command, meta);
    if (result.position) position = result.position;
  }

  async function get(path: string, token?: string) {
    return harness().request('GET', path, { ...(token ? { token } : {}), headers: position ? { 'x-min-position': position } : {} });
  }

  async function user(tier: 'FREE' | 'PREMIUM' | 'ADMIN'): Promise<{ userId: string; token: string }> {
    if (tier === 'ADMIN') {
      const admin = await harness().admin();
      return { userId: admin.id, token: admin.token };
    }
    const id = randomUUID().slice(0, 8);
    const { userId } = await harness().signup({ email: `t.${id}@example.com`, username: `t_${id}` });
    const token = await harness().login(`t.${id}@example.com`, 'secret1');
    if (tier === 'PREMIUM') {
      const admin = await harness().admin();
      const res = await harness().request('PUT', `/api/admin/users/${userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } });
      expect(res.status).to.equal(200);
      position = res.body.position;
    }
    return { userId, token };
  }

  /** The market's price range over the request, to check the price the response valued at. */
  async function priceRange(symbol: string, during: () => Promise<unknown>): Promise<[number, number]> {
    const coin = coinBySymbol(symbol);
    const before = (await harness().rt.marketData.price(coin.id)).price;
    await during();
    const after = (await harness().rt.marketData.price(coin.id)).price;
    return [Math.min(before, after), Math.max(before, after)];
  }

  describe('GET /api/portfolio', function () {
    it('an unused portfolio is 10,000 cash; visitors get the house demo with demo: true', async function () {
      const { token } = await user('FREE');
      const mine = portfolioResponseSchema.parse((await get('/api/portfolio', token)).body);
      expect(mine).to.deep.include({ demo: false, totalValue: 10_000, cash: 10_000, positionsValue: 0, dailyPnL: 0, totalPnl: 0, ethHoldings: 0, positions: [] });
      expect(mine.latestPrice.symbol).to.equal('ETH');
      expect(mine).not.to.have.property('mlStatus');

      await trade(HOUSE_DEMO_USER_ID, randomUUID(), 'BUY', 1.5, 3000, new Date());
      const res = await get('/api/portfolio');
      expect(res.status).to.equal(200);
      const demo = portfolioResponseSchema.parse(res.body);
      expect(demo.demo).to.equal(true);
      expect(demo.ethHoldings).to.equal(1.5);
      expect(demo.cash).to.equal(5495.5); // 10,000 - 4,500 - 4.50 fee
    });

    it('cash is exact and totalValue = cash + positions at the market price to the cent; dailyPnL since the opening today', async function () {
      const { userId, token } = await user('FREE');
      const now = new Date();
      await trade(userId, 'b1', 'BUY', 0.123456, 3012.34, now);
      await trade(userId, 'b2', 'BUY', 0.01, 61_000, now, 'BTC');
      await trade(userId, 's1', 'SELL', 0.023456, 3100, now);
      let res: Awaited<ReturnType<typeof get>> | undefined;
      const ethRange = await priceRange('ETH', async () => (res = await get('/api/portfolio', token)));
      const body = portfolioResponseSchema.parse(res!.body);
      // 10,000 - (371.891447 + 0.371891 fee) - (610 + 0.61) + (72.7136 - 0.072714): micros rounded once per fill, shown in cents.
      const cashMicros = 10_000_000_000 - 371_891_447 - 371_891 - 610_000_000 - 610_000 + 72_713_600 - 72_714;
      expect(body.cash).to.equal(Math.round(cashMicros / 10_000) / 100);
      expect(body.positions.map((p) => [p.symbol, p.quantity])).to.have.deep.members([
        ['ETH', 0.1],
        ['BTC', 0.01],
      ]);
      for (const p of body.positions) expect(p.marketValue).to.equal(Math.round(p.quantity * p.price * 100) / 100);
      const eth = body.positions.find((p) => p.symbol === 'ETH')!;
      expect(eth.price).to.be.within(ethRange[0], ethRange[1]);
      expect(eth.averageEntryPrice).to.equal(3012.34);
      expect(cents(body.totalValue)).to.equal(cents(body.cash) + body.positions.reduce((s, p) => s + cents(p.marketValue), 0));
      expect(cents(body.positionsValue)).to.equal(body.positions.reduce((s, p) => s + cents(p.marketValue), 0));
      expect(cents(body.totalPnl)).to.equal(cents(body.realisedPnl) + cents(body.unrealisedPnl));
      // The same amount rounded once: within half a cent for the cash, the one sale and the two lots.
      expect(Math.abs(cents(body.totalPnl) - (cents(body.totalValue) - 1_000_000))).to.be.at.most(2);
      // Opened today: the day began at 10,000 cash.
      expect(cents(body.dailyPnL)).to.equal(cents(body.totalValue) - 1_000_000);
      expect(body.ethHoldings).to.equal(0.1);
    });

    it('dailyPnL counts from what was held at 00:00 UTC, valued at the price of that moment', async function () {
      const { userId, token } = await user('FREE');
      const now = new Date();
      const yesterday = new Date(now.getTime() - 24 * HOUR);
      await trade(userId, 'y1', 'BUY', 1, 3000, yesterday);
      await trade(userId, 't1', 'SELL', 0.25, 3300, now);
      const body = portfolioResponseSchema.parse((await get('/api/portfolio', token)).body);
      const midnight = Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00.000Z`);
      const series = await harness().rt.marketData.candles('ethereum', 1);
      const atMidnight = series.candles.find((c) => c.time === midnight)!.open;
      // Cash at 00:00: 10,000 - 3,000 - 3 = 6,997; 1 ETH at the midnight price.
      const startCents = 699_700 + Math.round(atMidnight * 100);
      expect(cents(body.dailyPnL)).to.equal(cents(body.totalValue) - startCents);
      expect(body.dailyPnLPercent).to.equal(Math.round(((cents(body.totalValue) - startCents) / startCents) * 10_000) / 100);
      // 0.25 x 3,300 = 825 - 0.825 fee - 750.75 basis = 73.425 -> 73.43
      expect(body.realisedPnlToday).to.equal(73.43);
    });

    it('a sent but unusable token is a 401, not the demo; a query parameter is a 400', async function () {
      const bad = await harness().request('GET', '/api/portfolio', { token: 'not-a-token' });
      expect(bad.status).to.equal(401);
      const query = await get('/api/portfolio?symbol=ETH');
      expect(query.status).to.equal(400);
      expect(query.body.detail).to.match(/symbol/);
    });
  });

  describe('GET /api/trades', function () {
    /** 60 trades over 60 hours ending an hour ago: ETH and BTC buys, and sells of half of each. */
    async function history(userId: string) {
      const start = Date.now() - 61 * HOUR;
      const placed: Array<{ id: string; symbol: string; side: 'BUY' | 'SELL'; at: number }> = [];
      for (let i = 0; i < 60; i++) {
        const symbol = i % 4 < 2 ? 'ETH' : 'BTC';
        const side = i % 2 === 0 ? 'BUY' : 'SELL';
        const at = start + i * HOUR;
        const id = `tr-${String(i).padStart(3, '0')}`;
        await trade(userId, id, side, symbol === 'ETH' ? 0.2 : 0.002, symbol === 'ETH' ? 3000 + i : 60_000 + i, new Date(at), symbol);
        placed.push({ id, symbol, side, at });
      }
      return placed;
    }

    it('pages the trades newest first, with the total and the all-time summary; filters by coin, type, status and dates in the store', async function () {
      const { userId, token } = await user('FREE');
      const placed = await history(userId);
      // The last ETH BUY (tr-056) sold half by tr-057 stays OPEN; every other BUY was sold out by the next SELL of its coin.
      const first = tradesResponseSchema.parse((await get('/api/trades?pageSize=25', token)).body);
      expect(first).to.deep.include({ demo: false, total: 60, page: 1, pageSize: 25, totalPages: 3 });
      expect(first.trades.map((t) => t.id)).to.deep.equal(placed.slice(35).reverse().map((p) => p.id));
      const last = tradesResponseSchema.parse((await get('/api/trades?pageSize=25&page=3', token)).body);
      expect(last.trades.map((t) => t.id)).to.deep.equal(placed.slice(0, 10).reverse().map((p) => p.id));
      expect(first.summary).to.deep.include({ totalTrades: 60, buys: 30, sells: 30 });

      const sell = first.trades.find((t) => t.id === 'tr-057')!;
      // Sold all 0.2 ETH bought at 3,056 for 3,057: 611.40 - 0.6114 fee - (611.20 + 0.6112) = -1.0226 -> -1.02.
      expect(sell).to.deep.include({ type: 'SELL', symbol: 'ETH', coinId: 'ethereum', amount: 0.2, price: 3057, entryPrice: 3056, fee: 0.61, pnl: -1.02, status: 'CLOSED', closeReason: 'SELL', source: 'Manual' });
      expect(first.trades.find((t) => t.id === 'tr-056')).to.deep.include({ status: 'CLOSED', closeReason: 'SELL' });

      const expectIds = async (query: string, keep: (p: (typeof placed)[number]) => boolean) => {
        const body = tradesResponseSchema.parse((await get(`/api/trades?pageSize=100&${query}`, token)).body);
        const want = placed.filter(keep).reverse().map((p) => p.id);
        expect(body.trades.map((t: Trade) => t.id), query).to.deep.equal(want);
        expect(body.total, query).to.equal(want.length);
      };
      await expectIds('symbol=btc', (p) => p.symbol === 'BTC');
      await expectIds('coinId=bitcoin&type=sell', (p) => p.symbol === 'BTC' && p.side === 'SELL');
      await expectIds('type=BUY&status=CLOSED', (p) => p.side === 'BUY');
      await expectIds('status=OPEN', () => false);
      const from = new Date(placed[10]!.at).toISOString();
      const to = new Date(placed[20]!.at).toISOString();
      await expectIds(`from=${from}&to=${to}`, (p) => p.at >= placed[10]!.at && p.at <= placed[20]!.at);
      const day = new Date(placed[30]!.at).toISOString().slice(0, 10);
      await expectIds(`from=${day}&to=${day}&symbol=ETH`, (p) => p.symbol === 'ETH' && new Date(p.at).toISOString().slice(0, 10) === day);
      const beyond = tradesResponseSchema.parse((await get('/api/trades?page=9', token)).body);
      expect(beyond).to.deep.include({ trades: [], total: 60, page: 9 });
    });

    it('answers CSV for ?format=csv or Accept: text/csv: the filtered list (every match, or the asked page), newest first', async function () {
      const { userId, token } = await user('FREE');
      const placed = await history(userId);
      const rowsOf = (csv: string) => Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true });
      const btc = placed.filter((p) => p.symbol === 'BTC').reverse();
      const byFormat = await get('/api/trades?symbol=btc&format=csv', token);
      const byAccept = await harness().request('GET', '/api/trades?symbol=btc', { token, headers: { 'x-min-position': position, accept: 'text/csv' } });
      for (const res of [byFormat, byAccept]) {
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.match(/^text\/csv/);
        expect(res.headers.get('content-disposition')).to.match(/^attachment; filename="trades-\d{4}-\d{2}-\d{2}\.csv"$/);
        expect(res.headers.get('x-total-count')).to.equal(String(btc.length));
        const parsed = rowsOf(res.body as string);
        expect(parsed.meta.fields).to.deep.equal([...TRADES_CSV_FIELDS]);
        // Every match, not the JSON's default page of 20.
        expect(parsed.data.map((r) => r.id)).to.deep.equal(btc.map((p) => p.id));
        expect(parsed.data.every((r) => r.symbol === 'BTC' && r.source === 'Manual')).to.equal(true);
      }
      const json = tradesResponseSchema.parse((await get('/api/trades?pageSize=100', token)).body);
      const sellJson = json.trades.find((t) => t.id === 'tr-057')!;
      const all = rowsOf((await get('/api/trades?format=csv', token)).body as string).data;
      expect(all).to.have.length(60);
      expect(all.find((r) => r.id === 'tr-057')).to.deep.include({
        time: sellJson.timestamp, type: 'SELL', symbol: 'ETH', amount: '0.2', price: '3057', value: String(sellJson.value), fee: '0.61', pnl: '-1.02', status: 'CLOSED', closeReason: 'SELL',
      });
      const page = await get('/api/trades?format=csv&pageSize=25&page=3', token);
      expect(page.headers.get('content-disposition')).to.equal('attachment; filename="trades-page-3.csv"');
      expect(page.headers.get('x-total-count')).to.equal('60');
      expect(rowsOf(page.body as string).data.map((r) => r.id)).to.deep.equal(placed.slice(0, 10).reverse().map((p) => p.id));
      // Visitors get the house demo's trades, named as such.
      const demo = await get('/api/trades?format=csv');
      expect(demo.status).to.equal(200);
      expect(demo.headers.get('content-disposition')).to.match(/filename="demo-trades-/);
      const bad = await get('/api/trades?format=xml', token);
      expect(bad.status).to.equal(400);
      expect(bad.body.detail).to.match(/format: must be json or csv/);
    });

    it('an OPEN BUY, and the demo trades for visitors', async function () {
      const { userId, token } = await user('FREE');
      await trade(userId, 'open-1', 'BUY', 0.5, 3000, new Date());
      const [open] = tradesResponseSchema.parse((await get('/api/trades', token)).body).trades;
      expect(open).to.deep.include({ id: 'open-1', type: 'BUY', status: 'OPEN', closeReason: null, pnlRealised: false, value: 1500, fee: 1.5, entryPrice: 3000 });
      const demo = tradesResponseSchema.parse((await get('/api/trades')).body);
      expect(demo.demo).to.equal(true);
      expect(demo.total).to.be.greaterThan(0);
      expect(demo.trades.every((t) => t.status === 'OPEN' || t.status === 'CLOSED')).to.equal(true);
    });

    it('partial sells through POST /api/trades take FIFO lots: the trades\' pnl add up to realised + unrealised to the cent', async function () {
      const { token } = await user('FREE');
      const post = async (type: 'BUY' | 'SELL', amount: number) => {
        const res = await harness().request('POST', '/api/trades', { token, body: { symbol: 'ETH', type, amount } });
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        // The reads below send X-Min-Position: the position of this write, not an earlier test's (with
        // an older one they were served before the sale was projected when the whole file ran).
        position = String(res.body.position);
        return res.body as { id: string; price: number; total: number; realisedPnl: number | null };
      };
      const b1 = await post('BUY', 0.5);
      const b2 = await post('BUY', 0.5);
      const before = tradesResponseSchema.parse((await get('/api/trades', token)).body);
      // No trade has closed yet: no win rate, not 0 %.
      expect(before.summary.winRate).to.equal(null);
      expect(before.lotRule).to.equal('FIFO');
      const s1 = await post('SELL', 0.6);
      // FIFO: all of b1's cost and a fifth of b2's (0.1 of its 0.5), each to the micro-dollar.
      const micros = (usd: number) => Math.round(usd * 1e6);
      expect(micros(s1.realisedPnl!)).to.equal(micros(s1.total) - micros(b1.total) - Math.round(micros(b2.total) / 5));

      // Read both at one market price (the market moves each second): the trades' pnl, and the portfolio.
      const { trades, portfolio } = await waitUntil(
        async () => {
          let pair: { trades: Trade[]; portfolio: ReturnType<typeof portfolioResponseSchema.parse> } | undefined;
          const range = await priceRange('ETH', async () => {
            const list = tradesResponseSchema.parse((await get('/api/trades', token)).body);
            pair = { trades: list.trades, portfolio: portfolioResponseSchema.parse((await get('/api/portfolio', token)).body) };
          });
          return range[0] === range[1] ? pair : undefined;
        },
        { message: 'two reads within one second of the market', timeoutMs: 30_000 },
      );
      const byId = (id: string) => trades.find((t) => t.id === id)!;
      expect(byId(b1.id)).to.deep.include({ status: 'CLOSED', closeReason: 'SELL', pnl: null, remainingQuantity: 0, soldQuantity: 0.5, entryPrice: b1.price });
      expect(byId(b2.id)).to.deep.include({ status: 'OPEN', remainingQuantity: 0.4, soldQuantity: 0.1, entryPrice: b2.price, lotRule: null });
      expect(byId(s1.id)).to.deep.include({ status: 'CLOSED', pnl: Math.round(s1.realisedPnl! * 100) / 100, lotRule: 'FIFO' });
      expect(byId(s1.id).lots).to.deep.equal([
        { tradeId: b1.id, quantity: 0.5, entryPrice: b1.price },
        { tradeId: b2.id, quantity: 0.1, entryPrice: b2.price },
      ]);
      const sum = trades.reduce((total, t) => total + cents(t.pnl ?? 0), 0);
      expect(sum).to.equal(cents(portfolio.realisedPnl) + cents(portfolio.unrealisedPnl));
      expect(cents(portfolio.totalPnl)).to.equal(sum);
      expect(cents(portfolio.realisedPnl)).to.equal(cents(byId(s1.id).pnl!));
      expect(cents(portfolio.unrealisedPnl)).to.equal(cents(byId(b2.id).pnl!));
      expect(portfolio.positions).to.have.length(1);
      expect(portfolio.positions[0]).to.deep.include({ quantity: 0.4, averageEntryPrice: b2.price, unrealisedPnl: byId(b2.id).pnl });

      // The CSV says the same.
      const csv = Papa.parse<Record<string, string>>((await get('/api/trades?format=csv', token)).body as string, { header: true, skipEmptyLines: true }).data;
      expect(csv.find((r) => r.id === b2.id)).to.deep.include({ remainingQuantity: '0.4', soldQuantity: '0.1', status: 'OPEN' });
      expect(csv.find((r) => r.id === s1.id)).to.deep.include({ lotRule: 'FIFO', remainingQuantity: '' });
    });

    const bad: Array<[string, RegExp]> = [
      ['page=0', /page/],
      ['page=abc', /page/],
      ['pageSize=101', /pageSize: must be a whole number from 1 to 100/],
      ['status=PENDING', /status: must be OPEN or CLOSED/],
      ['type=HOLD', /type: must be BUY or SELL/],
      ['symbol=DOGE', /symbol/],
      ['coinId=dogecoin', /coinId/],
      ['coinId=bitcoin&symbol=ETH', /does not match coinId bitcoin/],
      ['from=yesterday', /from/],
      // Date.parse would roll these over to March 2 and May 1.
      ['to=2026-02-30', /^to: must be an ISO-8601 date/],
      ['from=2026-04-31T10:00:00Z', /^from: must be an ISO-8601 date/],
      ['from=2026-03-05&to=2026-03-04', /to: must not be before from/],
      ['page=1&page=2', /page: must be given once/],
      ['sort=asc', /sort/],
    ];
    for (const [query, message] of bad) {
      it(`400 for ${query}`, async function () {
        const res = await get(`/api/trades?${query}`);
        expect(res.status).to.equal(400);
        expect(res.body.detail).to.match(message);
      });
    }
  });

  describe('GET /api/risk and /api/risk/parameters', function () {
    it('the bot settings and parameters (defaults until changed); 401 for visitors', async function () {
      const { userId, token } = await user('FREE');
      const fresh = riskResponseSchema.parse((await get('/api/risk', token)).body);
      expect(fresh.settings).to.deep.equal({ ...DEFAULT_BOT_SETTINGS, stopLoss: 2, takeProfit: 5, stopLossType: 'fixed', stopLossUnit: 'percent' });
      expect(fresh).to.deep.include({ maxPositionSize: 5, stopLossPercent: 2, takeProfitPercent: 5, dailyLossLimit: 500, dailyPnL: 0, dailyLossUsed: 0, portfolioRiskAmount: 0, openPositions: 0 });
      expect(riskParametersResponseSchema.parse((await get('/api/risk/parameters', token)).body)).to.deep.equal({ ...DEFAULT_RISK_PARAMETERS, customised: false });

      const now = new Date().toISOString();
      await risk(userId, { type: 'ChangeBotSettings', data: { userId, changes: { stopLossPercent: 4, dailyLossLimit: 1000 } }, metadata: { now } });
      // One profile: the parameters show the bot settings' stop and daily limit.
      const afterBot = riskParametersResponseSchema.parse((await get('/api/risk/parameters', token)).body);
      expect(afterBot).to.deep.equal({ ...DEFAULT_RISK_PARAMETERS, stopLossValue: 4, maxDailyLoss: 1000, customised: false });
      await risk(userId, { type: 'ChangeRiskParameters', data: { userId, parameters: { ...afterBot, maxConcurrentTrades: 3, maxPositionSize: 7 } }, metadata: { now } });
      await trade(userId, 'r1', 'BUY', 1, 3000, new Date(), 'ETH', MANUAL, BOT);
      const changed = riskResponseSchema.parse((await get('/api/risk', token)).body);
      // And the risk card shows the parameters' 7 % (issue 17: it said 5 % while the parameters said 7 %).
      expect(changed).to.deep.include({ maxPositionSize: 7, stopLossPercent: 4, takeProfitPercent: 10, dailyLossLimit: 1000, openPositions: 1 });
      expect(changed.settings).to.deep.include({ maxPositionSize: 7, stopLoss: 4, takeProfit: 10, dailyLossLimit: 1000 });
      // Stop at 2,880: 2,880 - 2.88 fee = 2,877.12 against 3,003 -> 125.88.
      expect(changed.portfolioRiskAmount).to.equal(125.88);
      expect(changed.dailyLossUsedPercent).to.equal(Math.round((Math.max(0, -cents(changed.dailyPnL)) / 100_000) * 10_000) / 100);
      // The drawdown rule as it stands at the market's price now (the position was bought at a fixed
      // 3,000, the simulated ETH is wherever its seed and the date put it): paused exactly when past 15 %.
      expect(changed.drawdown.maxDrawdown).to.equal(15);
      expect(changed.drawdown.entriesPaused).to.equal(changed.drawdown.percent > 15);
      expect(changed.drawdown.reason === null).to.equal(!changed.drawdown.entriesPaused);
      expect(riskParametersResponseSchema.parse((await get('/api/risk/parameters', token)).body)).to.deep.equal({ ...DEFAULT_RISK_PARAMETERS, stopLossValue: 4, maxDailyLoss: 1000, maxConcurrentTrades: 3, maxPositionSize: 7, customised: true });

      for (const path of ['/api/risk', '/api/risk/parameters']) expect((await get(path)).status, path).to.equal(401);
      expect((await get('/api/risk/parameters?x=1', token)).status).to.equal(400);
    });
  });

  describe('GET /api/bot/decisions (issue 17)', function () {
    it("lists the caller's refused BUY signals newest first with rule, text and figures; 401 for visitors and a bad token, 400 for a query", async function () {
      const { userId, token } = await user('PREMIUM');
      const other = await user('PREMIUM');
      expect(botDecisionsResponseSchema.parse((await get('/api/bot/decisions', token)).body)).to.deep.equal({ refusals: [] });
      const refuse = (who: string, signalId: string, now: string, rule: 'CORRELATION_LIMIT' | 'MAX_DRAWDOWN', text: string): RiskCommand => ({
        type: 'RecordBotRefusal',
        data: { userId: who, signalId, signalEventId: `e-${signalId}`, symbol: 'BTC', signalType: 'BUY', candleTime: now, decision: { rule, text, figures: { x: 1 } } },
        metadata: { now },
      });
      await risk(userId, refuse(userId, 's1', '2026-03-04T01:00:00.000Z', 'CORRELATION_LIMIT', 'refused: correlation 0.83 with ETH above 0.70'));
      await risk(userId, refuse(userId, 's2', '2026-03-04T02:00:00.000Z', 'MAX_DRAWDOWN', 'refused: drawdown 16.00% ...'));
      await risk(other.userId, refuse(other.userId, 's3', '2026-03-04T03:00:00.000Z', 'MAX_DRAWDOWN', 'another user'));
      const body = botDecisionsResponseSchema.parse((await get('/api/bot/decisions', token)).body);
      expect(body.refusals.map((r) => [r.signalId, r.rule])).to.deep.equal([
        ['s2', 'MAX_DRAWDOWN'],
        ['s1', 'CORRELATION_LIMIT'],
      ]);
      expect(body.refusals[1]).to.deep.include({ symbol: 'BTC', signalType: 'BUY', text: 'refused: correlation 0.83 with ETH above 0.70', figures: { x: 1 }, timestamp: '2026-03-04T01:00:00.000Z' });
      expect((await get('/api/bot/decisions')).status).to.equal(401);
      expect((await get('/api/bot/decisions', 'not-a-token')).status).to.equal(401);
      const bad = await get('/api/bot/decisions?all=1', token);
      expect(bad.status).to.equal(400);
      expect(bad.headers.get('content-type')).to.match(/^application\/problem\+json/);
    });
  });

  describe('premium: GET /api/risk/active-trades and /api/risk/alerts', function () {
    it('401 for visitors, 403 for free users (and a free admin), 200 for premium users', async function () {
      const free = await user('FREE');
      const admin = await user('ADMIN');
      for (const path of ['/api/risk/active-trades', '/api/risk/alerts']) {
        expect((await get(path)).status, path).to.equal(401);
        for (const who of [free, admin]) {
          const res = await get(path, who.token);
          expect(res.status, path).to.equal(403);
          expect(res.body.detail).to.equal('Premium subscription required');
        }
      }
    });

    it('lists open positions with stop and target, and the alerts newest first with the acknowledged flag', async function () {
      const { userId, token } = await user('PREMIUM');
      expect(activeRiskTradesResponseSchema.parse((await get('/api/risk/active-trades', token)).body)).to.deep.equal({ trades: [] });
      await trade(userId, 'p1', 'BUY', 2, 100, new Date(), 'SOL', MANUAL, BOT);
      await trade(userId, 'm1', 'BUY', 1, 10, new Date(Date.now() - 1000), 'LINK');
      const { trades } = activeRiskTradesResponseSchema.parse((await get('/api/risk/active-trades', token)).body);
      expect(trades).to.have.length(2);
      // The bot's: stop 98 (2 %), target 105 (5 %); at the stop: 196 - 0.196 fee = 195.80 against 200.20 -> 4.40.
      expect(trades.find((t) => t.id === 'p1')).to.deep.include({ symbol: 'SOL', quantity: 2, entryPrice: 100, stopLoss: 98, takeProfit: 105, riskAmount: 4.4, exitPlan: 'PROFILE' });
      // A manual position without levels: none (all its cost at risk).
      expect(trades.find((t) => t.id === 'm1')).to.deep.include({ stopLoss: null, takeProfit: null, exitPlan: 'NONE', riskAmount: 10.01 });

      const raise = (alertId: string, now: string): RiskCommand => ({
        type: 'RaiseRiskAlert',
        data: { userId, alertId, conditionKey: alertId, kind: 'POSITION_SIZE', severity: 'medium', symbol: 'SOL', message: `too big ${alertId}`, value: 6, threshold: 5 },
        metadata: { now },
      });
      await risk(userId, raise('al-1', '2026-03-04T01:00:00.000Z'));
      await risk(userId, raise('al-2', '2026-03-04T02:00:00.000Z'));
      await risk(userId, { type: 'AcknowledgeRiskAlert', data: { userId, alertId: 'al-1' }, metadata: { now: '2026-03-04T03:00:00.000Z' } });
      const alerts = riskAlertsResponseSchema.parse((await get('/api/risk/alerts', token)).body);
      expect(alerts.alerts.map((a) => [a.id, a.acknowledged])).to.deep.equal([
        ['al-2', false],
        ['al-1', true],
      ]);
      expect(alerts.unacknowledged).to.equal(1);
      await risk(userId, { type: 'ClearAcknowledgedRiskAlerts', data: { userId }, metadata: { now: '2026-03-04T04:00:00.000Z' } });
      expect(riskAlertsResponseSchema.parse((await get('/api/risk/alerts', token)).body).alerts.map((a) => a.id)).to.deep.equal(['al-2']);
      expect((await get('/api/risk/alerts?all=1', token)).status).to.equal(400);
    });

    it('a trailing stop reads the highest tick of the path since the opening fill, the level the risk monitor holds (issue 17)', async function () {
      const { userId, token } = await user('PREMIUM');
      await risk(userId, { type: 'ChangeRiskParameters', data: { userId, parameters: { ...DEFAULT_RISK_PARAMETERS, stopLossType: 'trailing' } }, metadata: { now: new Date().toISOString() } });
      const ticks = harness().rt.marketData.ticks!;
      const opened = new Date(Date.now() - 2 * HOUR);
      const openingTick = tickAt(opened.getTime());
      // Entered at half the market (a price the path is above ever since), so the high since is the path's.
      const entry = ticks.price('solana', openingTick) / 2;
      await trade(userId, 'tr1', 'BUY', 1, entry, opened, 'SOL', MANUAL, BOT);
      const high = () => ticks.range('solana', openingTick + 1, ticks.lastTick() + 1).high;
      const before = high();
      const { trades } = activeRiskTradesResponseSchema.parse((await get('/api/risk/active-trades', token)).body);
      const after = high();
      const [trailing] = trades;
      expect([before, after], 'the highest tick since the entry, when it was read').to.include(trailing!.highestSinceEntry);
      expect(trailing).to.deep.include({ exitPlan: 'PROFILE', stopLossType: 'trailing', stopLoss: trailing!.highestSinceEntry! * 0.98 });
      expect(trailing!.stopRule).to.match(/^Trailing: 2% below the high since entry \$\d/);
    });
  });
});
