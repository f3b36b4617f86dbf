/**
 * The assistant's look-ups over the caller's read models (issue 20): the registry of
 * domain/src/assistant/tools.ts implemented here, bound to one signed-in caller per request. Each tool
 * computes what the screen it links to shows, with the same domain functions and the same reads as
 * the GET routes (trading-read.ts valued at live prices, the read cache, the market-data port), then
 * turns it into facts with the registry's builders. No tool takes a user id: every read is keyed by
 * the caller's own id, so nothing of another user can reach an answer.
 *
 * Reads of one answer share a per-request memo (the portfolio document is read once even when the
 * portfolio, the trade summary and the risk status all need it), through the process's read cache with
 * the request's freshness (X-Min-Position and the caller's own last write, read-freshness.ts).
 *
 * `my_backtests` (issue 18) reads the caller's backtest history as GET /api/backtest/history does
 * (backtestHistoryOf). Where the what-if runner will plug in: `chatTool('what_if_backtest', ...)`
 * appended to the list below, once its spec is in domain/src/assistant/tools.ts (toolInputs,
 * toolDescriptions, ToolResults) and answers.ts plans and renders it.
 */
import type { UserView } from '@papertrade/domain/auth/user-view';
import { explainTerm } from '@papertrade/domain/assistant/glossary';
import { findStrategy } from '@papertrade/domain/backtest/contracts';
import { BACKTESTS_PROJECTION } from '@papertrade/domain/backtest/backtest-views';
import {
  alertsResult,
  backtestsResult,
  botStatusResult,
  indicatorsResult,
  modelResult,
  portfolioResult,
  positionsResult,
  priceResult,
  profileResult,
  refusalsResult,
  riskProfileResult,
  riskStatusResult,
  signalResult,
  subscriptionResult,
  tradeSummaryResult,
  tradesResult,
  type SignalLookup,
} from '@papertrade/domain/assistant/tools';
import { ML_STATUS_PROJECTION, mlStatusResponse, type MlStatusView } from '@papertrade/domain/ml/ml-status-view';
import { HOUSE_MODEL_USER_ID } from '@papertrade/domain/ml/model';
import { DEFAULT_COIN_SYMBOL, findCoinBySymbol, type Coin, type CoinSymbol } from '@papertrade/domain/market/coins';
import { SIGNAL_COUNTS_PROJECTION, SIGNALS_PROJECTION, emptySignalCounts, toSignal, type SignalCountsView, type SignalView } from '@papertrade/domain/signals/signal-view';
import { SUBSCRIPTIONS_PROJECTION, toSubscriptionResponse, type SubscriptionView } from '@papertrade/domain/subscription/subscription-view';
import { BOT_DECISIONS_PROJECTION, botDecisionsResponse, type BotDecisionsView } from '@papertrade/domain/trading/bot-decisions-view';
import { TRADING_BOTS_PROJECTION, type TradingBotView } from '@papertrade/domain/trading/bot-view';
import {
  activeRiskTrades,
  dailyPnl,
  dayStartNeeds,
  drawdownState,
  portfolioResponse,
  profileOf,
  riskAlertsResponse,
  riskParametersResponse,
  riskResponse,
  tradeResponse,
  tradeSummary,
  valueView,
} from '@papertrade/domain/trading/trading-read';
import { PORTFOLIOS_PROJECTION, RISK_PROJECTION, TRADES_PROJECTION, type PortfolioView, type RiskView, type TradeView } from '@papertrade/domain/trading/trading-view';
import { NotFoundError } from '@papertrade/domain/shared/errors';
import { ChatToolbox, chatTool } from '@papertrade/platform/assistant/chat-model';
import type { Scalar } from '@papertrade/platform/document-store/document-store';
import { MarketHistory } from '@papertrade/platform/market/market-history';
import { ANY_CHANGE, type ReadFreshness } from '@papertrade/platform/projections/read-model-cache';
import type { QueryApiDeps } from '../deps';
import { trainingPlace } from '../ml/ml-routes';
import { backtestHistoryOf } from '../backtest/backtest-routes';
import { indicatorsOf } from '../signals/signals-routes';
import { coinContextsOf, livePrices, pricesAt } from '../trading/trading-routes';

/** The projections the look-ups read that the caller's own commands write (waited for like the screens' reads). */
export const ASSISTANT_OWN_PROJECTIONS = [PORTFOLIOS_PROJECTION, TRADES_PROJECTION, RISK_PROJECTION, BOT_DECISIONS_PROJECTION, TRADING_BOTS_PROJECTION, SUBSCRIPTIONS_PROJECTION, ML_STATUS_PROJECTION, BACKTESTS_PROJECTION] as const;

