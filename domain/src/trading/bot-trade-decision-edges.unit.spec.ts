/**
 * The trading bot's decision at the edges the main spec (bot-trade-decision.unit.spec.ts) does not
 * reach: what a skip says, the words of each refusal of a figure that cannot be measured, a stop at or
 * below zero, the correlation named when the higher one was opened later, the sizing text of half
 * Kelly and dynamic sizing at and under the cap, the smallest trade (one unit worth exactly a cent),
 * the most whole units a budget buys with the fee, and the exit plan leaving out a figure that is not
 * a level (unknown, unbounded, zero or below).
 */
import { expect } from 'chai';
import { fold } from '../shared/decider';
import { DEFAULT_RISK_PROFILE, type RiskProfile } from './contracts';
import { decideBotTrade, type BotMarket, type BotSignal, type BotTradeInput } from './bot-trade-decision';
import type { PortfolioEvent, PortfolioState } from './portfolio';
import { portfolioDecider, type PlaceSimulatedTrade } from './portfolio.decider';

const NOW = '2026-03-04T05:06:07.000Z';
const signal = (type: BotSignal['type'], symbol = 'ETH', price = 3000): BotSignal => ({
  eventId: 'evt-edge',
  signalId: 'sig-edge',
  type,
  symbol,
  price,
  confidence: 70,
  candleTime: '2026-03-04T05:00:00.000Z',
});

/** A calm market: ATR14 $12, sigma20 0.2 %, a 5 % day, volatility steady; ETH moves with BTC (0.83), less with SOL (0.5) and ADA (0.3). */
const MARKET: BotMarket = {
  figures: { atr14: 12, sigma20: 0.002, range24hPercent: 5, recentVolatility: 0.002, averageVolatility: 0.002 },
  correlations: { BTC: 0.83, SOL: 0.5, ADA: 0.3 },
};
const market = (figures: Partial<BotMarket['figures']> = {}, correlations: BotMarket['correlations'] = MARKET.correlations): BotMarket => ({ figures: { ...MARKET.figures, ...figures }, correlations });
const profile = (changes: Partial<RiskProfile> = {}): RiskProfile => ({ ...DEFAULT_RISK_PROFILE, ...changes });

const input = (overrides: Partial<BotTradeInput>): BotTradeInput => ({
  userId: 'u1',
  signal: signal('BUY'),
  profile: profile(),
  portfolio: portfolioDecider.initialState(),
  prices: {},
  market: MARKET,
  now: NOW,
  ...overrides,
});

function portfolioAfter(...trades: Array<[string, 'BUY' | 'SELL', number, number]>): PortfolioState {
  const events: PortfolioEvent[] = [];
  let state = portfolioDecider.initialState();
  for (const [tradeId, side, amount, price] of trades) {
    events.push(...portfolioDecider.decide({ type: 'PlaceSimulatedTrade', data: { userId: 'u1', tradeId, symbol: tradeId.split('-')[0]!, side, amount, price, source: { kind: 'MANUAL' } }, metadata: { now: NOW } }, state));
    state = fold(portfolioDecider, events);
  }
  return state;
}

/** A portfolio with `wins` closes of +$100 and `losses` closes of -$`lossUsd` (1,000 ADA round trips), all closed. */
function withRecord(wins: number, losses: number, lossUsd: number): PortfolioState {
  const trades: Array<[string, 'BUY' | 'SELL', number, number]> = [];
  for (let i = 0; i < wins + losses; i++) {
    // Bought for 1,000 + 1 fee; sold for proceeds (after the 0.1 % fee) of 1,101 or 1,001 - lossUsd.
    const proceeds = i < wins ? 1101 : 1001 - lossUsd;
    trades.push([`ADA-b${i}`, 'BUY', 1000, 1], [`ADA-s${i}`, 'SELL', 1000, proceeds / 0.999 / 1000]);
  }
  return portfolioAfter(...trades);
}

function traded(decision: ReturnType<typeof decideBotTrade>): PlaceSimulatedTrade {
  if (decision.action !== 'TRADE') throw new Error(`expected a trade, got ${decision.reason}: ${decision.detail}`);
  return decision.command;
}

function refused(decision: ReturnType<typeof decideBotTrade>) {
  if (decision.action !== 'SKIP' || !decision.decision) throw new Error(`expected a recorded refusal, got ${JSON.stringify(decision)}`);
  return decision.decision;
}

const UNAVAILABLE = '(its recent candles are unavailable)';

