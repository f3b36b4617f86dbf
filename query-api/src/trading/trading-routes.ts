/**
 * The trading slice's GETs (issue 8, Endpoints), from the `portfolios`, `trades` and `risk` read
 * models valued at live prices from the market-data port (domain/src/trading/trading-read.ts):
 *
 * - GET /api/portfolio             signed in: the user's paper portfolio (10,000 cash until first used);
 *                                  visitors (no Authorization header): the house demo's, demo: true.
 * - GET /api/trades                one page of trades, newest first, the same way (demo: true for visitors);
 *                                  ?page&pageSize&coinId|symbol&status&type&from&to, filtered in the store.
 * - GET /api/risk                  signed in: the risk profile as bot settings, today's loss against the
 *                                  limit, portfolio risk, the drawdown from the peak (entries paused or not).
 * - GET /api/risk/parameters       signed in: the risk profile as the parameter set (the defaults until changed).
 * - GET /api/risk/active-trades    premium: open positions with the stop and target each really has.
 * - GET /api/risk/alerts           premium: alerts not yet cleared, newest first.
 * - GET /api/bot/decisions         signed in: the bot's recent refusals of BUY signals (rule, text, figures).
 *
 * A bot position's levels follow the profile with the market (a trailing stop from the highest tick
 * since its opening fill, the level the risk monitor's exit scan holds: one range read on the path,
 * whose whole days and hours are kept summaries; an atr or volatility stop without entry figures from
 * the figures of now, from the market-data port through a per-candle cache,
 * platform/src/market/market-history.ts), read only for the coins and rules that need them.
 *
 * A token that is sent but cannot be used is a 401 (never a silent fall back to the demo); 403
 * 'Premium subscription required' for free users on the premium routes. Unknown or bad query
 * parameters are a 400. Every route honours X-Min-Position for the read models it reads, and without
 * it a signed-in caller reads their own last write (platform/src/http/own-writes.ts).
 * Shapes are domain/src/trading/read-contracts.ts's.
 */
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { z } from 'zod';
import { noQuerySchema as noQuery } from '@papertrade/domain/api/shared';
import { DEFAULT_COIN_SYMBOL, findCoinBySymbol, type CoinSymbol } from '@papertrade/domain/market/coins';
import { SIGNAL_COUNTS_ALL, SIGNAL_COUNTS_PROJECTION, emptySignalCounts, type SignalCountsView } from '@papertrade/domain/signals/signal-view';
import { HOUSE_DEMO_USER_ID } from '@papertrade/domain/trading/house-demo';
import { BOT_DECISIONS_PROJECTION, botDecisionsResponse, type BotDecisionsView } from '@papertrade/domain/trading/bot-decisions-view';
import type { RiskProfile } from '@papertrade/domain/trading/contracts';
import { exitsOf, LOT_RULE, type Position } from '@papertrade/domain/trading/portfolio';
import { openingTick } from '@papertrade/domain/trading/engine/exit-spec';
import type { Prices } from '@papertrade/domain/trading/portfolio-valuation';
import {
  tradesQuerySchema,
  type ActiveRiskTradesResponse,
  type BotDecisionsResponse,
  type PortfolioResponse,
  type RiskAlertsResponse,
  type RiskParametersResponse,
  type RiskResponse,
  type Trade,
  type TradesResponse,
} from '@papertrade/domain/trading/read-contracts';
import {
  activeRiskTrades,
  dailyPnl,
  emptyHeldCoinMarket,
  dayStartNeeds,
  portfolioResponse,
  profileOf,
  type HeldCoinMarket,
  riskAlertsResponse,
  riskParametersResponse,
  riskResponse,
  tradeResponse,
  tradeSummary,
  valueView,
} from '@papertrade/domain/trading/trading-read';
import {
  PORTFOLIOS_PROJECTION,
  RISK_PROJECTION,
  TRADES_PROJECTION,
  type PortfolioView,
  type RiskView,
  type TradeView,
} from '@papertrade/domain/trading/trading-view';
import { currentUser, requirePremium, requireUser } from '@papertrade/platform/auth/guards';
import type { Scalar } from '@papertrade/platform/document-store/document-store';
import { parseQuery } from '@papertrade/platform/http/body';
import { readsOwnWrites } from '@papertrade/platform/http/own-writes';
import { readFreshness } from '@papertrade/platform/http/read-freshness';
import type { CandleSeries, CoinPrice, MarketData } from '@papertrade/platform/market/market-data';
import { MarketHistory } from '@papertrade/platform/market/market-history';
import type { QueryApiDeps } from '../deps';
import { JsonBodies } from '../json-body';
import { csvFilename, pageAsked, readWholeList, sendCsv, wantsCsv } from '../csv';