export type AssistantDeps = Pick<QueryApiDeps, 'readModels' | 'readCache' | 'marketData' | 'clock' | 'apiCalls'>;

function coinOf(symbol: CoinSymbol | undefined): Coin {
  const coin = findCoinBySymbol(symbol ?? DEFAULT_COIN_SYMBOL);
  if (!coin) throw new NotFoundError(`Unknown coin symbol ${JSON.stringify(symbol)}`);
  return coin;
}

/** Builds the caller's toolbox for one request: `caller` is the signed-in user, `freshness` the request's. */
export function assistantTools(deps: AssistantDeps): (caller: UserView, freshness: ReadFreshness) => ChatToolbox {
  const { readCache, readModels, marketData } = deps;
  const history = new MarketHistory(marketData, deps.clock);

  return (caller, freshness) => {
    const userId = caller.id;
    const memo = new Map<string, Promise<unknown>>();
    const once = <T>(key: string, read: () => Promise<T>): Promise<T> => {
      let found = memo.get(key) as Promise<T> | undefined;
      if (!found) {
        found = read();
        memo.set(key, found);
      }
      return found;
    };
    const portfolioView = () => once('portfolio', () => readCache.get<PortfolioView>(PORTFOLIOS_PROJECTION, userId, freshness));
    const riskView = () => once('risk', () => readCache.get<RiskView>(RISK_PROJECTION, userId, freshness));
    const prices = () => once('prices', () => livePrices(marketData));
    /** The portfolio valued now with its daily P&L (GET /api/portfolio's and GET /api/risk's figures). */
    const valued = () =>
      once('valued', async () => {
        const now = deps.clock();
        const [view, live] = await Promise.all([portfolioView(), prices()]);
        const needs = dayStartNeeds(view, now);
        const dayStartPrices = needs ? await pricesAt(marketData, needs.symbols, needs.startedAt) : {};
        const valuation = valueView(view, live.prices);
        return { now, view, ...live, dayStartPrices, valuation, daily: dailyPnl(view, valuation, live.prices, dayStartPrices, now) };
      });
    const riskNow = () =>
      once('riskResponse', async () => {
        const [risk, v] = await Promise.all([riskView(), valued()]);
        const profile = profileOf(risk);
        const coins = await coinContextsOf(history, deps.marketData, v.view, profile);
        return riskResponse({ profile, view: v.view, valuation: v.valuation, daily: v.daily, now: v.now, coins });
      });
    const signalOf: (ids: string[]) => Promise<SignalLookup> = async (ids) => {
      const docs = await Promise.all([...new Set(ids)].map((id) => readCache.get<SignalView>(SIGNALS_PROJECTION, id, freshness)));
      const byId = new Map(docs.filter((d): d is SignalView => d !== null).map((d) => [d.signalId, toSignal(d)]));
      return (id) => byId.get(id);
    };

    return new ChatToolbox([
      chatTool('get_profile', async () => profileResult(caller)),

      chatTool('get_portfolio', async () => {
        const [v, counts] = await Promise.all([valued(), readCache.get<SignalCountsView>(SIGNAL_COUNTS_PROJECTION, 'ALL', freshness)]);
        const eth = v.quotes.find((q) => q.symbol === DEFAULT_COIN_SYMBOL) ?? v.quotes[0];
        if (!eth) throw new Error('the market data port listed no coin');
        return portfolioResult(
          portfolioResponse({
            view: v.view,
            prices: v.prices,
            dayStartPrices: v.dayStartPrices,
            latestPrice: { symbol: eth.symbol, price: eth.price, change24h: eth.change24h, changePercent24h: eth.changePercent24h },
            signalCounts: counts ?? emptySignalCounts(),
            demo: false,
            now: v.now,
          }),
        );
      }),

      chatTool('get_positions', async ({ symbol }) => {
        const [risk, view, live] = await Promise.all([riskView(), portfolioView(), prices()]);
        const profile = profileOf(risk);
        const coins = await coinContextsOf(history, deps.marketData, view, profile);
        const open = activeRiskTrades(valueView(view, live.prices), profile, deps.clock(), view?.positions ?? {}, coins);
        return positionsResult(symbol ? open.filter((t) => t.symbol === symbol) : open);
      }),

      chatTool('get_trades', async ({ limit, symbol, type }) => {
        const where: Record<string, Scalar> = { userId };
        if (symbol) where.symbol = symbol;
        if (type) where.type = type;
        const [{ list, total }, live] = await Promise.all([
          readCache.read<TradeView, { list: TradeView[]; total: number }>(
            TRADES_PROJECTION,
            userId,
            JSON.stringify({ assistant: true, where, limit }),
            async (trades) => {
              const [found, count] = await Promise.all([
                trades.find({ where, sort: [{ field: 'placedAtMs', direction: 'desc' }, { field: 'tradeId', direction: 'desc' }], limit }),
                trades.count(where),
              ]);
              return { list: found, total: count };
            },
            freshness,
          ),
          prices(),
        ]);
        const trades = list.map((t) => tradeResponse(t, live.prices));
        const lookup = await signalOf(trades.flatMap((t) => (t.signalId ? [t.signalId] : [])));
        return tradesResult(trades, total, lookup);
      }),

      chatTool('get_trade_summary', async () => tradeSummaryResult(tradeSummary((await portfolioView())?.summary))),

      chatTool('get_bot_refusals', async ({ limit, symbol }) => {
        const doc = await readCache.get<BotDecisionsView>(BOT_DECISIONS_PROJECTION, userId, freshness);
        const refusals = botDecisionsResponse(doc).refusals.filter((r) => !symbol || r.symbol === symbol);
        return refusalsResult(refusals.slice(0, limit));
      }),

      chatTool('get_bot_status', async () => {
        const [bot, risk, v] = await Promise.all([readCache.get<TradingBotView>(TRADING_BOTS_PROJECTION, userId, freshness), riskView(), valued()]);
        return botStatusResult({ status: bot?.status === 'ACTIVE' ? 'ACTIVE' : 'STOPPED', startedAt: bot?.startedAt ?? null }, drawdownState(v.view, v.valuation, profileOf(risk)));
      }),

      chatTool('get_signal', async ({ symbol }) => {
        const coin = coinOf(symbol);
        const where = { symbol: coin.symbol };
        const [latest, counts] = await Promise.all([
          readCache.read<SignalView, SignalView[]>(
            SIGNALS_PROJECTION,
            ANY_CHANGE,
            JSON.stringify({ where, skip: 0, limit: 1 }),
            (signals) => signals.find({ where, sort: [{ field: 'candleTimeMs', direction: 'desc' }, { field: 'symbol', direction: 'asc' }], skip: 0, limit: 1 }),
            freshness,
          ),
          readCache.get<SignalCountsView>(SIGNAL_COUNTS_PROJECTION, coin.symbol, freshness),
        ]);
        return signalResult(coin.symbol, latest[0] ? toSignal(latest[0]) : null, counts ?? emptySignalCounts());
      }),

      chatTool('get_indicators', async ({ symbol }) => indicatorsResult(await indicatorsOf(marketData, coinOf(symbol), deps.clock().getTime()))),

      chatTool('get_price', async ({ symbol }) => {
        const p = await marketData.price(coinOf(symbol).id);
        return priceResult({ coinId: p.coinId, symbol: p.symbol, price: p.price, changePercent24h: p.changePercent24h, at: p.at });
      }),

      chatTool('get_risk_profile', async () => riskProfileResult(riskParametersResponse(await riskView()))),

      chatTool('get_risk_status', async () => riskStatusResult(await riskNow())),

      chatTool('get_alerts', async () => alertsResult(riskAlertsResponse(await riskView()))),

      chatTool('get_subscription', async () => {
        const [view, trades, apiCalls] = await Promise.all([
          readCache.get<SubscriptionView>(SUBSCRIPTIONS_PROJECTION, userId, freshness),
          readCache.read<TradeView, number>(TRADES_PROJECTION, userId, 'assistant:count', (c) => c.count({ userId }), freshness),
          deps.apiCalls.used(userId),
        ]);
        return subscriptionResult(toSubscriptionResponse(view ?? { tier: caller.subscriptionTier, subscriptionStatus: caller.subscriptionStatus, endsAt: null }, { trades, apiCalls }, deps.clock()));
      }),

      chatTool('get_model_status', async () => {
        // GET /api/ml-status's answer (mlStatusOf), its documents through the read cache: the caller's
        // own model when they have one, else the house model's.
        const [own, house] = await Promise.all([readCache.get<MlStatusView>(ML_STATUS_PROJECTION, userId, freshness), readCache.get<MlStatusView>(ML_STATUS_PROJECTION, HOUSE_MODEL_USER_ID, freshness)]);
        const mine = own && (own.current || own.training || own.lastFailure) ? own : null;
        const view = mine ?? house;
        return modelResult(mlStatusResponse(view, mine ? 'own' : 'house', await trainingPlace(readModels, view?.training ?? null)));
      }),

      chatTool('explain_term', async ({ term }) => explainTerm(term)),

      chatTool('my_backtests', async ({ limit }) =>
        // GET /api/backtest/history's rows (its newest `limit`), named by the strategy catalogue.
        backtestsResult(await backtestHistoryOf(readModels, userId, limit), (id) => findStrategy(id)?.name ?? id),
      ),
    ]);
  };
}