describe('bot trade decision: edges', function () {
  it('a skip that records nothing still says why: an unsupported coin, a HOLD, a SELL of a coin not held', function () {
    expect(decideBotTrade(input({ signal: signal('BUY', 'DOGE') }))).to.deep.equal({ action: 'SKIP', reason: 'UNSUPPORTED_COIN', detail: 'DOGE is not a supported coin', decision: null });
    expect(decideBotTrade(input({ signal: signal('HOLD') }))).to.deep.equal({ action: 'SKIP', reason: 'HOLD_SIGNAL', detail: 'a HOLD signal places no trade', decision: null });
    expect(decideBotTrade(input({ signal: signal('SELL') }))).to.deep.equal({ action: 'SKIP', reason: 'NOTHING_TO_SELL', detail: 'no ETH held', decision: null });
  });

  describe('a BUY whose rules cannot be measured is refused, naming the figure', function () {
    it('no market history, an unknown 24-hour range', function () {
      expect(refused(decideBotTrade(input({ market: null })))).to.deep.equal({ rule: 'MARKET_DATA_UNAVAILABLE', text: `refused: ETH's market history could not be measured ${UNAVAILABLE}`, figures: {} });
      expect(refused(decideBotTrade(input({ market: market({ range24hPercent: Number.NaN }) }))).text).to.equal(`refused: ETH's 24-hour range could not be measured ${UNAVAILABLE}`);
    });

    it('an unknown (NaN) correlation with a coin held, as much as a missing one', function () {
      const portfolio = portfolioAfter(['BTC-1', 'BUY', 0.01, 60000]);
      expect(refused(decideBotTrade(input({ portfolio, prices: { BTC: 60000 }, market: market({}, { BTC: Number.NaN }) })))).to.deep.equal({
        rule: 'MARKET_DATA_UNAVAILABLE',
        text: `refused: ETH's 30-day correlation with BTC could not be measured ${UNAVAILABLE}`,
        figures: {},
      });
    });

    it('a stop distance of zero or unknown: the ATR14 of an atr stop, the sigma of a volatility stop', function () {
      // ATR14 0: 5 x 0 = no distance, so no stop can be placed below the entry.
      expect(refused(decideBotTrade(input({ profile: profile({ stopLossType: 'atr', stopLossValue: 5 }), market: market({ atr14: 0 }) }))).text).to.equal(
        `refused: ETH's ATR14 could not be measured ${UNAVAILABLE}`,
      );
      expect(refused(decideBotTrade(input({ profile: profile({ stopLossType: 'volatility', stopLossValue: 10 }), market: market({ sigma20: Number.NaN }) }))).text).to.equal(
        `refused: ETH's volatility (sigma) could not be measured ${UNAVAILABLE}`,
      );
    });

    it('dynamic sizing without a recent volatility', function () {
      expect(refused(decideBotTrade(input({ profile: profile({ dynamicPositionSizing: true }), market: market({ recentVolatility: 0 }) })))).to.deep.equal({
        rule: 'MARKET_DATA_UNAVAILABLE',
        text: `refused: ETH's volatility could not be measured ${UNAVAILABLE}`,
        figures: {},
      });
    });
  });

  it('a stop at or below zero protects nothing: refused as REWARD_RISK even when the ratio of the distances would pass', function () {
    // atr 10 x $300 = $3,000 below a $3,000 entry: the stop is $0; the target 2.5 stops up, $10,500.
    // Net of fees (10,500 x 0.999 - 3,003) / (3,003 - 0) = 2.49, above riskRewardRatio 2.
    const atZero = refused(decideBotTrade(input({ profile: profile({ stopLossType: 'atr', stopLossValue: 10 }), market: market({ atr14: 300, range24hPercent: 25 }) })));
    expect(atZero.rule).to.equal('REWARD_RISK');
    expect(atZero.figures).to.include({ stopLoss: 0, takeProfit: 10500, riskRewardRatio: 2 });
    // Its words say why, not a ratio that passes ("reward/risk 2.49 below 2.00" before).
    expect(atZero.text).to.equal('refused: stop $0.00 at or below $0: $3,000.00 below the entry $3,000.00 puts the whole entry at risk');
    // atr 20 x $300: a stop at -$3,000.
    const below = refused(decideBotTrade(input({ profile: profile({ stopLossType: 'atr', stopLossValue: 20 }), market: market({ atr14: 300, range24hPercent: 25 }) })));
    expect(below.rule).to.equal('REWARD_RISK');
    expect(below.figures).to.include({ stopLoss: -3000 });
    expect(below.text).to.equal('refused: stop -$3,000.00 at or below $0: $6,000.00 below the entry $3,000.00 puts the whole entry at risk');
  });

  it('correlationLimit names the highest correlation even when that position was opened after a less correlated one', function () {
    // SOL (0.5) opened first, BTC (0.83) second: BTC is the one above the 0.7 limit.
    const portfolio = portfolioAfter(['SOL-1', 'BUY', 1, 150], ['BTC-1', 'BUY', 0.01, 60000]);
    expect(refused(decideBotTrade(input({ portfolio, prices: { SOL: 150, BTC: 60000 } })))).to.deep.equal({
      rule: 'CORRELATION_LIMIT',
      text: 'refused: correlation 0.83 with BTC above 0.70',
      figures: { correlation: 0.83, correlationLimit: 0.7 },
    });
  });

  it('the stop in a BUY\'s words: "x sigma" for a volatility stop, a percent for a trailing one', function () {
    // 10 x 0.2 % x 3,000 = $60 below the entry; the target 2.5 x $60 above.
    const vol = traded(decideBotTrade(input({ profile: profile({ stopLossType: 'volatility', stopLossValue: 10 }) }))).data.decision!;
    expect(vol.text).to.contain('; stop $2,940.00 (volatility 10 x sigma), target $3,150.00 (ratio 2.5), reward/risk 2.18');
    const trailing = traded(decideBotTrade(input({ profile: profile({ stopLossType: 'trailing' }) }))).data.decision!;
    expect(trailing.text).to.contain('; stop $2,940.00 (trailing 2%), target $3,150.00');
  });

  describe('sizing in words and figures', function () {
    it('half Kelly under maxPositionSize is not said to be capped', function () {
      // 12 wins of $100, 8 losses of $80: W 0.6, R 1.25, half Kelly 0.5 x (0.6 - 0.4 / 1.25) = 14 %, under 20 %.
      const decision = traded(decideBotTrade(input({ portfolio: withRecord(12, 8, 80), profile: profile({ kellyCriterionEnabled: true, maxPositionSize: 20 }) }))).data.decision!;
      expect(decision.rule).to.equal('KELLY_SIZE');
      expect(decision.text).to.contain(': half Kelly 14.00% (win rate 60.0%, payoff 1.25 over 20 closed trades); stop');
    });

    it('half Kelly exactly at maxPositionSize is the size, not capped; with no loss yet the payoff is left out of the figures (unbounded)', function () {
      // 20 wins, no loss: W 1, R infinite, half Kelly W / 2 = 50 %, the largest maxPositionSize.
      const decision = traded(decideBotTrade(input({ portfolio: withRecord(20, 0, 0), profile: profile({ kellyCriterionEnabled: true, maxPositionSize: 50 }) }))).data.decision!;
      expect(decision.rule).to.equal('KELLY_SIZE');
      expect(decision.text).to.contain(': half Kelly 50.00% (win rate 100.0%, payoff no loss yet over 20 closed trades); stop');
      expect(decision.figures).to.include({ sizePercent: 50, halfKellyPercent: 50, winRatePercent: 100, closedTrades: 20 });
      expect(decision.figures).not.to.have.property('payoff');
      for (const [name, value] of Object.entries(decision.figures)) expect(Number.isFinite(value), name).to.equal(true);
      // explain: true is the default, said out loud.
      const explained = traded(decideBotTrade(input({ portfolio: withRecord(20, 0, 0), profile: profile({ kellyCriterionEnabled: true, maxPositionSize: 50 }), explain: true }))).data.decision!;
      expect(explained).to.deep.equal(decision);
    });

    it('half Kelly of exactly zero is no edge: refused, not sized at nothing', function () {
      // 10 wins of $100, 10 losses of $100: W 0.5, R 1, half Kelly 0.5 x (0.5 - 0.5 / 1) = 0.
      expect(refused(decideBotTrade(input({ portfolio: withRecord(10, 10, 100), profile: profile({ kellyCriterionEnabled: true }) })))).to.deep.equal({
        rule: 'KELLY_NO_EDGE',
        text: 'refused: half Kelly 0.00% (win rate 50.0%, payoff 1.00 over 20 closed trades): no edge',
        figures: { halfKellyPercent: 0, winRatePercent: 50, payoff: 1, closedTrades: 20 },
      });
    });

    it('dynamic sizing says its scale and both volatilities per 5 minutes; a size that lands on maxPositionSize is not capped', function () {
      // average 0.3 %, recent 0.4 %: scale 0.75, 5 % x 0.75 = 3.75 %.
      const scaled = traded(decideBotTrade(input({ profile: profile({ dynamicPositionSizing: true }), market: market({ averageVolatility: 0.003, recentVolatility: 0.004 }) }))).data.decision!;
      expect(scaled.text).to.contain('bought 3.75% of $10,000.00 ($375.00 with the fee): fixed size 5% x volatility scale 0.75 (average 0.30% / recent 0.40% per 5 minutes); stop');
      // average = recent: scale 1, 5 % x 1 = 5 %, maxPositionSize itself.
      const steady = traded(decideBotTrade(input({ profile: profile({ dynamicPositionSizing: true }) }))).data.decision!;
      expect(steady.text).to.contain(': fixed size 5% x volatility scale 1.00 (average 0.20% / recent 0.20% per 5 minutes); stop');
      expect(steady.figures).to.include({ sizePercent: 5, volatilityScale: 1 });
    });

    it('too small: the refusal names the size it tried', function () {
      // cash left 10,000 - 9,990 - 9.99 fee = 0.01: not one unit of ETH at 3,000 with its fee.
      const portfolio = portfolioAfter(['BTC-1', 'BUY', 9.99, 1000]);
      expect(refused(decideBotTrade(input({ portfolio, prices: { BTC: 1000 }, profile: profile({ correlationLimit: 1 }) })))).to.deep.equal({
        rule: 'TOO_SMALL',
        text: 'refused: 5.00% of the portfolio within the cash left buys less than the smallest trade',
        figures: { sizePercent: 5 },
      });
    });
  });

  describe('the amount: the most whole units whose notional plus fee fit the budget', function () {
    it('one unit worth exactly the smallest trade ($0.01) is a trade; one worth less is too small', function () {
      // 9,989.995004 ADA at $1: 9,989,995,004 + a fee of 9,989,995 micros leaves 15,001 micros of cash.
      const portfolio = portfolioAfter(['ADA-1', 'BUY', 9989.995004, 1]);
      expect(portfolio.status === 'open' && portfolio.cashMicros).to.equal(15_001);
      const btc = (price: number) => decideBotTrade(input({ portfolio, prices: { ADA: 1 }, signal: signal('BUY', 'BTC', price), market: market({}, { ADA: 0.3 }) }));
      // At $1,000,000 a unit (1e-8 BTC) is worth 10,000 micros, with its 10 micro fee within the 15,001.
      expect(traded(btc(1_000_000)).data).to.deep.include({ symbol: 'BTC', side: 'BUY', amount: 0.00000001 });
      // At $999,900 it is worth 9,999 micros: under a cent.
      expect(btc(999_900)).to.deep.include({ action: 'SKIP', reason: 'TOO_SMALL' });
    });

    it('steps down from the estimate when the fee\'s rounding would take it a micro-dollar over the budget', function () {
      // 5 % of 10,000 = $500 at $150 a SOL: 500 / 1.001 / 150 = 3.33000333 SOL, whose notional 499,500,499.5 rounds to
      // 499,500,500 micros and fee 499,500.5 to 499,501: 500,000,001, one over. 3.33000332 SOL: 499,500,498 + 499,500.
      const command = traded(decideBotTrade(input({ signal: signal('BUY', 'SOL', 150), market: market({}, {}) })));
      expect(command.data.amount).to.equal(3.33000332);
      const placed = portfolioDecider.decide(command, portfolioDecider.initialState()).find((e) => e.type === 'SimulatedTradePlaced');
      if (placed?.type !== 'SimulatedTradePlaced') throw new Error('no fill');
      expect(placed.data.notionalMicros + placed.data.feeMicros).to.equal(499_999_998);
    });

    it('keeps the units whose notional plus fee is exactly the budget', function () {
      // 7 % of 10,000 = $700 at $2,999.99: 0.23310101 ETH is 699,300,698.99 -> 699,300,699 micros, fee 699,300.699 -> 699,301: 700,000,000.
      const command = traded(decideBotTrade(input({ signal: signal('BUY', 'ETH', 2999.99), profile: profile({ maxPositionSize: 7 }) })));
      expect(command.data.amount).to.equal(0.23310101);
      const placed = portfolioDecider.decide(command, portfolioDecider.initialState()).find((e) => e.type === 'SimulatedTradePlaced');
      if (placed?.type !== 'SimulatedTradePlaced') throw new Error('no fill');
      expect(placed.data.notionalMicros + placed.data.feeMicros).to.equal(700_000_000);
    });
  });

  it('the exit plan keeps only the figures that are levels: an unknown, unbounded, zero or negative ATR14 or sigma20 is null', function () {
    // A fixed stop reads neither figure, so the BUY goes ahead; the monitor then falls back on the profile's own exits.
    const unknown = traded(decideBotTrade(input({ market: market({ atr14: Number.NaN, sigma20: 0 }) })));
    expect(unknown.data.exits).to.deep.equal({ kind: 'PROFILE', atr: null, sigma: null });
    const unbounded = traded(decideBotTrade(input({ market: market({ atr14: Number.POSITIVE_INFINITY, sigma20: -0.002 }) })));
    expect(unbounded.data.exits).to.deep.equal({ kind: 'PROFILE', atr: null, sigma: null });
  });
});
