/**
 * An arbitrage signal's pair at its edges (issue 19): a pair whose BUY leg with its fee is exactly the
 * cash is placed whole, one exactly the smallest trade too (and a single unit worth it); a size that
 * is the cash is cut so the fee fits, one the cash pays for with its fee is not; a basis that is not a
 * positive close leaves the quotes as they were; the signal coin's own quote is the pair's market;
 * the decision states the cash, the size and the fees to the micro, and the command is dated at the
 * fill; an unsupported coin asks nothing, a coin without a quote is a fault.
 */
import { expect } from 'chai';
import { coins, halfSpreadOf } from '../../market/coins';
import { DEFAULT_RISK_PROFILE, type RiskProfile } from '../contracts';
import { feeMicrosAt, notionalMicros, STARTING_CASH_MICROS } from '../money';
import { evolvePortfolio, initialPortfolioState, type PortfolioEvent, type PortfolioState, type SimulatedTradePlaced } from '../portfolio';
import { portfolioDecider } from '../portfolio.decider';
import { decideArbitragePair, type ArbitragePairDecision, type ArbitrageSignal } from './arbitrage-pair';
import type { BotOrderQuote } from './bot-order';
import { fillPrice, priceImpact } from './fills';

const FILL = Date.parse('2026-03-04T10:05:05.000Z');
const NOW = new Date(FILL).toISOString();
const VOLUME = 5e6;
/** Every coin quoted, each at its own price (ETH 3,000, BTC 66,000, the others 10 + their place in the catalogue). */
const quotes = (): BotOrderQuote[] => coins.map((c, i) => ({ coinId: c.id, symbol: c.symbol, price: c.symbol === 'ETH' ? 3000 : c.symbol === 'BTC' ? 66_000 : 10 + i, filledAt: NOW, minuteVolumeUsd: VOLUME }));
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
/** A portfolio of cash only. */
const cashOnly = (cashMicros: number): PortfolioState => evolvePortfolio(initialPortfolioState(), { type: 'PortfolioOpened', data: { userId: 'u1', startingCashMicros: cashMicros, openedAt: '2026-03-04T09:00:00.000Z' } });
const when = (portfolio: PortfolioState, signal: Partial<ArbitrageSignal> = {}, profile: Partial<RiskProfile> = {}, quoted = quotes()) =>
  decideArbitragePair({ userId: 'u1', signal: { ...SIGNAL, ...signal }, profile: { ...DEFAULT_RISK_PROFILE, ...profile }, portfolio, quotes: quoted, intendedMs: FILL, fillMs: FILL });
function pair(decision: ArbitragePairDecision) {
  if (decision.action !== 'TRADE') throw new Error(`expected a pair: ${decision.detail}`);
  return decision;
}
const legsOf = (events: PortfolioEvent[]) => events.filter((e): e is SimulatedTradePlaced => e.type === 'SimulatedTradePlaced').map((e) => e.data);

/** The rule, unit by unit: the most whole units (1e-8 ETH) whose notional at `price` is at most the size and, with the BUY leg's fee, at most the cash. */
function mostUnits(sizeMicros: number, cashMicros: number, price: number, feeRate: number): number {
  let units = Math.ceil((sizeMicros * 100) / price) + 10;
  while (units > 0 && (notionalMicros(units, price) > sizeMicros || notionalMicros(units, price) + feeMicrosAt(notionalMicros(units, price), feeRate) > cashMicros)) units--;
  return units;
}
/** The price a pair of `sizeUsd` is sized at: the BUY leg's fill at its quote with the whole size's impact. */
const sizingPrice = (mid: number, sizeUsd: number) => fillPrice(mid, 'BUY', halfSpreadOf('ethereum'), priceImpact('ethereum', sizeUsd, VOLUME));

