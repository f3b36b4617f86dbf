/**
 * The trading bot's decision for one signal and one user under the one risk profile (issue 17): every
 * rule, each at its boundary, with the decision it records (rule, text, figures): sizing (fixed, half
 * Kelly after 20 closes, dynamic), the daily loss limit, the drawdown from the peak, one position per
 * coin, maxConcurrentTrades, the volatility threshold, the correlation limit, reward/risk net of fees
 * for each stop-loss type, SELL only what is held, and a trade id that is the same for the same signal
 * and user.
 */
import { expect } from 'chai';
import { fold } from '../shared/decider';
import { DEFAULT_RISK_PARAMETERS, DEFAULT_RISK_PROFILE, type RiskProfile } from './contracts';
import { riskDecider } from './risk.decider';
import { v5 as uuidv5 } from 'uuid';
import { BOT_TRADE_ID_NAMESPACE, decideBotTrade, forgetTradeIds, tradeIdFor, type BotMarket, type BotSignal, type BotTradeInput } from './bot-trade-decision';
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

/** A calm market: ATR14 $12, sigma20 0.2 %, a 5 % day, volatility steady; ETH moves with BTC (0.83), less with SOL. */
const MARKET: BotMarket = {
  figures: { atr14: 12, sigma20: 0.002, range24hPercent: 5, recentVolatility: 0.002, averageVolatility: 0.002 },
  correlations: { BTC: 0.83, SOL: 0.5, BNB: 0.69 },
};
const profile = (changes: Partial<RiskProfile> = {}): RiskProfile => ({ ...DEFAULT_RISK_PROFILE, ...changes });
const market = (figures: Partial<BotMarket['figures']> = {}, correlations: BotMarket['correlations'] = MARKET.correlations): BotMarket => ({ figures: { ...MARKET.figures, ...figures }, correlations });

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

function traded(decision: ReturnType<typeof decideBotTrade>): PlaceSimulatedTrade {
  if (decision.action !== 'TRADE') throw new Error(`expected a trade, got ${decision.reason}: ${decision.detail}`);
  return decision.command;
}

function refused(decision: ReturnType<typeof decideBotTrade>) {
  if (decision.action !== 'SKIP' || !decision.decision) throw new Error(`expected a recorded refusal, got ${JSON.stringify(decision)}`);
  return decision.decision;
}

/**
 * decideBotTrade, checked against its unworded form at every call of this spec (so at every rule):
 * with `explain: false` the same action, rule and trade, the command without a decision and the
 * decision without text or figures (the walk-forward's in-sample runs decide so).
 */
function decide(i: BotTradeInput): ReturnType<typeof decideBotTrade> {
  const worded = decideBotTrade(i);
  const bare = decideBotTrade({ ...i, explain: false });
  expect(bare.action, 'explain: false, action').to.equal(worded.action);
  expect(bare.decision?.rule, 'explain: false, rule').to.equal(worded.decision?.rule);
  if (bare.decision) expect({ text: bare.decision.text, figures: bare.decision.figures }).to.deep.equal({ text: '', figures: {} });
  if (worded.action === 'TRADE' && bare.action === 'TRADE') {
    const { decision: _decision, ...data } = worded.command.data;
    expect(bare.command).to.deep.equal({ ...worded.command, data });
  }
  if (worded.action === 'SKIP' && bare.action === 'SKIP') expect(bare.reason).to.equal(worded.reason);
  return worded;
}