/** Whose account a read shows: a signed-in user's own, or (no Authorization header) the house demo's. */
function accountOf(ctx: Context): { userId: string; demo: boolean } {
  if (!ctx.get('authorization')) return { userId: HOUSE_DEMO_USER_ID, demo: true };
  return { userId: currentUser(ctx).id, demo: false };
}

/** Query first: a bad request is refused before anything is read or waited for. */
const validQuery =
  (schema: z.ZodType): Middleware =>
  async (ctx, next) => {
    ctx.state.query = parseQuery(ctx, schema);
    await next();
  };

/** The prices of one list of quotes, made once per list (the market data keeps the list for its step). */
const pricesOfQuotes = new WeakMap<readonly CoinPrice[], Prices>();

export async function livePrices(marketData: MarketData): Promise<{ prices: Prices; quotes: CoinPrice[] }> {
  const quotes = await marketData.prices();
  let prices = pricesOfQuotes.get(quotes);
  if (!prices) {
    prices = {};
    for (const q of quotes) prices[q.symbol] = q.price;
    pricesOfQuotes.set(quotes, prices);
  }
  return { prices, quotes };
}

/** Each coin's price at `startedAt` (the open of the candle holding it); omitted when unknown. */
export async function pricesAt(marketData: MarketData, symbols: CoinSymbol[], startedAt: string): Promise<Prices> {
  const at = Date.parse(startedAt);
  const prices: Prices = {};
  const held = symbols.flatMap((symbol) => findCoinBySymbol(symbol) ?? []);
  const series = await Promise.all(held.map((coin) => marketData.candles(coin.id, 1)));
  held.forEach((coin, i) => {
    const candle = candleHolding(series[i]!, at);
    if (candle) prices[coin.symbol] = candle.open;
  });
  return prices;
}

/** The candle of `series` (oldest first) whose span holds `at`, by bisection (a day is 288 candles). */
function candleHolding(series: CandleSeries, at: number): CandleSeries['candles'][number] | undefined {
  const { candles } = series;
  const width = series.interval.minutes * 60_000;
  let lo = 0;
  let hi = candles.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = candles[mid]!;
    if (at < c.time) hi = mid - 1;
    else if (at >= c.time + width) lo = mid + 1;
    else return c;
  }
  return undefined;
}

/**
 * The market context of each coin held that a bot position's levels need (none for fixed stops,
 * manual plans), with a trailing stop's highest tick since the entry from the path. Also read by the
 * assistant's look-ups (src/assistant), so its levels are these.
 */
export async function coinContextsOf(
  history: MarketHistory,
  marketData: Pick<MarketData, 'ticks'>,
  view: PortfolioView | null,
  profile: RiskProfile,
): Promise<Partial<Record<CoinSymbol, HeldCoinMarket>>> {
  const contexts: Partial<Record<CoinSymbol, HeldCoinMarket>> = {};
  const held = Object.values(view?.positions ?? {}).filter((p): p is Position => p !== undefined);
  await Promise.all(
    held.map(async (position) => {
      const plan = exitsOf(position);
      if (plan.kind !== 'PROFILE') return;
      const trailing = profile.stopLossType === 'trailing';
      const needFigures = (profile.stopLossType === 'atr' && plan.atr === null) || (profile.stopLossType === 'volatility' && plan.sigma === null);
      if (!trailing && !needFigures) return;
      const figures = needFigures ? await history.coinContext(position.coinId) : emptyHeldCoinMarket();
      contexts[position.symbol] = { ...figures, highestSinceEntry: trailing ? highestSinceEntry(marketData, position) : Number.NaN };
    }),
  );
  return contexts;
}

/** The highest tick of the coin since the position's opening fill (NaN: no path, or no tick since). */
function highestSinceEntry(marketData: Pick<MarketData, 'ticks'>, position: Position): number {
  const ticks = marketData.ticks;
  if (!ticks) return Number.NaN;
  const from = openingTick(position) + 1;
  const to = ticks.lastTick() + 1;
  return to > from ? ticks.range(position.coinId, from, to).high : Number.NaN;
}

/** The trade CSV's columns: the JSON trade's fields a spreadsheet wants, in this order (a SELL's lots are in the JSON). */
export const TRADES_CSV_FIELDS = [
  'time', 'id', 'type', 'symbol', 'amount', 'price', 'value', 'fee', 'pnl', 'status', 'source', 'signalId', 'closeReason',
  'entryPrice', 'remainingQuantity', 'soldQuantity', 'lotRule', 'strategyId', 'strategyType', 'pairId', 'exchange',
] as const;

