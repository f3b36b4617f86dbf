/**
 * The trading read models (given events from the deciders, the documents) and their valuation at
 * given prices: cash and positions as the portfolio stream computes them, the day's start recorded
 * on the first event of a UTC day, trades OPEN until closed (sell, stop loss, reset), the risk
 * document; then the exact response figures (cents add up, daily P&L since 00:00 UTC).
 */
import { expect } from 'chai';
import { eventsOf } from '../shared/decider-specification';
import type { DomainEvent } from '../shared/decider';
import { DEFAULT_RISK_PARAMETERS, DEFAULT_RISK_PROFILE, type BotDecision } from './contracts';
import { tradeSourceLabel, type PortfolioEvent, type TradeSource } from './portfolio';
import type { Prices } from './portfolio-valuation';
import { portfolioDecider, type ExitRequest, type PortfolioCommand } from './portfolio.decider';
import type { RiskEvent } from './risk';
import { riskDecider, type RiskCommand } from './risk.decider';
import {
  activeRiskTrades,
  dailyPnl,
  dayStartNeeds,
  emptyHeldCoinMarket,
  percentOf,
  portfolioResponse,
  riskAlertsResponse,
  riskParametersResponse,
  riskResponse,
  tradeResponse,
  tradeSummary,
  valueView,
} from './trading-read';
import {
  closeTradeId,
  dayStartAt,
  emptyRiskView,
  evolvePortfolioView,
  evolveRiskView,
  evolveTradeView,
  portfolioStateOf,
  portfolioViewIds,
  riskViewIds,
  tradeViewId,
  tradeViewIds,
  type PortfolioView,
  type RiskView,
  type TradeView,
} from './trading-view';

const DAY1 = '2026-03-04T05:06:07.000Z';
const DAY2 = '2026-03-05T09:00:00.000Z';
const DAY2_LATER = '2026-03-05T10:00:00.000Z';
const DAY2_NOW = new Date('2026-03-05T12:00:00.000Z');
const MANUAL: TradeSource = { kind: 'MANUAL' };
const SIGNAL: TradeSource = { kind: 'SIGNAL', eventId: 'e1', signalId: 'sig-1', signalType: 'BUY', candleTime: '2026-03-04T05:00:00.000Z' };

const place = (tradeId: string, side: 'BUY' | 'SELL', amount: number, price: number, now: string, symbol = 'ETH', source: TradeSource = MANUAL, exits?: ExitRequest): PortfolioCommand => ({
  type: 'PlaceSimulatedTrade',
  data: { userId: 'u1', tradeId, symbol, side, amount, price, source, ...(exits ? { exits } : {}) },
  metadata: { now },
});
const BOT_EXITS: ExitRequest = { kind: 'PROFILE', atr: 12, sigma: 0.002 };

/** The events the decider appends for these commands, in order. */
const run = (...commands: PortfolioCommand[]): PortfolioEvent[] => eventsOf(portfolioDecider, ...commands);

const portfolioOf = (events: DomainEvent[]) => events.reduce<PortfolioView | null>(evolvePortfolioView, null);
/** Every trade document, as the projector keeps them (one evolve per document an event names). */
function tradesOf(events: DomainEvent[]): Map<string, TradeView> {
  const docs = new Map<string, TradeView>();
  for (const event of events) {
    for (const id of tradeViewIds(event)) {
      const next = evolveTradeView(docs.get(id) ?? null, event);
      if (next) docs.set(id, next);
    }
  }
  return docs;
}

/** Day 1: 0.5 ETH at 3,000 (cost 1,501.50). Day 2: sell 0.2 at 3,300, buy 0.01 BTC at 60,000 following a signal. */
const dayOneAndTwo = () =>
  run(place('t1', 'BUY', 0.5, 3000, DAY1), place('t2', 'SELL', 0.2, 3300, DAY2), place('t3', 'BUY', 0.01, 60_000, DAY2_LATER, 'BTC', SIGNAL));

