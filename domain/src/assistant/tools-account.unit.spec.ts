/**
 * The assistant's look-ups of the user's own account (profile, portfolio, open positions, trades,
 * trade statistics, the bot's refusals and its status): each figure is the read's figure written the
 * way the screen it links to writes it, with that screen and that read, so a number in an answer can be
 * checked where the answer says it comes from. Results are compared whole, with texts worked out by
 * hand from the responses built here.
 */
import { expect } from 'chai';
import type { ActiveRiskTrade, PortfolioResponse, RiskResponse, Trade } from '../trading/read-contracts';
import type { Fact } from './contracts';
import { botStatusResult, portfolioResult, positionsResult, profileResult, refusalsResult, toolInputs, tradeSummaryResult, tradesResult } from './tools';

const NOW = '2026-03-04T14:05:00.000Z';
const NOW_TEXT = '2026-03-04 14:05 UTC';

/** A fact as the window receives it: its value, how it is written, and the screen and read it links to. */
const on =
  (source: string, api: string) =>
  (id: string, label: string, value: Fact['value'], unit: Fact['unit'], text: string): Fact => ({ id, label, value, unit, text, source, api });
const dashboard = on('/', 'GET /api/portfolio');
const activeTrades = on('/risk-management?tab=active-trades', 'GET /api/risk/active-trades');
const tradeHistory = on('/trade-history', 'GET /api/trades');
const decisions = on('/trade-history', 'GET /api/bot/decisions');
const settings = on('/settings', 'GET /api/auth/me');
const botModel = on('/', 'BOT_STATUS (the trading-bots read model)');
const risk = on('/', 'GET /api/risk');

const portfolio: PortfolioResponse = {
  demo: false, startingCash: 10_000, totalValue: 10_234.56, cash: 7_000.1, positionsValue: 3_234.46, dailyPnL: -12.3, dailyPnLPercent: -0.12, realisedPnlToday: 4.5,
  totalPnl: 234.56, totalPnlPercent: 2.35, realisedPnl: 100.06, unrealisedPnl: 134.5, ethHoldings: 1,
  latestPrice: { symbol: 'ETH', price: 3234.46, change24h: 10, changePercent24h: 0.31 }, signalCounts: { total: 3, buy: 1, sell: 1, hold: 1 },
  positions: [
    { positionId: 'b1', symbol: 'ETH', coinId: 'ethereum', quantity: 1, averageEntryPrice: 3100, price: 3234.46, priceKnown: true, costBasis: 3103.1, marketValue: 3234.46, unrealisedPnl: 131.36, unrealisedPnlPercent: 4.23, openedAt: NOW },
  ],
  valuedAt: NOW,
};

const active: ActiveRiskTrade[] = [
  { id: 'b1', symbol: 'ETH', coinId: 'ethereum', quantity: 1, entryPrice: 3100, currentPrice: 3234.46, stopLoss: 3038, takeProfit: 3255, exitPlan: 'PROFILE', stopLossType: 'fixed', highestSinceEntry: null, stopRule: "Fixed: 2% below entry, target 2.5 x the stop's distance", riskAmount: 65.1, riskPercentage: 0.64, unrealizedPnL: 131.36, timeInTrade: 3600 },
  { id: 'b2', symbol: 'MATIC', coinId: 'polygon', quantity: 120.5, entryPrice: 0.3612, currentPrice: 0.35, stopLoss: null, takeProfit: null, exitPlan: 'NONE', stopLossType: null, highestSinceEntry: null, stopRule: 'No automatic exit (manual position)', riskAmount: 43.6, riskPercentage: 0.43, unrealizedPnL: -1.35, timeInTrade: 60 },
];