const tradeRow = (t: Trade) => [
  t.timestamp, t.id, t.type, t.symbol, t.amount, t.price, t.value, t.fee, t.pnl, t.status, t.source, t.signalId, t.closeReason,
  t.entryPrice, t.remainingQuantity, t.soldQuantity, t.lotRule, t.strategyId, t.strategyType, t.pairId, t.exchange,
];

/**
 * The user a `trades` document id belongs to (`{userId}:{tradeId}`, trading-view.ts tradeViewId), so
 * a change notice of the trades projection drops the kept pages of that user only; undefined (drop
 * every kept page) for an id of another form.
 */
export function tradeDocumentUser(id: string): string | undefined {
  const colon = id.indexOf(':');
  return colon > 0 ? id.slice(0, colon) : undefined;
}

export function tradingRoutes(deps: Pick<QueryApiDeps, 'readModels' | 'readCache' | 'ownWrites' | 'marketData' | 'clock'>): Router {
  const router = new Router();
  const { readModels, readCache, marketData } = deps;
  // Every route here reads the caller's own account: it waits for the caller's last write (own-writes.ts).
  const readsFrom = readsOwnWrites(deps.ownWrites);
  const history = new MarketHistory(marketData, deps.clock);
  // A user's pages of trades are kept under the user's id (read-model-cache.ts).
  readCache.groupBy(TRADES_PROJECTION, tradeDocumentUser);
  const tradesBodies = new JsonBodies();

  const coinContexts = (view: PortfolioView | null, profile: RiskProfile) => coinContextsOf(history, marketData, view, profile);

  // Through the process's read cache, as fresh as the request needs (X-Min-Position, own writes).
  function portfolioOf(ctx: Context, userId: string) {
    return readCache.get<PortfolioView>(PORTFOLIOS_PROJECTION, userId, readFreshness(ctx));
  }
  function riskOf(ctx: Context, userId: string) {
    return readCache.get<RiskView>(RISK_PROJECTION, userId, readFreshness(ctx));
  }

  /** What valuing the portfolio now needs from the market: live prices, and the day's opening prices of what it held then. */
  async function marketFor(view: PortfolioView | null) {
    const now = deps.clock();
    const { prices, quotes } = await livePrices(marketData);
    const needs = dayStartNeeds(view, now);
    const dayStartPrices = needs ? await pricesAt(marketData, needs.symbols, needs.startedAt) : {};
    return { now, prices, quotes, dayStartPrices };
  }

  /** The portfolio valued now, with its daily P&L. */
  async function valued(view: PortfolioView | null) {
    const { now, prices, quotes, dayStartPrices } = await marketFor(view);
    const valuation = valueView(view, prices);
    return { now, prices, quotes, dayStartPrices, valuation, daily: dailyPnl(view, valuation, prices, dayStartPrices, now) };
  }

  router.get('/api/portfolio', validQuery(noQuery), readsFrom(PORTFOLIOS_PROJECTION, SIGNAL_COUNTS_PROJECTION), async (ctx) => {
    const { userId, demo } = accountOf(ctx);
    const [view, counts] = await Promise.all([
      portfolioOf(ctx, userId),
      readCache.get<SignalCountsView>(SIGNAL_COUNTS_PROJECTION, SIGNAL_COUNTS_ALL, readFreshness(ctx)),
    ]);
    // portfolioResponse values it itself.
    const { now, prices, quotes, dayStartPrices } = await marketFor(view);
    const eth = quotes.find((q) => q.symbol === DEFAULT_COIN_SYMBOL) ?? quotes[0];
    if (!eth) throw new Error('the market data port listed no coin');
    const body: PortfolioResponse = portfolioResponse({
      view,
      prices,
      dayStartPrices,
      latestPrice: { symbol: eth.symbol, price: eth.price, change24h: eth.change24h, changePercent24h: eth.changePercent24h },
      signalCounts: counts ?? emptySignalCounts(),
      demo,
      now,
    });
    ctx.body = body;
  });

  router.get('/api/trades', validQuery(tradesQuerySchema), readsFrom(TRADES_PROJECTION, PORTFOLIOS_PROJECTION), async (ctx) => {
    const query = ctx.state.query as z.output<typeof tradesQuerySchema>;
    const { userId, demo } = accountOf(ctx);
    const where: Record<string, Scalar> = { userId };
    if (query.symbol) where.symbol = query.symbol;
    if (query.status) where.status = query.status;
    if (query.type) where.type = query.type;
    const range = query.fromMs !== undefined || query.toMs !== undefined ? { field: 'placedAtMs', gte: query.fromMs, lt: query.toMs } : undefined;
    const trades = await readModels.collection<TradeView>(TRADES_PROJECTION);
    const read = (skip: number, limit: number) =>
      trades.find({
        where,
        ...(range ? { range } : {}),
        // Newest first; the trade id orders trades of the same millisecond, so pages are stable.
        sort: [
          { field: 'placedAtMs', direction: 'desc' },
          { field: 'tradeId', direction: 'desc' },
        ],
        skip,
        limit,
      });
    if (wantsCsv(ctx, query.format)) {
      // A spreadsheet of the filtered trades: the asked page, or every match (csv.ts).
      const whole = !pageAsked(ctx);
      const [list, total, { prices }] = await Promise.all([
        whole ? readWholeList(read) : read((query.page - 1) * query.pageSize, query.pageSize),
        trades.count(where, range),
        livePrices(marketData),
      ]);
      sendCsv(ctx, {
        filename: csvFilename(demo ? 'demo-trades' : 'trades', deps.clock(), whole ? undefined : query.page),
        fields: TRADES_CSV_FIELDS,
        rows: list.map((t) => tradeRow(tradeResponse(t, prices))),
        total,
        truncated: whole && total > list.length,
      });
      return;
    }
    // The page and its total, kept per user and what was asked (the key is the store query itself)
    // until a trade of the user changes.
    const skip = (query.page - 1) * query.pageSize;
    const [{ page, total }, portfolio, { prices }] = await Promise.all([
      readCache.read<TradeView, { page: TradeView[]; total: number }>(
        TRADES_PROJECTION,
        userId,
        JSON.stringify({ where, range, skip, limit: query.pageSize }),
        async () => {
          const [list, count] = await Promise.all([read(skip, query.pageSize), trades.count(where, range)]);
          return { page: list, total: count };
        },
        readFreshness(ctx),
      ),
      portfolioOf(ctx, userId),
      livePrices(marketData),
    ]);
    // A pure function of these: serialised once while they stay the same objects (json-body.ts).
    tradesBodies.send(ctx, [page, total, portfolio, prices, demo, query.page, query.pageSize], (): TradesResponse => ({
      demo,
      lotRule: LOT_RULE,
      trades: page.map((t) => tradeResponse(t, prices)),
      total,
      page: query.page,
      pageSize: query.pageSize,
      totalPages: Math.ceil(total / query.pageSize),
      summary: tradeSummary(portfolio?.summary),
    }));
  });

  router.get('/api/risk', requireUser, validQuery(noQuery), readsFrom(RISK_PROJECTION, PORTFOLIOS_PROJECTION), async (ctx) => {
    const userId = currentUser(ctx).id;
    const [risk, view] = await Promise.all([riskOf(ctx, userId), portfolioOf(ctx, userId)]);
    const profile = profileOf(risk);
    const [{ now, valuation, daily }, coins] = await Promise.all([valued(view), coinContexts(view, profile)]);
    const body: RiskResponse = riskResponse({ profile, view, valuation, daily, now, coins });
    ctx.body = body;
  });

  router.get('/api/risk/parameters', requireUser, validQuery(noQuery), readsFrom(RISK_PROJECTION), async (ctx) => {
    const body: RiskParametersResponse = riskParametersResponse(await riskOf(ctx, currentUser(ctx).id));
    ctx.body = body;
  });

  router.get('/api/risk/active-trades', requirePremium, validQuery(noQuery), readsFrom(RISK_PROJECTION, PORTFOLIOS_PROJECTION), async (ctx) => {
    const userId = currentUser(ctx).id;
    const [risk, view] = await Promise.all([riskOf(ctx, userId), portfolioOf(ctx, userId)]);
    const now = deps.clock();
    const profile = profileOf(risk);
    const [{ prices }, coins] = await Promise.all([livePrices(marketData), coinContexts(view, profile)]);
    const body: ActiveRiskTradesResponse = { trades: activeRiskTrades(valueView(view, prices), profile, now, view?.positions ?? {}, coins) };
    ctx.body = body;
  });

  router.get('/api/bot/decisions', requireUser, validQuery(noQuery), readsFrom(BOT_DECISIONS_PROJECTION), async (ctx) => {
    const doc = await (await readModels.collection<BotDecisionsView>(BOT_DECISIONS_PROJECTION)).get(currentUser(ctx).id);
    const body: BotDecisionsResponse = botDecisionsResponse(doc);
    ctx.body = body;
  });

  router.get('/api/risk/alerts', requirePremium, validQuery(noQuery), readsFrom(RISK_PROJECTION), async (ctx) => {
    const body: RiskAlertsResponse = riskAlertsResponse(await riskOf(ctx, currentUser(ctx).id));
    ctx.body = body;
  });

  return router;
}
