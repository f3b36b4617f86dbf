/**
 * The bot's order for a signal: the bot's rules at the fill time's prices, the order carrying the
 * signal coin's mid and the market it meets, decided at the price it fills at (its decision's stop,
 * target and cost the position's own), sized so the fill with its costs fits the budget even when the
 * budget is all the cash.
 */
import { expect } from 'chai';
import { coins } from '../../market/coins';
import { DEFAULT_RISK_PROFILE } from '../contracts';
import { tradeIdFor, type BotMarket, type BotSignal } from '../bot-trade-decision';
import { portfolioDecider } from '../portfolio.decider';
import type { PortfolioState, SimulatedTradePlaced } from '../portfolio';
import { decideBotOrder, type BotOrderQuote } from './bot-order';

const FILL = Date.parse('2026-01-05T10:05:05.000Z');
const LIVE: Record<string, number> = { ETH: 3000, BTC: 60_000 };
const quotes: BotOrderQuote[] = coins.map((c) => ({ coinId: c.id, symbol: c.symbol, price: LIVE[c.symbol] ?? 10, filledAt: new Date(FILL).toISOString(), minuteVolumeUsd: 3e6 }));
/** A calm market, no coin correlated with another: no entry rule refuses. */
const MARKET: BotMarket = {
  figures: { atr14: 12, sigma20: 0.002, range24hPercent: 5, recentVolatility: 0.002, averageVolatility: 0.002 },
  correlations: Object.fromEntries(coins.map((c) => [c.symbol, 0])),
};
const signal = (type: BotSignal['type'], symbol = 'BTC'): BotSignal => ({ eventId: 'e1', signalId: `s-${type}-${symbol}`, type, symbol, price: 59_000, confidence: 80, candleTime: '2026-01-05T10:00:00.000Z' });

function run(commands: Array<Parameters<typeof portfolioDecider.decide>[0]>): PortfolioState {
  let state = portfolioDecider.initialState();
  for (const command of commands) for (const event of portfolioDecider.decide(command, state)) state = portfolioDecider.evolve(state, event);
  return state;
}