const trade = (over: Partial<Trade>): Trade => ({
  id: 't1', type: 'BUY', symbol: 'ETH', coinId: 'ethereum', amount: 0.5, quantity: 0.5, price: 3100, value: 1550, entryPrice: 3100, fee: 1.55, pnl: 65.68, pnlRealised: false, status: 'OPEN',
  source: 'BUY signal', signal: 'BUY signal', signalId: 's1', strategyId: null, strategyType: null, pairId: null, exchange: null, closeReason: null, closedAt: null, timestamp: NOW, remainingQuantity: 0.5, soldQuantity: 0, lotRule: null, lots: [],
  decision: { rule: 'FIXED_SIZE', text: 'bought 5% of the portfolio ($511.73) at $3,100.00: stop $3,038.00, target $3,255.00', figures: { percent: 5 } },
  exits: { kind: 'PROFILE', stopLoss: null, takeProfit: null, stopLossPercent: null, takeProfitPercent: null },
  execution: null,
  ...over,
});
const manual = (id: string, exits: Trade['exits'], over: Partial<Trade> = {}): Trade =>
  trade({ id, source: 'Manual', signal: null, signalId: null, decision: null, pnl: null, exits, ...over });
const SIGNAL_DESCRIPTION = 'BUY (67% confidence): RSI, MACD say BUY; SMA50 says SELL';
const signalOf = (id: string) => (id === 's1' ? { description: SIGNAL_DESCRIPTION } : undefined);