describe('trading read models', function () {
  describe('portfolios', function () {
    it('holds the cash and positions the portfolio stream computes, and the first day starts at opening', function () {
      const view = portfolioOf(run(place('t1', 'BUY', 0.5, 3000, DAY1)))!;
      expect(view.cashMicros).to.equal(8_498_500_000); // 10,000 - 1,500 - 1.50 fee
      expect(view.positions.ETH).to.deep.include({ units: 50_000_000, costBasisMicros: 1_501_500_000, entryNotionalMicros: 1_500_000_000, openTradeIds: ['t1'] });
      expect(view.day).to.deep.equal({ day: '2026-03-04', startedAt: DAY1, cashMicros: 10_000_000_000, positions: [], realisedPnlMicros: 0 });
      expect(view.summary).to.deep.equal({ trades: 1, buys: 1, sells: 0, closes: 0, wins: 0, realisedPnlMicros: 0, realisedPnlCents: 0, notionalMicros: 1_500_000_000 });
    });

    it("records on a day's first event what was held at 00:00 UTC, and adds up what is realised that day", function () {
      const view = portfolioOf(dayOneAndTwo())!;
      // SELL 0.2 at 3,300: 660 - 0.66 fee - 600.60 basis = 58.74 realised.
      expect(view.day).to.deep.equal({
        day: '2026-03-05',
        startedAt: '2026-03-05T00:00:00.000Z',
        cashMicros: 8_498_500_000,
        positions: [{ symbol: 'ETH', coinId: 'ethereum', units: 50_000_000, costBasisMicros: 1_501_500_000, lotUnits: [50_000_000] }],
        realisedPnlMicros: 58_740_000,
      });
      expect(view.realisedPnlMicros).to.equal(58_740_000);
      expect(view.cashMicros).to.equal(8_498_500_000 + 659_340_000 - 600_600_000);
      expect(view.summary).to.deep.equal({ trades: 3, buys: 2, sells: 1, closes: 1, wins: 1, realisedPnlMicros: 58_740_000, realisedPnlCents: 5_874, notionalMicros: 2_760_000_000 });
    });

    it('a reset starts the day over at the starting cash; events of other streams change nothing', function () {
      const events = [...dayOneAndTwo(), ...run(place('t1', 'BUY', 0.5, 3000, DAY1), { type: 'ResetPortfolio', data: { userId: 'u1' }, metadata: { now: DAY2_LATER } }).slice(2)];
      const view = portfolioOf(events)!;
      expect(view.cashMicros).to.equal(10_000_000_000);
      expect(view.positions).to.deep.equal({});
      expect(view.day).to.deep.equal({ day: '2026-03-05', startedAt: DAY2_LATER, cashMicros: 10_000_000_000, positions: [], realisedPnlMicros: 0 });
      expect(evolvePortfolioView(view, { type: 'UserRegistered', data: {} })).to.equal(view);
    });
  });

  describe('trades', function () {
    it('shows what each fill met (issue 17): the mid, the half spread and impact, when it filled, a bot order\'s delay, a close\'s level; null for fills before it', function () {
      const market = { filledAt: '2026-03-04T05:06:05.000Z', minuteVolumeUsd: 4_000_000, intendedAt: '2026-03-04T05:05:05.000Z' };
      const withMarket: PortfolioCommand = { ...place('t1', 'BUY', 0.5, 3000, DAY1), data: { ...(place('t1', 'BUY', 0.5, 3000, DAY1).data as object), market } } as PortfolioCommand;
      const stop: PortfolioCommand = {
        type: 'ClosePosition',
        data: { userId: 'u1', positionId: 't1', symbol: 'ETH', reason: 'STOP_LOSS', price: 2930, market: { filledAt: '2026-03-04T06:00:05.000Z', minuteVolumeUsd: 4_000_000, level: 2940 } },
        metadata: { now: '2026-03-04T06:00:05.000Z' },
      };
      const docs = tradesOf(run(withMarket, stop));
      const buy = tradeResponse(docs.get(tradeViewId('u1', 't1'))!, {});
      expect(buy.execution).to.deep.include({ mid: 3000, halfSpread: 0.00005, filledAt: '2026-03-04T05:06:05.000Z', intendedAt: '2026-03-04T05:05:05.000Z', delayMs: 60_000, level: null });
      expect(buy.execution!.impact).to.be.within(1e-6, 1e-4);
      expect(buy.price).to.equal(3000 * (1 + 0.00005 + buy.execution!.impact));
      const close = tradeResponse(docs.get(tradeViewId('u1', closeTradeId('t1')))!, {});
      expect(close.execution).to.deep.include({ mid: 2930, filledAt: '2026-03-04T06:00:05.000Z', intendedAt: null, delayMs: null, level: 2940 });
      const before = tradeResponse(tradesOf(run(place('t1', 'BUY', 0.5, 3000, DAY1))).get(tradeViewId('u1', 't1'))!, {});
      expect(before.execution, 'a fill without a market (before issue 17)').to.equal(null);
      const { execution: _none, ...older } = docs.get(tradeViewId('u1', 't1'))!;
      expect(tradeResponse(older, {}).execution, 'a document written before the field').to.equal(null);
    });

    it('a BUY is OPEN while its position is, a SELL is CLOSED with its P&L and the entry price of what it sold', function () {
      const docs = tradesOf(dayOneAndTwo());
      expect(docs.get(tradeViewId('u1', 't1'))).to.deep.include({ type: 'BUY', status: 'OPEN', closeReason: null, realisedPnlMicros: null, source: 'Manual' });
      const sell = docs.get(tradeViewId('u1', 't2'))!;
      expect(sell).to.deep.include({ type: 'SELL', status: 'CLOSED', closeReason: 'SELL', realisedPnlMicros: 58_740_000, entryNotionalMicros: 600_000_000, placedAtMs: Date.parse(DAY2) });
      expect(docs.get(tradeViewId('u1', 't3'))).to.deep.include({ symbol: 'BTC', source: 'BUY signal', signalId: 'sig-1', status: 'OPEN' });
      const shown = tradeResponse(sell, {});
      expect(shown).to.deep.include({ id: 't2', amount: 0.2, quantity: 0.2, price: 3300, value: 660, entryPrice: 3000, fee: 0.66, pnl: 58.74, pnlRealised: true, timestamp: DAY2 });
    });

    it('a sell of the rest, a stop loss and a reset close the open BUYs with their reason; a stop loss is a SELL trade', function () {
      const events = run(
        place('t1', 'BUY', 0.5, 3000, DAY1),
        place('t2', 'BUY', 0.01, 60_000, DAY1, 'BTC'),
        place('t3', 'BUY', 1, 150, DAY1, 'SOL'),
        place('t4', 'SELL', 0.5, 2900, DAY2),
        { type: 'ClosePosition', data: { userId: 'u1', positionId: 't2', symbol: 'BTC', reason: 'STOP_LOSS', price: 58_800 }, metadata: { now: DAY2_LATER } },
        { type: 'ResetPortfolio', data: { userId: 'u1' }, metadata: { now: DAY2_LATER } },
      );
      const docs = tradesOf(events);
      expect(docs.get(tradeViewId('u1', 't1'))).to.deep.include({ status: 'CLOSED', closeReason: 'SELL', closedAt: DAY2 });
      expect(docs.get(tradeViewId('u1', 't2'))).to.deep.include({ status: 'CLOSED', closeReason: 'STOP_LOSS', closedAt: DAY2_LATER });
      expect(docs.get(tradeViewId('u1', 't3'))).to.deep.include({ status: 'CLOSED', closeReason: 'RESET', closedAt: DAY2_LATER });
      // 0.01 BTC at 58,800: 588 - 0.588 fee - 600.60 basis = -13.188.
      const stop = docs.get(tradeViewId('u1', closeTradeId('t2')))!;
      expect(stop).to.deep.include({ type: 'SELL', symbol: 'BTC', status: 'CLOSED', closeReason: 'STOP_LOSS', source: 'Stop loss', realisedPnlMicros: -13_188_000 });
      expect(tradeResponse(stop, {})).to.deep.include({ entryPrice: 60_000, pnl: -13.19, price: 58_800 });
      expect(docs.size).to.equal(5);
    });

    it('an OPEN BUY shows the P&L of what it still holds at the live price (fee included), none without a price; a CLOSED BUY none', function () {
      const docs = tradesOf(dayOneAndTwo());
      const t1 = docs.get(tradeViewId('u1', 't1'))!;
      // t2 sold 0.2 of its 0.5: 0.3 ETH at 3,210.01 = 963.003 -> 963.00; what they cost 900.90 (of 1,501.50).
      expect(tradeResponse(t1, { ETH: 3210.01 })).to.deep.include({ pnl: 62.1, pnlRealised: false, status: 'OPEN', entryPrice: 3000, remainingQuantity: 0.3, soldQuantity: 0.2 });
      expect(tradeResponse(t1, {}).pnl).to.equal(null);
      expect(tradeResponse({ ...t1, status: 'CLOSED', closeReason: 'SELL' }, { ETH: 3300 }).pnl).to.equal(null);
    });

    it('summarises every trade: win rate over closing trades, realised P&L, average size', function () {
      const view = portfolioOf(dayOneAndTwo())!;
      expect(tradeSummary(view.summary)).to.deep.equal({ totalTrades: 3, buys: 2, sells: 1, winRate: 100, totalPnl: 58.74, avgTradeSize: 920 });
      // No trade has closed: no win rate (the screen shows a dash), not 0 %.
      expect(tradeSummary(undefined)).to.deep.equal({ totalTrades: 0, buys: 0, sells: 0, winRate: null, totalPnl: 0, avgTradeSize: 0 });
      expect(tradeSummary(portfolioOf(run(place('t1', 'BUY', 0.5, 3000, DAY1)))!.summary).winRate).to.equal(null);
    });
  });

  describe('strategy trades and arbitrage pairs (issue 19)', function () {
    const strategy = (strategyId: 'neural-network' | 'rsi-technical' | 'cross-exchange-arbitrage', strategyType: 'neural' | 'technical' | 'arbitrage'): Extract<TradeSource, { kind: 'SIGNAL' }> => ({ kind: 'SIGNAL', eventId: 'e1', signalId: 'sig-1', signalType: 'BUY', candleTime: '2026-03-04T05:00:00.000Z', strategy: { strategyId, strategyType } });

    it('the Signal Source names the user strategy by its name on the AI Strategies screen; a house signal keeps its type, a manual trade stays Manual', function () {
      expect(tradeSourceLabel(strategy('rsi-technical', 'technical'))).to.equal('RSI Mean Reversion strategy');
      expect(tradeSourceLabel(strategy('neural-network', 'neural'))).to.equal('Neural Network Predictor strategy');
      expect(tradeSourceLabel({ ...strategy('cross-exchange-arbitrage', 'arbitrage'), signalType: 'ARBITRAGE' })).to.equal('Cross-Exchange Arbitrage strategy');
      expect(tradeSourceLabel(SIGNAL)).to.equal('BUY signal');
      expect(tradeSourceLabel(MANUAL)).to.equal('Manual');
    });

    it('a strategy\'s trade carries its strategyId and strategyType to the API; others carry null', function () {
      const docs = tradesOf(run(place('t1', 'BUY', 0.5, 3000, DAY1, 'ETH', strategy('rsi-technical', 'technical')), place('t2', 'BUY', 0.01, 60_000, DAY1, 'BTC', SIGNAL), place('t3', 'BUY', 1, 100, DAY1, 'SOL')));
      const read = (id: string) => tradeResponse(docs.get(tradeViewId('u1', id))!, {});
      expect(read('t1')).to.include({ source: 'RSI Mean Reversion strategy', signal: 'RSI Mean Reversion strategy', strategyId: 'rsi-technical', strategyType: 'technical', pairId: null, exchange: null });
      expect(read('t2')).to.include({ source: 'BUY signal', strategyId: null, strategyType: null });
      expect(read('t3')).to.include({ source: 'Manual', signal: null, strategyId: null, strategyType: null });
    });

    it("an arbitrage pair is two rows sharing a pair id, each with its exchange; the BUY leg CLOSED by the SELL leg, which carries the P&L", function () {
      const events = run({
        type: 'PlaceArbitragePair',
        data: {
          userId: 'u1', pairId: 'p1', buyTradeId: 'p1:buy', sellTradeId: 'p1:sell', symbol: 'ETH', amount: 0.5,
          buy: { exchange: 'binance', mid: 3000 }, sell: { exchange: 'kraken', mid: 3030 },
          source: { ...strategy('cross-exchange-arbitrage', 'arbitrage'), signalType: 'ARBITRAGE' },
        },
        metadata: { now: DAY1 },
      });
      const docs = tradesOf(events);
      const buy = tradeResponse(docs.get(tradeViewId('u1', 'p1:buy'))!, { ETH: 3000 });
      const sell = tradeResponse(docs.get(tradeViewId('u1', 'p1:sell'))!, { ETH: 3000 });
      expect(buy).to.include({ type: 'BUY', pairId: 'p1', exchange: 'binance', status: 'CLOSED', closeReason: 'SELL', pnl: null, fee: 1.5, strategyId: 'cross-exchange-arbitrage', source: 'Cross-Exchange Arbitrage strategy' });
      expect(sell).to.include({ type: 'SELL', pairId: 'p1', exchange: 'kraken', status: 'CLOSED', pnl: 9.56, fee: 3.94, lotRule: 'PAIR', entryPrice: 3000 });
      const portfolio = portfolioOf(events)!;
      expect(portfolio.realisedPnlCents).to.equal(956);
      expect(portfolio.summary).to.include({ trades: 2, buys: 1, sells: 1, closes: 1, wins: 1 });
    });
  });

  describe('valued at live prices', function () {
    const view = () => portfolioOf(run(place('t1', 'BUY', 0.5, 3000, DAY1), place('t2', 'SELL', 0.2, 3300, DAY2)))!;
    const input = (overrides: Partial<Parameters<typeof portfolioResponse>[0]> = {}) => ({
      view: view(),
      prices: { ETH: 3200 },
      dayStartPrices: { ETH: 3100 },
      latestPrice: { symbol: 'ETH' as const, price: 3200, change24h: 50, changePercent24h: 1.59 },
      signalCounts: { total: 0, buy: 0, sell: 0, hold: 0 },
      demo: false,
      now: DAY2_NOW,
      ...overrides,
    });

    it('totalValue is cash plus the positions at market to the cent; dailyPnL is the change since 00:00 UTC', function () {
      const body = portfolioResponse(input());
      // cash 8,498.50 + 659.34 - 0 = 9,157.84; 0.3 ETH at 3,200 = 960; day start 8,498.50 + 0.5 x 3,100 = 10,048.50.
      expect(body).to.deep.include({ cash: 9157.84, positionsValue: 960, totalValue: 10_117.84, totalPnl: 117.84, realisedPnl: 58.74, unrealisedPnl: 59.1 });
      expect(body.dailyPnL).to.equal(69.34); // = 58.74 realised today + 59.10 unrealised now - 48.50 unrealised at 00:00
      expect(body.dailyPnLPercent).to.equal(0.69);
      expect(body.realisedPnlToday).to.equal(58.74);
      expect(body.ethHoldings).to.equal(0.3);
      expect(body.positions).to.deep.equal([
        {
          positionId: 't1',
          symbol: 'ETH',
          coinId: 'ethereum',
          quantity: 0.3,
          averageEntryPrice: 3000,
          price: 3200,
          priceKnown: true,
          costBasis: 900.9,
          marketValue: 960,
          unrealisedPnl: 59.1,
          unrealisedPnlPercent: 6.56,
          openedAt: DAY1,
        },
      ]);
    });

    it('the next day, with nothing traded yet, counts from what is held now at the prices of 00:00 UTC', function () {
      const body = portfolioResponse(input({ now: new Date('2026-03-06T08:00:00.000Z'), dayStartPrices: { ETH: 3250 } }));
      expect(body.dailyPnL).to.equal(-15); // 0.3 x (3,200 - 3,250)
      expect(body.realisedPnlToday).to.equal(0);
    });

    it("without a price of 00:00 UTC, today's price is used: the move counts as zero, trades still count", function () {
      expect(portfolioResponse(input({ dayStartPrices: {} })).dailyPnL).to.equal(19.34); // 10,117.84 - (8,498.50 + 0.5 x 3,200)
    });

    it('an unused portfolio is the starting cash, nothing else', function () {
      const body = portfolioResponse(input({ view: null }));
      expect(body).to.deep.include({ totalValue: 10_000, cash: 10_000, positionsValue: 0, dailyPnL: 0, dailyPnLPercent: 0, totalPnl: 0, ethHoldings: 0, positions: [] });
    });

    const botView = () => portfolioOf(run(place('t1', 'BUY', 0.5, 3000, DAY1, 'ETH', SIGNAL, BOT_EXITS), place('t2', 'SELL', 0.2, 3300, DAY2)))!;

    it('active trades: a bot position\'s stop and target from the profile, the risk to the stop (fee included) against the total', function () {
      const v = botView();
      const valuation = valueView(v, { ETH: 3200 });
      const [trade] = activeRiskTrades(valuation, { ...DEFAULT_RISK_PROFILE }, DAY2_NOW, v.positions);
      // Stop 2,940: 0.3 x 2,940 = 882 - 0.882 fee = 881.12 against 900.90 -> 19.78, 0.2 % of 10,117.84.
      expect(trade).to.deep.equal({
        id: 't1',
        symbol: 'ETH',
        coinId: 'ethereum',
        quantity: 0.3,
        entryPrice: 3000,
        currentPrice: 3200,
        stopLoss: 2940,
        takeProfit: 3150,
        exitPlan: 'PROFILE',
        stopLossType: 'fixed',
        highestSinceEntry: null,
        stopRule: "Fixed: 2% below entry, target 2.5 x the stop's distance",
        riskAmount: 19.78,
        riskPercentage: 0.2,
        unrealizedPnL: 59.1,
        timeInTrade: (DAY2_NOW.getTime() - Date.parse(DAY1)) / 1000,
      });
      const daily = dailyPnl(v, valuation, { ETH: 3200 }, { ETH: 3100 }, DAY2_NOW);
      const risk = riskResponse({ profile: { ...DEFAULT_RISK_PROFILE, maxDailyLoss: 100 }, view: v, valuation, daily, now: DAY2_NOW });
      expect(risk).to.deep.include({ dailyPnL: 69.34, dailyLossUsed: 0, dailyLossUsedPercent: 0, portfolioRiskAmount: 19.78, portfolioRiskPercent: 0.2, openPositions: 1, dailyLossLimit: 100 });
      // A losing day uses the limit by its loss; a gain (above) uses none of it.
      const losing = riskResponse({ profile: { ...DEFAULT_RISK_PROFILE, maxDailyLoss: 100 }, view: v, valuation, daily: { ...daily, dailyPnlCents: -2_550 }, now: DAY2_NOW });
      expect(losing).to.deep.include({ dailyPnL: -25.5, dailyLossUsed: 25.5, dailyLossUsedPercent: 25.5 });
    });

    it('active trades: the levels each position really has: a manual one none (all its cost at risk) or its own, a trailing bot one from the highest tick since entry', function () {
      const manual = view();
      const valuation = valueView(manual, { ETH: 3200 });
      expect(activeRiskTrades(valuation, { ...DEFAULT_RISK_PROFILE }, DAY2_NOW, manual.positions)[0]).to.deep.include({
        stopLoss: null,
        takeProfit: null,
        exitPlan: 'NONE',
        stopLossType: null,
        stopRule: 'No automatic exit (manual position)',
        riskAmount: 900.9,
      });
      const withLevels = portfolioOf(run(place('t1', 'BUY', 0.5, 3000, DAY1, 'ETH', MANUAL, { kind: 'MANUAL', stopLossPercent: 3, takeProfitPercent: null })))!;
      expect(activeRiskTrades(valueView(withLevels, { ETH: 3200 }), { ...DEFAULT_RISK_PROFILE }, DAY2_NOW, withLevels.positions)[0]).to.deep.include({ stopLoss: 2910, takeProfit: null, exitPlan: 'MANUAL' });
      const bot = botView();
      // The highest tick since the entry (the exit scan's running high; query-api reads it off the path).
      const [trailing] = activeRiskTrades(valueView(bot, { ETH: 3200 }), { ...DEFAULT_RISK_PROFILE, stopLossType: 'trailing' }, DAY2_NOW, bot.positions, { ETH: { ...emptyHeldCoinMarket(), highestSinceEntry: 3300 } });
      expect(trailing).to.deep.include({ stopLoss: 3234, takeProfit: 3150, stopLossType: 'trailing', highestSinceEntry: 3300 });
      const [unknown] = activeRiskTrades(valueView(bot, { ETH: 3200 }), { ...DEFAULT_RISK_PROFILE, stopLossType: 'trailing' }, DAY2_NOW, bot.positions);
      expect(unknown, 'no path to read: the entry stands in').to.deep.include({ stopLoss: 2940, highestSinceEntry: 3000 });
    });

    it('the drawdown from the recorded peak, and whether it pauses new entries (GET /api/risk)', function () {
      const v = { ...botView(), peakValueMicros: 12_000_000_000 };
      const valuation = valueView(v, { ETH: 3200 });
      const daily = dailyPnl(v, valuation, { ETH: 3200 }, { ETH: 3100 }, DAY2_NOW);
      expect(riskResponse({ profile: { ...DEFAULT_RISK_PROFILE }, view: v, valuation, daily, now: DAY2_NOW }).drawdown).to.deep.equal({
        peak: 12_000,
        value: 10_117.84,
        percent: 15.68,
        maxDrawdown: 15,
        entriesPaused: true,
        reason: 'New entries paused: drawdown 15.68% from the peak $12,000.00 is above the maximum 15%',
      });
      expect(riskResponse({ profile: { ...DEFAULT_RISK_PROFILE, maxDrawdown: 16 }, view: v, valuation, daily, now: DAY2_NOW }).drawdown).to.include({ entriesPaused: false, reason: null });
      expect(riskResponse({ profile: { ...DEFAULT_RISK_PROFILE }, view: botView(), valuation, daily, now: DAY2_NOW }).drawdown).to.include({ peak: 10_117.84, percent: 0 });
    });
  });

  describe('read details: empty and unknown figures, ordering, documents from before a field', function () {
    const twoCoins = () => portfolioOf(run(place('t1', 'BUY', 0.01, 60_000, DAY1, 'BTC'), place('t2', 'BUY', 0.5, 3000, DAY1), place('t3', 'BUY', 2, 150, DAY2, 'SOL')))!;
    const responseOf = (view: PortfolioView | null, prices: Prices, dayStartPrices: Prices = {}) =>
      portfolioResponse({ view, prices, dayStartPrices, latestPrice: { symbol: 'ETH', price: 3000, change24h: null, changePercent24h: null }, signalCounts: { total: 0, buy: 0, sell: 0, hold: 0 }, demo: false, now: DAY2_NOW });

    it('a percent of nothing is 0, of something rounded to 2 decimals', function () {
      expect(percentOf(5, 0)).to.equal(0);
      expect(percentOf(1, 3)).to.equal(33.33);
    });

    it('the day start needs the prices of the coins held at 00:00 UTC, and none when nothing was held', function () {
      expect(dayStartNeeds(null, DAY2_NOW)).to.equal(null);
      expect(dayStartNeeds(portfolioOf(run(place('t1', 'BUY', 0.5, 3000, DAY2)))!, DAY2_NOW)).to.equal(null);
      expect(dayStartNeeds(twoCoins(), DAY2_NOW)).to.deep.equal({ startedAt: '2026-03-05T00:00:00.000Z', symbols: ['BTC', 'ETH'] });
    });

    it('without a portfolio the day starts at 00:00 UTC at the value now; a coin with no usable price at either time counts at cost', function () {
      const empty = dailyPnl(null, valueView(null, {}), {}, {}, DAY2_NOW);
      expect(empty).to.deep.equal({ startedAt: '2026-03-05T00:00:00.000Z', startValueCents: 1_000_000, dailyPnlCents: 0, realisedTodayCents: 0 });
      const view = portfolioOf(run(place('t1', 'BUY', 0.5, 3000, DAY1), place('t2', 'BUY', 1, 150, DAY1, 'SOL')))!;
      // Cash 8,348.35; ETH 0.5 cost 1,501.50; SOL 1 cost 150.15.
      for (const unusable of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
        const valuation = valueView(view, { ETH: 3100 });
        const daily = dailyPnl(view, valuation, { ETH: 3100, SOL: unusable }, { ETH: 3000, SOL: unusable }, DAY2_NOW);
        expect(daily.startValueCents, `SOL at ${unusable}`).to.equal(834_835 + 150_000 + 15_015);
      }
      // A day start written before lots lists no lot units: the units held, as one lot.
      const old = { ...view, day: { ...dayStartAt(view, DAY2_NOW), positions: dayStartAt(view, DAY2_NOW).positions.map(({ lotUnits: _l, ...p }) => p) } };
      expect(dailyPnl(old, valueView(old, { ETH: 3000, SOL: 150 }), { ETH: 3000, SOL: 150 }, { ETH: 3000, SOL: 150 }, DAY2_NOW).startValueCents).to.equal(834_835 + 150_000 + 15_000);
    });

    it('positions are listed largest first by market value, then by symbol; ethHoldings is the ETH held whatever else is', function () {
      const body = responseOf(twoCoins(), { BTC: 60_000, ETH: 3000, SOL: 150 });
      // BTC 600, ETH 1,500, SOL 300.
      expect(body.positions.map((p) => p.symbol)).to.deep.equal(['ETH', 'BTC', 'SOL']);
      expect(body.ethHoldings).to.equal(0.5);
      const tie = responseOf(twoCoins(), { BTC: 30_000, ETH: 600, SOL: 150 });
      expect(tie.positions.map((p) => [p.symbol, p.marketValue])).to.deep.equal([
        ['BTC', 300],
        ['ETH', 300],
        ['SOL', 300],
      ]);
    });

    it('trade documents from before a field read as the old rule said: a closed BUY holds nothing and sold all, a SELL at average cost priced from its notional', function () {
      const docs = tradesOf(run(place('t1', 'BUY', 0.5, 3000, DAY1), place('t2', 'BUY', 0.5, 3000, DAY1, 'SOL'), place('s1', 'SELL', 0.5, 3100, DAY2), { type: 'ResetPortfolio', data: { userId: 'u1' }, metadata: { now: DAY2_LATER } }));
      const strip = (doc: TradeView): TradeView => {
        const { heldUnits: _h, heldCostMicros: _c, soldUnits: _s, entryPrice: _e, lotRule: _r, lots: _l, decision: _d, exits: _x, ...old } = doc;
        return old as TradeView;
      };
      const sold = tradeResponse(strip(docs.get(tradeViewId('u1', 't1'))!), { ETH: 3200 });
      expect(sold).to.deep.include({ status: 'CLOSED', remainingQuantity: 0, soldQuantity: 0.5, pnl: null, lotRule: null, lots: [], decision: null, exits: null });
      const reset = tradeResponse(strip(docs.get(tradeViewId('u1', 't2'))!), {});
      expect(reset).to.deep.include({ closeReason: 'RESET', remainingQuantity: 0, soldQuantity: 0 });
      const open = tradeResponse(strip(tradesOf(run(place('t1', 'BUY', 0.5, 3000, DAY1))).get(tradeViewId('u1', 't1'))!), { ETH: 3200 });
      expect(open).to.deep.include({ remainingQuantity: 0.5, soldQuantity: 0, entryPrice: 3000 });
      const sell = docs.get(tradeViewId('u1', 's1'))!;
      // An entry notional that is not the fill price times the quantity, as rounding can leave it.
      const oldSell = tradeResponse({ ...strip(sell), entryNotionalMicros: 1_500_000_001 }, {});
      expect(oldSell).to.deep.include({ lotRule: 'AVERAGE_COST', lots: [], remainingQuantity: null, soldQuantity: null, exits: null });
      expect(oldSell.entryPrice).to.equal((1_500_000_001 * 100) / 50_000_000);
      const stopped = tradeResponse({ ...strip(docs.get(tradeViewId('u1', 't1'))!), closeReason: 'STOP_LOSS' }, {});
      const tookProfit = tradeResponse({ ...strip(docs.get(tradeViewId('u1', 't1'))!), closeReason: 'TAKE_PROFIT' }, {});
      expect([stopped.soldQuantity, tookProfit.soldQuantity]).to.deep.equal([0.5, 0.5]);
    });

    it("a trade shows the bot's decision and a BUY its exit plan: a person's levels, or the profile's (levels on Active Trades)", function () {
      const decision: BotDecision = { rule: 'FIXED_SIZE', text: 'bought 0.5 ETH', figures: { quantity: 0.5 } };
      const docs = tradesOf(
        run(
          { ...place('t1', 'BUY', 0.5, 3000, DAY1, 'ETH', SIGNAL, BOT_EXITS), data: { ...(place('t1', 'BUY', 0.5, 3000, DAY1, 'ETH', SIGNAL, BOT_EXITS).data as object), decision } } as PortfolioCommand,
          place('t2', 'BUY', 1, 150, DAY1, 'SOL', MANUAL, { kind: 'MANUAL', stopLossPercent: 3, takeProfitPercent: 6 }),
          place('t3', 'BUY', 0.01, 60_000, DAY1, 'BTC'),
        ),
      );
      const read = (id: string) => tradeResponse(docs.get(tradeViewId('u1', id))!, {});
      expect(read('t1')).to.deep.include({ decision, exits: { kind: 'PROFILE', stopLoss: null, takeProfit: null, stopLossPercent: null, takeProfitPercent: null } });
      expect(read('t2')).to.deep.include({ decision: null, exits: { kind: 'MANUAL', stopLoss: 145.5, takeProfit: 159, stopLossPercent: 3, takeProfitPercent: 6 } });
      expect(read('t3').exits).to.deep.equal({ kind: 'NONE', stopLoss: null, takeProfit: null, stopLossPercent: null, takeProfitPercent: null });
    });

    it('active trades are listed newest first (least time in trade), then by symbol; a manual one under a trailing profile has no trailing high', function () {
      const view = twoCoins();
      const valuation = valueView(view, { BTC: 60_000, ETH: 3000, SOL: 150 });
      expect(activeRiskTrades(valuation, { ...DEFAULT_RISK_PROFILE }, DAY2_NOW, view.positions).map((t) => t.symbol)).to.deep.equal(['SOL', 'BTC', 'ETH']);
      const trailing = activeRiskTrades(valuation, { ...DEFAULT_RISK_PROFILE, stopLossType: 'trailing' }, DAY2_NOW, view.positions, { ETH: { ...emptyHeldCoinMarket(), highestSinceEntry: 3300 } });
      expect(trailing.find((t) => t.symbol === 'ETH')).to.deep.include({ highestSinceEntry: null, stopLossType: null, exitPlan: 'NONE' });
      // A position stored before exit plans follows the profile.
      const { exits: _none, ...planless } = view.positions.ETH!;
      expect(activeRiskTrades(valuation, { ...DEFAULT_RISK_PROFILE }, DAY2_NOW, { ETH: planless }).find((t) => t.symbol === 'ETH')).to.deep.include({ exitPlan: 'PROFILE', stopLoss: 2940 });
      expect(emptyHeldCoinMarket().highestSinceEntry).to.be.NaN;
      expect(emptyHeldCoinMarket().atr).to.be.NaN;
    });

    it("a bot position's rule text names the ATR its entry recorded, not today's", function () {
      const view = portfolioOf(run(place('t1', 'BUY', 0.5, 3000, DAY1, 'ETH', SIGNAL, BOT_EXITS)))!;
      const [trade] = activeRiskTrades(valueView(view, { ETH: 3000 }), { ...DEFAULT_RISK_PROFILE, stopLossType: 'atr' }, DAY2_NOW, view.positions, { ETH: { ...emptyHeldCoinMarket(), atr: 30, sigma: 0.01 } });
      // The entry's ATR 12 (BOT_EXITS): stop 3,000 - 2 x 12 = 2,976.
      expect(trade).to.deep.include({ stopLoss: 2976, stopRule: "ATR: 2 x ATR14 $12.00 below entry, target 2.5 x the stop's distance" });
    });

    it('GET /api/risk without a portfolio: nothing held, nothing at risk; with one, each position at risk to its own stop', function () {
      const empty = valueView(null, {});
      const none = riskResponse({ profile: { ...DEFAULT_RISK_PROFILE }, view: null, valuation: empty, daily: dailyPnl(null, empty, {}, {}, DAY2_NOW), now: DAY2_NOW });
      expect(none).to.deep.include({ openPositions: 0, portfolioRiskAmount: 0, portfolioRiskPercent: 0 });
      const view = portfolioOf(run(place('t1', 'BUY', 0.5, 3000, DAY1, 'ETH', SIGNAL, BOT_EXITS), place('t2', 'BUY', 1, 150, DAY1, 'SOL')))!;
      const valuation = valueView(view, { ETH: 3000, SOL: 150 });
      const risk = riskResponse({ profile: { ...DEFAULT_RISK_PROFILE }, view, valuation, daily: dailyPnl(view, valuation, { ETH: 3000, SOL: 150 }, {}, DAY2_NOW), now: DAY2_NOW });
      // ETH stops at 2,940: 1,470 - 1.47 fee = 1,468.53 against 1,501.50, 32.97 at risk; SOL (manual,
      // no stop) all its 150.15.
      expect(risk.portfolioRiskAmount).to.equal(32.97 + 150.15);
    });

    it('alerts newest first by when they were raised, whatever order the document keeps them in; none without a document', function () {
      const alert = (alertId: string, raisedAt: string) => ({ alertId, conditionKey: `K-${alertId}`, kind: 'DRAWDOWN' as const, severity: 'high' as const, symbol: null, message: 'm', value: 16, threshold: 15, raisedAt, acknowledged: false, acknowledgedAt: null });
      const doc = { ...emptyRiskView('u1'), alerts: [alert('a2', DAY2), alert('a1', DAY1), alert('a3', DAY2_LATER)] } as RiskView;
      expect(riskAlertsResponse(doc).alerts.map((a) => a.id)).to.deep.equal(['a3', 'a2', 'a1']);
      expect(riskAlertsResponse(null)).to.deep.include({ alerts: [], unacknowledged: 0 });
    });
  });

  describe('partial sells: FIFO lots (issue 16)', function () {
    // b1 0.5 ETH at 3,000 (cost 1,501.50), b2 0.5 at 3,100 (cost 1,551.55), then s1 sells 0.6 at 3,050:
    // FIFO takes all of b1 (1,501.50) and 0.1 of b2 (310.31): 1,830 - 1.83 fee - 1,811.81 = 16.36 realised.
    const issueCase = () => run(place('b1', 'BUY', 0.5, 3000, DAY1), place('b2', 'BUY', 0.5, 3100, DAY1), place('s1', 'SELL', 0.6, 3050, DAY2));
    const read = (events: DomainEvent[], prices: Prices) => {
      const trades = [...tradesOf(events).values()].map((t) => tradeResponse(t, prices));
      const portfolio = portfolioResponse({
        view: portfolioOf(events),
        prices,
        dayStartPrices: {},
        latestPrice: { symbol: 'ETH', price: 3000, change24h: null, changePercent24h: null },
        signalCounts: { total: 0, buy: 0, sell: 0, hold: 0 },
        demo: false,
        now: DAY2_NOW,
      });
      return { trades, portfolio, byId: (id: string) => trades.find((t) => t.id === id)! };
    };

    it("the trades' pnl add up to realised + unrealised: the BUY sold out is CLOSED, the one partly sold covers what it still holds", function () {
      const { trades, portfolio, byId } = read(issueCase(), { ETH: 3050 });
      expect(byId('b1')).to.deep.include({ status: 'CLOSED', closeReason: 'SELL', pnl: null, remainingQuantity: 0, soldQuantity: 0.5 });
      // b2 keeps 0.4 ETH costing 1,241.24: at 3,050 worth 1,220, so -21.24.
      expect(byId('b2')).to.deep.include({ status: 'OPEN', closeReason: null, pnl: -21.24, remainingQuantity: 0.4, soldQuantity: 0.1 });
      expect(byId('s1')).to.deep.include({ status: 'CLOSED', pnl: 16.36, lotRule: 'FIFO', remainingQuantity: null });
      expect(byId('s1').entryPrice).to.be.closeTo((0.5 * 3000 + 0.1 * 3100) / 0.6, 1e-9);
      expect(byId('s1').lots).to.deep.equal([
        { tradeId: 'b1', quantity: 0.5, entryPrice: 3000 },
        { tradeId: 'b2', quantity: 0.1, entryPrice: 3100 },
      ]);
      expect(portfolio).to.deep.include({ realisedPnl: 16.36, unrealisedPnl: -21.24, totalPnl: -4.88 });
      const sum = trades.reduce((s, t) => s + Math.round((t.pnl ?? 0) * 100), 0);
      expect(sum).to.equal(Math.round(portfolio.realisedPnl * 100) + Math.round(portfolio.unrealisedPnl * 100));
    });

    it('the next sell takes the rest of the oldest open lot, and a stop loss closes what is left of it', function () {
      const events = [
        ...issueCase(),
        ...run(place('b1', 'BUY', 0.5, 3000, DAY1), place('b2', 'BUY', 0.5, 3100, DAY1), place('s1', 'SELL', 0.6, 3050, DAY2), place('s2', 'SELL', 0.1, 3200, DAY2_LATER), {
          type: 'ClosePosition',
          data: { userId: 'u1', positionId: 'b1', symbol: 'ETH', reason: 'STOP_LOSS', price: 3000 },
          metadata: { now: DAY2_LATER },
        }).slice(4),
      ];
      const { trades, portfolio, byId } = read(events, { ETH: 3000 });
      expect(byId('b2')).to.deep.include({ status: 'CLOSED', closeReason: 'STOP_LOSS', pnl: null, remainingQuantity: 0, soldQuantity: 0.5 });
      expect(byId(closeTradeId('b1'))).to.deep.include({ quantity: 0.3, entryPrice: 3100, lotRule: 'FIFO' });
      expect(portfolio.positions).to.deep.equal([]);
      const sum = trades.reduce((s, t) => s + Math.round((t.pnl ?? 0) * 100), 0);
      expect(sum).to.equal(Math.round(portfolio.realisedPnl * 100) + Math.round(portfolio.unrealisedPnl * 100));
    });

    it("a BUY's entry price is its fill price, not the notional rounded to the micro-dollar over the quantity", function () {
      const { byId, portfolio } = read(run(place('a1', 'BUY', 7.77, 0.3612345, DAY1, 'ADA')), { ADA: 0.37 });
      expect(byId('a1').entryPrice).to.equal(0.3612345);
      expect(portfolio.positions[0]!.averageEntryPrice).to.equal(0.3612345);
    });

    it('unrealisedPnlPercent is computed from exact micro-dollars and rounded only when sent', function () {
      // 10 ADA at 0.7184815: cost 7.184815 + 0.007185 fee = 7.192000; at 0.718301 worth 7.183010: -0.125 %.
      // In cents (719 and 718) that read -0.139 %, shown as -0.14.
      const events = run(place('a1', 'BUY', 10, 0.7184815, DAY1, 'ADA'));
      const valuation = valueView(portfolioOf(events), { ADA: 0.718301 });
      expect(valuation.positions[0]!.unrealisedPnlPercent).to.equal(-0.125);
      const { portfolio } = read(events, { ADA: 0.718301 });
      expect(portfolio.positions[0]).to.deep.include({ costBasis: 7.19, marketValue: 7.18, unrealisedPnl: -0.01, unrealisedPnlPercent: -0.13 });
    });
  });

  describe('lots in the day start and in documents from before lots', function () {
    it('an idle day at unchanged prices counts zero to the cent: the day start is valued lot by lot, as now is', function () {
      // Two lots of 20.01 ADA at 0.5: each worth 10.005 -> 10.01, together 20.02 (20.01 if rounded as one).
      const view = portfolioOf(run(place('a1', 'BUY', 20.01, 0.5, DAY1, 'ADA'), place('a2', 'BUY', 20.01, 0.5, DAY1, 'ADA')))!;
      const valuation = valueView(view, { ADA: 0.5 });
      expect(valuation.positionsValue).to.equal(20.02);
      expect(dailyPnl(view, valuation, { ADA: 0.5 }, { ADA: 0.5 }, DAY2_NOW).dailyPnlCents).to.equal(0);
    });

    it('documents written before lots read as one lot per position and a BUY holding all it bought', function () {
      const view = portfolioOf(run(place('t1', 'BUY', 0.5, 3000, DAY1), place('t2', 'BUY', 0.5, 3100, DAY1)))!;
      const { lots: _lots, ...position } = view.positions.ETH!;
      const { realisedPnlCents: _cents, ...stored } = { ...view, positions: { ETH: position } };
      // As read back from the store: the fields it lacks are absent, whatever the type says.
      const old = stored as unknown as PortfolioView;
      const valuation = valueView(old, { ETH: 3050 });
      expect(valuation.positions[0]).to.deep.include({ quantity: 1, costBasis: 3053.05, marketValue: 3050, unrealisedPnl: -3.05, avgEntryPrice: 3050 });
      // A later sale (FIFO, naming lots the document never had) leaves the position right, as one lot.
      const sold = run(place('t1', 'BUY', 0.5, 3000, DAY1), place('t2', 'BUY', 0.5, 3100, DAY1), place('s1', 'SELL', 0.6, 3050, DAY2)).slice(3);
      const after = evolvePortfolioView(old, sold[0]!)!;
      expect(after.positions.ETH).to.deep.include({ units: 40_000_000, costBasisMicros: 1_241_240_000, openTradeIds: ['t2'] });
      expect(after.positions.ETH!.lots).to.deep.equal([{ tradeId: 't2', units: 40_000_000, costMicros: 1_241_240_000, entryNotionalMicros: 1_240_000_000, price: 3100 }]);
      const { heldUnits: _h, heldCostMicros: _c, soldUnits: _s, entryPrice: _e, lotRule: _r, lots: _l, ...oldBuy } = tradesOf(run(place('t1', 'BUY', 0.5, 3000, DAY1))).get(tradeViewId('u1', 't1'))!;
      expect(tradeResponse(oldBuy, { ETH: 3100 })).to.deep.include({ remainingQuantity: 0.5, soldQuantity: 0, entryPrice: 3000, pnl: 48.5 });
    });
  });

  describe('closes, replays, other events and events from before lots', function () {
    const close = (positionId: string, symbol: string, reason: 'STOP_LOSS' | 'TAKE_PROFIT', price: number, now: string): PortfolioCommand => ({
      type: 'ClosePosition',
      data: { userId: 'u1', positionId, symbol, reason, price },
      metadata: { now },
    });
    /** t1 0.5 ETH at 3,000 and t2 0.01 BTC at 60,000 on day 1; on day 2 a take profit of ETH at 3,300 and a stop loss of BTC at 58,800. */
    const closedBoth = () =>
      run(place('t1', 'BUY', 0.5, 3000, DAY1), place('t2', 'BUY', 0.01, 60_000, DAY1, 'BTC'), close('t1', 'ETH', 'TAKE_PROFIT', 3300, DAY2), close('t2', 'BTC', 'STOP_LOSS', 58_800, DAY2_LATER));
    /** An event as the store kept it before a field existed. */
    const without = (event: PortfolioEvent, ...fields: string[]): PortfolioEvent => {
      const data: Record<string, unknown> = { ...event.data };
      for (const field of fields) delete data[field];
      return { ...event, data } as PortfolioEvent;
    };
    const riskEvent = (): DomainEvent => ({ type: 'RiskAlertAcknowledged', data: { userId: 'u1', alertId: 'a1', acknowledgedAt: DAY1 } });

    it('a stop loss and a take profit count in the summary as closing trades (a win and a loss) and in the day\'s realised P&L', function () {
      const view = portfolioOf(closedBoth())!;
      // ETH: 1,650 - 1.65 fee - 1,501.50 basis = 146.85; BTC: 588 - 0.588 - 600.60 = -13.188.
      expect(view.summary).to.deep.equal({
        trades: 4,
        buys: 2,
        sells: 2,
        closes: 2,
        wins: 1,
        realisedPnlMicros: 146_850_000 - 13_188_000,
        realisedPnlCents: 14_685 - 1_319,
        notionalMicros: 1_500_000_000 + 600_000_000 + 1_650_000_000 + 588_000_000,
      });
      expect(view.day.realisedPnlMicros).to.equal(146_850_000 - 13_188_000);
      expect(tradeSummary(view.summary)).to.include({ totalTrades: 4, buys: 2, sells: 2, winRate: 50, totalPnl: 133.66 });
      // A close at no gain is not a win (the take profit as if it had realised exactly 0).
      const even = closedBoth();
      const zero = { ...even[3]!, data: { ...(even[3]!.data as object), realisedPnlMicros: 0 } } as PortfolioEvent;
      expect(portfolioOf([...even.slice(0, 3), zero])!.summary).to.include({ closes: 1, wins: 0 });
    });

    it('the take profit is listed as a SELL named "Take profit", the stop loss as "Stop loss", each under its position id', function () {
      const docs = tradesOf(closedBoth());
      expect(closeTradeId('t1')).to.equal('t1:close');
      expect(docs.get('u1:t1:close')).to.deep.include({ type: 'SELL', source: 'Take profit', closeReason: 'TAKE_PROFIT', realisedPnlMicros: 146_850_000, lotRule: 'FIFO', entryPrice: 3000 });
      expect(docs.get('u1:t2:close')).to.deep.include({ source: 'Stop loss', closeReason: 'STOP_LOSS', signalId: null });
    });

    it('the booked cents are each trade\'s rounded P&L added up, not the total rounded once', function () {
      // Two sales of 0.1 ETH at 3,000.03 from a buy of 1 at 3,000: each realises -0.597003, shown as -0.60;
      // together they show -1.20 (the total, -1.194006, would round to -1.19).
      const view = portfolioOf(run(place('t1', 'BUY', 1, 3000, DAY1), place('s1', 'SELL', 0.1, 3000.03, DAY1), place('s2', 'SELL', 0.1, 3000.03, DAY1)))!;
      expect(view.summary).to.include({ realisedPnlMicros: -1_194_006, realisedPnlCents: -120 });
      expect(tradeSummary(view.summary).totalPnl).to.equal(-1.2);
      // The portfolio books them the same way (a third sale: -1.80, where the total would round to -1.79).
      const third = portfolioOf(run(place('t1', 'BUY', 1, 3000, DAY1), place('s1', 'SELL', 0.1, 3000.03, DAY1), place('s2', 'SELL', 0.1, 3000.03, DAY1), place('s3', 'SELL', 0.1, 3000.03, DAY1)))!;
      expect(third).to.include({ realisedPnlMicros: -1_791_009, realisedPnlCents: -180 });
    });

    it('a recorded peak is kept, changes no trade and no realised figure, and starts a new day like any event', function () {
      const events = run(place('t1', 'BUY', 0.5, 3000, DAY1), place('t2', 'BUY', 0.01, 60_000, DAY1, 'BTC'), { type: 'RecordPortfolioPeak', data: { userId: 'u1', valueMicros: 11_000_000_000 }, metadata: { now: DAY2 } });
      const peak = events.at(-1)!;
      expect(peak.type).to.equal('PortfolioPeakRecorded');
      const view = portfolioOf(events)!;
      expect(view.peakValueMicros).to.equal(11_000_000_000);
      expect(view.updatedAt).to.equal(DAY2);
      // The day began holding both coins, listed by symbol whatever the order they were bought in.
      expect(view.day.day).to.equal('2026-03-05');
      expect(view.day.positions.map((p) => p.symbol)).to.deep.equal(['BTC', 'ETH']);
      expect(view.day.realisedPnlMicros).to.equal(0);
      expect(view.summary.trades).to.equal(2);
      expect(tradeViewIds(peak)).to.deep.equal([]);
      const buy = tradesOf(events).get(tradeViewId('u1', 't1'))!;
      expect(evolveTradeView(buy, peak)).to.equal(buy);
      expect(portfolioViewIds(peak)).to.deep.equal(['u1']);
    });

    it('a day begins with only what is still held: a coin sold out the day before is not in it', function () {
      const view = portfolioOf(run(place('t1', 'BUY', 0.5, 3000, DAY1), place('t2', 'BUY', 1, 150, DAY1, 'SOL'), place('t3', 'SELL', 0.5, 3100, DAY1), place('t4', 'BUY', 0.1, 150, DAY2, 'SOL')))!;
      expect(view.day.positions.map((p) => p.symbol)).to.deep.equal(['SOL']);
    });

    it('replaying an event onto the documents it made changes nothing (the projector never does; a SELL is CLOSED, a BUY takes nothing from itself)', function () {
      const events = [...closedBoth(), ...run(place('t1', 'BUY', 0.5, 3000, DAY1), place('s1', 'SELL', 0.2, 3100, DAY2)).slice(1)];
      const docs = tradesOf(events);
      for (const event of events) {
        for (const id of tradeViewIds(event)) {
          const doc = docs.get(id)!;
          if (id.endsWith(`:${event.type === 'PositionClosed' ? closeTradeId(event.data.positionId) : (event.data as { tradeId: string }).tradeId}`)) {
            expect(evolveTradeView(doc, event), `${event.type} onto ${id}`).to.deep.equal(doc);
          }
        }
      }
      // A BUY already CLOSED is not closed again by an event that names it, nor by a reset.
      const closedBuy = docs.get(tradeViewId('u1', 't1'))!;
      expect(closedBuy).to.deep.include({ status: 'CLOSED', closeReason: 'TAKE_PROFIT' });
      const takeProfit = events[2]!;
      expect(evolveTradeView(closedBuy, takeProfit)).to.equal(closedBuy);
      const reset = run(place('t1', 'BUY', 0.5, 3000, DAY1), { type: 'ResetPortfolio', data: { userId: 'u1' }, metadata: { now: DAY2_LATER } }).at(-1)!;
      expect(evolveTradeView(closedBuy, reset)).to.equal(closedBuy);
    });

    it('two partial sales of one lot leave it holding what the second left, at what that part cost', function () {
      const docs = tradesOf(run(place('t1', 'BUY', 1, 3000, DAY1), place('s1', 'SELL', 0.3, 3100, DAY2), place('s2', 'SELL', 0.3, 3200, DAY2)));
      // 1 ETH cost 3,003; 0.4 of it cost 1,201.20.
      expect(docs.get(tradeViewId('u1', 't1'))).to.deep.include({ status: 'OPEN', heldUnits: 40_000_000, heldCostMicros: 1_201_200_000, soldUnits: 60_000_000 });
    });

    it('a sale under FIFO names its lots\' exact fill prices; a BUY names no lot and no rule, and carries its exit plan and the bot\'s decision', function () {
      const decision: BotDecision = { rule: 'SELL_SIGNAL', text: 'sold', figures: { quantity: 7.77 } };
      const events = run(
        { ...place('a1', 'BUY', 7.77, 0.3612345, DAY1, 'ADA', MANUAL, BOT_EXITS), data: { ...(place('a1', 'BUY', 7.77, 0.3612345, DAY1, 'ADA', MANUAL, BOT_EXITS).data as object), decision: { rule: 'FIXED_SIZE', text: 'bought', figures: {} } } } as PortfolioCommand,
        { ...place('a2', 'SELL', 7.77, 0.4, DAY2, 'ADA'), data: { ...(place('a2', 'SELL', 7.77, 0.4, DAY2, 'ADA').data as object), decision } } as PortfolioCommand,
      );
      const docs = tradesOf(events);
      const buy = docs.get(tradeViewId('u1', 'a1'))!;
      expect(buy).to.deep.include({ lotRule: null, lots: [], entryPrice: 0.3612345, decision: { rule: 'FIXED_SIZE', text: 'bought', figures: {} }, signalId: null, strategyId: null, strategyType: null });
      expect(buy.exits).to.not.equal(null);
      const sell = docs.get(tradeViewId('u1', 'a2'))!;
      // The notional over the quantity is 0.36123449... (rounded to the micro-dollar): the lot's own price is kept.
      expect(sell).to.deep.include({ lotRule: 'FIFO', entryPrice: 0.3612345, decision, exits: null, lots: [{ tradeId: 'a1', units: 777_000_000, entryPrice: 0.3612345 }] });
      const stop = tradesOf(run(place('a1', 'BUY', 7.77, 0.3612345, DAY1, 'ADA'), close('a1', 'ADA', 'STOP_LOSS', 0.35, DAY2))).get(tradeViewId('u1', closeTradeId('a1')))!;
      expect(stop.entryPrice).to.equal(0.3612345);
    });

    it('events from before lots: a sale without lots or rule is at average cost, priced from its entry notional, and closes only the BUYs it names', function () {
      const events = run(place('t1', 'BUY', 0.5, 3000, DAY1), place('t2', 'BUY', 0.5, 3100, DAY1), place('s1', 'SELL', 0.6, 3050, DAY2), place('s2', 'SELL', 0.4, 3050, DAY2_LATER));
      const old = events.map((e) => (e.type === 'SimulatedTradePlaced' && e.data.side === 'SELL' ? without(e, 'lots', 'lotRule') : e));
      const docs = tradesOf(old);
      expect(docs.get(tradeViewId('u1', 's1'))).to.deep.include({ lotRule: 'AVERAGE_COST', lots: [], entryPrice: 1_810_000_000 * 100 / 60_000_000 });
      // Each sale closes the BUYs it names (s1 the first, s2 the second), each with all it held: without
      // lots nothing says how much of the second the first sale took.
      expect(docs.get(tradeViewId('u1', 't1'))).to.deep.include({ status: 'CLOSED', closedAt: DAY2, heldUnits: 0, heldCostMicros: 0, soldUnits: 50_000_000 });
      expect(docs.get(tradeViewId('u1', 't2'))).to.deep.include({ status: 'CLOSED', closedAt: DAY2_LATER, heldUnits: 0, soldUnits: 50_000_000 });
      expect(tradeViewIds(old[3]!)).to.deep.equal(['u1:s1', 'u1:t1']);
      expect(tradeViewIds(old[4]!)).to.deep.equal(['u1:s2', 'u1:t2']);
    });

    it('a stop loss from before its entry notional was recorded estimates it from the cost basis less the buying fee', function () {
      const events = run(place('t1', 'BUY', 0.5, 3000, DAY1), close('t1', 'ETH', 'STOP_LOSS', 2900, DAY2));
      const old = [events[0]!, events[1]!, without(events[2]!, 'entryNotionalClosedMicros', 'lots', 'lotRule')];
      const stop = tradesOf(old).get(tradeViewId('u1', closeTradeId('t1')))!;
      // 1,501.50 / 1.001 = 1,500.
      expect(stop).to.deep.include({ entryNotionalMicros: 1_500_000_000, entryPrice: 3000, lotRule: 'AVERAGE_COST', lots: [] });
      expect(tradesOf(old).get(tradeViewId('u1', 't1'))).to.deep.include({ status: 'CLOSED', closeReason: 'STOP_LOSS', heldUnits: 0 });
    });

    it('events of other streams touch no trade, portfolio or risk document; a portfolio event no risk document', function () {
      const buy = tradesOf(run(place('t1', 'BUY', 0.5, 3000, DAY1))).get(tradeViewId('u1', 't1'))!;
      const other = riskEvent();
      expect(tradeViewIds(other)).to.deep.equal([]);
      expect(evolveTradeView(buy, other)).to.equal(buy);
      expect(evolveTradeView(null, other)).to.equal(null);
      expect(portfolioViewIds(other)).to.deep.equal([]);
      const opened = run(place('t1', 'BUY', 0.5, 3000, DAY1))[0]!;
      expect(opened.type).to.equal('PortfolioOpened');
      expect(tradeViewIds(opened)).to.deep.equal([]);
      expect(evolveTradeView(null, opened)).to.equal(null);
      expect(evolveRiskView(null, opened)).to.equal(null);
      expect(riskViewIds(opened)).to.deep.equal([]);
      expect(riskViewIds({ type: 'RiskParametersChanged', data: { userId: 'u9' } })).to.deep.equal(['u9']);
      // Every portfolio event but the opening follows it on its stream: without a document there is none to change.
      expect(evolvePortfolioView(null, run(place('t1', 'BUY', 0.5, 3000, DAY1))[1]!)).to.equal(null);
    });

    it('the view as a portfolio state carries no idempotency memory (the decider keeps that)', function () {
      const state = portfolioStateOf(portfolioOf(run(place('t1', 'BUY', 0.5, 3000, DAY1)))!);
      expect(state).to.deep.include({ recentTradeIds: [], newTradeIds: [], daily: null, lastSignalTraded: {} });
    });
  });

  describe('risk', function () {
    const riskOf = (...commands: RiskCommand[]): RiskView | null => eventsOf(riskDecider, ...commands).reduce<RiskView | null>(evolveRiskView, null);
    const raise = (alertId: string, now: string): RiskCommand => ({
      type: 'RaiseRiskAlert',
      data: { userId: 'u1', alertId, conditionKey: `K-${alertId}`, kind: 'DRAWDOWN', severity: 'high', symbol: null, message: `m ${alertId}`, value: 16, threshold: 15 },
      metadata: { now },
    });

    it('holds the one profile, defaults until changed; a bot settings change shows in the parameters; says whether the parameters were customised', function () {
      const settingsOnly = riskOf({ type: 'ChangeBotSettings', data: { userId: 'u1', changes: { stopLossPercent: 3 } }, metadata: { now: DAY1 } })!;
      expect(settingsOnly.profile.stopLossValue).to.equal(3);
      expect(riskParametersResponse(settingsOnly)).to.deep.equal({ ...DEFAULT_RISK_PARAMETERS, stopLossValue: 3, customised: false });
      expect(riskParametersResponse(null)).to.deep.equal({ ...DEFAULT_RISK_PARAMETERS, customised: false });
      const changed = riskOf({ type: 'ChangeRiskParameters', data: { userId: 'u1', parameters: { ...DEFAULT_RISK_PARAMETERS, maxDrawdown: 20 } }, metadata: { now: DAY1 } });
      expect(riskParametersResponse(changed)).to.deep.equal({ ...DEFAULT_RISK_PARAMETERS, maxDrawdown: 20, customised: true });
    });

    it('reads a document written before the one profile as its two sets joined', function () {
      const legacy = {
        userId: 'u1',
        alerts: [],
        parametersCustomised: true,
        settings: { maxPositionSize: 5, stopLossPercent: 2, takeProfitPercent: 5, dailyLossLimit: 500, enableNotifications: true, autoRetrain: true },
        parameters: { ...DEFAULT_RISK_PARAMETERS, takeProfitRatio: 2, maxPositionSize: 7 },
      } as unknown as RiskView;
      // The bot's own figures for the four quantities it traded by: 5 %, 2 %, 5 % (ratio 2.5), $500.
      expect(riskParametersResponse(legacy)).to.deep.include({ maxPositionSize: 5, takeProfitRatio: 2.5, customised: true });
      const next = evolveRiskView(legacy, { type: 'RiskParametersChanged', data: { userId: 'u1', parameters: { ...DEFAULT_RISK_PARAMETERS, maxPositionSize: 7 }, previous: DEFAULT_RISK_PARAMETERS, changes: { maxPositionSize: 7 }, changedAt: DAY2 } })!;
      expect(next.profile.maxPositionSize).to.equal(7);
    });

    it('lists alerts newest first with the acknowledged flag; cleared ones are gone', function () {
      const view = riskOf(
        raise('a1', DAY1),
        raise('a2', DAY2),
        raise('a3', DAY2_LATER),
        { type: 'AcknowledgeRiskAlert', data: { userId: 'u1', alertId: 'a1' }, metadata: { now: DAY2 } },
        { type: 'AcknowledgeRiskAlert', data: { userId: 'u1', alertId: 'a2' }, metadata: { now: DAY2 } },
        { type: 'ClearAcknowledgedRiskAlerts', data: { userId: 'u1' }, metadata: { now: DAY2_LATER } },
        raise('a4', DAY2_LATER),
        { type: 'AcknowledgeRiskAlert', data: { userId: 'u1', alertId: 'a4' }, metadata: { now: DAY2_LATER } },
      );
      const body = riskAlertsResponse(view);
      expect(body.alerts.map((a) => [a.id, a.acknowledged])).to.deep.equal([
        ['a4', true],
        ['a3', false],
      ]);
      expect(body.unacknowledged).to.equal(1);
      expect(body.alerts[1]).to.deep.equal({
        id: 'a3',
        kind: 'DRAWDOWN',
        severity: 'high',
        symbol: null,
        message: 'm a3',
        value: 16,
        threshold: 15,
        acknowledged: false,
        acknowledgedAt: null,
        timestamp: DAY2_LATER,
        resolved: false,
        resolvedAt: null,
        resolution: null,
      });
    });

    it('shows the alerts a reset resolved as resolved, with when and why, and no longer counts them as unacknowledged', function () {
      const view = riskOf(raise('a1', DAY1), raise('a2', DAY2), { type: 'ResolveRiskAlerts', data: { userId: 'u1', reason: 'PORTFOLIO_RESET' }, metadata: { now: DAY2_LATER } });
      const body = riskAlertsResponse(view);
      expect(body.alerts.map((a) => [a.id, a.acknowledged, a.resolved, a.resolvedAt, a.resolution])).to.deep.equal([
        ['a2', false, true, DAY2_LATER, 'PORTFOLIO_RESET'],
        ['a1', false, true, DAY2_LATER, 'PORTFOLIO_RESET'],
      ]);
      expect(body.unacknowledged).to.equal(0);
      // A document projected before alerts could be resolved has no such fields: its alerts stand.
      const stored = view!;
      const old = { ...stored, alerts: stored.alerts.map(({ resolvedAt: _r, resolution: _s, ...rest }) => rest as (typeof stored.alerts)[number]) };
      expect(riskAlertsResponse(old).alerts.map((a) => [a.resolved, a.resolvedAt, a.resolution])).to.deep.equal([
        [false, null, null],
        [false, null, null],
      ]);
      expect(riskAlertsResponse(old).unacknowledged).to.equal(2);
    });
  });
});
