/**
 * The paper-trading commands through HTTP (embedded app on PGlite): who may call what (the permission
 * table of dashboard-and-sign-in.md section 6 for visitor, free, premium and admin), the events each
 * appends and on which stream, the domain's refusals as 4xx, bad input of every kind answering 4xx
 * and appending nothing, and Idempotency-Key replays appending once.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { promoteToAdmin } from '@papertrade/command-api/bootstrap';
import { INVALID_TOKEN } from '@papertrade/platform/auth/guards';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import type { RecordedEvent } from '@papertrade/platform/event-store/event-store';
import { MarketDataUnavailableError, type MarketData } from '@papertrade/platform/market/market-data';
import { DEFAULT_BOT_SETTINGS, DEFAULT_RISK_PARAMETERS, riskParameterBounds } from '@papertrade/domain/trading/contracts';
import { riskStreamId, type RiskAlertKind } from '@papertrade/domain/trading/risk';
import { riskAlertsResponseSchema } from '@papertrade/domain/trading/read-contracts';
import { riskDecider } from '@papertrade/domain/trading/risk.decider';
import { halfSpreadOf, type CoinId } from '@papertrade/domain/market/coins';
import { tickAt, tickTime } from '@papertrade/domain/market/market-path';
import { priceImpact } from '@papertrade/domain/trading/engine/fills';
import { feeMicros, notionalMicros, quantityToUnits } from '@papertrade/domain/trading/money';
import type { SimulatedMarketData } from '@papertrade/platform/market/simulated-market-data';
import { registrationDeps } from '../../../bin/compose';
import { startHarness, type Harness } from '../../../test/api-harness';

const unique = () => randomUUID().slice(0, 8);
type Res = Awaited<ReturnType<Harness['request']>>;
interface Account {
  userId: string;
  token: string;
}

describe('trading commands API (HTTP, embedded)', function () {
  this.timeout(120_000);
  let h: Harness;
  let free: Account;
  let premium: Account;
  let freeAdmin: Account;
  let premiumAdmin: Account;

  /** A signed-up account of its own (so no test depends on another's portfolio), optionally premium and/or admin. */
  async function account(kind: { premium?: boolean; admin?: boolean } = {}): Promise<Account> {
    const t = unique();
    const email = `trader.${t}@example.com`;
    const { userId } = await h.signup({ email, username: `trader_${t}` });
    if (kind.premium) {
      const admin = await h.admin();
      const up = await h.request('PUT', `/api/admin/users/${userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } });
      if (up.status !== 200) throw new Error(`upgrade failed: ${up.status} ${JSON.stringify(up.body)}`);
    }
    if (kind.admin) await promoteToAdmin(registrationDeps(h.rt), userId);
    // The guards read who the user is from the users projection: let it see the changes first.
    await h.projector.caughtUp();
    return { userId, token: await h.login(email, 'secret1') };
  }

  /** The minute volume of the test's fixed market. */
  const MINUTE_VOLUME = 10_000_000;

  /** Market prices the test decides (every coin's mid, a fixed minute volume), so a fill can be checked against what the market said. */
  function fixPrice(price: number): () => void {
    const market = h.rt.marketData as MarketData;
    const original = market.quotesAt;
    market.quotesAt = async (atMs) => (await original.call(market, atMs)).map((q) => ({ ...q, price, minuteVolumeUsd: MINUTE_VOLUME }));
    return () => {
      market.quotesAt = original;
    };
  }

  /** A fill at the fixed market like an exchange's: the mid plus (BUY) or less (SELL) the half spread and impact; notional and fee in micros. */
  function fillOf(coinId: CoinId, side: 'BUY' | 'SELL', mid: number, quantity: number) {
    const impact = priceImpact(coinId, quantity * mid, MINUTE_VOLUME);
    const cost = halfSpreadOf(coinId) + impact;
    const price = side === 'BUY' ? mid * (1 + cost) : mid * (1 - cost);
    const notional = notionalMicros(quantityToUnits(quantity), price);
    return { price, impact, notional, fee: feeMicros(notional) };
  }

  const eventsOf = (events: RecordedEvent[]) => events.map((e) => [e.type, e.streamId]);

  before(async function () {
    h = await startHarness();
    [free, premium, freeAdmin, premiumAdmin] = [await account(), await account({ premium: true }), await account({ admin: true }), await account({ premium: true, admin: true })];
  });
  after(async function () {
    await h?.stop();
  });

  describe('permissions (dashboard-and-sign-in.md section 6; admin acts as its tier)', function () {
    const validParameters = { ...DEFAULT_RISK_PARAMETERS, maxPositionSize: 7 };
    // [method, path, body, what a premium caller gets, what a free caller gets]
    const table: Array<{ method: string; path: string; body?: unknown; premium: number; free: number }> = [
      { method: 'POST', path: '/api/trades', body: { symbol: 'ETH', type: 'BUY', amount: 0.01 }, premium: 201, free: 201 },
      { method: 'POST', path: '/api/bot/start', premium: 200, free: 403 },
      { method: 'POST', path: '/api/bot/reset', premium: 200, free: 403 },
      { method: 'POST', path: '/api/bot/stop', premium: 200, free: 200 },
      { method: 'POST', path: '/api/settings/bot', body: { maxPositionSize: 6 }, premium: 200, free: 200 },
      { method: 'PUT', path: '/api/risk/parameters', body: validParameters, premium: 200, free: 403 },
      // No alert has this id: a premium caller gets past the guard to the domain's 404.
      { method: 'POST', path: `/api/risk/alerts/${randomUUID()}/acknowledge`, premium: 404, free: 403 },
      { method: 'DELETE', path: '/api/risk/alerts/acknowledged', premium: 200, free: 403 },
    ];

    for (const row of table) {
      const name = `${row.method} ${row.path.replace(/[0-9a-f-]{36}/, '{id}')}`;
      const call = (token?: string, headers?: Record<string, string>) =>
        h.request(row.method, row.path, { ...(row.body !== undefined ? { body: row.body } : {}), ...(token ? { token } : {}), ...(headers ? { headers } : {}) });

      it(`${name}: visitor 401, bad token 401, nothing appended`, async function () {
        const events = await h.appendedBy(async () => {
          const visitor = await call();
          expect(visitor.status, JSON.stringify(visitor.body)).to.equal(401);
          expect(visitor.body.detail).to.match(/Authentication required/);
          const forged = await call('not.a.token');
          expect(forged.status).to.equal(401);
          expect(forged.body.detail).to.equal(INVALID_TOKEN);
          // Who comes before what: a visitor learns nothing about the body's rules.
          const malformed = await h.request(row.method, row.path, { raw: '{"amount": ' });
          expect(malformed.status, JSON.stringify(malformed.body)).to.equal(401);
        });
        expect(events).to.deep.equal([]);
      });

      it(`${name}: free user ${row.free}, admin on the free tier ${row.free}${row.free === 403 ? ' (Premium subscription required), nothing appended' : ''}`, async function () {
        for (const who of [free, freeAdmin]) {
          let res!: Res;
          const events = await h.appendedBy(async () => {
            res = await call(who.token);
          });
          expect(res.status, JSON.stringify(res.body)).to.equal(row.free);
          if (row.free === 403) {
            expect(res.body.detail).to.contain('Premium subscription required');
            expect(events).to.deep.equal([]);
          }
        }
      });

      it(`${name}: premium user ${row.premium}, admin on the premium tier ${row.premium}`, async function () {
        for (const who of [premium, premiumAdmin]) {
          const res = await call(who.token);
          expect(res.status, JSON.stringify(res.body)).to.equal(row.premium);
          if (res.status < 300) expect(res.body).to.have.property('position');
        }
      });
    }

    it('a premium user whose subscription is cancelled is refused again (the identity is read per request, not from the token)', async function () {
      const lapsing = await account({ premium: true });
      expect((await h.request('POST', '/api/bot/start', { token: lapsing.token })).status).to.equal(200);
      const admin = await h.admin();
      const cancel = await h.request('PUT', `/api/admin/users/${lapsing.userId}`, { token: admin.token, body: { subscriptionStatus: 'CANCELLED' } });
      expect(cancel.status).to.equal(200);
      const events = await h.appendedBy(async () => {
        const res = await h.request('POST', '/api/bot/reset', { token: lapsing.token, headers: { 'x-min-position': cancel.body.position } });
        expect(res.status).to.equal(403);
        expect(res.body.detail).to.contain('Premium subscription required');
      });
      expect(events).to.deep.equal([]);
      // ...but may still stop the bot that trades their portfolio.
      const stopped = await h.appendedBy(async () => {
        expect((await h.request('POST', '/api/bot/stop', { token: lapsing.token })).status).to.equal(200);
      });
      expect(eventsOf(stopped)).to.deep.equal([['BotStopped', `bot-${lapsing.userId}`]]);
    });
  });

  describe('POST /api/trades', function () {
    it('fills a BUY at the market price of the MarketData port plus the half spread and impact, with the fee, opening the portfolio on first use', async function () {
      const me = await account();
      const restore = fixPrice(2500);
      let res!: Res;
      let events: RecordedEvent[];
      try {
        events = await h.appendedBy(async () => {
          res = await h.request('POST', '/api/trades', { token: me.token, body: { symbol: 'eth', type: 'BUY', amount: 0.5 } });
        });
      } finally {
        restore();
      }
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(eventsOf(events)).to.deep.equal([
        ['PortfolioOpened', `portfolio-${me.userId}`],
        ['SimulatedTradePlaced', `portfolio-${me.userId}`],
      ]);
      const placed = events[1]!;
      const fill = fillOf('ethereum', 'BUY', 2500, 0.5);
      expect(fill.price).to.be.greaterThan(2500 * 1.00005);
      expect(placed.data).to.deep.include({
        userId: me.userId,
        tradeId: res.body.id,
        coinId: 'ethereum',
        symbol: 'ETH',
        side: 'BUY',
        quantity: 0.5,
        price: fill.price,
        notionalMicros: fill.notional,
        feeMicros: fill.fee,
        source: { kind: 'MANUAL' },
      });
      // The mid is the tick at the decision's time (the command's now), the price on the person's screen.
      const decidedAt = Date.parse(placed.data.placedAt as string);
      expect(placed.data.execution).to.deep.equal({ mid: 2500, halfSpread: halfSpreadOf('ethereum'), impact: fill.impact, filledAt: new Date(tickTime(tickAt(decidedAt))).toISOString() });
      expect(placed.metadata.userId).to.equal(me.userId);
      expect(res.body).to.deep.equal({
        id: placed.data.tradeId,
        coinId: 'ethereum',
        symbol: 'ETH',
        type: 'BUY',
        amount: 0.5,
        price: fill.price,
        fee: fill.fee / 1e6,
        total: (fill.notional + fill.fee) / 1e6,
        realisedPnl: null,
        status: 'OPEN',
        source: 'Manual',
        stopLoss: null,
        takeProfit: null,
        timestamp: placed.data.placedAt,
        position: placed.position,
      });
      // No stop or target sent: a manual position has no automatic exit (issue 17).
      expect(placed.data.exits).to.deep.equal({ kind: 'NONE' });
    });

    it('a BUY may set a stop loss and a take profit in percent of its fill price: recorded as levels, answered, and 400 naming the field when out of bounds or on a SELL (issue 17)', async function () {
      const me = await account();
      const restore = fixPrice(2000);
      try {
        let res!: Res;
        const events = await h.appendedBy(async () => {
          res = await h.request('POST', '/api/trades', { token: me.token, body: { symbol: 'ETH', type: 'BUY', amount: 0.1, stopLossPercent: 3, takeProfitPercent: 8 } });
        });
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        // Percents of the fill the person pays (the mid 2,000 plus the half spread and impact: issue 17's fills).
        const fill = fillOf('ethereum', 'BUY', 2000, 0.1).price;
        const placed = events.find((e) => e.type === 'SimulatedTradePlaced')!;
        expect(placed.data.exits).to.deep.equal({ kind: 'MANUAL', stopLoss: fill * (1 - 3 / 100), takeProfit: fill * (1 + 8 / 100), stopLossPercent: 3, takeProfitPercent: 8 });
        expect(res.body).to.deep.include({ stopLoss: fill * (1 - 3 / 100), takeProfit: fill * (1 + 8 / 100) });
        const stopOnly = await h.request('POST', '/api/trades', { token: me.token, body: { symbol: 'ETH', type: 'BUY', amount: 0.1, stopLossPercent: 5 } });
        expect(stopOnly.body).to.deep.include({ stopLoss: fill * (1 - 5 / 100), takeProfit: null });
        for (const [body, field] of [
          [{ symbol: 'ETH', type: 'BUY', amount: 0.1, stopLossPercent: 0 }, 'stopLossPercent'],
          [{ symbol: 'ETH', type: 'BUY', amount: 0.1, stopLossPercent: 51 }, 'stopLossPercent'],
          [{ symbol: 'ETH', type: 'BUY', amount: 0.1, takeProfitPercent: '5' }, 'takeProfitPercent'],
          [{ symbol: 'ETH', type: 'BUY', amount: 0.1, takeProfitPercent: 501 }, 'takeProfitPercent'],
          [{ symbol: 'ETH', type: 'SELL', amount: 0.1, stopLossPercent: 3 }, 'stopLossPercent'],
          [{ symbol: 'ETH', type: 'BUY', amount: 0.1, stopLossPercent: null }, 'stopLossPercent'],
        ] as const) {
          const refused = await h.appendedBy(async () => {
            res = await h.request('POST', '/api/trades', { token: me.token, body });
          });
          expect(res.status, JSON.stringify(body)).to.equal(400);
          expect(String(res.body.detail), JSON.stringify(body)).to.contain(field);
          expect(refused, JSON.stringify(body)).to.deep.equal([]);
        }
      } finally {
        restore();
      }
    });

    it('takes a coinId instead of a symbol; a SELL of part of a position realises P&L net of both fees', async function () {
      const me = await account();
      let restore = fixPrice(50_000);
      const buy = await h.request('POST', '/api/trades', { token: me.token, body: { coinId: 'bitcoin', type: 'BUY', amount: 0.1 } });
      restore();
      expect(buy.status, JSON.stringify(buy.body)).to.equal(201);
      const b = fillOf('bitcoin', 'BUY', 50_000, 0.1);
      expect(buy.body).to.include({ symbol: 'BTC', price: b.price, fee: b.fee / 1e6, total: (b.notional + b.fee) / 1e6 });
      restore = fixPrice(60_000);
      let sell!: Res;
      const events = await h.appendedBy(async () => {
        sell = await h.request('POST', '/api/trades', { token: me.token, body: { coinId: 'bitcoin', symbol: 'BTC', type: 'SELL', amount: 0.05 } });
      });
      restore();
      expect(sell.status, JSON.stringify(sell.body)).to.equal(201);
      expect(eventsOf(events)).to.deep.equal([['SimulatedTradePlaced', `portfolio-${me.userId}`]]);
      // proceeds less the fee; half the cost basis closed (both sides' spread and impact are in the P&L)
      const sold = fillOf('bitcoin', 'SELL', 60_000, 0.05);
      const realised = sold.notional - sold.fee - Math.round((b.notional + b.fee) / 2);
      expect(sell.body).to.include({ type: 'SELL', amount: 0.05, price: sold.price, fee: sold.fee / 1e6, total: (sold.notional - sold.fee) / 1e6, realisedPnl: realised / 1e6, status: 'CLOSED' });
      expect(sell.body.realisedPnl).to.be.within(494.5 - 0.5, 494.5 - 0.2);
      expect(sell.body.position).to.equal(events[0]!.position);
    });

    it('refuses selling more than is held, a coin not held, and buying beyond the cash: 409 with a clear message, nothing appended', async function () {
      const me = await account();
      const restore = fixPrice(100);
      try {
        expect((await h.request('POST', '/api/trades', { token: me.token, body: { symbol: 'SOL', type: 'BUY', amount: 2 } })).status).to.equal(201);
        const cases: Array<[unknown, RegExp]> = [
          [{ symbol: 'SOL', type: 'SELL', amount: 2.5 }, /Cannot sell 2\.5 SOL: holding 2/],
          [{ symbol: 'ADA', type: 'SELL', amount: 1 }, /Cannot sell 1 ADA: holding 0/],
          [{ symbol: 'ETH', type: 'BUY', amount: 100 }, /Insufficient paper cash/],
        ];
        for (const [body, message] of cases) {
          const events = await h.appendedBy(async () => {
            const res = await h.request('POST', '/api/trades', { token: me.token, body });
            expect(res.status, JSON.stringify(res.body)).to.equal(409);
            expect(res.body.detail).to.match(message);
          });
          expect(events, JSON.stringify(body)).to.deep.equal([]);
        }
      } finally {
        restore();
      }
    });

    it('a market that cannot answer is a 503 with Retry-After, nothing appended', async function () {
      const me = await account();
      const market = h.rt.marketData as MarketData;
      const original = market.quotesAt;
      market.quotesAt = async () => {
        throw new MarketDataUnavailableError('unreachable', 'The market data source cannot be reached; please retry shortly', 7);
      };
      try {
        const events = await h.appendedBy(async () => {
          const res = await h.request('POST', '/api/trades', { token: me.token, body: { symbol: 'ETH', type: 'BUY', amount: 0.01 } });
          expect(res.status).to.equal(503);
          expect(res.headers.get('retry-after')).to.equal('7');
        });
        expect(events).to.deep.equal([]);
      } finally {
        market.quotesAt = original;
      }
    });

    it('fills at the path\'s tick at the decision\'s time (the price now), plus the half spread and impact of the minute before', async function () {
      const me = await account();
      const res = await h.request('POST', '/api/trades', { token: me.token, body: { symbol: 'SOL', type: 'BUY', amount: 2 } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const [placed] = (await h.rt.infra.eventStore.readStream(`portfolio-${me.userId}`)).filter((e) => e.type === 'SimulatedTradePlaced');
      const path = (h.rt.marketData as SimulatedMarketData).simulation.path;
      const tick = tickAt(Date.parse(placed!.data.placedAt as string));
      const mid = path.price('solana', tick);
      const minute = Math.floor(tick / 12);
      const impact = priceImpact('solana', 2 * mid, path.summary('solana', (minute - 1) * 12, minute * 12).volume);
      expect(placed!.data.execution).to.deep.equal({ mid, halfSpread: halfSpreadOf('solana'), impact, filledAt: new Date(tickTime(tick)).toISOString() });
      expect(res.body.price).to.equal(mid * (1 + halfSpreadOf('solana') + impact));
    });

    it('the same Idempotency-Key appends once and answers the same trade; with another body it is a 422', async function () {
      const me = await account();
      const key = `trade-${unique()}`;
      const body = { symbol: 'ETH', type: 'BUY', amount: 0.01 };
      let first!: Res;
      let second!: Res;
      const events = await h.appendedBy(async () => {
        first = await h.request('POST', '/api/trades', { token: me.token, body, headers: { 'idempotency-key': key } });
        second = await h.request('POST', '/api/trades', { token: me.token, body, headers: { 'idempotency-key': key } });
      });
      expect(first.status).to.equal(201);
      expect(second.status).to.equal(201);
      expect(second.body).to.deep.equal(first.body);
      expect(eventsOf(events)).to.deep.equal([
        ['PortfolioOpened', `portfolio-${me.userId}`],
        ['SimulatedTradePlaced', `portfolio-${me.userId}`],
      ]);
      const other = await h.appendedBy(async () => {
        const res = await h.request('POST', '/api/trades', { token: me.token, body: { ...body, amount: 0.02 }, headers: { 'idempotency-key': key } });
        expect(res.status).to.equal(422);
        expect(res.body.detail).to.match(/Idempotency-Key/);
      });
      expect(other).to.deep.equal([]);
    });
  });

  describe('concurrent requests', function () {
    it('buys racing for the same cash: never more than the cash covers, the others refused with 409 (or 412 after the retries)', async function () {
      const me = await account();
      const restore = fixPrice(1000);
      let answers: Res[] = [];
      let events: RecordedEvent[];
      try {
        // Each buy costs 3,003 USD with the fee: 10,000 USD covers three of the eight.
        events = await h.appendedBy(async () => {
          answers = await Promise.all(Array.from({ length: 8 }, () => h.request('POST', '/api/trades', { token: me.token, body: { symbol: 'ETH', type: 'BUY', amount: 3 } })));
        });
      } finally {
        restore();
      }
      const placed = events.filter((e) => e.type === 'SimulatedTradePlaced');
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 201).length).to.equal(placed.length);
      expect(placed.length).to.be.within(1, 3);
      for (const a of answers.filter((a) => a.status !== 201)) {
        expect([409, 412], JSON.stringify(a.body)).to.include(a.status);
        if (a.status === 409) expect(a.body.detail).to.match(/Insufficient paper cash/);
      }
      const spent = placed.reduce((sum, e) => sum + (e.data.notionalMicros as number) + (e.data.feeMicros as number), 0);
      expect(spent).to.be.at.most(10_000_000_000);
      expect(events.filter((e) => e.type === 'PortfolioOpened')).to.have.length(1);
    });

    it('the same Idempotency-Key sent twice at once appends once; both answer the same trade', async function () {
      const me = await account();
      const headers = { 'idempotency-key': `race-${unique()}` };
      let answers: Res[] = [];
      const events = await h.appendedBy(async () => {
        answers = await Promise.all([0, 1].map(() => h.request('POST', '/api/trades', { token: me.token, body: { symbol: 'BTC', type: 'BUY', amount: 0.001 }, headers })));
      });
      expect(answers.map((a) => a.status)).to.deep.equal([201, 201]);
      expect(answers[1]!.body).to.deep.equal(answers[0]!.body);
      expect(events.filter((e) => e.type === 'SimulatedTradePlaced')).to.have.length(1);
    });
  });

  describe('bad input answers 4xx with a clear message and appends nothing', function () {
    const hugeBody = JSON.stringify({ symbol: 'ETH', type: 'BUY', amount: 1, pad: 'x'.repeat(200 * 1024) });
    type Case = { name: string; body?: unknown; raw?: string; headers?: Record<string, string>; status: number; detail: RegExp };
    // Every endpoint gets these; a raw string is sent as it is.
    const common: Case[] = [
      { name: 'malformed JSON', raw: '{"symbol": "ETH",', status: 400, detail: /not valid JSON/ },
      { name: 'a __proto__ key', raw: '{"__proto__": {"isAdmin": true}}', status: 400, detail: /__proto__/ },
      { name: 'a __proto__ key nested and spelled with JSON escapes', raw: '{"x": [{"\\u005f_proto__": {"isAdmin": true}}]}', status: 400, detail: /__proto__/ },
      { name: 'a constructor.prototype key', body: { constructor: { prototype: { x: 1 } } }, status: 400, detail: /constructor/ },
      { name: 'a body over 100 kB', raw: hugeBody, status: 413, detail: /100 kB/ },
      { name: 'a body that is not JSON', raw: 'symbol=ETH', headers: { 'content-type': 'text/plain' }, status: 400, detail: /must be JSON/ },
      { name: 'an unknown field', body: { nonsense: 1, maxPositionSize: 6 }, status: 400, detail: /unknown field.*nonsense/ },
      { name: 'a JSON array', body: [1, 2], status: 400, detail: /expected object|Invalid input/i },
    ];
    /** A body the endpoint accepts, sent with a key that is not one. */
    const badKey = (valid: unknown): Case => ({ name: 'a bad Idempotency-Key', body: valid, headers: { 'idempotency-key': 'bad key with spaces' }, status: 400, detail: /Idempotency-Key/ });
    const trades: Case[] = [
      { name: 'no body', status: 400, detail: /A JSON request body is required/ },
      { name: 'a missing amount', body: { symbol: 'ETH', type: 'BUY' }, status: 400, detail: /amount/ },
      { name: 'a missing type', body: { symbol: 'ETH', amount: 1 }, status: 400, detail: /type/ },
      { name: 'no coin', body: { type: 'BUY', amount: 1 }, status: 400, detail: /a coinId or a symbol is required/ },
      { name: 'an amount as a string', body: { symbol: 'ETH', type: 'BUY', amount: '1' }, status: 400, detail: /amount: must be a positive number of coins/ },
      { name: 'NaN as a string', body: { symbol: 'ETH', type: 'BUY', amount: 'NaN' }, status: 400, detail: /amount/ },
      { name: 'Infinity as a string', body: { symbol: 'ETH', type: 'BUY', amount: 'Infinity' }, status: 400, detail: /amount/ },
      { name: 'an amount overflowing to Infinity', raw: '{"symbol":"ETH","type":"BUY","amount":1e400}', status: 400, detail: /amount/ },
      { name: 'a zero amount', body: { symbol: 'ETH', type: 'BUY', amount: 0 }, status: 400, detail: /amount/ },
      { name: 'a negative amount', body: { symbol: 'ETH', type: 'BUY', amount: -1 }, status: 400, detail: /amount/ },
      { name: 'an amount worth less than a cent', body: { symbol: 'ADA', type: 'BUY', amount: 0.00000001 }, status: 400, detail: /at least \$0\.01/ },
      { name: 'a lower-case type', body: { symbol: 'ETH', type: 'buy', amount: 1 }, status: 400, detail: /type: must be BUY or SELL/ },
      { name: 'an unknown symbol', body: { symbol: 'XYZ', type: 'BUY', amount: 1 }, status: 400, detail: /unknown coin symbol "XYZ"/ },
      { name: 'an unknown coinId', body: { coinId: 'dogecoin', type: 'BUY', amount: 1 }, status: 400, detail: /unknown coin id "dogecoin"/ },
      { name: 'a coinId and a symbol that disagree', body: { coinId: 'bitcoin', symbol: 'ETH', type: 'BUY', amount: 1 }, status: 400, detail: /does not match coinId bitcoin/ },
      { name: 'a NUL in the symbol', body: { symbol: 'ETH\u0000', type: 'BUY', amount: 1 }, status: 400, detail: /symbol/ },
      { name: 'a lone surrogate in the symbol', raw: '{"symbol":"ETH\\ud800","type":"BUY","amount":1}', status: 400, detail: /symbol/ },
      { name: 'a price from the client', body: { symbol: 'ETH', type: 'BUY', amount: 1, price: 1 }, status: 400, detail: /unknown field: price/ },
      { name: 'a symbol as a number', body: { symbol: 42, type: 'BUY', amount: 1 }, status: 400, detail: /symbol/ },
    ];
    const settings: Case[] = [
      { name: 'no body', status: 400, detail: /A JSON request body is required/ },
      { name: 'an empty object', body: {}, status: 400, detail: /at least one setting is required/ },
      { name: 'maxPositionSize above 50', body: { maxPositionSize: 51 }, status: 400, detail: /maxPositionSize: must be a number from 0\.1 to 50/ },
      { name: 'stopLoss below 0.5', body: { stopLoss: 0.1 }, status: 400, detail: /stopLoss: must be a number from 0\.5 to 20/ },
      { name: 'takeProfit as a string', body: { takeProfit: '5' }, status: 400, detail: /takeProfit/ },
      { name: 'dailyLossLimit as Infinity string', body: { dailyLossLimit: 'Infinity' }, status: 400, detail: /dailyLossLimit/ },
      { name: 'NaN as a string', body: { maxPositionSize: 'NaN' }, status: 400, detail: /maxPositionSize/ },
      { name: 'a null setting', body: { stopLoss: null }, status: 400, detail: /stopLoss/ },
      { name: 'a non-boolean switch', body: { autoRetrain: 'yes' }, status: 400, detail: /autoRetrain: must be true or false/ },
      { name: 'the domain names (stopLossPercent) instead of the API names', body: { stopLossPercent: 3 }, status: 400, detail: /unknown field: stopLossPercent/ },
    ];
    const parameters = (changes: Record<string, unknown>) => ({ ...DEFAULT_RISK_PARAMETERS, ...changes });
    const riskParameters: Case[] = [
      { name: 'no body', status: 400, detail: /A JSON request body is required/ },
      { name: 'a partial set', body: { maxPositionSize: 5 }, status: 400, detail: /maxConcurrentTrades: must be a whole number/ },
      { name: 'a fractional maxConcurrentTrades', body: parameters({ maxConcurrentTrades: 2.5 }), status: 400, detail: /maxConcurrentTrades: must be a whole number from 1 to 20/ },
      { name: 'an unknown stopLossType', body: parameters({ stopLossType: 'magic' }), status: 400, detail: /stopLossType: must be one of fixed, trailing, atr, volatility/ },
      { name: 'a switch as a string', body: parameters({ kellyCriterionEnabled: 'true' }), status: 400, detail: /kellyCriterionEnabled: must be true or false/ },
      { name: 'NaN as a string', body: parameters({ maxDrawdown: 'NaN' }), status: 400, detail: /maxDrawdown/ },
      { name: 'a NUL in stopLossType', body: parameters({ stopLossType: 'fixed\u0000' }), status: 400, detail: /stopLossType/ },
      // Every bound of premium-and-account.md section 5, on both sides, names its field.
      ...Object.entries(riskParameterBounds).flatMap(([field, b]) => [
        { name: `${field} below ${b.min}`, body: parameters({ [field]: b.min - b.step }), status: 400, detail: new RegExp(`^${field}: must be`) },
        { name: `${field} above ${b.max}`, body: parameters({ [field]: b.max + b.step }), status: 400, detail: new RegExp(`^${field}: must be`) },
      ]),
    ];
    const noBody: Case[] = [{ name: 'a payload where none is taken', body: { force: true }, status: 400, detail: /unknown field: force/ }];

    const endpoints: Array<{ method: string; path: string; cases: Case[] }> = [
      { method: 'POST', path: '/api/trades', cases: [...trades, badKey({ symbol: 'ETH', type: 'BUY', amount: 0.01 })] },
      { method: 'POST', path: '/api/settings/bot', cases: [...settings, badKey({ maxPositionSize: 6 })] },
      { method: 'PUT', path: '/api/risk/parameters', cases: [...riskParameters, badKey(parameters({ maxDrawdown: 25 }))] },
      { method: 'POST', path: '/api/bot/start', cases: [...noBody, badKey({})] },
      { method: 'POST', path: '/api/bot/stop', cases: [...noBody, badKey({})] },
      { method: 'POST', path: '/api/bot/reset', cases: [...noBody, badKey({})] },
      { method: 'POST', path: '/api/risk/alerts/some-alert/acknowledge', cases: [...noBody, badKey({})] },
      { method: 'DELETE', path: '/api/risk/alerts/acknowledged', cases: [...noBody, badKey({})] },
    ];

    for (const endpoint of endpoints) {
      it(`${endpoint.method} ${endpoint.path}`, async function () {
        // Premium, so every guard lets the request through to the validation.
        const me = await account({ premium: true });
        for (const c of [...common, ...endpoint.cases]) {
          let res!: Res;
          const events = await h.appendedBy(async () => {
            res = await h.request(endpoint.method, endpoint.path, {
              token: me.token,
              ...(c.raw !== undefined ? { raw: c.raw } : c.body !== undefined ? { body: c.body } : {}),
              ...(c.headers ? { headers: c.headers } : {}),
            });
          });
          expect(res.status, `${c.name}: ${JSON.stringify(res.body)}`).to.equal(c.status);
          expect(res.body.detail, c.name).to.match(c.detail);
          expect(events, c.name).to.deep.equal([]);
        }
      });
    }

    it('an alert id that is not an id (a NUL, too long) is a 404 that does not echo it', async function () {
      for (const id of ['%00', `${randomUUID()}%00`, 'a'.repeat(201), 'x%20y']) {
        const events = await h.appendedBy(async () => {
          const res = await h.request('POST', `/api/risk/alerts/${id}/acknowledge`, { token: premium.token });
          expect(res.status, id).to.equal(404);
          expect(res.body.detail).to.equal('Risk alert not found');
        });
        expect(events).to.deep.equal([]);
      }
    });

    it('an alert id that does not decode (invalid UTF-8, a broken escape) is a 4xx problem, appending nothing', async function () {
      for (const id of ['%ED%A0%80', '%E0%A4%A']) {
        const events = await h.appendedBy(async () => {
          const res = await h.request('POST', `/api/risk/alerts/${id}/acknowledge`, { token: premium.token });
          expect(res.status, `${id}: ${JSON.stringify(res.body)}`).to.be.oneOf([400, 404]);
          expect(res.headers.get('content-type')).to.include('application/problem+json');
        });
        expect(events).to.deep.equal([]);
      }
    });
  });

  describe('the bot', function () {
    it('starts (BotStarted on bot-{id}), a second start appends nothing, stop appends BotStopped', async function () {
      const me = await account({ premium: true });
      let res!: Res;
      const started = await h.appendedBy(async () => {
        res = await h.request('POST', '/api/bot/start', { token: me.token });
      });
      expect(res.status).to.equal(200);
      expect(eventsOf(started)).to.deep.equal([['BotStarted', `bot-${me.userId}`]]);
      expect(res.body).to.deep.equal({ userId: me.userId, position: started[0]!.position });
      const again = await h.appendedBy(async () => {
        res = await h.request('POST', '/api/bot/start', { token: me.token, body: {} });
      });
      expect(res.status).to.equal(200);
      expect(res.body.position).to.equal(null);
      expect(again).to.deep.equal([]);
      const stopped = await h.appendedBy(async () => {
        // As a client that declares JSON and sends nothing.
        res = await h.request('POST', '/api/bot/stop', { token: me.token, raw: '' });
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(eventsOf(stopped)).to.deep.equal([['BotStopped', `bot-${me.userId}`]]);
      expect(res.body.position).to.equal(stopped[0]!.position);
    });

    it("reset stops the bot, puts the bot settings' fields of the profile back to the defaults and the portfolio back to its starting cash; the other risk parameters stay", async function () {
      const me = await account({ premium: true });
      expect((await h.request('POST', '/api/bot/start', { token: me.token })).status).to.equal(200);
      expect((await h.request('POST', '/api/settings/bot', { token: me.token, body: { maxPositionSize: 10 } })).status).to.equal(200);
      expect((await h.request('PUT', '/api/risk/parameters', { token: me.token, body: { ...DEFAULT_RISK_PARAMETERS, maxPositionSize: 10, maxDrawdown: 20 } })).status).to.equal(200);
      const buy = await h.request('POST', '/api/trades', { token: me.token, body: { symbol: 'ETH', type: 'BUY', amount: 0.1 } });
      expect(buy.status).to.equal(201);
      let res!: Res;
      const events = await h.appendedBy(async () => {
        res = await h.request('POST', '/api/bot/reset', { token: me.token });
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(eventsOf(events)).to.deep.equal([
        ['BotReset', `bot-${me.userId}`],
        ['BotSettingsReset', `risk-${me.userId}`],
        ['PortfolioReset', `portfolio-${me.userId}`],
      ]);
      expect(events.map((e) => e.data.userId)).to.deep.equal([me.userId, me.userId, me.userId]);
      expect(events.map((e) => e.metadata.userId)).to.deep.equal([me.userId, me.userId, me.userId]);
      expect(events[0]!.data).to.include({ wasActive: true });
      expect(events[1]!.data.settings).to.deep.equal(DEFAULT_BOT_SETTINGS);
      expect(events[1]!.data.changes).to.deep.equal({ maxPositionSize: 5 });
      expect(events[2]!.data.closedTradeIds).to.deep.equal([buy.body.id]);
      expect(res.body).to.deep.equal({ userId: me.userId, position: events[2]!.position });
      const parameters = (await h.request('GET', '/api/risk/parameters', { token: me.token })).body;
      expect(parameters).to.include({ maxPositionSize: 5, maxDrawdown: 20 });
    });

    it('a reset retried with the same Idempotency-Key appends once', async function () {
      const me = await account({ premium: true });
      expect((await h.request('POST', '/api/trades', { token: me.token, body: { symbol: 'ETH', type: 'BUY', amount: 0.1 } })).status).to.equal(201);
      const headers = { 'idempotency-key': `reset-${unique()}` };
      const responses: Res[] = [];
      const events = await h.appendedBy(async () => {
        responses.push(await h.request('POST', '/api/bot/reset', { token: me.token, headers }));
        responses.push(await h.request('POST', '/api/bot/reset', { token: me.token, headers }));
      });
      expect(responses.map((r) => r.status)).to.deep.equal([200, 200]);
      expect(responses[1]!.body).to.deep.equal(responses[0]!.body);
      expect(eventsOf(events)).to.deep.equal([
        ['BotReset', `bot-${me.userId}`],
        ['PortfolioReset', `portfolio-${me.userId}`],
      ]);
    });
  });

  describe('settings and risk parameters', function () {
    it('POST /api/settings/bot records the profile fields it changed and answers the whole set; the same again appends nothing', async function () {
      const me = await account();
      let res!: Res;
      const events = await h.appendedBy(async () => {
        res = await h.request('POST', '/api/settings/bot', { token: me.token, body: { maxPositionSize: 10, stopLoss: 3, takeProfit: 6, dailyLossLimit: 800 } });
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(eventsOf(events)).to.deep.equal([['BotSettingsChanged', `risk-${me.userId}`]]);
      // Answered under the domain's names and the spec's (stopLoss, takeProfit), with what the stop measures.
      const expected = { ...DEFAULT_BOT_SETTINGS, maxPositionSize: 10, stopLossPercent: 3, takeProfitPercent: 6, stopLoss: 3, takeProfit: 6, dailyLossLimit: 800, stopLossType: 'fixed', stopLossUnit: 'percent' };
      // One profile: the take profit is the ratio 2 of the 3 % stop, the daily limit is maxDailyLoss.
      expect(events[0]!.data.changes).to.deep.equal({ maxPositionSize: 10, maxDailyLoss: 800, stopLossValue: 3, takeProfitRatio: 2 });
      expect(res.body).to.deep.equal({ userId: me.userId, settings: expected, position: events[0]!.position });
      const same = await h.appendedBy(async () => {
        res = await h.request('POST', '/api/settings/bot', { token: me.token, body: { stopLoss: 3 } });
      });
      expect(same).to.deep.equal([]);
      expect(res.body).to.deep.equal({ userId: me.userId, settings: expected, position: null });
      // The same fields on the other screen's read.
      expect((await h.request('GET', '/api/risk/parameters', { token: me.token })).body).to.include({ maxPositionSize: 10, stopLossValue: 3, takeProfitRatio: 2, maxDailyLoss: 800 });
    });

    it('POST /api/settings/bot refuses a take profit outside 1 to 10 times the stop (400 naming takeProfit), appending nothing', async function () {
      const me = await account();
      let res!: Res;
      const events = await h.appendedBy(async () => {
        res = await h.request('POST', '/api/settings/bot', { token: me.token, body: { stopLoss: 4, takeProfit: 3 } });
      });
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ field: 'takeProfit' });
      expect(String(res.body.detail)).to.equal('takeProfit must be from 1 to 10 times the stop loss of 4: from 4 to 40, got 3');
      expect(events).to.deep.equal([]);
    });

    it('PUT /api/risk/parameters records the full set with the previous one', async function () {
      const me = await account({ premium: true });
      const wanted = { ...DEFAULT_RISK_PARAMETERS, maxPositionSize: 50, maxConcurrentTrades: 1, stopLossType: 'trailing', kellyCriterionEnabled: true, correlationLimit: 0.1 };
      let res!: Res;
      const events = await h.appendedBy(async () => {
        res = await h.request('PUT', '/api/risk/parameters', { token: me.token, body: wanted });
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(eventsOf(events)).to.deep.equal([['RiskParametersChanged', `risk-${me.userId}`]]);
      expect(events[0]!.data).to.deep.include({ parameters: wanted, previous: DEFAULT_RISK_PARAMETERS });
      expect(res.body).to.deep.equal({ userId: me.userId, parameters: wanted, position: events[0]!.position });
    });
  });

  describe('risk alerts', function () {
    /** Raises an alert as the risk monitor does (its command on risk-{userId}). */
    async function raise(userId: string, key: string, kind: RiskAlertKind = 'DRAWDOWN'): Promise<string> {
      const alertId = randomUUID();
      await new CommandHandler(h.rt.infra.eventStore, h.rt.clock).handle(
        riskDecider,
        riskStreamId(userId),
        {
          type: 'RaiseRiskAlert',
          data: { userId, alertId, conditionKey: key, kind, severity: 'high', symbol: null, message: 'Drawdown above the maximum', value: 20, threshold: 15 },
          metadata: { now: new Date().toISOString() },
        },
        { actor: 'risk-monitor', correlationId: randomUUID() },
      );
      return alertId;
    }

    it('acknowledges an alert (once), clears only the acknowledged ones, and cannot touch another user\'s alert', async function () {
      const me = await account({ premium: true });
      const first = await raise(me.userId, 'DRAWDOWN');
      const second = await raise(me.userId, 'VOLATILITY:ETH');
      const theirs = await raise(premium.userId, `DRAWDOWN-${unique()}`);

      let res!: Res;
      const acked = await h.appendedBy(async () => {
        res = await h.request('POST', `/api/risk/alerts/${first}/acknowledge`, { token: me.token });
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(eventsOf(acked)).to.deep.equal([['RiskAlertAcknowledged', `risk-${me.userId}`]]);
      expect(acked[0]!.data).to.include({ alertId: first });
      expect(res.body).to.deep.equal({ alertId: first, position: acked[0]!.position });

      const again = await h.appendedBy(async () => {
        res = await h.request('POST', `/api/risk/alerts/${first}/acknowledge`, { token: me.token });
      });
      expect(res.status).to.equal(200);
      expect(res.body.position).to.equal(null);
      expect(again).to.deep.equal([]);

      const foreign = await h.appendedBy(async () => {
        res = await h.request('POST', `/api/risk/alerts/${theirs}/acknowledge`, { token: me.token });
      });
      expect(res.status).to.equal(404);
      expect(res.body.detail).to.equal(`Risk alert ${theirs} not found`);
      expect(foreign).to.deep.equal([]);

      const cleared = await h.appendedBy(async () => {
        res = await h.request('DELETE', '/api/risk/alerts/acknowledged', { token: me.token });
      });
      expect(res.status).to.equal(200);
      expect(eventsOf(cleared)).to.deep.equal([['AcknowledgedRiskAlertsCleared', `risk-${me.userId}`]]);
      expect(cleared[0]!.data.alertIds).to.deep.equal([first]);
      expect(res.body).to.deep.equal({ alertIds: [first], position: cleared[0]!.position });

      // The unacknowledged one is still there to acknowledge; nothing more to clear until then.
      expect((await h.request('POST', `/api/risk/alerts/${second}/acknowledge`, { token: me.token })).status).to.equal(200);
      const none = await h.appendedBy(async () => {
        res = await h.request('POST', `/api/risk/alerts/${first}/acknowledge`, { token: me.token });
      });
      expect(res.status).to.equal(404);
      expect(none).to.deep.equal([]);
    });

    it("a reset resolves the alerts about the positions (an event, nothing deleted), which the caller's next read shows resolved; the day's loss alert stands", async function () {
      const me = await account({ premium: true });
      expect((await h.request('POST', '/api/trades', { token: me.token, body: { symbol: 'ETH', type: 'BUY', amount: 0.1 } })).status).to.equal(201);
      const size = await raise(me.userId, 'POSITION_SIZE:eth-1', 'POSITION_SIZE');
      const drawdown = await raise(me.userId, 'DRAWDOWN', 'DRAWDOWN');
      const loss = await raise(me.userId, `DAILY_LOSS_80@${new Date().toISOString().slice(0, 10)}`, 'DAILY_LOSS');
      expect((await h.request('POST', `/api/risk/alerts/${drawdown}/acknowledge`, { token: me.token })).status).to.equal(200);
      const headers = { 'idempotency-key': `reset-${unique()}` };

      let res!: Res;
      const events = await h.appendedBy(async () => {
        res = await h.request('POST', '/api/bot/reset', { token: me.token, headers });
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(eventsOf(events)).to.deep.equal([
        ['BotReset', `bot-${me.userId}`],
        ['PortfolioReset', `portfolio-${me.userId}`],
        ['RiskAlertsResolved', `risk-${me.userId}`],
      ]);
      const resolved = events[2]!;
      expect(resolved.data).to.deep.include({ userId: me.userId, alertIds: [size, drawdown], reason: 'PORTFOLIO_RESET' });
      expect(resolved.metadata.userId).to.equal(me.userId);
      expect(res.body.position).to.equal(resolved.position);

      // The same client's next read, without any header, already has it (read-your-own-writes).
      const read = await h.request('GET', '/api/risk/alerts', { token: me.token });
      expect(read.status).to.equal(200);
      const alerts = riskAlertsResponseSchema.parse(read.body);
      const byId = new Map(alerts.alerts.map((a) => [a.id, a]));
      expect(byId.get(size)).to.deep.include({ resolved: true, resolution: 'PORTFOLIO_RESET', resolvedAt: resolved.data.resolvedAt, acknowledged: false });
      expect(byId.get(drawdown)).to.deep.include({ resolved: true, resolution: 'PORTFOLIO_RESET', acknowledged: true });
      expect(byId.get(loss)).to.deep.include({ resolved: false, resolution: null, resolvedAt: null, acknowledged: false });
      expect(alerts.unacknowledged).to.equal(1);

      // The same reset again (a client's retry) appends nothing more; the resolved alerts clear with the acknowledged.
      const again = await h.appendedBy(async () => {
        res = await h.request('POST', '/api/bot/reset', { token: me.token, headers });
      });
      expect(res.status).to.equal(200);
      expect(again).to.deep.equal([]);
      const cleared = await h.request('DELETE', '/api/risk/alerts/acknowledged', { token: me.token });
      expect(cleared.body.alertIds).to.deep.equal([size, drawdown]);
    });
  });
});
