/**
 * The trading bot's decision for one signal and one user: sizing from maxPositionSize percent of
 * the portfolio's value, the daily loss limit, maxConcurrentTrades, one position per coin, SELL only
 * what is held, and a trade id that is the same for the same signal and user.
 */
import { expect } from 'chai';
import { fold } from '../shared/decider';
import { DEFAULT_BOT_SETTINGS, DEFAULT_RISK_PARAMETERS } from './contracts';
import { decideBotTrade, tradeIdFor, type BotSignal, type BotTradeInput } from './bot-trade-decision';
import type { PortfolioEvent, PortfolioState } from './portfolio';
import { portfolioDecider, type PlaceSimulatedTrade } from './portfolio.decider';
import { valuePortfolio } from './portfolio-valuation';

const NOW = '2026-03-04T05:06:07.000Z';
const signal = (type: BotSignal['type'], symbol = 'ETH', price = 3000, signalId = 'sig-1'): BotSignal => ({
  eventId: `evt-${signalId}`,
  signalId,
  type,
  symbol,
  price,
  confidence: 70,
  candleTime: '2026-03-04T05:00:00.000Z',
});

function portfolioAfter(...trades: Array<[string, 'BUY' | 'SELL', number, number, string?]>): PortfolioState {
  const events: PortfolioEvent[] = [];
  let state = portfolioDecider.initialState();
  for (const [tradeId, side, amount, price, now] of trades) {
    const appended = portfolioDecider.decide({ type: 'PlaceSimulatedTrade', data: { userId: 'u1', tradeId, symbol: tradeId.split('-')[0]!, side, amount, price, source: { kind: 'MANUAL' } }, metadata: { now: now ?? NOW } }, state);
    events.push(...appended);
    state = fold(portfolioDecider, events);
  }
  return state;
}

const input = (overrides: Partial<BotTradeInput>): BotTradeInput => ({
  userId: 'u1',
  signal: signal('BUY'),
  settings: { ...DEFAULT_BOT_SETTINGS },
  parameters: { ...DEFAULT_RISK_PARAMETERS },
  portfolio: portfolioDecider.initialState(),
  prices: {},
  now: NOW,
  ...overrides,
});

function traded(decision: ReturnType<typeof decideBotTrade>): PlaceSimulatedTrade {
  if (decision.action !== 'TRADE') throw new Error(`expected a trade, got ${decision.reason}: ${decision.detail}`);
  return decision.command;
}