describe('engine: the bot order', function () {
  it('buys at the fill tick\'s prices: the order carries the mid, when it fills and when it was meant to, at the fill time', function () {
    const decision = decideBotOrder({ userId: 'u1', signal: signal('BUY'), profile: DEFAULT_RISK_PROFILE, market: MARKET, portfolio: portfolioDecider.initialState(), quotes, intendedMs: FILL - 5000, fillMs: FILL });
    expect(decision.action).to.equal('TRADE');
    if (decision.action !== 'TRADE') return;
    const { data, metadata } = decision.command;
    expect(data).to.deep.include({ tradeId: tradeIdFor('s-BUY-BTC', 'u1'), side: 'BUY', symbol: 'BTC', price: 60_000 });
    expect(data.market).to.deep.equal({ filledAt: '2026-01-05T10:05:05.000Z', minuteVolumeUsd: 3e6, intendedAt: '2026-01-05T10:05:00.000Z' });
    expect(metadata.now).to.equal('2026-01-05T10:05:05.000Z');
    // 5 % of 10,000 USD at the fill price, not at the signal's candle close (59,000).
    const [, placed] = portfolioDecider.decide(decision.command, portfolioDecider.initialState()) as [unknown, SimulatedTradePlaced];
    expect((placed.data.notionalMicros + placed.data.feeMicros) / 1e6).to.be.within(499.9, 500);
    expect(placed.data.execution).to.include({ mid: 60_000, delayMs: 5000 });
  });

  it('decides at the price the order fills at: the decision\'s stop, target and cost are the fill\'s, not the mid\'s or a worse price\'s', function () {
    const decision = decideBotOrder({ userId: 'u1', signal: signal('BUY'), profile: DEFAULT_RISK_PROFILE, market: MARKET, portfolio: portfolioDecider.initialState(), quotes, intendedMs: FILL, fillMs: FILL });
    if (decision.action !== 'TRADE') throw new Error(`expected a trade: ${decision.detail}`);
    const [, placed] = portfolioDecider.decide(decision.command, portfolioDecider.initialState()) as [unknown, SimulatedTradePlaced];
    const fill = placed.data.price;
    expect(fill).to.be.greaterThan(60_000 * 1.00005);
    const { figures } = decision.decision;
    expect(figures.stopLoss).to.be.closeTo(fill * 0.98, fill * 1e-9);
    expect(figures.takeProfit).to.be.closeTo(fill * 1.05, fill * 1e-9);
    expect(figures.cost, 'what it paid, to the cent').to.equal(Math.round((placed.data.notionalMicros + placed.data.feeMicros) / 1e4) / 100);
  });

  it('sizes so a BUY whose budget is all the cash still fits with the spread and impact', function () {
    const profile = { ...DEFAULT_RISK_PROFILE, maxPositionSize: 50 };
    const ethBuy = { type: 'PlaceSimulatedTrade' as const, data: { userId: 'u1', tradeId: 't0', symbol: 'ETH', side: 'BUY' as const, amount: 3.2, price: 3000, source: { kind: 'MANUAL' as const } }, metadata: { now: '2026-01-05T09:00:00.000Z' } };
    const portfolio = run([ethBuy]);
    expect(portfolio.status === 'open' && portfolio.cashMicros / 1e6).to.be.closeTo(390.4, 1e-9);
    const decision = decideBotOrder({ userId: 'u1', signal: signal('BUY'), profile, market: MARKET, portfolio, quotes, intendedMs: FILL, fillMs: FILL });
    if (decision.action !== 'TRADE') throw new Error(`expected a trade: ${decision.detail}`);
    const [placed] = portfolioDecider.decide(decision.command, portfolio) as [SimulatedTradePlaced];
    const spent = placed.data.notionalMicros + placed.data.feeMicros;
    expect(spent).to.be.at.most(390_400_000);
    expect(spent, 'nearly all of it').to.be.greaterThan(390_000_000);
  });

  it('sells the whole position on a SELL, refuses what the rules refuse, and values the portfolio at the fill time\'s prices', function () {
    const buy = decideBotOrder({ userId: 'u1', signal: signal('BUY', 'ETH'), profile: DEFAULT_RISK_PROFILE, market: MARKET, portfolio: portfolioDecider.initialState(), quotes, intendedMs: FILL, fillMs: FILL });
    if (buy.action !== 'TRADE') throw new Error('expected a trade');
    const portfolio = run([buy.command]);
    const sell = decideBotOrder({ userId: 'u1', signal: { ...signal('SELL', 'ETH'), candleTime: '2026-01-05T10:05:00.000Z' }, profile: DEFAULT_RISK_PROFILE, market: MARKET, portfolio, quotes, intendedMs: FILL + 300_000, fillMs: FILL + 300_000 });
    expect(sell.action === 'TRADE' && sell.command.data).to.deep.include({ side: 'SELL', amount: buy.command.data.amount, price: 3000 });
    const again = decideBotOrder({ userId: 'u1', signal: { ...signal('BUY', 'ETH'), signalId: 'other' }, profile: DEFAULT_RISK_PROFILE, market: MARKET, portfolio, quotes, intendedMs: FILL, fillMs: FILL });
    expect(again).to.include({ action: 'SKIP', reason: 'POSITION_ALREADY_OPEN' });
    expect(decideBotOrder({ userId: 'u1', signal: signal('HOLD'), profile: DEFAULT_RISK_PROFILE, market: MARKET, portfolio, quotes, intendedMs: FILL, fillMs: FILL })).to.include({ action: 'SKIP', reason: 'HOLD_SIGNAL' });
    // With half the value in ETH at 6,000 instead of 3,000, 5 % of the portfolio is more dollars.
    const rich = quotes.map((q) => (q.symbol === 'ETH' ? { ...q, price: 6000 } : q));
    const btc = (qs: BotOrderQuote[]) => decideBotOrder({ userId: 'u1', signal: signal('BUY'), profile: DEFAULT_RISK_PROFILE, market: MARKET, portfolio, quotes: qs, intendedMs: FILL, fillMs: FILL });
    const [poor, wealthy] = [btc(quotes), btc(rich)].map((d) => (d.action === 'TRADE' ? d.command.data.amount : 0));
    expect(wealthy!).to.be.greaterThan(poor!);
  });

  it('will not decide without a quote for the signal\'s coin (the market could not be read)', function () {
    expect(() => decideBotOrder({ userId: 'u1', signal: signal('BUY'), profile: DEFAULT_RISK_PROFILE, market: MARKET, portfolio: portfolioDecider.initialState(), quotes: quotes.filter((q) => q.symbol !== 'BTC'), intendedMs: FILL, fillMs: FILL })).to.throw(/no quote for BTC/);
  });
});
