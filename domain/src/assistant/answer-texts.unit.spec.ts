/**
 * What the assistant says in each case of each answer (answers.ts `render`), from tool results
 * built here fact by fact: up, down or flat today; one or several of a thing (a position, a trade, a
 * day); a coin or a side the question named; a figure the read could not give ("not enough history
 * yet", no stop, no win rate); why a trade happened (a stop, a target, a manual order, the bot's
 * signal and rule); each stop type of the risk profile; the model before and after its training.
 * Every expected text is written out whole, from the facts' texts, so a changed word shows.
 */
import { expect } from 'chai';
import type { CoinSymbol } from '../market/coins';
import type { Fact } from './contracts';
import { render, type PlanResults } from './answers';
import { facts, screens, type Where } from './facts';
import { explainTerm } from './glossary';
import type { Intent, Recognised } from './intents';
import type {
  AlertResult,
  BacktestItemResult,
  IndicatorsResult,
  ModelResult,
  PortfolioResult,
  PositionResult,
  RefusalResult,
  RiskProfileResult,
  RiskStatusResult,
  SubscriptionResult,
  TradeResult,
  WhatIfRunResult,
} from './tools';

const NOW = '2026-03-04T14:05:00.000Z';
const NOW_TEXT = '2026-03-04 14:05 UTC';
const HOME: Where = { source: screens.dashboard, api: 'GET /api/portfolio' };
const TRADES: Where = { source: screens.tradeHistory, api: 'GET /api/trades' };
const RISK: Where = { source: screens.riskParameters, api: 'GET /api/risk/parameters' };

const asked = (intent: Intent, extra: Partial<Recognised> = {}): Recognised => ({ intent, symbol: null, term: null, side: null, ...extra });
const say = (r: Recognised, results: PlanResults) => render(r, results).text;
const text = (id: string, value: string, where = HOME) => facts.text(id, id, value, where);
const count = (id: string, value: number, where = HOME) => facts.count(id, id, value, where);
const at = facts.time('at', 'Time', NOW, HOME);

function portfolio(daily: number, dailyPercent: number, openPositions = 1): PortfolioResult {
  return {
    demo: false,
    totalValue: facts.usd('portfolio.totalValue', 'Total value', 10_100, HOME),
    cash: facts.usd('portfolio.cash', 'Cash', 7_000.1, HOME),
    positionsValue: facts.usd('portfolio.positionsValue', 'Positions value', 3_099.9, HOME),
    startingCash: facts.usd('portfolio.startingCash', 'Starting cash', 10_000, HOME),
    dailyPnl: facts.signedUsd('portfolio.dailyPnl', 'P&L today', daily, HOME),
    dailyPnlPercent: facts.signedPercent('portfolio.dailyPnlPercent', 'P&L today (%)', dailyPercent, HOME),
    realisedToday: facts.signedUsd('portfolio.realisedToday', 'Realised today', 10, HOME),
    totalPnl: facts.signedUsd('portfolio.totalPnl', 'Total P&L', 100, HOME),
    totalPnlPercent: facts.signedPercent('portfolio.totalPnlPercent', 'Total P&L (%)', 1, HOME),
    realisedPnl: facts.signedUsd('portfolio.realisedPnl', 'Realised P&L', 40, HOME),
    unrealisedPnl: facts.signedUsd('portfolio.unrealisedPnl', 'Unrealised P&L', 60, HOME),
    openPositions: count('portfolio.openPositions', openPositions),
    dailyPnlValue: daily,
    totalPnlValue: 100,
  };
}

const summary = (totalTrades: number, buys: number, sells: number, winRate: number | null, realised: number) => ({
  totalTrades: count('summary.totalTrades', totalTrades, TRADES),
  buys: count('summary.buys', buys, TRADES),
  sells: count('summary.sells', sells, TRADES),
  winRate: winRate === null ? null : facts.percent('summary.winRate', 'Win rate', winRate, TRADES),
  realisedPnl: facts.signedUsd('summary.realisedPnl', 'Realised P&L', realised, TRADES),
  avgTradeSize: facts.usd('summary.avgTradeSize', 'Average trade size', 400, TRADES),
});

const ethPosition: PositionResult = {
  symbol: 'ETH',
  quantity: facts.quantity('position.ETH.quantity', 'Quantity', 0.5, 'ETH', HOME),
  entryPrice: facts.price('position.ETH.entryPrice', 'Entry', 3100, HOME),
  currentPrice: facts.price('position.ETH.currentPrice', 'Now', 3234, HOME),
  unrealisedPnl: facts.signedUsd('position.ETH.unrealisedPnl', 'Unrealised', 67, HOME),
  stopLoss: facts.price('position.ETH.stopLoss', 'Stop', 3038, HOME),
  takeProfit: facts.price('position.ETH.takeProfit', 'Target', 3255, HOME),
  exitRule: text('position.ETH.exitRule', 'Fixed: 2% below entry'),
  riskPercentage: facts.percent('position.ETH.risk', 'At risk', 0.32, HOME),
};
const solPosition: PositionResult = {
  symbol: 'SOL',
  quantity: facts.quantity('position.SOL.quantity', 'Quantity', 2, 'SOL', HOME),
  entryPrice: facts.price('position.SOL.entryPrice', 'Entry', 150, HOME),
  currentPrice: facts.price('position.SOL.currentPrice', 'Now', 140, HOME),
  unrealisedPnl: facts.signedUsd('position.SOL.unrealisedPnl', 'Unrealised', -20, HOME),
  stopLoss: null,
  takeProfit: null,
  exitRule: text('position.SOL.exitRule', 'No automatic exit (manual position)'),
  riskPercentage: facts.percent('position.SOL.risk', 'At risk', 0, HOME),
};
const ETH_LINE = 'ETH: 0.5000 ETH at an average $3,100.00, now $3,234.00, unrealised +$67.00; stop $3,038.00, target $3,255.00 (Fixed: 2% below entry); 0.32% of the portfolio at risk.';
const SOL_LINE = 'SOL: 2.0000 SOL at an average $150.00, now $140.00, unrealised -$20.00; no stop, no target (No automatic exit (manual position)); 0.00% of the portfolio at risk.';
const positions = (list: PositionResult[]) => ({ get_positions: { positions: list, count: count('positions.count', list.length) } });