describe('bot trade decision', function () {
  it('buys maxPositionSize percent of a new portfolio (5% of 10,000 = 500 USD with the fee) on a BUY signal, recording the signal', function () {
    const command = traded(decideBotTrade(input({})));
    expect(command.data).to.deep.include({ userId: 'u1', symbol: 'ETH', side: 'BUY', price: 3000, tradeId: tradeIdFor('sig-1', 'u1') });
    expect(command.data.source).to.deep.equal({ kind: 'SIGNAL', eventId: 'evt-sig-1', signalId: 'sig-1', signalType: 'BUY', candleTime: '2026-03-04T05:00:00.000Z' });
    // 500 / 1.001 / 3000 = 0.16650016... coins: notional + fee at most 500, one more unit over it
    expect(command.data.amount).to.equal(0.16650016);
    const events = portfolioDecider.decide(command, portfolioDecider.initialState());
    const fill = events.find((e) => e.type === 'SimulatedTradePlaced')!;
    if (fill.type !== 'SimulatedTradePlaced') throw new Error('no fill');
    expect(fill.data.notionalMicros + fill.data.feeMicros).to.be.at.most(500_000_000).and.above(499_990_000);
  });

  it('sizes from the portfolio value at market, positions included', function () {
    const portfolio = portfolioAfter(['BTC-1', 'BUY', 0.1, 50000]);
    // cash 10,000 - 5,005 = 4,995; BTC worth 0.1 x 60,000 = 6,000; total 10,995; 10% = 1,099.50
    const command = traded(decideBotTrade(input({ portfolio, prices: { BTC: 60000 }, settings: { ...DEFAULT_BOT_SETTINGS, maxPositionSize: 10 } })));
    expect(valuePortfolio(portfolio, { BTC: 60000, ETH: 3000 }).totalValue).to.equal(10995);
    expect(command.data.amount).to.equal(Math.floor(((1099.5 / 1.001 / 3000) * 1e8)) / 1e8);
  });

  it('is capped by the cash left after the fee', function () {
    const portfolio = portfolioAfter(['BTC-1', 'BUY', 0.15, 66000]);
    // cash 10,000 - 9,909.90 = 90.10; 50% of ~9,990 would be ~4,995
    const command = traded(decideBotTrade(input({ portfolio, prices: { BTC: 66000 }, settings: { ...DEFAULT_BOT_SETTINGS, maxPositionSize: 50 } })));
    expect(() => portfolioDecider.decide(command, portfolio)).not.to.throw();
    expect(command.data.amount * 3000 * 1.001).to.be.at.most(90.1).and.above(90.09);
  });

  it('the same signal and user give the same trade id; another signal or user another', function () {
    expect(tradeIdFor('sig-1', 'u1')).to.equal(tradeIdFor('sig-1', 'u1')).and.match(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(tradeIdFor('sig-2', 'u1')).not.to.equal(tradeIdFor('sig-1', 'u1'));
    expect(tradeIdFor('sig-1', 'u2')).not.to.equal(tradeIdFor('sig-1', 'u1'));
  });

  it('a replayed signal decides the same trade, which the portfolio then appends nothing for', function () {
    const first = traded(decideBotTrade(input({})));
    const state = portfolioDecider.decide(first, portfolioDecider.initialState()).reduce(portfolioDecider.evolve, portfolioDecider.initialState());
    // the position is open now, so the bot itself would skip; the portfolio's idempotency is the backstop
    expect(portfolioDecider.decide(first, state)).to.deep.equal([]);
  });

  it('HOLD and unknown coins trade nothing', function () {
    expect(decideBotTrade(input({ signal: signal('HOLD') }))).to.deep.include({ action: 'SKIP', reason: 'HOLD_SIGNAL' });
    expect(decideBotTrade(input({ signal: signal('BUY', 'DOGE') }))).to.deep.include({ action: 'SKIP', reason: 'UNSUPPORTED_COIN' });
  });

  it('one open position per coin', function () {
    const portfolio = portfolioAfter(['ETH-1', 'BUY', 0.1, 2900]);
    expect(decideBotTrade(input({ portfolio }))).to.deep.include({ action: 'SKIP', reason: 'POSITION_ALREADY_OPEN' });
    expect(traded(decideBotTrade(input({ portfolio, signal: signal('BUY', 'SOL', 150) }))).data.symbol).to.equal('SOL');
  });

  it('no more than maxConcurrentTrades positions open', function () {
    const portfolio = portfolioAfter(['BTC-1', 'BUY', 0.001, 60000], ['SOL-1', 'BUY', 1, 150]);
    const parameters = { ...DEFAULT_RISK_PARAMETERS, maxConcurrentTrades: 2 };
    expect(decideBotTrade(input({ portfolio, parameters }))).to.deep.include({ action: 'SKIP', reason: 'MAX_CONCURRENT_TRADES' });
    expect(decideBotTrade(input({ portfolio, parameters: { ...parameters, maxConcurrentTrades: 3 } })).action).to.equal('TRADE');
  });

  it('refuses to buy once the realised loss of the UTC day reaches the daily loss limit, and buys again the next day', function () {
    // 1 BTC bought at 9,000 and sold at 8,400: loss 600 + 9 + 8.40 fees = 617.40 on 2026-03-04
    const portfolio = portfolioAfter(['BTC-1', 'BUY', 1, 9000, '2026-03-04T01:00:00.000Z'], ['BTC-2', 'SELL', 1, 8400, '2026-03-04T02:00:00.000Z']);
    expect(decideBotTrade(input({ portfolio }))).to.deep.include({ action: 'SKIP', reason: 'DAILY_LOSS_LIMIT_REACHED' });
    expect(decideBotTrade(input({ portfolio, settings: { ...DEFAULT_BOT_SETTINGS, dailyLossLimit: 700 } })).action).to.equal('TRADE');
    expect(decideBotTrade(input({ portfolio, now: '2026-03-05T00:00:00.000Z' })).action).to.equal('TRADE');
  });

  it('SELL sells the whole position held, even past the daily loss limit; nothing when nothing is held', function () {
    const portfolio = portfolioAfter(['ETH-1', 'BUY', 0.3, 3000], ['ETH-2', 'BUY', 0.2, 3100]);
    const command = traded(decideBotTrade(input({ portfolio, signal: signal('SELL', 'ETH', 2800), settings: { ...DEFAULT_BOT_SETTINGS, dailyLossLimit: 50 } })));
    expect(command.data).to.deep.include({ side: 'SELL', amount: 0.5, price: 2800 });
    expect(decideBotTrade(input({ signal: signal('SELL') }))).to.deep.include({ action: 'SKIP', reason: 'NOTHING_TO_SELL' });
  });

  it('refuses a trade too small to place', function () {
    // cash left 10,000 - 9,990 - 9.99 fee = 0.01: less than a cent's trade plus its fee
    const portfolio = portfolioAfter(['BTC-1', 'BUY', 9.99, 1000]);
    expect(decideBotTrade(input({ portfolio, prices: { BTC: 1000 } }))).to.deep.include({ action: 'SKIP', reason: 'TOO_SMALL' });
  });
});
