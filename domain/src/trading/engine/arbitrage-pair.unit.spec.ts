/**
 * The bot's pair for an arbitrage signal (issue 19), given a portfolio, when the signal comes, then the
 * pair or the refusal: sized by the smaller of the strategy's maxPositionSize and the profile's (percent
 * of the portfolio), cut to the cash; each exchange's quote carried to the fill tick; the decision's
 * figures are the legs' to the micro; the profile's daily loss limit and a size below the smallest
 * trade refuse it with the rule, as other bot decisions.
 */
import { expect } from 'chai';
import { coins } from '../../market/coins';
import { DEFAULT_RISK_PROFILE, type RiskProfile } from '../contracts';
import type { PortfolioEvent, PortfolioState, SimulatedTradePlaced } from '../portfolio';
import { portfolioDecider, type PortfolioCommand } from '../portfolio.decider';
import { decideArbitragePair, pairTradeIds, type ArbitrageSignal } from './arbitrage-pair';
import type { BotOrderQuote } from './bot-order';

const FILL = Date.parse('2026-03-04T10:05:05.000Z');
const NOW = new Date(FILL).toISOString();
const quotes = (eth = 3000): BotOrderQuote[] => coins.map((c) => ({ coinId: c.id, symbol: c.symbol, price: c.symbol === 'ETH' ? eth : 10, filledAt: NOW, minuteVolumeUsd: 5e6 }));
const SIGNAL: ArbitrageSignal = {
  eventId: 'e1',
  signalId: 's1',
  symbol: 'ETH',
  candleTime: '2026-03-04T10:00:00.000Z',
  strategy: { strategyId: 'cross-exchange-arbitrage', strategyType: 'arbitrage' },
  buy: { exchange: 'binance', mid: 3000 },
  sell: { exchange: 'kraken', mid: 3030 },
  referencePrice: 3000,
  maxPositionUsd: 1000,
};

function given(commands: PortfolioCommand[]): PortfolioState {
  let state = portfolioDecider.initialState();
  for (const command of commands) for (const event of portfolioDecider.decide(command, state)) state = portfolioDecider.evolve(state, event);
  return state;
}
const manual = (tradeId: string, side: 'BUY' | 'SELL', amount: number, price: number): PortfolioCommand => ({
  type: 'PlaceSimulatedTrade',
  data: { userId: 'u1', tradeId, symbol: 'ETH', side, amount, price, source: { kind: 'MANUAL' } },
  metadata: { now: NOW },
});
const when = (portfolio: PortfolioState, signal: Partial<ArbitrageSignal> = {}, profile: Partial<RiskProfile> = {}, eth = 3000) =>
  decideArbitragePair({ userId: 'u1', signal: { ...SIGNAL, ...signal }, profile: { ...DEFAULT_RISK_PROFILE, ...profile }, portfolio, quotes: quotes(eth), intendedMs: FILL, fillMs: FILL });
const legsOf = (events: PortfolioEvent[]) => events.filter((e): e is SimulatedTradePlaced => e.type === 'SimulatedTradePlaced').map((e) => e.data);

