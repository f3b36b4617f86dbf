/**
 * An active arbitrage strategy trades the paper portfolio (issue 19), on the embedded stores (PGlite)
 * with the projector and the APIs running: the strategy's ARBITRAGE signal (evaluated by the strategy
 * signal decider from per-exchange quotes) ends, through the trading bot, in two trades read through
 * GET /api/trades, a BUY on the cheaper exchange and a SELL of the same amount on the dearer one sharing
 * a pair id, each with its exchange's fee, named by the strategy; the portfolio's realised P&L moves by
 * the pair's net profit and it holds no coin. A technical strategy's trade names its strategy too, and
 * a house signal's keeps its label.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { subscriptionDecider, subscriptionStreamId } from '@papertrade/domain/auth/subscription';
import { coins, type CoinId } from '@papertrade/domain/market/coins';
import { tickAt, tickTime } from '@papertrade/domain/market/market-path';
import type { SignalGeneratedV1 } from '@papertrade/domain/signals/signal';
import { strategyStreamId } from '@papertrade/domain/strategies/strategy';
import { strategyDecider } from '@papertrade/domain/strategies/strategy.decider';
import { configIdOf, configKey, defaultConfiguration, type StrategyId } from '@papertrade/domain/strategies/strategy-catalogue';
import { strategySignalDecider, strategySignalsStreamId, type EvaluateStrategy, type StrategyInputs } from '@papertrade/domain/strategies/strategy-signals';
import { botStreamId } from '@papertrade/domain/trading/bot';
import { botDecider } from '@papertrade/domain/trading/bot.decider';
import { tradesResponseSchema, portfolioResponseSchema, type Trade } from '@papertrade/domain/trading/read-contracts';
import { CommandHandler, type CommandMeta } from '@papertrade/platform/commands/command-handler';
import { silentLogger } from '@papertrade/platform/config/logger';
import type { OrderQuote } from '@papertrade/platform/market/market-data';
import { startHarness, type Harness } from '../../../test/api-harness';
import { syntheticCandles } from '../../../test/synthetic-candles';
import { TradingBot } from '../trading-bot';

const CANDLE_MS = 300_000;
const ETH = 3000;

describe('an active arbitrage strategy trades the paper portfolio (PGlite)', function () {
  this.timeout(120_000);
  let harness: Harness;
  let handler: CommandHandler;
  let bot: TradingBot;
  const meta = (actor: string): CommandMeta => ({ actor, correlationId: randomUUID() });
  const now = () => new Date().toISOString();
  const candleTime = () => new Date(Math.floor(Date.now() / CANDLE_MS) * CANDLE_MS - CANDLE_MS).toISOString();

  before(async function () {
    harness = await startHarness();
    handler = new CommandHandler(harness.rt.infra.eventStore, () => new Date());
    const { eventStore, documents, leases, readModels } = harness.rt.infra;
    const quotes = (atMs: number): OrderQuote[] => coins.map((c) => ({ coinId: c.id, symbol: c.symbol, price: c.symbol === 'ETH' ? ETH : 100, filledAt: new Date(tickTime(tickAt(atMs))).toISOString(), minuteVolumeUsd: 5_000_000 }));
    bot = new TradingBot({
      eventStore, documents, leases, readModels, handler,
      marketData: { quotesAt: async (atMs: number) => quotes(atMs), candles: async (coinId: CoinId, days: number, endMs?: number) => syntheticCandles(coinId, days, endMs ?? Date.now(), {}) },
      clock: () => new Date(), logger: silentLogger, houseDemo: false,
    });
    await bot.start();
  });
  after(async function () {
    await bot?.stop();
    await harness?.stop();
  });

  /** A signed-up premium user with a running bot and one active strategy; their token. */
  async function premiumUser(strategyId: StrategyId | null, configuration?: Record<string, number>): Promise<{ userId: string; token: string }> {
    const email = `${randomUUID()}@example.com`;
    const { userId } = await harness.signup({ email, username: `u${randomUUID().slice(0, 8)}` });
    const token = await harness.login(email, 'secret1');
    await handler.handle(subscriptionDecider, subscriptionStreamId(userId), { type: 'ChangeSubscriptionByAdmin', data: { userId, tier: 'PREMIUM', adminId: 'admin' }, metadata: { now: now() } }, meta('admin'));
    await handler.handle(botDecider, botStreamId(userId), { type: 'StartBot', data: { userId, premium: true }, metadata: { now: now() } }, meta(userId));
    if (strategyId) {
      if (configuration) await handler.handle(strategyDecider, strategyStreamId(userId, strategyId), { type: 'ConfigureStrategy', data: { userId, strategyId, configuration: configuration as never }, metadata: { now: now() } }, meta(userId));
      await handler.handle(strategyDecider, strategyStreamId(userId, strategyId), { type: 'ToggleStrategy', data: { userId, strategyId, active: true }, metadata: { now: now() } }, meta(userId));
    }
    return { userId, token };
  }

  /** The strategy signal decider evaluates `inputs` on ETH's last closed candle, as the strategy engine does. */
  async function evaluate(inputs: StrategyInputs) {
    const key = configKey(inputs.strategyType, inputs.configuration);
    const configId = configIdOf(key);
    const command: EvaluateStrategy = { type: 'EvaluateStrategy', data: { signalId: randomUUID(), configId, configKey: key, symbol: 'ETH', candleTime: candleTime(), inputs } };
    const result = await handler.handle(strategySignalDecider, strategySignalsStreamId(configId, 'ETH'), command, meta('strategy-engine'));
    expect(result.events, 'the strategy signalled').to.have.length(1);
  }

  async function settled() {
    await bot.follower.reached(await harness.head());
    await harness.projector.caughtUp();
  }
  async function tradesOf(token: string): Promise<Trade[]> {
    const res = await harness.request('GET', '/api/trades', { token });
    expect(res.status).to.equal(200);
    return tradesResponseSchema.parse(res.body).trades;
  }

  it('an ARBITRAGE signal ends in a BUY on the cheaper exchange and a SELL on the dearer one, linked by a pair id, the realised P&L moved by the net spread', async function () {
    const configuration = { ...defaultConfiguration('arbitrage'), maxPositionSize: 300 };
    const user = await premiumUser('cross-exchange-arbitrage', configuration);
    const other = await premiumUser(null);
    await harness.projector.caughtUp();

    // Kraken 1 % above Binance: net of their 0.1 % and 0.26 % fees about 0.64 %, above minSpread 0.5 %.
    await evaluate({
      strategyType: 'arbitrage',
      configuration,
      quotes: [{ exchange: 'binance', price: ETH, basis: 0 }, { exchange: 'coinbase', price: ETH * 1.002, basis: 0.002 }, { exchange: 'kraken', price: ETH * 1.01, basis: 0.01 }],
      close: ETH,
    });
    await settled();

    const trades = await tradesOf(user.token);
    expect(trades, 'two rows in Trade History').to.have.length(2);
    const buy = trades.find((t) => t.type === 'BUY')!;
    const sell = trades.find((t) => t.type === 'SELL')!;
    expect(buy.pairId).to.be.a('string').and.equal(sell.pairId);
    expect([buy.exchange, sell.exchange]).to.deep.equal(['binance', 'kraken']);
    expect(sell.amount).to.equal(buy.amount);
    for (const t of [buy, sell]) {
      expect(t).to.include({ strategyId: 'cross-exchange-arbitrage', strategyType: 'arbitrage', source: 'Cross-Exchange Arbitrage strategy', signal: 'Cross-Exchange Arbitrage strategy', status: 'CLOSED' });
      expect(t.decision?.rule).to.equal('ARBITRAGE_PAIR');
      expect(t.execution?.mid).to.be.a('number');
    }
    // $300 (the strategy's maximum; 5 % of $10,000 would be $500), each leg at its exchange's fee.
    expect(buy.value).to.be.within(299.9, 300);
    expect(buy.fee).to.be.closeTo(buy.value * 0.001, 0.006);
    expect(sell.fee).to.be.closeTo(sell.value * 0.0026, 0.006);
    expect(sell.lotRule).to.equal('PAIR');
    expect(sell.pnl).to.be.closeTo(sell.value - sell.fee - buy.value - buy.fee, 0.02);
    expect(sell.pnl).to.be.above(1.8).and.below(2);

    const res = await harness.request('GET', '/api/portfolio', { token: user.token });
    const portfolio = portfolioResponseSchema.parse(res.body);
    expect(portfolio.realisedPnl).to.equal(sell.pnl);
    expect(portfolio.positions, 'it never holds the coin after the pair').to.have.length(0);
    expect(portfolio.cash).to.equal(Math.round((10_000 + sell.pnl!) * 100) / 100);

    expect(await tradesOf(other.token), 'a user without the strategy trades nothing').to.have.length(0);
  });

  it('a technical strategy\'s trade names its strategy; a house signal\'s keeps its label', async function () {
    const technical = await premiumUser('rsi-technical');
    const house = await premiumUser(null);
    await harness.projector.caughtUp();
    await evaluate({ strategyType: 'technical', configuration: defaultConfiguration('technical'), rsi: 25, previousRsi: 31, close: ETH });
    const signalId = randomUUID();
    const data: SignalGeneratedV1['data'] = { signalId, symbol: 'BTC', type: 'BUY', confidence: 80, price: 100, candleTime: candleTime(), reasons: [] };
    await harness.rt.infra.eventStore.append('signals-BTC', [{ id: randomUUID(), type: 'SignalGenerated', data, metadata: { userId: 'signal-engine', correlationId: signalId, causationId: signalId, at: now(), schemaVersion: 1 } }], 'any');
    await settled();

    const [rsiTrade] = await tradesOf(technical.token);
    expect(rsiTrade).to.include({ type: 'BUY', symbol: 'ETH', source: 'RSI Mean Reversion strategy', strategyId: 'rsi-technical', strategyType: 'technical', pairId: null, exchange: null });
    const [houseTrade] = await tradesOf(house.token);
    expect(houseTrade).to.include({ type: 'BUY', symbol: 'BTC', source: 'BUY signal', strategyId: null, strategyType: null });
  });
});