describe('assistant tools: the account', () => {
  it("the profile tool names the user by first name, else by username, with the plan tier, linking to Settings", () => {
    expect(profileResult({ firstName: 'Ann', username: 'ann_t', subscriptionTier: 'PREMIUM' })).to.deep.equal({
      name: settings('profile.firstName', 'First name', 'Ann', 'text', 'Ann'),
      username: settings('profile.username', 'Username', 'ann_t', 'text', 'ann_t'),
      tier: settings('profile.tier', 'Plan tier', 'PREMIUM', 'text', 'PREMIUM'),
    });
    expect(profileResult({ firstName: null, username: 'ann_t', subscriptionTier: 'FREE' }).name).to.deep.equal(settings('profile.firstName', 'First name', 'ann_t', 'text', 'ann_t'));
  });

  it("the portfolio tool states the total value, cash, positions, the day's and the overall P&L as the dashboard shows them, linking to the dashboard", () => {
    expect(portfolioResult(portfolio)).to.deep.equal({
      demo: false,
      totalValue: dashboard('portfolio.totalValue', 'Total value', 10_234.56, 'usd', '$10,234.56'),
      cash: dashboard('portfolio.cash', 'Cash', 7_000.1, 'usd', '$7,000.10'),
      positionsValue: dashboard('portfolio.positionsValue', 'Positions value', 3_234.46, 'usd', '$3,234.46'),
      startingCash: dashboard('portfolio.startingCash', 'Starting cash', 10_000, 'usd', '$10,000.00'),
      dailyPnl: dashboard('portfolio.dailyPnL', '24h P&L (since 00:00 UTC)', -12.3, 'usd', '-$12.30'),
      dailyPnlPercent: dashboard('portfolio.dailyPnLPercent', '24h P&L, percent', -0.12, 'percent', '-0.12%'),
      realisedToday: dashboard('portfolio.realisedPnlToday', 'Realised today', 4.5, 'usd', '+$4.50'),
      totalPnl: dashboard('portfolio.totalPnl', 'Total P&L', 234.56, 'usd', '+$234.56'),
      totalPnlPercent: dashboard('portfolio.totalPnlPercent', 'Total P&L, percent of starting cash', 2.35, 'percent', '+2.35%'),
      realisedPnl: dashboard('portfolio.realisedPnl', 'Realised P&L', 100.06, 'usd', '+$100.06'),
      unrealisedPnl: dashboard('portfolio.unrealisedPnl', 'Unrealised P&L', 134.5, 'usd', '+$134.50'),
      openPositions: dashboard('portfolio.openPositions', 'Open positions', 1, 'count', '1'),
      dailyPnlValue: -12.3,
      totalPnlValue: 234.56,
    });
  });

  it("the positions tool gives each open position's amount, entry, price now, P&L and the stop and target it really has (none for a manual one), linking to Active Trades", () => {
    expect(positionsResult(active)).to.deep.equal({
      count: activeTrades('positions.count', 'Open positions', 2, 'count', '2'),
      positions: [
        {
          symbol: 'ETH',
          quantity: activeTrades('position.ETH.quantity', 'ETH held', 1, 'quantity', '1.0000 ETH'),
          entryPrice: activeTrades('position.ETH.entryPrice', 'ETH average entry', 3100, 'price', '$3,100.00'),
          currentPrice: activeTrades('position.ETH.currentPrice', 'ETH price now', 3234.46, 'price', '$3,234.46'),
          unrealisedPnl: activeTrades('position.ETH.unrealizedPnL', 'ETH unrealised P&L', 131.36, 'usd', '+$131.36'),
          stopLoss: activeTrades('position.ETH.stopLoss', 'ETH stop loss', 3038, 'price', '$3,038.00'),
          takeProfit: activeTrades('position.ETH.takeProfit', 'ETH take profit', 3255, 'price', '$3,255.00'),
          exitRule: activeTrades('position.ETH.stopRule', 'ETH exit rule', "Fixed: 2% below entry, target 2.5 x the stop's distance", 'text', "Fixed: 2% below entry, target 2.5 x the stop's distance"),
          riskPercentage: activeTrades('position.ETH.riskPercentage', 'ETH at risk, percent of the portfolio', 0.64, 'percent', '0.64%'),
        },
        {
          symbol: 'MATIC',
          quantity: activeTrades('position.MATIC.quantity', 'MATIC held', 120.5, 'quantity', '120.5000 MATIC'),
          entryPrice: activeTrades('position.MATIC.entryPrice', 'MATIC average entry', 0.3612, 'price', '$0.3612'),
          currentPrice: activeTrades('position.MATIC.currentPrice', 'MATIC price now', 0.35, 'price', '$0.3500'),
          unrealisedPnl: activeTrades('position.MATIC.unrealizedPnL', 'MATIC unrealised P&L', -1.35, 'usd', '-$1.35'),
          stopLoss: null,
          takeProfit: null,
          exitRule: activeTrades('position.MATIC.stopRule', 'MATIC exit rule', 'No automatic exit (manual position)', 'text', 'No automatic exit (manual position)'),
          riskPercentage: activeTrades('position.MATIC.riskPercentage', 'MATIC at risk, percent of the portfolio', 0.43, 'percent', '0.43%'),
        },
      ],
    });
    expect(positionsResult([])).to.deep.equal({ count: activeTrades('positions.count', 'Open positions', 0, 'count', '0'), positions: [] });
  });

  it("the trades tool says why each trade happened: the bot's rule with its figures and the signal it followed, linking to Trade History", () => {
    const result = tradesResult([trade({})], 7, signalOf);
    expect(result).to.deep.equal({
      shown: tradeHistory('trades.shown', 'Trades shown', 1, 'count', '1'),
      total: tradeHistory('trades.total', 'Trades matching', 7, 'count', '7'),
      trades: [
        {
          id: 't1',
          type: 'BUY',
          symbol: 'ETH',
          amount: tradeHistory('trade.t1.amount', 'Amount', 0.5, 'quantity', '0.5000 ETH'),
          price: tradeHistory('trade.t1.price', 'Fill price', 3100, 'price', '$3,100.00'),
          time: tradeHistory('trade.t1.timestamp', 'Placed', NOW, 'time', NOW_TEXT),
          source: tradeHistory('trade.t1.source', 'Signal source', 'BUY signal', 'text', 'BUY signal'),
          status: tradeHistory('trade.t1.status', 'Status', 'OPEN', 'text', 'OPEN'),
          pnl: tradeHistory('trade.t1.pnl', 'Unrealised P&L', 65.68, 'usd', '+$65.68'),
          decision: tradeHistory(
            'trade.t1.decision',
            'Bot rule FIXED_SIZE',
            'bought 5% of the portfolio ($511.73) at $3,100.00: stop $3,038.00, target $3,255.00',
            'text',
            'bought 5% of the portfolio ($511.73) at $3,100.00: stop $3,038.00, target $3,255.00',
          ),
          signal: tradeHistory('trade.t1.signal', 'Signal followed', SIGNAL_DESCRIPTION, 'text', SIGNAL_DESCRIPTION),
          exits: tradeHistory('trade.t1.exits', 'Exit plan', "the bot's stop and target, following the risk profile", 'text', "the bot's stop and target, following the risk profile"),
          closeReason: null,
          manual: false,
        },
      ],
    });
  });

  it('a stop-loss close states its realised P&L and why it closed; it followed no signal and set no exits', () => {
    const stop = trade({ id: 't2', type: 'SELL', symbol: 'BTC', coinId: 'bitcoin', amount: 0.01, price: 61_000, source: 'Stop loss', signal: 'Stop loss', signalId: null, closeReason: 'STOP_LOSS', status: 'CLOSED', pnl: -12.34, pnlRealised: true, decision: null, exits: null });
    expect(tradesResult([stop], 1, signalOf).trades).to.deep.equal([
      {
        id: 't2',
        type: 'SELL',
        symbol: 'BTC',
        amount: tradeHistory('trade.t2.amount', 'Amount', 0.01, 'quantity', '0.0100 BTC'),
        price: tradeHistory('trade.t2.price', 'Fill price', 61_000, 'price', '$61,000.00'),
        time: tradeHistory('trade.t2.timestamp', 'Placed', NOW, 'time', NOW_TEXT),
        source: tradeHistory('trade.t2.source', 'Signal source', 'Stop loss', 'text', 'Stop loss'),
        status: tradeHistory('trade.t2.status', 'Status', 'CLOSED', 'text', 'CLOSED'),
        pnl: tradeHistory('trade.t2.pnl', 'Realised P&L', -12.34, 'usd', '-$12.34'),
        decision: null,
        signal: null,
        exits: null,
        closeReason: 'STOP_LOSS',
        manual: false,
      },
    ]);
  });

  it("a manual order is marked manual and its exit plan reads as its person set it: a stop and a target in percent, either missing, or no automatic exit", () => {
    const orders = [
      manual('m1', { kind: 'MANUAL', stopLoss: 2900, takeProfit: 3500, stopLossPercent: 6.45, takeProfitPercent: 12.9 }),
      manual('m2', { kind: 'MANUAL', stopLoss: 2900, takeProfit: null, stopLossPercent: 6.45, takeProfitPercent: null }),
      manual('m3', { kind: 'MANUAL', stopLoss: null, takeProfit: 3500, stopLossPercent: null, takeProfitPercent: 12.9 }),
      manual('m4', { kind: 'MANUAL', stopLoss: null, takeProfit: null, stopLossPercent: null, takeProfitPercent: null }),
      manual('m5', { kind: 'NONE', stopLoss: null, takeProfit: null, stopLossPercent: null, takeProfitPercent: null }),
    ];
    const result = tradesResult(orders, 5, signalOf);
    expect(result.trades.map((t) => t.exits)).to.deep.equal([
      tradeHistory('trade.m1.exits', 'Exit plan', 'stop 6.45% below the fill, target 12.9% above', 'text', 'stop 6.45% below the fill, target 12.9% above'),
      tradeHistory('trade.m2.exits', 'Exit plan', 'stop 6.45% below the fill, no target', 'text', 'stop 6.45% below the fill, no target'),
      tradeHistory('trade.m3.exits', 'Exit plan', 'no stop, target 12.9% above', 'text', 'no stop, target 12.9% above'),
      tradeHistory('trade.m4.exits', 'Exit plan', 'no stop, no target', 'text', 'no stop, no target'),
      tradeHistory('trade.m5.exits', 'Exit plan', 'no automatic exit', 'text', 'no automatic exit'),
    ]);
    for (const t of result.trades) expect(t, t.id).to.deep.include({ manual: true, pnl: null, decision: null, signal: null });
  });

  it("a trade without a P&L yet has none; a bot trade whose signal is no longer known names no signal", () => {
    const [t] = tradesResult([trade({ id: 't9', pnl: null, signalId: 'gone' })], 1, signalOf).trades;
    expect(t?.pnl).to.equal(null);
    expect(t?.signal).to.equal(null);
    expect(t?.decision?.label).to.equal('Bot rule FIXED_SIZE');
  });

  it('the trade summary states trades, buys, sells, win rate, realised P&L and average size as Trade History does; no win rate before a trade has closed', () => {
    expect(tradeSummaryResult({ totalTrades: 1250, buys: 700, sells: 550, winRate: 60, totalPnl: -100.06, avgTradeSize: 812.5 })).to.deep.equal({
      totalTrades: tradeHistory('summary.totalTrades', 'Total trades', 1250, 'count', '1,250'),
      buys: tradeHistory('summary.buys', 'Buys', 700, 'count', '700'),
      sells: tradeHistory('summary.sells', 'Sells (closing trades)', 550, 'count', '550'),
      winRate: tradeHistory('summary.winRate', 'Win rate', 60, 'percent', '60.00%'),
      realisedPnl: tradeHistory('summary.totalPnl', 'Realised P&L, all time', -100.06, 'usd', '-$100.06'),
      avgTradeSize: tradeHistory('summary.avgTradeSize', 'Average trade size', 812.5, 'usd', '$812.50'),
    });
    expect(tradeSummaryResult({ totalTrades: 2, buys: 2, sells: 0, winRate: null, totalPnl: 0, avgTradeSize: 400 }).winRate).to.equal(null);
  });

  it("the refusals tool names each refused BUY's coin, the risk rule that refused it, why and when, linking to the bot's decisions", () => {
    expect(refusalsResult([{ id: 'r1', signalId: 's9', symbol: 'SOL', signalType: 'BUY', rule: 'CORRELATION_LIMIT', text: 'refused: correlation 0.83 with ETH above 0.70', figures: {}, timestamp: NOW }])).to.deep.equal({
      shown: decisions('refusals.shown', 'Refusals shown', 1, 'count', '1'),
      refusals: [
        {
          symbol: 'SOL',
          rule: decisions('refusal.r1.rule', 'Rule', 'CORRELATION_LIMIT', 'text', 'CORRELATION_LIMIT'),
          text: decisions('refusal.r1.text', 'Why', 'refused: correlation 0.83 with ETH above 0.70', 'text', 'refused: correlation 0.83 with ETH above 0.70'),
          time: decisions('refusal.r1.timestamp', 'Decided', NOW, 'time', NOW_TEXT),
        },
      ],
    });
  });

  it('the bot status tool says whether the bot runs, since when, and why its entries are paused by the drawdown rule', () => {
    const drawdown: RiskResponse['drawdown'] = { peak: 10_400, value: 8_700, percent: 16.35, maxDrawdown: 15, entriesPaused: true, reason: 'Drawdown 16.35% is above the maximum 15%' };
    expect(botStatusResult({ status: 'ACTIVE', startedAt: NOW }, drawdown)).to.deep.equal({
      status: botModel('bot.status', 'Bot status', 'ACTIVE', 'text', 'ACTIVE'),
      running: true,
      startedAt: botModel('bot.startedAt', 'Started', NOW, 'time', NOW_TEXT),
      entriesPaused: true,
      pauseReason: risk('risk.drawdown.reason', 'Why entries are paused', 'Drawdown 16.35% is above the maximum 15%', 'text', 'Drawdown 16.35% is above the maximum 15%'),
    });
    expect(botStatusResult({ status: 'STOPPED', startedAt: null }, { ...drawdown, percent: 1, entriesPaused: false, reason: null })).to.deep.equal({
      status: botModel('bot.status', 'Bot status', 'STOPPED', 'text', 'STOPPED'),
      running: false,
      startedAt: null,
      entriesPaused: false,
      pauseReason: null,
    });
  });

  it('a coin may be named in any case: the tools read it as its symbol', () => {
    expect(toolInputs.get_positions.parse({ symbol: ' sol ' })).to.deep.equal({ symbol: 'SOL' });
    expect(toolInputs.get_trades.parse({ symbol: 'eth', type: 'SELL' })).to.deep.equal({ limit: 5, symbol: 'ETH', type: 'SELL' });
    expect(toolInputs.get_positions.safeParse({ symbol: 'DOGE' }).success).to.equal(false);
  });
});