describe('bot trade decision', function () {
  it('names a trade by the UUIDv5 of its signal and user in the bot\'s namespace, the same id every time (stored trades keep theirs)', function () {
    // From no kept ids, and again with them kept (a mutation test reruns this in one process).
    forgetTradeIds();
    expect(tradeIdFor('house:ETH@2025-01-01T00:00:00.000Z', 'user-1')).to.equal('5352807e-06dc-5465-be01-caefa7d6a647');
    for (const [signalId, userId] of [['s-1', 'u-1'], ['macd-momentum:BTC@2024-06-01T12:05:00.000Z', 'backtest'], ['é ✓', '']]) {
      expect(tradeIdFor(signalId!, userId!), `${signalId} ${userId}`).to.equal(uuidv5(`${signalId}\n${userId}`, BOT_TRADE_ID_NAMESPACE));
      expect(tradeIdFor(signalId!, userId!), `${signalId} ${userId}, kept`).to.equal(uuidv5(`${signalId}\n${userId}`, BOT_TRADE_ID_NAMESPACE));
    }
  });

  it('buys maxPositionSize percent of a new portfolio (5% of 10,000 = 500 USD with the fee) on a BUY signal, recording the signal', function () {
    const command = traded(decide(input({})));
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
    const command = traded(decide(input({ portfolio, prices: { BTC: 60000 }, profile: profile({ maxPositionSize: 10, correlationLimit: 1 }) })));
    expect(valuePortfolio(portfolio, { BTC: 60000, ETH: 3000 }).totalValue).to.equal(10995);
    expect(command.data.amount).to.equal(Math.floor(((1099.5 / 1.001 / 3000) * 1e8)) / 1e8);
  });

  it('is capped by the cash left after the fee', function () {
    const portfolio = portfolioAfter(['BTC-1', 'BUY', 0.15, 66000]);
    // cash 10,000 - 9,909.90 = 90.10; 50% of ~9,990 would be ~4,995
    const command = traded(decide(input({ portfolio, prices: { BTC: 66000 }, profile: profile({ maxPositionSize: 50, correlationLimit: 1 }) })));
    expect(() => portfolioDecider.decide(command, portfolio)).not.to.throw();
    expect(command.data.amount * 3000 * 1.001).to.be.at.most(90.1).and.above(90.09);
  });

  it('the same signal and user give the same trade id; another signal or user another', function () {
    expect(tradeIdFor('sig-1', 'u1')).to.equal(tradeIdFor('sig-1', 'u1')).and.match(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(tradeIdFor('sig-2', 'u1')).not.to.equal(tradeIdFor('sig-1', 'u1'));
    expect(tradeIdFor('sig-1', 'u2')).not.to.equal(tradeIdFor('sig-1', 'u1'));
  });

  it('a replayed signal decides the same trade, which the portfolio then appends nothing for', function () {
    const first = traded(decide(input({})));
    const state = portfolioDecider.decide(first, portfolioDecider.initialState()).reduce(portfolioDecider.evolve, portfolioDecider.initialState());
    // the position is open now, so the bot itself would skip; the portfolio's idempotency is the backstop
    expect(portfolioDecider.decide(first, state)).to.deep.equal([]);
  });

  it('HOLD, unknown coins and a SELL of nothing trade nothing and record no decision (the signal asked nothing of this bot)', function () {
    expect(decide(input({ signal: signal('HOLD') }))).to.deep.include({ action: 'SKIP', reason: 'HOLD_SIGNAL', decision: null });
    expect(decide(input({ signal: signal('BUY', 'DOGE') }))).to.deep.include({ action: 'SKIP', reason: 'UNSUPPORTED_COIN', decision: null });
    expect(decide(input({ signal: signal('SELL') }))).to.deep.include({ action: 'SKIP', reason: 'NOTHING_TO_SELL', decision: null });
  });

  it('a BUY records its decision (fixed size, stop, target, reward/risk) and its position\'s exit plan with the entry figures', function () {
    const decision = decide(input({}));
    if (decision.action !== 'TRADE') throw new Error('expected a trade');
    expect(decision.decision.rule).to.equal('FIXED_SIZE');
    expect(decision.decision.text).to.equal(
      'bought 5.00% of $10,000.00 ($500.00 with the fee): fixed size 5%; stop $2,940.00 (fixed 2%), target $3,150.00 (ratio 2.5), reward/risk 2.18',
    );
    expect(decision.decision.figures).to.include({ sizePercent: 5, portfolioValue: 10000, stopLoss: 2940, takeProfit: 3150, rewardRisk: 2.1815 });
    expect(decision.command.data.decision).to.deep.equal(decision.decision);
    expect(decision.command.data.exits).to.deep.equal({ kind: 'PROFILE', atr: 12, sigma: 0.002 });
  });

  it('one open position per coin (a recorded refusal)', function () {
    const portfolio = portfolioAfter(['ETH-1', 'BUY', 0.1, 2900]);
    expect(refused(decide(input({ portfolio })))).to.deep.equal({ rule: 'POSITION_ALREADY_OPEN', text: 'refused: a position in ETH is already open', figures: {} });
    expect(traded(decide(input({ portfolio, signal: signal('BUY', 'SOL', 150), market: market({}, { ETH: 0.5 }) }))).data.symbol).to.equal('SOL');
  });

  it('no more than maxConcurrentTrades positions open', function () {
    const portfolio = portfolioAfter(['BNB-1', 'BUY', 0.01, 600], ['SOL-1', 'BUY', 1, 150]);
    const p = profile({ maxConcurrentTrades: 2 });
    expect(refused(decide(input({ portfolio, profile: p })))).to.deep.equal({ rule: 'MAX_CONCURRENT_TRADES', text: 'refused: 2 positions open, the maximum is 2', figures: { open: 2, maxConcurrentTrades: 2 } });
    expect(decide(input({ portfolio, profile: { ...p, maxConcurrentTrades: 3 } })).action).to.equal('TRADE');
  });

  it('refuses to buy once the realised loss of the UTC day reaches maxDailyLoss (the bot\'s dailyLossLimit), and buys again the next day', function () {
    // 1 BTC bought at 9,000 and sold at 8,400: loss 600 + 9 + 8.40 fees = 617.40 on 2026-03-04
    const portfolio = portfolioAfter(['BTC-1', 'BUY', 1, 9000, '2026-03-04T01:00:00.000Z'], ['BTC-2', 'SELL', 1, 8400, '2026-03-04T02:00:00.000Z']);
    expect(refused(decide(input({ portfolio })))).to.deep.equal({
      rule: 'DAILY_LOSS_LIMIT',
      text: 'refused: realised loss today $617.40 has reached the daily loss limit $500.00',
      figures: { lossToday: 617.4, maxDailyLoss: 500 },
    });
    expect(decide(input({ portfolio, profile: profile({ maxDailyLoss: 650 }) })).action).to.equal('TRADE');
    expect(decide(input({ portfolio, profile: profile({ maxDailyLoss: 617.4 }) })).action, 'reached exactly: refused').to.equal('SKIP');
    expect(decide(input({ portfolio, now: '2026-03-05T00:00:00.000Z' })).action).to.equal('TRADE');
  });

  it('SELL sells the whole position held, even past every entry rule, and records SELL_SIGNAL', function () {
    const portfolio = portfolioAfter(['ETH-1', 'BUY', 0.3, 3000], ['ETH-2', 'BUY', 0.2, 3100]);
    const decision = decide(input({ portfolio, signal: signal('SELL', 'ETH', 2800), profile: profile({ maxDailyLoss: 50, maxDrawdown: 5 }), market: null }));
    expect(traded(decision).data).to.deep.include({ side: 'SELL', amount: 0.5, price: 2800 });
    expect(traded(decision).data.exits).to.equal(undefined);
    expect(decision).to.deep.include({ decision: { rule: 'SELL_SIGNAL', text: 'sold the whole ETH position (0.5 ETH) on a SELL signal', figures: { quantity: 0.5 } } });
  });

  it('refuses a trade too small to place', function () {
    // cash left 10,000 - 9,990 - 9.99 fee = 0.01: less than a cent's trade plus its fee
    const portfolio = portfolioAfter(['BTC-1', 'BUY', 9.99, 1000]);
    expect(decide(input({ portfolio, prices: { BTC: 1000 }, profile: profile({ correlationLimit: 1 }) }))).to.deep.include({ action: 'SKIP', reason: 'TOO_SMALL' });
  });

  describe('maxDrawdown: no new entry while the portfolio is more than that far below its peak', function () {
    /** 5 BTC bought at 1,000 (5,005 with the fee), then a peak of 12,000 recorded. */
    const peaked = () => {
      const bought = portfolioAfter(['BTC-1', 'BUY', 5, 1000]);
      return portfolioDecider.decide({ type: 'RecordPortfolioPeak', data: { userId: 'u1', valueMicros: 12_000_000_000 }, metadata: { now: NOW } }, bought).reduce(portfolioDecider.evolve, bought);
    };
    const free = profile({ correlationLimit: 1 });

    it('refuses at more than maxDrawdown below the recorded peak, naming drawdown, peak and maximum', function () {
      // BTC at 520: 4,995 cash + 2,600 = 7,595, 36.71 % below 12,000
      expect(refused(decide(input({ portfolio: peaked(), prices: { BTC: 520 }, profile: free })))).to.deep.equal({
        rule: 'MAX_DRAWDOWN',
        text: 'refused: drawdown 36.71% from the peak $12,000.00 is above the maximum 15%',
        figures: { drawdownPercent: 36.71, peak: 12000, value: 7595, maxDrawdown: 15 },
      });
    });

    it('allows an entry at the maximum itself, and below it', function () {
      // 15 % below 12,000 = 10,200: BTC at 1,041 gives 4,995 + 5,205 = 10,200
      expect(decide(input({ portfolio: peaked(), prices: { BTC: 1041 }, profile: free })).action).to.equal('TRADE');
      expect(decide(input({ portfolio: peaked(), prices: { BTC: 1040.8 }, profile: free })).action).to.equal('SKIP');
      expect(decide(input({ portfolio: peaked(), prices: { BTC: 1040.8 }, profile: { ...free, maxDrawdown: 16 } })).action).to.equal('TRADE');
    });

    it('without a recorded peak the starting cash is the peak', function () {
      const bought = portfolioAfter(['BTC-1', 'BUY', 5, 1000]);
      // 4,995 + 5 x 600 = 7,995: 20.05 % below 10,000
      expect(refused(decide(input({ portfolio: bought, prices: { BTC: 600 }, profile: free }))).figures).to.include({ drawdownPercent: 20.05, peak: 10000 });
    });
  });

  describe('the market rules', function () {
    it('volatilityThreshold: refuses while the coin\'s 24-hour range is above it; at the threshold it buys', function () {
      expect(refused(decide(input({ market: market({ range24hPercent: 34.2 }) })))).to.deep.equal({
        rule: 'VOLATILITY_THRESHOLD',
        text: "refused: ETH's 24-hour range 34.20% is above the volatility threshold 30%",
        figures: { range24hPercent: 34.2, volatilityThreshold: 30 },
      });
      expect(decide(input({ market: market({ range24hPercent: 30 }) })).action).to.equal('TRADE');
    });

    it('correlationLimit: refuses an entry whose 30-day correlation with an open position is above it, naming the highest', function () {
      const portfolio = portfolioAfter(['BTC-1', 'BUY', 0.01, 60000], ['SOL-1', 'BUY', 1, 150]);
      expect(refused(decide(input({ portfolio, prices: { BTC: 60000, SOL: 150 } })))).to.deep.equal({
        rule: 'CORRELATION_LIMIT',
        text: 'refused: correlation 0.83 with BTC above 0.70',
        figures: { correlation: 0.83, correlationLimit: 0.7 },
      });
      expect(decide(input({ portfolio, profile: profile({ correlationLimit: 0.83 }) })).action, 'at the limit').to.equal('TRADE');
      const onlySol = portfolioAfter(['SOL-1', 'BUY', 1, 150]);
      expect(decide(input({ portfolio: onlySol })).action).to.equal('TRADE');
    });

    it('refuses what it cannot measure: no market history, an unknown range, correlation or figure the stop needs', function () {
      expect(refused(decide(input({ market: null })))).to.deep.include({ rule: 'MARKET_DATA_UNAVAILABLE' });
      expect(refused(decide(input({ market: market({ range24hPercent: Number.NaN }) }))).rule).to.equal('MARKET_DATA_UNAVAILABLE');
      const portfolio = portfolioAfter(['ADA-1', 'BUY', 100, 0.45]);
      expect(refused(decide(input({ portfolio }))).text).to.equal("refused: ETH's 30-day correlation with ADA could not be measured (its recent candles are unavailable)");
      expect(refused(decide(input({ profile: profile({ stopLossType: 'atr' }), market: market({ atr14: Number.NaN }) }))).text).to.match(/ATR14 could not be measured/);
    });
  });

  describe('riskRewardRatio: refuses an entry whose reward/risk net of fees falls below it, for each stop-loss type', function () {
    it('fixed: a 2 % stop with a target of 2 stops (4 %) is 1.73 net of the fees, below 2', function () {
      expect(refused(decide(input({ profile: profile({ takeProfitRatio: 2 }) })))).to.deep.equal({
        rule: 'REWARD_RISK',
        text: 'refused: reward/risk 1.73 below 2.00 (stop $2,940.00, target $3,120.00, fees included)',
        figures: { stopLoss: 2940, takeProfit: 3120, rewardRisk: 1.727, riskRewardRatio: 2 },
      });
      expect(decide(input({ profile: profile({ takeProfitRatio: 2, riskRewardRatio: 1.7 }) })).action).to.equal('TRADE');
    });

    it('atr: k x ATR14 sets the stop (5 x $12 = $60 below 3,000), the target 2.5 stops up: 2.18 net of fees; a tight k refused', function () {
      const decision = decide(input({ profile: profile({ stopLossType: 'atr', stopLossValue: 5 }) }));
      expect(decision.action).to.equal('TRADE');
      if (decision.action !== 'TRADE') return;
      expect(decision.decision.figures).to.include({ stopLoss: 2940, takeProfit: 3150 });
      expect(decision.decision.text).to.contain('stop $2,940.00 (atr 5 x ATR14), target $3,150.00 (ratio 2.5), reward/risk 2.18');
      // 2 x ATR = $24 below, target $60 up: (3,060 x 0.999 - 3,003) / (3,003 - 2,976 x 0.999) = 1.80: the fees eat a tight stop.
      expect(refused(decide(input({ profile: profile({ stopLossType: 'atr', stopLossValue: 2 }) })))).to.deep.include({
        rule: 'REWARD_RISK',
        text: 'refused: reward/risk 1.80 below 2.00 (stop $2,976.00, target $3,060.00, fees included)',
      });
    });

    it('volatility: k x sigma20 x the entry (3 x 0.2 % x 3,000 = $18); trailing: the fixed distance at entry', function () {
      const vol = decide(input({ profile: profile({ stopLossType: 'volatility', stopLossValue: 3 }), market: market({ sigma20: 0.002 }) }));
      expect(vol.action === 'SKIP' ? vol.decision : null).to.deep.include({ rule: 'REWARD_RISK' });
      const wide = traded(decide(input({ profile: profile({ stopLossType: 'volatility', stopLossValue: 10 }) })));
      expect(wide.data.decision!.figures).to.include({ stopLoss: 2940, takeProfit: 3150 });
      expect(traded(decide(input({ profile: profile({ stopLossType: 'trailing' }) }))).data.decision!.figures).to.include({ stopLoss: 2940, takeProfit: 3150 });
    });
  });

  describe('sizing', function () {
    /** A portfolio with `wins` closes of +$100 and `losses` of -$80 (ADA round trips), all closed. */
    const withRecord = (wins: number, losses: number) => {
      let state: PortfolioState = portfolioDecider.initialState();
      const apply = (command: Parameters<typeof portfolioDecider.decide>[0]) => (state = portfolioDecider.decide(command, state).reduce(portfolioDecider.evolve, state));
      for (let i = 0; i < wins + losses; i++) {
        const win = i < wins;
        const buy = { userId: 'u1', symbol: 'ADA', amount: 1000, source: { kind: 'MANUAL' as const } };
        apply({ type: 'PlaceSimulatedTrade', data: { ...buy, tradeId: `b${i}`, side: 'BUY', price: 1 }, metadata: { now: NOW } });
        // Sell prices that make the realised P&L (net of 0.1 % fees both ways) exactly +100 or -80.
        const sell = win ? (1101 / 0.999) / 1000 : (921 / 0.999) / 1000;
        apply({ type: 'PlaceSimulatedTrade', data: { ...buy, tradeId: `s${i}`, side: 'SELL', price: sell }, metadata: { now: NOW } });
      }
      return state;
    };

    it('Kelly enabled with fewer than 20 closed trades: the fixed size, saying so', function () {
      const decision = traded(decide(input({ portfolio: withRecord(10, 9), profile: profile({ kellyCriterionEnabled: true }) }))).data.decision!;
      expect(decision.rule).to.equal('FIXED_SIZE');
      expect(decision.text).to.contain('fixed size 5% (Kelly needs 20 closed trades, 19 so far)');
    });

    it('half Kelly from the user\'s own win rate and payoff, below the cap: W 0.6, R 1.25 -> 0.5 x (0.6 - 0.4 / 1.25) = 14%, capped at maxPositionSize', function () {
      const portfolio = withRecord(12, 8);
      const capped = traded(decide(input({ portfolio, profile: profile({ kellyCriterionEnabled: true }) }))).data.decision!;
      expect(capped.rule).to.equal('KELLY_SIZE');
      expect(capped.figures).to.include({ sizePercent: 5, halfKellyPercent: 14, winRatePercent: 60, payoff: 1.25, closedTrades: 20 });
      expect(capped.text).to.contain('half Kelly 14.00% capped at 5% (win rate 60.0%, payoff 1.25 over 20 closed trades)');
      const under = traded(decide(input({ portfolio, profile: profile({ kellyCriterionEnabled: true, maxPositionSize: 20 }) })));
      expect(under.data.decision!.figures.sizePercent).to.equal(14);
      const value = valuePortfolio(portfolio, {}).totalValue;
      expect(under.data.amount * 3000 * 1.001).to.be.closeTo((value * 14) / 100, 0.01);
    });

    it('half Kelly at or below zero: refused, no edge', function () {
      // W 0.4, R 1.25: 0.5 x (0.4 - 0.6 / 1.25) = -4 %
      expect(refused(decide(input({ portfolio: withRecord(8, 12), profile: profile({ kellyCriterionEnabled: true }) })))).to.deep.include({
        rule: 'KELLY_NO_EDGE',
        text: 'refused: half Kelly -4.00% (win rate 40.0%, payoff 1.25 over 20 closed trades): no edge',
      });
    });

    it('dynamic sizing: the size times average / recent volatility, capped at maxPositionSize', function () {
      const calmer = traded(decide(input({ profile: profile({ dynamicPositionSizing: true }), market: market({ recentVolatility: 0.004, averageVolatility: 0.002 }) }))).data.decision!;
      expect(calmer.rule).to.equal('DYNAMIC_SIZE');
      expect(calmer.figures).to.include({ sizePercent: 2.5, basePercent: 5, volatilityScale: 0.5 });
      const quieter = traded(decide(input({ profile: profile({ dynamicPositionSizing: true }), market: market({ recentVolatility: 0.001, averageVolatility: 0.002 }) }))).data.decision!;
      expect(quieter.figures, 'doubled, then capped at 5%').to.include({ sizePercent: 5, volatilityScale: 2 });
      expect(quieter.text).to.contain(', capped at 5%');
    });
  });
});

/**
 * The same rules as specifications over the streams they read: given the events of the user's risk
 * stream (the profile, changed through either screen) and portfolio stream, when a signal comes (with
 * the market's figures), then the bot trades by a rule or refuses by one. Each rule at its boundary.
 */
describe('bot trade decision: given(risk and portfolio events).when(signal).then(decision)', function () {
  type Command = Parameters<typeof riskDecider.decide>[0] | Parameters<typeof portfolioDecider.decide>[0];
  const riskCommand = (c: Command): c is Parameters<typeof riskDecider.decide>[0] => ['ChangeBotSettings', 'ChangeRiskParameters', 'ResetBotSettings'].includes(c.type);
  /** The user's streams after these commands, as their deciders append and fold them. */
  function given(...commands: Command[]) {
    let risk = riskDecider.initialState();
    let portfolio = portfolioDecider.initialState();
    for (const c of commands) {
      if (riskCommand(c)) risk = riskDecider.decide(c, risk).reduce(riskDecider.evolve, risk);
      else portfolio = portfolioDecider.decide(c as Parameters<typeof portfolioDecider.decide>[0], portfolio).reduce(portfolioDecider.evolve, portfolio);
    }
    return {
      when(s: BotSignal, m: BotMarket | null = MARKET, prices: Record<string, number> = {}) {
        const decision = decide({ userId: 'u1', signal: s, profile: risk.profile, portfolio, prices, market: m, now: NOW });
        return {
          thenTrades(rule: string, figures: Record<string, number> = {}) {
            expect(decision.action, JSON.stringify(decision)).to.equal('TRADE');
            expect(decision.action === 'TRADE' && decision.decision.rule).to.equal(rule);
            if (decision.action === 'TRADE') expect(decision.decision.figures).to.include(figures);
          },
          thenRefuses(rule: string, text?: string) {
            expect(decision.action === 'SKIP' && decision.decision?.rule, JSON.stringify(decision)).to.equal(rule);
            if (text !== undefined && decision.action === 'SKIP') expect(decision.decision!.text).to.equal(text);
          },
        };
      },
    };
  }
  const parameters = (changes: Partial<RiskProfile>) => ({ type: 'ChangeRiskParameters' as const, data: { userId: 'u1', parameters: { ...DEFAULT_RISK_PARAMETERS, ...changes } }, metadata: { now: NOW } });
  const botSettings = (changes: Record<string, number>) => ({ type: 'ChangeBotSettings' as const, data: { userId: 'u1', changes }, metadata: { now: NOW } });
  const buy = (tradeId: string, symbol: string, amount: number, price: number, now = NOW) => ({
    type: 'PlaceSimulatedTrade' as const,
    data: { userId: 'u1', tradeId, symbol, side: 'BUY' as const, amount, price, source: { kind: 'MANUAL' as const } },
    metadata: { now },
  });
  const sell = (tradeId: string, symbol: string, amount: number, price: number, now = NOW) => ({ ...buy(tradeId, symbol, amount, price, now), data: { ...buy(tradeId, symbol, amount, price, now).data, side: 'SELL' as const } });
  const peak = (usd: number) => ({ type: 'RecordPortfolioPeak' as const, data: { userId: 'u1', valueMicros: usd * 1e6 }, metadata: { now: NOW } });

  it('maxPositionSize: 7 % set on Risk Management is what the bot buys; 6 % through Bot Settings too', function () {
    given(parameters({ maxPositionSize: 7 })).when(signal('BUY')).thenTrades('FIXED_SIZE', { sizePercent: 7 });
    given(botSettings({ maxPositionSize: 6 })).when(signal('BUY')).thenTrades('FIXED_SIZE', { sizePercent: 6 });
  });

  it('stop loss and take profit: Bot Settings\' 3 % stop and 9 % target are the stop 3 % below and the target 9 % above the entry', function () {
    given(botSettings({ stopLossPercent: 3, takeProfitPercent: 9 })).when(signal('BUY')).thenTrades('FIXED_SIZE', { stopLoss: 2910, takeProfit: 3270 });
  });

  it('maxDailyLoss (the Bot Settings\' dailyLossLimit): refused once reached, bought just below it', function () {
    const losing = [buy('b', 'BTC', 1, 9000, '2026-03-04T01:00:00.000Z'), sell('s', 'BTC', 1, 8400, '2026-03-04T02:00:00.000Z')]; // 617.40 lost
    given(botSettings({ dailyLossLimit: 600 }), ...losing).when(signal('BUY')).thenRefuses('DAILY_LOSS_LIMIT');
    given(botSettings({ dailyLossLimit: 650 }), ...losing).when(signal('BUY')).thenTrades('FIXED_SIZE');
  });

  it('maxDrawdown: refused above it from the recorded peak, bought at it', function () {
    // 4,995 cash + 5 BTC; peak 12,000; at 15 % the value is 10,200 (BTC 1,041).
    const held = [buy('b', 'BTC', 5, 1000), peak(12_000)];
    given(parameters({ correlationLimit: 1 }), ...held).when(signal('BUY'), MARKET, { BTC: 1041 }).thenTrades('FIXED_SIZE');
    given(parameters({ correlationLimit: 1 }), ...held).when(signal('BUY'), MARKET, { BTC: 1040.8 }).thenRefuses('MAX_DRAWDOWN');
    given(parameters({ correlationLimit: 1, maxDrawdown: 16 }), ...held).when(signal('BUY'), MARKET, { BTC: 1040.8 }).thenTrades('FIXED_SIZE');
  });

  it('maxConcurrentTrades: refused at it, bought below it', function () {
    given(parameters({ maxConcurrentTrades: 1 }), buy('s', 'SOL', 1, 150)).when(signal('BUY')).thenRefuses('MAX_CONCURRENT_TRADES');
    given(parameters({ maxConcurrentTrades: 2 }), buy('s', 'SOL', 1, 150)).when(signal('BUY')).thenTrades('FIXED_SIZE');
  });

  it('volatilityThreshold: bought at it, refused above it', function () {
    given(parameters({ volatilityThreshold: 10 })).when(signal('BUY'), market({ range24hPercent: 10 })).thenTrades('FIXED_SIZE');
    given(parameters({ volatilityThreshold: 10 })).when(signal('BUY'), market({ range24hPercent: 10.01 })).thenRefuses('VOLATILITY_THRESHOLD');
  });

  it('correlationLimit: bought at it, refused above it', function () {
    given(parameters({ correlationLimit: 0.8 }), buy('b', 'BTC', 0.001, 60_000)).when(signal('BUY')).thenRefuses('CORRELATION_LIMIT', 'refused: correlation 0.83 with BTC above 0.80');
    given(parameters({ correlationLimit: 0.9 }), buy('b', 'BTC', 0.001, 60_000)).when(signal('BUY'), market({}, { BTC: 0.9 })).thenTrades('FIXED_SIZE');
  });

  it('riskRewardRatio: bought at or below the entry\'s reward/risk (2.18 for the default 2 % stop at 2.5), refused above it', function () {
    given(parameters({ riskRewardRatio: 2.1 })).when(signal('BUY')).thenTrades('FIXED_SIZE', { rewardRisk: 2.1815 });
    given(parameters({ riskRewardRatio: 2.2 })).when(signal('BUY')).thenRefuses('REWARD_RISK');
  });

  it('stop-loss types: atr and volatility stops read stopLossValue as k (from either screen)', function () {
    given(parameters({ stopLossType: 'atr', stopLossValue: 5 })).when(signal('BUY')).thenTrades('FIXED_SIZE', { stopLoss: 2940, takeProfit: 3150 });
    given(parameters({ stopLossType: 'volatility' }), botSettings({ stopLossPercent: 10 })).when(signal('BUY')).thenTrades('FIXED_SIZE', { stopLoss: 2940 });
  });

  it('kellyCriterionEnabled: the fixed size below 20 closed trades, half Kelly from 20, refused without an edge', function () {
    const roundTrips = (wins: number, losses: number) =>
      Array.from({ length: wins + losses }, (_, i) => [buy(`b${i}`, 'ADA', 1000, 1), sell(`s${i}`, 'ADA', 1000, i < wins ? 1101 / 0.999 / 1000 : 921 / 0.999 / 1000)]).flat();
    given(parameters({ kellyCriterionEnabled: true }), ...roundTrips(12, 7)).when(signal('BUY')).thenTrades('FIXED_SIZE', { closedTrades: 19 });
    given(parameters({ kellyCriterionEnabled: true, maxPositionSize: 20 }), ...roundTrips(12, 8)).when(signal('BUY')).thenTrades('KELLY_SIZE', { sizePercent: 14 });
    given(parameters({ kellyCriterionEnabled: true }), ...roundTrips(8, 12)).when(signal('BUY')).thenRefuses('KELLY_NO_EDGE');
  });

  it('dynamicPositionSizing: the size scaled by average over recent volatility', function () {
    given(parameters({ dynamicPositionSizing: true })).when(signal('BUY'), market({ averageVolatility: 0.003, recentVolatility: 0.004 })).thenTrades('DYNAMIC_SIZE', { sizePercent: 3.75, volatilityScale: 0.75 });
  });
});