describe('engine: an arbitrage signal\'s pair (issue 19)', function () {
  it('buys on the cheaper exchange and sells the same amount on the dearer one at once, sized by the smaller maxPositionSize (5% of $10,000 < the strategy\'s $1,000)', function () {
    const decision = when(given([]));
    if (decision.action !== 'TRADE') throw new Error(`expected a pair: ${decision.detail}`);
    const { data } = decision.command;
    expect(data).to.deep.include({ ...pairTradeIds('s1', 'u1'), symbol: 'ETH', buy: { exchange: 'binance', mid: 3000 }, sell: { exchange: 'kraken', mid: 3030 } });
    expect(data.source).to.deep.equal({ kind: 'SIGNAL', eventId: 'e1', signalId: 's1', signalType: 'ARBITRAGE', candleTime: SIGNAL.candleTime, strategy: SIGNAL.strategy });
    const [buy, sell] = legsOf(portfolioDecider.decide(decision.command, given([])));
    expect(buy!.notionalMicros / 1e6).to.be.within(499.8, 500);
    expect(sell!.quantity).to.equal(buy!.quantity);
    expect([buy!.pair!.exchange, sell!.pair!.exchange]).to.deep.equal(['binance', 'kraken']);
    expect(decision.decision.rule).to.equal('ARBITRAGE_PAIR');
    expect(decision.decision.figures).to.include({ strategyMaxUsd: 1000, profileMaxUsd: 500, buyPrice: buy!.price, sellPrice: sell!.price, netPnl: sell!.realisedPnlMicros / 1e6 });
    expect(decision.decision.text).to.match(/^bought 0\.1666\d+ ETH on Binance at \$3,000\.\d\d and sold it on Kraken at \$3,029\.\d\d at once: \$500\.00, the smaller of the strategy's maximum \$1,000\.00 and 5% of the portfolio's \$10,000\.00 \(\$500\.00\); fees \$0\.5000 \(Binance 0\.1%\) and \$1\.31 \(Kraken 0\.26%\); net \$3\.13$/);
  });

  it('the strategy\'s maxPositionSize when it is the smaller', function () {
    const decision = when(given([]), { maxPositionUsd: 300 }, { maxPositionSize: 50 });
    if (decision.action !== 'TRADE') throw new Error(decision.detail);
    const [buy] = legsOf(portfolioDecider.decide(decision.command, given([])));
    expect(buy!.notionalMicros / 1e6).to.be.within(299.8, 300);
  });

  it('carries each exchange\'s basis to the market at the fill tick (the quotes over the candle\'s close, times the fill mid)', function () {
    const decision = when(given([]), { buy: { exchange: 'binance', mid: 2000 }, sell: { exchange: 'coinbase', mid: 2020 }, referencePrice: 2000 }, {}, 3000);
    if (decision.action !== 'TRADE') throw new Error(decision.detail);
    expect(decision.command.data.buy).to.deep.equal({ exchange: 'binance', mid: 3000 });
    expect(decision.command.data.sell).to.deep.equal({ exchange: 'coinbase', mid: 3030 });
    // A signal recorded without its close: the quotes as they were.
    const old = when(given([]), { referencePrice: undefined }, {}, 3100);
    if (old.action !== 'TRADE') throw new Error(old.detail);
    expect(old.command.data.buy.mid).to.equal(3000);
  });

  it('cuts the pair to what the cash pays for, the BUY leg\'s fee included', function () {
    // 3.3 ETH bought at 3,000 with its fee: $90.10 of cash left, where 5% of ~$10,000 would allow $500.
    const portfolio = given([manual('t0', 'BUY', 3.3, 3000)]);
    const cash = portfolio.status === 'open' ? portfolio.cashMicros : 0;
    const decision = when(portfolio);
    if (decision.action !== 'TRADE') throw new Error(decision.detail);
    const [buy] = legsOf(portfolioDecider.decide(decision.command, portfolio));
    expect(buy!.notionalMicros + buy!.feeMicros).to.be.at.most(cash);
    expect(buy!.notionalMicros + buy!.feeMicros).to.be.above(cash - 2000);
    expect(decision.decision.text).to.match(/, cut to what the cash \$90\.10 pays for;/);
  });

  it('refuses, with the rule recorded, a pair the cash cannot buy the smallest trade of', function () {
    const portfolio = given([manual('t0', 'BUY', 3.33, 3000)]);
    const decision = when(portfolio);
    expect(decision.action).to.equal('SKIP');
    expect(decision.decision).to.deep.include({ rule: 'TOO_SMALL' });
    expect(decision.decision!.text).to.match(/^refused: the pair's size \$\d+\.\d\d within the cash \$0\.0100 buys less than the smallest trade$/);
  });

  it('refuses once today\'s realised loss reached the daily loss limit, as every entry', function () {
    // Bought 1 ETH at 3,000 and sold at 2,400 today: $605.40 lost with the fees, the limit is $500.
    const portfolio = given([manual('t0', 'BUY', 1, 3000), manual('t1', 'SELL', 1, 2400)]);
    const decision = when(portfolio);
    expect(decision.action).to.equal('SKIP');
    expect(decision.decision).to.deep.include({ rule: 'DAILY_LOSS_LIMIT' });
    expect(decision.decision!.text).to.equal('refused: realised loss today $605.40 has reached the daily loss limit $500.00');
  });
});