function trade(over: Partial<TradeResult> = {}): TradeResult {
  return {
    id: 't1',
    type: 'BUY',
    symbol: 'ETH',
    amount: facts.quantity('trade.t1.amount', 'Amount', 0.5, 'ETH', TRADES),
    price: facts.price('trade.t1.price', 'Price', 3100, TRADES),
    time: facts.time('trade.t1.time', 'Time', NOW, TRADES),
    source: text('trade.t1.source', 'BUY signal', TRADES),
    status: text('trade.t1.status', 'OPEN', TRADES),
    pnl: null,
    decision: null,
    signal: null,
    exits: null,
    closeReason: null,
    manual: false,
    ...over,
  };
}
const trades = (list: TradeResult[], total = list.length) => ({ get_trades: { trades: list, shown: count('trades.shown', list.length, TRADES), total: count('trades.total', total, TRADES) } });
const decision = text('trade.t1.decision', 'bought 5% of the portfolio ($505.00)', TRADES);
const signalWhy = text('trade.t1.signal', 'BUY (67% confidence): RSI, MACD say BUY', TRADES);
const pnl = (value: number) => facts.signedUsd('trade.t1.pnl', 'P&L', value, TRADES);

const refusal = (symbol: CoinSymbol, rule: string, why: string): RefusalResult => ({ symbol, rule: text(`refusal.${symbol}.rule`, rule), text: text(`refusal.${symbol}.text`, why), time: facts.time(`refusal.${symbol}.time`, 'Time', NOW, HOME) });
const refusals = (list: RefusalResult[]) => ({ get_bot_refusals: { refusals: list, shown: count('refusals.shown', list.length) } });
const SOL_REFUSAL = refusal('SOL', 'CORRELATION_LIMIT', 'refused: correlation 0.83 with ETH above 0.70');
const ADA_REFUSAL = refusal('ADA', 'VOLATILITY', 'refused: range 41% above the 30% threshold');