describe('engine: an arbitrage signal\'s pair at its edges', function () {
  it('places a pair whose BUY leg with its fee is exactly the cash, not a unit less', function () {
    // $100.000408 of cash, all of it the size (the profile's 100 % of a portfolio of cash).
    const cash = 100_000_408;
    const decision = pair(when(cashOnly(cash), {}, { maxPositionSize: 100 }));
    const price = sizingPrice(3000, cash / 1e6);
    const units = mostUnits(cash, cash, price, 0.001);
    expect(units).to.equal(3_329_835);
    expect(notionalMicros(units, price) + feeMicrosAt(notionalMicros(units, price), 0.001), 'this cash is exactly what those units cost').to.equal(cash);
    expect(decision.command.data.amount).to.equal(units / 1e8);
  });

  it('places a pair worth exactly the smallest trade ($0.01), and a single unit (1e-8 coin) worth more than it', function () {
    // At 3,002.80 a BUY fills at about 3,002.95: 333 units are $0.0100 (rounded to the micro), within a $0.01 size.
    const smallest = pair(when(cashOnly(STARTING_CASH_MICROS), { buy: { exchange: 'binance', mid: 3002.8 }, sell: { exchange: 'kraken', mid: 3040 }, referencePrice: undefined, maxPositionUsd: 0.01 }));
    expect(smallest.command.data.amount).to.equal(333e-8);
    expect(notionalMicros(333, sizingPrice(3002.8, 0.01))).to.equal(10_000);
    // A coin at $2,000,000: one unit is $0.02, within a $0.03 size.
    const one = pair(when(cashOnly(STARTING_CASH_MICROS), { buy: { exchange: 'binance', mid: 2_000_000 }, sell: { exchange: 'kraken', mid: 2_020_000 }, referencePrice: undefined, maxPositionUsd: 0.03 }));
    expect(one.command.data.amount).to.equal(1e-8);
  });

  it('cuts a size as large as the cash so the BUY leg\'s fee fits; a size the cash pays for with its fee is not cut', function () {
    const cut = pair(when(cashOnly(STARTING_CASH_MICROS), { maxPositionUsd: 20_000 }, { maxPositionSize: 100 }));
    expect(cut.decision.text).to.contain(', cut to what the cash $10,000.00 pays for;');
    // $10,000 / 1.001 = $9,990.00999 (to the micro): exactly what the cash pays for with Binance's 0.1 %.
    const whole = pair(when(cashOnly(STARTING_CASH_MICROS), { maxPositionUsd: 9990.00999 }, { maxPositionSize: 100 }));
    expect(whole.decision.text).to.not.contain('cut to');
    expect(whole.decision.text).to.contain('the smaller of the strategy\'s maximum $9,990.01 and 100% of the portfolio\'s $10,000.00');
  });

  it('fills at the quotes as they were when the signal\'s close is not a positive price', function () {
    for (const referencePrice of [0, -3000]) {
      const decision = pair(when(cashOnly(STARTING_CASH_MICROS), { referencePrice }, {}, quotes().map((q) => (q.symbol === 'ETH' ? { ...q, price: 3300 } : q))));
      expect(decision.command.data.buy, String(referencePrice)).to.deep.equal({ exchange: 'binance', mid: 3000 });
      expect(decision.command.data.sell, String(referencePrice)).to.deep.equal({ exchange: 'kraken', mid: 3030 });
    }
  });

  it('carries the basis to the signal coin\'s own quote, not another coin\'s', function () {
    const decision = pair(when(cashOnly(STARTING_CASH_MICROS), { symbol: 'BTC', buy: { exchange: 'binance', mid: 64_000 }, sell: { exchange: 'kraken', mid: 64_640 }, referencePrice: 64_000 }, { maxPositionSize: 50 }));
    expect(decision.command.data.buy).to.deep.equal({ exchange: 'binance', mid: 66_000 });
    expect(decision.command.data.sell.mid).to.be.closeTo(66_660, 1e-9);
  });

  it('states the cash, the size and each leg\'s fee as the legs have them, and dates the command at the fill', function () {
    const portfolio = cashOnly(STARTING_CASH_MICROS);
    const decision = pair(when(portfolio));
    const [buy, sell] = legsOf(portfolioDecider.decide(decision.command, portfolio));
    expect(decision.decision.figures).to.include({ cash: 10_000, sizeUsd: Math.round(buy!.notionalMicros / 1e4) / 100, buyFee: buy!.feeMicros / 1e6, sellFee: sell!.feeMicros / 1e6 });
    expect(decision.decision.figures.sizeUsd).to.be.within(499.8, 500);
    expect(decision.command.metadata).to.deep.equal({ now: NOW });
  });

  it('asks nothing of the bot for an unsupported coin, and refuses to guess a coin\'s market without its quote', function () {
    expect(when(cashOnly(STARTING_CASH_MICROS), { symbol: 'DOGE' })).to.deep.equal({ action: 'SKIP', reason: 'UNSUPPORTED_COIN', detail: 'DOGE is not a supported coin', decision: null });
    expect(() => when(cashOnly(STARTING_CASH_MICROS), {}, {}, quotes().filter((q) => q.symbol !== 'ETH'))).to.throw(Error, `no quote for ETH at ${NOW}`);
  });
});
