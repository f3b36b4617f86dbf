/**
 * The bot's order at the edges the main spec (bot-order.unit.spec.ts) leaves: the entry a BUY is
 * decided at is exactly the fill price of the order the rules size at the mid plus the half spread;
 * an unworded run (explain: false) keeps the trade and drops the words; a signal on a coin the product
 * does not support is skipped like any other, with no quote needed.
 */
import { expect } from 'chai';
import { coins, halfSpreadOf } from '../../market/coins';
import { DEFAULT_RISK_PROFILE } from '../contracts';
import { decideBotTrade, type BotMarket, type BotSignal } from '../bot-trade-decision';
import { portfolioDecider } from '../portfolio.decider';
import { decideBotOrder, type BotOrderInput, type BotOrderQuote } from './bot-order';
import { fillPrice, priceImpact } from './fills';

const FILL = Date.parse('2026-01-05T10:05:05.000Z');
const LIVE: Record<string, number> = { ETH: 3000, BTC: 60_000 };
const quotes: BotOrderQuote[] = coins.map((c) => ({ coinId: c.id, symbol: c.symbol, price: LIVE[c.symbol] ?? 10, filledAt: new Date(FILL).toISOString(), minuteVolumeUsd: 3e6 }));
/** A calm market, no coin correlated with another: no entry rule refuses. */
const MARKET: BotMarket = {
  figures: { atr14: 12, sigma20: 0.002, range24hPercent: 5, recentVolatility: 0.002, averageVolatility: 0.002 },
  correlations: Object.fromEntries(coins.map((c) => [c.symbol, 0])),
};
const signal = (type: BotSignal['type'], symbol = 'BTC'): BotSignal => ({ eventId: 'e1', signalId: `s-${type}-${symbol}`, type, symbol, price: 59_000, confidence: 80, candleTime: '2026-01-05T10:00:00.000Z' });
const order = (changes: Partial<BotOrderInput> = {}): BotOrderInput => ({ userId: 'u1', signal: signal('BUY'), profile: DEFAULT_RISK_PROFILE, market: MARKET, portfolio: portfolioDecider.initialState(), quotes, intendedMs: FILL, fillMs: FILL, ...changes });

describe('engine: the bot order, edges', function () {
  it('a BUY is decided at the fill price of the order the rules size at the mid plus the half spread', function () {
    const btc = coins.find((c) => c.symbol === 'BTC')!;
    const prices = Object.fromEntries(quotes.map((q) => [q.symbol, q.price]));
    const now = new Date(FILL).toISOString();
    const at = (price: number) => decideBotTrade({ userId: 'u1', signal: { ...signal('BUY'), price }, profile: DEFAULT_RISK_PROFILE, portfolio: portfolioDecider.initialState(), prices, market: MARKET, now });
    // The least it can fill at sizes the order; that order's fill (its half spread and its own impact) is the entry.
    const sized = at(60_000 * (1 + halfSpreadOf(btc.id)));
    if (sized.action !== 'TRADE') throw new Error('expected a trade');
    const entry = fillPrice(60_000, 'BUY', halfSpreadOf(btc.id), priceImpact(btc.id, sized.command.data.amount * 60_000, 3e6));
    const expected = at(entry);
    if (expected.action !== 'TRADE') throw new Error('expected a trade');

    const decision = decideBotOrder(order());
    if (decision.action !== 'TRADE') throw new Error(`expected a trade: ${decision.detail}`);
    expect(decision.decision).to.deep.equal(expected.decision);
    expect(decision.command.data.amount).to.equal(expected.command.data.amount);
    expect(decision.command.data.price, 'the order carries the mid').to.equal(60_000);
  });

  it('explain: false decides the same trade without words: no decision on the command, the rule alone', function () {
    const worded = decideBotOrder(order());
    const bare = decideBotOrder(order({ explain: false }));
    if (worded.action !== 'TRADE' || bare.action !== 'TRADE') throw new Error('expected two trades');
    expect(bare.decision).to.deep.equal({ rule: 'FIXED_SIZE', text: '', figures: {} });
    expect(bare.command.data.decision).to.equal(undefined);
    const { decision: _decision, ...data } = worded.command.data;
    expect(bare.command.data).to.deep.equal(data);
  });

  it('a signal on a coin the product does not support is skipped, with nothing recorded, even with no quote for it', function () {
    expect(decideBotOrder(order({ signal: signal('BUY', 'DOGE') }))).to.deep.equal({ action: 'SKIP', reason: 'UNSUPPORTED_COIN', detail: 'DOGE is not a supported coin', decision: null });
  });
});