describe('assistant: what each answer says, case by case', () => {
  it('the portfolio counts its open positions in words that agree with the number', () => {
    expect(say(asked('portfolio'), { get_portfolio: portfolio(45.5, 0.45, 2) })).to.equal(
      'Your paper portfolio is worth $10,100.00: $7,000.10 in cash and $3,099.90 in 2 open positions. Today (since the UTC day began) it is +$45.50 (+0.45%); since you started, or since your last reset, +$100.00 (+1.00% of the $10,000.00 starting cash).',
    );
  });

  it("today's P&L says up, down or flat by its sign, and what of it is realised", () => {
    const today = (direction: string, pnlText: string, percentText: string) =>
      `Today your portfolio is ${direction}: its P&L since the UTC day began is ${pnlText} (${percentText} of its value then), of which +$10.00 is realised by trades closed today; the rest is the change in value of what you hold. It is worth $10,100.00 now.`;
    expect(say(asked('pnl_today'), { get_portfolio: portfolio(45.5, 0.45) })).to.equal(today('up', '+$45.50', '+0.45%'));
    expect(say(asked('pnl_today'), { get_portfolio: portfolio(-45.5, -0.45) })).to.equal(today('down', '-$45.50', '-0.45%'));
    expect(say(asked('pnl_today'), { get_portfolio: portfolio(0, 0) })).to.equal(today('flat', '$0.00', '0.00%'));
  });

  it('the total P&L gives the win rate, or says there is none before a trade has closed', () => {
    const head =
      'Since you started, or since your last reset, your total P&L is +$100.00 (+1.00% of the $10,000.00 starting cash): +$40.00 realised and +$60.00 unrealised on open positions. Over all your closing trades ever, the realised P&L is +$40.00, ';
    expect(say(asked('pnl_total'), { get_portfolio: portfolio(0, 0), get_trade_summary: summary(12, 7, 5, 60, 40) })).to.equal(`${head}with a win rate of 60.00%.`);
    expect(say(asked('pnl_total'), { get_portfolio: portfolio(0, 0), get_trade_summary: summary(1, 1, 0, null, 40) })).to.equal(`${head}with no win rate yet, since no trade has closed.`);
  });

  it('the trade statistics write one trade, buy or sale in the singular', () => {
    expect(say(asked('trade_stats'), { get_trade_summary: summary(1, 1, 0, null, 0) })).to.equal(
      'All time you have made 1 trade: 1 buy and 0 closing sales. The realised P&L is $0.00, no trade has closed yet, so there is no win rate, and the average trade size is $400.00.',
    );
    expect(say(asked('trade_stats'), { get_trade_summary: summary(3, 2, 1, 100, 12.5) })).to.equal(
      'All time you have made 3 trades: 2 buys and 1 closing sale. The realised P&L is +$12.50, your win rate is 100.00% of the closing trades, and the average trade size is $400.00.',
    );
  });

  it("positions: each with its stop and target or none; a coin asked about alone; none held says so", () => {
    expect(say(asked('positions'), positions([ethPosition, solPosition]))).to.equal(`You have 2 open positions:\n\u2022 ${ETH_LINE}\n\u2022 ${SOL_LINE}`);
    expect(say(asked('positions'), positions([ethPosition]))).to.equal(`You have 1 open position:\n\u2022 ${ETH_LINE}`);
    expect(say(asked('positions', { symbol: 'SOL' }), positions([ethPosition, solPosition]))).to.equal(`Your SOL position:\n\u2022 ${SOL_LINE}`);
    expect(say(asked('positions', { symbol: 'BTC' }), positions([ethPosition, solPosition]))).to.equal('You hold no BTC now.');
    expect(say(asked('positions'), positions([]))).to.equal('You have no open positions.');
  });

  it('recent trades: newest first with the total, the side and coin asked about, and each one\u2019s P&L and who decided it', () => {
    const bot = trade({ decision });
    const manual = trade({ id: 't2', type: 'SELL', source: text('trade.t2.source', 'Manual', TRADES), status: text('trade.t2.status', 'CLOSED', TRADES), pnl: pnl(-12.34), manual: true });
    const plain = trade({ id: 't3' });
    expect(say(asked('recent_trades'), trades([bot, manual, plain], 7))).to.equal(
      'Your last 3 trades, newest first (7 in all):\n' +
        `\u2022 ${NOW_TEXT}: BUY 0.5000 ETH at $3,100.00 (BUY signal, OPEN). Bot: bought 5% of the portfolio ($505.00).\n` +
        `\u2022 ${NOW_TEXT}: SELL 0.5000 ETH at $3,100.00 (Manual, CLOSED, P&L -$12.34). Manual order.\n` +
        `\u2022 ${NOW_TEXT}: BUY 0.5000 ETH at $3,100.00 (BUY signal, OPEN).`,
    );
    expect(say(asked('recent_trades', { side: 'SELL', symbol: 'ETH' }), trades([manual], 4))).to.equal(
      `Your last sell trade in ETH:\n\u2022 ${NOW_TEXT}: SELL 0.5000 ETH at $3,100.00 (Manual, CLOSED, P&L -$12.34). Manual order.`,
    );
    expect(say(asked('recent_trades', { side: 'BUY', symbol: 'SOL' }), trades([]))).to.equal('You have no buy trades in SOL yet.');
    expect(say(asked('recent_trades'), trades([]))).to.equal('You have no trades yet.');
  });

  it('why my last trade happened: a stop loss or a take profit with its realised P&L, a manual order with its exits, the bot with its signal and rule', () => {
    const head = (what: string, type = 'SELL') => `Your last ${what} was a ${type} of 0.5000 ETH at $3,100.00 on ${NOW_TEXT}. `;
    const sell = { type: 'SELL' as const, status: text('trade.t1.status', 'CLOSED', TRADES) };
    expect(say(asked('trade_reason', { side: 'SELL', symbol: 'ETH' }), trades([trade({ ...sell, closeReason: 'STOP_LOSS', pnl: pnl(-62) })]))).to.equal(
      `${head('sell trade in ETH')}It was not a decision of the moment: the price reached your position's stop loss, so the position was sold to cap the loss. Its realised P&L: -$62.00.`,
    );
    expect(say(asked('trade_reason'), trades([trade({ ...sell, closeReason: 'STOP_LOSS' })]))).to.equal(
      `${head('trade')}It was not a decision of the moment: the price reached your position's stop loss, so the position was sold to cap the loss.`,
    );
    expect(say(asked('trade_reason'), trades([trade({ ...sell, closeReason: 'TAKE_PROFIT', pnl: pnl(77.5) })]))).to.equal(
      `${head('trade')}The price reached your position's take profit, so the position was sold to lock in the gain. Its realised P&L: +$77.50.`,
    );
    expect(say(asked('trade_reason'), trades([trade({ ...sell, closeReason: 'TAKE_PROFIT' })]))).to.equal(
      `${head('trade')}The price reached your position's take profit, so the position was sold to lock in the gain.`,
    );
    const exits = text('trade.t1.exits', 'stop $2,900.00, target $3,500.00', TRADES);
    expect(say(asked('trade_reason', { side: 'BUY' }), trades([trade({ manual: true, exits })]))).to.equal(
      `${head('buy trade', 'BUY')}You placed it yourself (a manual order), so no signal or rule decided it. Its exits: stop $2,900.00, target $3,500.00.`,
    );
    expect(say(asked('trade_reason'), trades([trade({ manual: true })]))).to.equal(`${head('trade', 'BUY')}You placed it yourself (a manual order), so no signal or rule decided it.`);
    expect(say(asked('trade_reason'), trades([trade({ signal: signalWhy, decision })]))).to.equal(
      `${head('trade', 'BUY')}The trading bot placed it. It followed this signal: BUY (67% confidence): RSI, MACD say BUY. The bot's rule: bought 5% of the portfolio ($505.00).`,
    );
    expect(say(asked('trade_reason'), trades([trade({ signal: signalWhy })]))).to.equal(`${head('trade', 'BUY')}The trading bot placed it. It followed this signal: BUY (67% confidence): RSI, MACD say BUY.`);
    expect(say(asked('trade_reason'), trades([trade({ decision })]))).to.equal(`${head('trade', 'BUY')}The trading bot placed it. The bot's rule: bought 5% of the portfolio ($505.00).`);
    expect(say(asked('trade_reason'), trades([trade()]))).to.equal(`${head('trade', 'BUY')}The trading bot placed it. It came from a BUY signal; no further record of the decision was kept for it.`);
  });

  it('why a trade happened, when there is none of what was asked: nothing to explain', () => {
    expect(say(asked('trade_reason', { side: 'BUY', symbol: 'SOL' }), trades([]))).to.equal('You have no buy trade in SOL yet, so there is nothing to explain.');
    expect(say(asked('trade_reason'), trades([]))).to.equal('You have no trade yet, so there is nothing to explain.');
  });

  it("the bot's refusals: each with its time, coin, reason and rule; only the coin asked about; none says so", () => {
    const line = (f: RefusalResult) => `\u2022 ${NOW_TEXT}, ${f.symbol}: ${f.text.text} (rule ${f.rule.text})`;
    expect(say(asked('bot_refusals'), refusals([SOL_REFUSAL, ADA_REFUSAL]))).to.equal(
      `The bot refused these BUY signals recently, newest first:\n\u2022 ${NOW_TEXT}, SOL: refused: correlation 0.83 with ETH above 0.70 (rule CORRELATION_LIMIT)\n${line(ADA_REFUSAL)}`,
    );
    expect(say(asked('bot_refusals', { symbol: 'SOL' }), refusals([SOL_REFUSAL, ADA_REFUSAL]))).to.equal(`The bot refused this BUY signal recently:\n${line(SOL_REFUSAL)}`);
    expect(say(asked('bot_refusals', { symbol: 'BTC' }), refusals([SOL_REFUSAL, ADA_REFUSAL]))).to.equal('The bot has not refused any BUY signal in BTC for you recently.');
    expect(say(asked('bot_refusals'), refusals([]))).to.equal('The bot has not refused any BUY signal for you recently.');
  });

  it('the bot: stopped, or running since when, and whether its entries are paused (only with the reason)', () => {
    const status = (running: boolean, startedAt: Fact | null, entriesPaused: boolean, reason: string | null) => ({
      get_bot_status: { status: text('bot.status', running ? 'ACTIVE' : 'STOPPED'), running, startedAt, entriesPaused, pauseReason: reason === null ? null : text('bot.pauseReason', reason) },
    });
    expect(say(asked('bot_status'), status(false, null, false, null))).to.equal('Your trading bot is stopped. Start Trading Bot on the dashboard starts it.');
    expect(say(asked('bot_status'), status(true, at, false, null))).to.equal(`Your trading bot is running since ${NOW_TEXT}. It follows the signals under your risk profile.`);
    expect(say(asked('bot_status'), status(true, null, true, 'Drawdown 16.20% is above the maximum 15%'))).to.equal(
      'Your trading bot is running. It opens no new position for now: Drawdown 16.20% is above the maximum 15%.',
    );
    expect(say(asked('bot_status'), status(true, null, true, null))).to.equal('Your trading bot is running. It follows the signals under your risk profile.');
    expect(say(asked('bot_status'), status(true, null, false, 'an old reason'))).to.equal('Your trading bot is running. It follows the signals under your risk profile.');
  });

  it("a signal: none yet before a candle closed; else its verdict, confidence, mixed evidence, every reason, and the coin's counts", () => {
    const counts = (total: number, buy: number, sell: number, hold: number) => ({ total: count('signals.total', total), buy: count('signals.buy', buy), sell: count('signals.sell', sell), hold: count('signals.hold', hold) });
    expect(say(asked('signal'), { get_signal: { symbol: 'ETH', signal: null, counts: counts(0, 0, 0, 0) } })).to.equal(
      'There is no ETH signal yet: the engine speaks once a candle has closed. Of the 0 ETH signals so far, 0 were BUY, 0 SELL and 0 HOLD.',
    );
    const latest = (mixed: boolean) => ({
      type: text('signal.type', 'BUY'),
      confidence: facts.plainPercent('signal.confidence', 'Confidence', 67, HOME),
      price: facts.price('signal.price', 'Price', 61_000, HOME),
      time: facts.time('signal.time', 'Time', NOW, HOME),
      mixed,
      reasons: [text('signal.reason.RSI', 'RSI 28.1 is below 30: oversold'), text('signal.reason.MACD', 'MACD is above its signal line')],
    });
    const tail = `, at $61,000.00 on ${NOW_TEXT}. Its reasons: RSI 28.1 is below 30: oversold; MACD is above its signal line. Of the 40 BTC signals so far, 10 were BUY, 12 SELL and 18 HOLD. It is a rule applied to indicators, not financial advice.`;
    expect(say(asked('signal', { symbol: 'BTC' }), { get_signal: { symbol: 'BTC', signal: latest(true), counts: counts(40, 10, 12, 18) } })).to.equal(`The latest BTC signal is BUY with 67% confidence (mixed evidence)${tail}`);
    expect(say(asked('signal', { symbol: 'BTC' }), { get_signal: { symbol: 'BTC', signal: latest(false), counts: counts(40, 10, 12, 18) } })).to.equal(`The latest BTC signal is BUY with 67% confidence${tail}`);
  });

  it('the indicators: each with its reading, and "not enough history yet" for each one not computed (MACD needs its signal line too)', () => {
    const base = {
      symbol: 'BTC' as const,
      price: facts.price('indicators.price', 'Close', 61_234.5, HOME),
      candleTime: facts.time('indicators.candleTime', 'Candle', NOW, HOME),
      interval: count('indicators.interval', 5),
      rsiOversold: count('indicators.rsiOversold', 30),
      rsiOverbought: count('indicators.rsiOverbought', 70),
    };
    const full: IndicatorsResult = {
      ...base,
      rsi: facts.number('indicators.rsi', 'RSI', 71.234, HOME),
      rsiReading: 'Overbought',
      macd: facts.number('indicators.macd', 'MACD', 12.3456, HOME),
      macdSignal: facts.number('indicators.macdSignal', 'Signal line', 10.1, HOME),
      macdReading: 'Bullish',
      sma20: facts.price('indicators.sma20', 'SMA20', 61_000, HOME),
      sma50: facts.price('indicators.sma50', 'SMA50', 60_500.25, HOME),
      ema20: facts.price('indicators.ema20', 'EMA20', 61_100.1, HOME),
      ma20Reading: 'Above MA',
      volume: text('indicators.volume', 'HIGH'),
    };
    const head = `On the 5-minute candle of ${NOW_TEXT}, BTC closed at $61,234.50. `;
    expect(say(asked('indicators', { symbol: 'BTC' }), { get_indicators: full })).to.equal(
      `${head}RSI is 71.23 (Overbought: below 30 is oversold, above 70 overbought); MACD 12.35 against its signal line 10.1 (Bullish); SMA20 $61,000.00 (Above MA); SMA50 $60,500.25; EMA20 $61,100.10; volume HIGH.`,
    );
    const none: IndicatorsResult = { ...base, rsi: null, rsiReading: null, macd: null, macdSignal: null, macdReading: null, sma20: null, sma50: null, ema20: null, ma20Reading: null, volume: null };
    expect(say(asked('indicators', { symbol: 'BTC' }), { get_indicators: none })).to.equal(
      `${head}RSI: not enough history yet; MACD: not enough history yet; SMA20: not enough history yet; SMA50: not enough history yet; EMA20: not enough history yet; volume: not enough history yet.`,
    );
    expect(say(asked('indicators', { symbol: 'BTC' }), { get_indicators: { ...full, macdSignal: null, macdReading: null } })).to.contain('; MACD: not enough history yet; SMA20 $61,000.00');
  });

  it("a price with its change over the last day when the market gives one; the answer's facts are the result's, in order", () => {
    const price = facts.price('price.BTC', 'Price', 61_234.5, HOME);
    const change = facts.signedPercent('price.BTC.change24h', 'Change over 24h', -1.234, HOME);
    const answer = render(asked('price', { symbol: 'BTC' }), { get_price: { symbol: 'BTC', price, change24h: change, at } });
    expect(answer).to.deep.equal({ text: `BTC is at $61,234.50 (-1.23% over the last day), as of ${NOW_TEXT}.`, facts: [price, change, at] });
    expect(say(asked('price', { symbol: 'BTC' }), { get_price: { symbol: 'BTC', price, change24h: null, at } })).to.equal(`BTC is at $61,234.50, as of ${NOW_TEXT}.`);
  });

  it('the risk profile says how each stop type sits, whether it is the defaults, and one position in the singular', () => {
    const profile = (stopLossType: RiskProfileResult['stopLossType'], customised: boolean, maxConcurrent: number): RiskProfileResult => ({
      customised,
      stopLossType,
      maxPositionSize: facts.plainPercent('risk.maxPositionSize', 'Max position size', 5, RISK),
      stopLossType_: text('risk.stopLossType', stopLossType === 'atr' ? 'ATR' : stopLossType, RISK),
      stopLossValue: stopLossType === 'fixed' || stopLossType === 'trailing' ? facts.plainPercent('risk.stopLossValue', 'Stop', 2, RISK) : facts.number('risk.stopLossValue', 'Stop', 2, RISK),
      takeProfitRatio: facts.number('risk.takeProfitRatio', 'Take-profit ratio', 2.5, RISK),
      takeProfit: facts.plainPercent('risk.takeProfit', 'Take profit', 5, RISK),
      riskRewardRatio: facts.number('risk.riskRewardRatio', 'Reward/risk', 2, RISK),
      maxDailyLoss: facts.usd('risk.maxDailyLoss', 'Daily loss limit', 500, RISK),
      maxDrawdown: facts.plainPercent('risk.maxDrawdown', 'Max drawdown', 15, RISK),
      maxConcurrentTrades: count('risk.maxConcurrentTrades', maxConcurrent, RISK),
      kelly: text('risk.kelly', 'off', RISK),
      dynamicSizing: text('risk.dynamicSizing', 'on', RISK),
      correlationLimit: facts.number('risk.correlationLimit', 'Correlation limit', 0.7, RISK),
      volatilityThreshold: facts.plainPercent('risk.volatilityThreshold', 'Volatility threshold', 30, RISK),
    });
    expect(say(asked('risk_profile'), { get_risk_profile: profile('fixed', false, 1) })).to.equal(
      "Your risk profile (the defaults, never changed): positions of at most 5% of the portfolio; a fixed stop loss 2% below the entry price, and a take profit at 2.5 times the stop's distance (5% in Bot Settings); " +
        'a minimum reward/risk of 2; a daily loss limit of $500.00; a maximum drawdown of 15%; at most 1 open position; ' +
        'Kelly sizing off, dynamic sizing on; a correlation limit of 0.7; and a volatility threshold of 30%.',
    );
    const customised = say(asked('risk_profile'), { get_risk_profile: profile('trailing', true, 3) });
    expect(customised).to.match(/^Your risk profile: positions of at most 5%/);
    expect(customised).to.contain('a trailing stop loss 2% below the highest price since the entry, and').and.contain('at most 3 open positions;');
    expect(say(asked('risk_profile'), { get_risk_profile: profile('atr', true, 3) })).to.contain("; an ATR stop loss 2 times the coin's ATR14 below the entry, and");
    expect(say(asked('risk_profile'), { get_risk_profile: profile('volatility', true, 3) })).to.contain('a volatility stop loss 2 times sigma times the entry price below it, and');
  });

  it('my risk today: the loss limit used, the drawdown from the peak, paused entries with their reason, what every stop would lose', () => {
    const status = (entriesPaused: boolean, reason: string | null, openPositions: number): RiskStatusResult => ({
      dailyPnl: facts.signedUsd('risk.dailyPnl', 'P&L today', -12.3, HOME),
      dailyLossUsed: facts.usd('risk.dailyLossUsed', 'Used', 12.3, HOME),
      dailyLossLimit: facts.usd('risk.dailyLossLimit', 'Limit', 500, HOME),
      dailyLossUsedPercent: facts.percent('risk.dailyLossUsedPercent', 'Used (%)', 2.46, HOME),
      drawdown: facts.percent('risk.drawdown', 'Drawdown', 1.59, HOME),
      maxDrawdown: facts.plainPercent('risk.maxDrawdown', 'Max drawdown', 15, HOME),
      peak: facts.usd('risk.peak', 'Peak', 10_400, HOME),
      entriesPaused,
      pauseReason: reason === null ? null : text('risk.pauseReason', reason),
      portfolioRisk: facts.usd('risk.portfolioRisk', 'At risk', 108.7, HOME),
      portfolioRiskPercent: facts.percent('risk.portfolioRiskPercent', 'At risk (%)', 1.06, HOME),
      openPositions: count('risk.openPositions', openPositions),
    });
    const first = 'Today your P&L is -$12.30; of your $500.00 daily loss limit, $12.30 is used (2.46%). Your portfolio is 1.59% below its recorded peak of $10,400.00 (your maximum drawdown is 15%).';
    expect(say(asked('risk_status'), { get_risk_status: status(false, null, 2) })).to.equal(`${first} If every stop were hit, your 2 open positions would lose $108.70, 1.06% of the portfolio.`);
    expect(say(asked('risk_status'), { get_risk_status: status(true, 'Drawdown 16.20% is above the maximum 15%', 1) })).to.equal(
      `${first} New entries are paused: Drawdown 16.20% is above the maximum 15%. If every stop were hit, your 1 open position would lose $108.70, 1.06% of the portfolio.`,
    );
    expect(say(asked('risk_status'), { get_risk_status: status(true, null, 2) })).to.equal(`${first} If every stop were hit, your 2 open positions would lose $108.70, 1.06% of the portfolio.`);
  });

  it('alerts: none says so; each with its severity, time, state (resolved before acknowledged) and what it means', () => {
    const alert = (kind: AlertResult['kind'], severity: string, message: string, acknowledged: boolean, resolved: boolean): AlertResult => ({
      kind,
      severity: text(`alert.${kind}.severity`, severity),
      message: text(`alert.${kind}.message`, message),
      time: facts.time(`alert.${kind}.time`, 'Time', NOW, HOME),
      acknowledged,
      resolved,
    });
    const alerts = (list: AlertResult[], unacknowledged: number) => ({ get_alerts: { alerts: list, unacknowledged: count('alerts.unacknowledged', unacknowledged), total: count('alerts.total', list.length) } });
    expect(say(asked('alerts'), alerts([], 0))).to.equal('You have no risk alerts.');
    expect(say(asked('alerts'), alerts([alert('DAILY_LOSS', 'medium', 'Daily loss of $250.00 has reached 50% of the $500.00 limit', false, false)], 1))).to.equal(
      `You have 1 risk alert, 1 not acknowledged, newest first:\n\u2022 medium (${NOW_TEXT}): Daily loss of $250.00 has reached 50% of the $500.00 limit. What it means: today's realised losses have used that much of your daily loss limit; once they reach it, the bot opens no new position until the UTC day ends.`,
    );
    expect(
      say(asked('alerts'), alerts([alert('DRAWDOWN', 'high', 'Drawdown 16.20% is above 15%', true, true), alert('VOLATILITY', 'low', 'SOL ranged 41% in a day', true, false)], 0)),
    ).to.equal(
      'You have 2 risk alerts, 0 not acknowledged, newest first:\n' +
        `\u2022 high (${NOW_TEXT}, resolved): Drawdown 16.20% is above 15%. What it means: your portfolio is further below its peak than your maximum drawdown, so the bot opens no new position until it recovers.\n` +
        `\u2022 low (${NOW_TEXT}, acknowledged): SOL ranged 41% in a day. What it means: the coin's range over the last day is above your volatility threshold, so the bot opens no new position in it meanwhile.`,
    );
  });

  it('the subscription: a cancelled one says until when and how many days remain (one day in the singular); an active one does not', () => {
    const sub = (cancelled: boolean, endsAt: Fact | null, daysRemaining: number | null): SubscriptionResult => ({
      tier: text('subscription.tier', 'PREMIUM'),
      status: text('subscription.status', 'ACTIVE'),
      plan: text('subscription.plan', 'Premium Pro'),
      price: facts.usd('subscription.price', 'Price', 29, HOME),
      cancelled,
      endsAt,
      daysRemaining: daysRemaining === null ? null : count('subscription.daysRemaining', daysRemaining),
    });
    const ends = facts.time('subscription.endsAt', 'Ends', '2026-04-03T14:05:00.000Z', HOME);
    const plan = 'You are on the Premium Pro plan (PREMIUM, ACTIVE) at $29.00 a month.';
    expect(say(asked('subscription'), { get_subscription: sub(true, ends, 30) })).to.equal(
      `${plan} It is cancelled: your access continues until 2026-04-03 14:05 UTC, 30 days from now, and you can reactivate it before then.`,
    );
    expect(say(asked('subscription'), { get_subscription: sub(true, ends, 1) })).to.equal(
      `${plan} It is cancelled: your access continues until 2026-04-03 14:05 UTC, 1 day from now, and you can reactivate it before then.`,
    );
    expect(say(asked('subscription'), { get_subscription: sub(true, ends, null) })).to.equal(`${plan} It is cancelled: your access continues until 2026-04-03 14:05 UTC, and you can reactivate it before then.`);
    expect(say(asked('subscription'), { get_subscription: sub(false, ends, 30) })).to.equal(plan);
    expect(say(asked('subscription'), { get_subscription: sub(true, null, null) })).to.equal(plan);
  });

  describe('the model', () => {
    const model = (over: Partial<ModelResult>): ModelResult => ({
      status: 'READY',
      owner: text('model.owner', 'the house model'),
      model: text('model.name', 'Neural Network'),
      trainingDays: count('model.trainingDays', 30),
      accuracy: facts.percent('model.accuracy', 'Accuracy', 55.1, HOME, 1),
      baseline: facts.percent('model.baseline', 'Baseline', 50.4, HOME, 1),
      intervalLow: facts.percent('model.intervalLow', 'Interval low', 53.2, HOME, 1),
      intervalHigh: facts.percent('model.intervalHigh', 'Interval high', 57, HOME, 1),
      intervalLevel: facts.plainPercent('model.intervalLevel', 'Interval level', 95, HOME),
      verdict: text('model.verdict', 'edge'),
      testSamples: count('model.testSamples', 2500),
      lastTraining: facts.time('model.lastTraining', 'Last trained', NOW, HOME),
      training: null,
      ...over,
    });
    const ask = (over: Partial<ModelResult>) => say(asked('model'), { get_model_status: model(over) });

    it('with an edge: the accuracy beside the baseline, the interval, and the verdict that its lower end is above the baseline', () => {
      expect(ask({})).to.equal(
        `The house model is a Neural Network trained on 30 days of candles, last trained ${NOW_TEXT}. It called the next candle's direction right 55.1% of the time on 2,500 held-out candles (95% interval 53.2% to 57.0%), against a baseline of 50.4% for always guessing the more common direction. The verdict is edge: the interval's lower end is above the baseline.`,
      );
    });

    it('without an interval, a sample count, a training date or a verdict, it leaves them out and gives no verdict', () => {
      expect(ask({ intervalHigh: null, testSamples: null, lastTraining: null, verdict: null, training: { queuePosition: count('model.queue', 2), running: false } })).to.equal(
        "The house model is a Neural Network trained on 30 days of candles. It called the next candle's direction right 55.1% of the time on held-out candles, against a baseline of 50.4% for always guessing the more common direction. The verdict is not given: the interval holds the baseline, so the accuracy could be luck; treat the signals with that in mind. A training of it is queued, number 2 in the queue.",
      );
    });

    it('before its first training ends it claims no accuracy, and says whether a training runs or waits', () => {
      expect(ask({ status: 'NOT_TRAINED' })).to.equal('No model has been trained yet, so there is no measured accuracy to report.');
      expect(ask({ status: 'TRAINING', training: { queuePosition: count('model.queue', 1), running: true } })).to.equal(
        'The house model (Neural Network) has no measured accuracy yet: its first training has not ended. A training of it is running now.',
      );
      expect(ask({ baseline: null })).to.equal('The house model (Neural Network) has no measured accuracy yet: its first training has not ended.');
      expect(ask({ accuracy: null, training: { queuePosition: count('model.queue', 3), running: false } })).to.equal(
        'The house model (Neural Network) has no measured accuracy yet: its first training has not ended. A training of it is queued, number 3 in the queue.',
      );
    });

    it('a price prediction is declined, and the model\u2019s measured accuracy given instead', () => {
      expect(say(asked('prediction'), { get_model_status: model({ status: 'NOT_TRAINED' }) })).to.equal(
        "I can't predict prices, and I won't guess: I answer only from your data and what this product has measured. No model has been trained yet, so there is no measured accuracy to report.",
      );
    });
  });

  it('a term: its title and definition, or that there is none for it', () => {
    const profitFactor = explainTerm('profit_factor');
    expect(render(asked('explain', { term: 'profit_factor' }), { explain_term: profitFactor })).to.deep.equal({
      text: "Profit factor: Profit factor is the gross profit over the gross loss: the sum of the winning trades' profits divided by the sum of the losing trades' losses. Above one the winners made more than the losers lost; below one the strategy lost money overall.",
      facts: [],
    });
    expect(say(asked('explain'), {})).to.equal(
      "I don't have a definition for that term. I can explain RSI, MACD, moving averages, each stop-loss type, Kelly sizing, drawdown, Sharpe, profit factor, walk-forward and more.",
    );
  });

  it('an order is declined: the assistant only answers, and says where on the screens it is done', () => {
    expect(say(asked('action'), {})).to.equal(
      "I can't act on your account: I only answer questions, so I place no trade and change no setting. The dashboard's Quick Actions start, pause and reset the bot and place trades; Risk Management changes your risk profile.",
    );
  });

  it('my backtests: one completed run in the singular; a run without all its figures shows its status', () => {
    const B: Where = { source: screens.backtesting, api: 'GET /api/backtest/history' };
    const item = (id: string, status: string, totalTrades: number | null, winRate: number | null, totalReturn: number | null): BacktestItemResult => ({
      id,
      strategy: text(`backtests.${id}.strategy`, 'RSI Mean Reversion', B),
      symbol: 'ETH',
      status: text(`backtests.${id}.status`, status, B),
      start: facts.time(`backtests.${id}.start`, 'Start', '2025-09-01T00:00:00.000Z', B),
      end: facts.time(`backtests.${id}.end`, 'End', '2026-03-01T00:00:00.000Z', B),
      totalTrades: totalTrades === null ? null : count(`backtests.${id}.totalTrades`, totalTrades, B),
      winRate: winRate === null ? null : facts.percent(`backtests.${id}.winRate`, 'Win rate', winRate, B, 1),
      totalReturn: totalReturn === null ? null : facts.signedPercent(`backtests.${id}.totalReturn`, 'Total return', totalReturn, B),
    });
    const run = 'RSI Mean Reversion on ETH, 2025-09-01 00:00 UTC to 2026-03-01 00:00 UTC';
    const backtests = (list: BacktestItemResult[]) => ({ my_backtests: { count: count('backtests.count', list.length, B), backtests: list } });
    expect(say(asked('my_backtests'), backtests([item('b1', 'completed', 1, 100, 0.4)]))).to.equal(`Your latest backtest:\n\u2022 ${run}: 1 closed trade, win rate 100.0%, total return +0.40%.`);
    expect(say(asked('my_backtests'), backtests([item('b2', 'failed', 3, null, -1.5), item('b3', 'failed', 3, 50, null)]))).to.equal(
      `Your 2 latest backtests, newest first:\n\u2022 ${run}: failed.\n\u2022 ${run}: failed.`,
    );
  });

  describe('a what-if', () => {
    const W: Where = { source: screens.backtesting, api: 'POST /api/ai-chat (what-if)' };
    const runOf = (stopType: string, takeProfit: number, totalReturn: number, finalBalance: number, closed: number, winRate: number | null, drawdown: number): WhatIfRunResult => ({
      stopType: text('whatIf.stopType', stopType, W),
      stopValue: facts.plainPercent('whatIf.stopValue', 'Stop', 2, W),
      takeProfit: facts.plainPercent('whatIf.takeProfit', 'Take profit', takeProfit, W),
      maxPositionSize: facts.plainPercent('whatIf.maxPositionSize', 'Position size', 5, W),
      totalReturn: facts.signedPercent('whatIf.totalReturn', 'Return', totalReturn, W),
      finalBalance: facts.usd('whatIf.finalBalance', 'Final balance', finalBalance, W),
      closedTrades: count('whatIf.closedTrades', closed, W),
      winRate: winRate === null ? null : facts.percent('whatIf.winRate', 'Win rate', winRate, W, 1),
      maxDrawdown: facts.percent('whatIf.maxDrawdown', 'Max drawdown', drawdown, W),
    });
    const results = (setting: 'takeProfit' | 'maxPositionSize', value: number): PlanResults => ({
      what_if_backtest: {
        symbol: 'SOL',
        setting,
        days: count('whatIf.days', 14, W),
        start: facts.time('whatIf.start', 'Start', '2026-02-18T14:05:00.000Z', W),
        end: facts.time('whatIf.end', 'End', NOW, W),
        startingCash: facts.usd('whatIf.startingCash', 'Starting cash', 10_000, W),
        value: facts.plainPercent('whatIf.value', 'Value', value, W),
        current: runOf('fixed', 5, 1, 10_100, 1, 100, 0.5),
        changed: runOf('fixed', 8, -0.2, 9_980, 2, 50, 0.8),
      },
    });

    it('a take profit: both runs over the same days of the coin, one closed trade in the singular, each with its win rate', () => {
      const r = asked('what_if', { symbol: 'SOL', whatIf: { setting: 'takeProfit', value: 8, days: 14 } });
      expect(say(r, results('takeProfit', 8))).to.equal(
        `I replayed the last 14 days of SOL (2026-02-18 14:05 UTC to ${NOW_TEXT}) through the backtester, following the house signals as your paper bot does, from $10,000.00, with the same fills, stops and risk rules as paper trading.\n` +
          '\u2022 With your profile as it is (a fixed stop of 2%, a take profit of 5%, positions up to 5%): +1.00%, ending at $10,100.00, with 1 closed trade, a win rate of 100.0% and a maximum drawdown of 0.50%.\n' +
          '\u2022 With a take profit of 8% (a fixed stop of 2%, a take profit of 8%, positions up to 5%): -0.20%, ending at $9,980.00, with 2 closed trades, a win rate of 50.0% and a maximum drawdown of 0.80%.\n' +
          "This is SOL alone: your bot trades every coin, so it is that coin's share of what it would have done, and past figures say nothing certain about the next days.",
      );
    });

    it('a position size is named as the maximum position size', () => {
      const r = asked('what_if', { whatIf: { setting: 'maxPositionSize', value: 10, days: null } });
      expect(say(r, results('maxPositionSize', 10))).to.contain('\n\u2022 With a maximum position size of 10% (a fixed stop of 2%,');
    });

    it('a question that was not read as a what-if at all is asked to name the setting, with no figure', () => {
      expect(say(asked('what_if'), {})).to.equal(
        'I can replay a what-if through the backtester: name the setting and its value in percent (your stop loss, take profit or maximum position size) and, if you like, the period, for example \u201cwhat if my stop loss were three percent over the last thirty days?\u201d. I then run your profile as it is and with that change over the same days and compare the figures.',
      );
    });
  });
});
