/**
 * The risk monitor's pure rules (risk-watch.ts) beyond the position size: the peak to record, and each
 * alert condition with its key, severity, value, threshold and once-only rule. The stops are the
 * engine's (engine/exit-spec.unit.spec.ts: each position's exit plan as levels; exit-scan.unit.spec.ts:
 * the first tick beyond them). The worker spec (workers/src/risk-monitor.int.spec.ts) drives them end
 * to end.
 */
import { expect } from 'chai';
import { v5 as uuidv5 } from 'uuid';
import { fold } from '../shared/decider';
import { DEFAULT_RISK_PROFILE } from './contracts';
import type { OpenPositionsView } from './open-positions-view';
import { evolvePortfolio, initialPortfolioState, type PortfolioEvent, type PortfolioState } from './portfolio';
import { portfolioDecider, type ExitRequest } from './portfolio.decider';
import { RISK_ALERT_ID_NAMESPACE, alertsRaised, emptyCoinContext, peakToRecord, type CoinContext, type TickRange } from './risk-watch';

const OPENED_AT = '2026-03-04T10:00:00.000Z';
const LATER = '2026-03-04T12:00:00.000Z';

/** exits: the BUY's plan (default: the bot's, following the profile; null: a manual BUY without levels). */
type Trade = { symbol: 'ETH' | 'BTC' | 'SOL'; side: 'BUY' | 'SELL'; usd: number; price: number; at?: string; exits?: ExitRequest | null };
const BOT: ExitRequest = { kind: 'PROFILE', atr: null, sigma: null };

/** A portfolio of 10,000 USD after the given trades (amounts in USD at their price). */
function portfolioAfter(trades: Trade[]): PortfolioState {
  const opened: PortfolioEvent = { type: 'PortfolioOpened', data: { userId: 'u1', startingCashMicros: 10_000_000_000, openedAt: OPENED_AT } };
  let state = fold({ initialState: initialPortfolioState, evolve: evolvePortfolio }, [opened]);
  trades.forEach((t, i) => {
    const exits = t.side === 'BUY' && t.exits !== null ? { exits: t.exits ?? BOT } : {};
    const events = portfolioDecider.decide(
      {
        type: 'PlaceSimulatedTrade',
        data: { userId: 'u1', tradeId: `t${i}`, symbol: t.symbol, side: t.side, amount: t.usd / t.price, price: t.price, source: { kind: 'MANUAL' }, ...exits },
        metadata: { now: t.at ?? OPENED_AT },
      },
      state,
    );
    state = events.reduce(evolvePortfolio, state);
  });
  return state;
}

function view(trades: Trade[], overrides: Partial<OpenPositionsView> = {}): OpenPositionsView {
  return {
    userId: 'u1',
    portfolio: portfolioAfter(trades),
    // stop loss 2 % (fixed), take profit 2.5 x 2 = 5 %, daily loss 500, drawdown 15 %, 5 concurrent, volatility 30 %
    profile: { ...DEFAULT_RISK_PROFILE },
    alertKeys: {},
    updatedAt: OPENED_AT,
    ...overrides,
  };
}
const withProfile = (v: OpenPositionsView, changes: Partial<typeof DEFAULT_RISK_PROFILE>): OpenPositionsView => ({ ...v, profile: { ...DEFAULT_RISK_PROFILE, ...changes } });

const tick = (symbol: TickRange['symbol'], price: number, at = LATER): TickRange => ({ symbol, price, at });
const context = (changes: Partial<CoinContext>): CoinContext => ({ ...emptyCoinContext(), ...changes });

describe('risk monitor rules: the peak', function () {
  it('records a value at least a quarter percent above the recorded peak (the starting cash at first)', function () {
    const v = view([{ symbol: 'ETH', side: 'BUY', usd: 5000, price: 2000 }]);
    // cash 4,995 + 2.5 ETH: at 2,019 the value is 10,042.50, 0.425 % above 10,000
    expect(peakToRecord(v, tick('ETH', 2019), {})).to.deep.equal({ type: 'RecordPortfolioPeak', data: { userId: 'u1', valueMicros: 10_042_500_000 }, metadata: { now: LATER } });
    expect(peakToRecord(v, tick('ETH', 2009), {}), '10,017.50: not a quarter percent').to.equal(null);
  });
});

describe('risk monitor rules: alerts', function () {
  const alerts = (v: OpenPositionsView, t: TickRange, prices: Record<string, number>, range = 5) => alertsRaised(v, t, prices, context({ range24hPercent: range }));

  it('raises nothing for a calm portfolio within every limit', function () {
    const v = view([{ symbol: 'ETH', side: 'BUY', usd: 500, price: 2000 }]);
    expect(alerts(v, tick('ETH', 2000), { ETH: 2000 })).to.deep.equal([]);
  });

  it('daily loss: medium at 50 % of the limit, high at 80 %, keyed by the UTC day, with the id from user, key and time', function () {
    // bought 5,000 USD of ETH at 2,000, sold it all at 1,900: 250 USD lost plus fees (above 50 % of 500)
    const half = view([
      { symbol: 'ETH', side: 'BUY', usd: 5000, price: 2000 },
      { symbol: 'ETH', side: 'SELL', usd: 4750, price: 1900, at: LATER },
    ]);
    const [medium, ...none] = alerts(half, tick('ETH', 1900), { ETH: 1900 });
    expect(none).to.deep.equal([]);
    expect(medium!.data).to.include({ userId: 'u1', conditionKey: 'DAILY_LOSS_50@2026-03-04', kind: 'DAILY_LOSS', severity: 'medium', symbol: null, threshold: 250 });
    expect(medium!.data.value).to.be.within(250, 260);
    expect(medium!.data.message).to.match(/^Daily loss of \$25\d\.\d\d has reached 50% of the \$500\.00 limit$/);
    expect(medium!.data.alertId).to.equal(uuidv5(`u1\nDAILY_LOSS_50@2026-03-04\n${LATER}`, RISK_ALERT_ID_NAMESPACE));
    expect(medium!.metadata).to.deep.equal({ now: LATER });
    expect(medium!.type).to.equal('RaiseRiskAlert');

    // sold at 1,600: 1,000 USD lost, past 80 %
    const most = view([
      { symbol: 'ETH', side: 'BUY', usd: 5000, price: 2000 },
      { symbol: 'ETH', side: 'SELL', usd: 4000, price: 1600, at: LATER },
    ]);
    expect(alerts(most, tick('ETH', 1600), { ETH: 1600 }).map((a) => [a.data.conditionKey, a.data.severity, a.data.threshold])).to.deep.equal([
      ['DAILY_LOSS_50@2026-03-04', 'medium', 250],
      ['DAILY_LOSS_80@2026-03-04', 'high', 400],
    ]);
    expect(alerts(most, tick('ETH', 1600, '2026-03-05T00:00:01.000Z'), { ETH: 1600 }), 'the next UTC day starts from 0').to.deep.equal([]);
  });

  it('daily loss: a gain or a loss below half the limit raises nothing', function () {
    const gain = view([
      { symbol: 'ETH', side: 'BUY', usd: 1000, price: 2000 },
      { symbol: 'ETH', side: 'SELL', usd: 1100, price: 2200, at: LATER },
    ]);
    expect(alerts(gain, tick('ETH', 2200), { ETH: 2200 })).to.deep.equal([]);
    const small = view([
      { symbol: 'ETH', side: 'BUY', usd: 1000, price: 2000 },
      { symbol: 'ETH', side: 'SELL', usd: 900, price: 1800, at: LATER },
    ]);
    expect(alerts(small, tick('ETH', 1800), { ETH: 1800 })).to.deep.equal([]);
  });

  it('drawdown: critical once the value is more than maxDrawdown below the recorded peak, not at it', function () {
    // 9,000 USD of ETH at 2,000 (plus 9 USD fee); the drawdown is measured at the tick's price
    const v = withProfile(view([{ symbol: 'ETH', side: 'BUY', usd: 9000, price: 2000 }]), { maxPositionSize: 100, maxDrawdown: 15 });
    const drawdowns = (w: OpenPositionsView, price: number) => alerts(w, tick('ETH', price), { ETH: 2000 }).filter((a) => a.data.kind === 'DRAWDOWN');
    expect(drawdowns(v, 1700), 'about 13.6 % below the starting cash').to.deep.equal([]);
    // A peak of 11,000 recorded: at 1,700 the value 8,641 is 21.45 % below it.
    if (v.portfolio.status !== 'open') throw new Error('open');
    const peaked = { ...v, portfolio: { ...v.portfolio, peakValueMicros: 11_000_000_000 } };
    const [drawdown] = drawdowns(peaked, 1700);
    expect(drawdown!.data).to.include({ conditionKey: 'DRAWDOWN', severity: 'critical', symbol: null, threshold: 15, value: 21.45 });
    expect(drawdown!.data.message).to.equal('Drawdown of 21.45% from the peak $11,000.00 is above the maximum of 15%: the bot opens no new positions');
    // From the starting cash at 1,600: 18.09 %; exactly at the maximum: no alert.
    expect(drawdowns(v, 1600)[0]!.data.value).to.be.closeTo(18.09, 0.01);
    expect(drawdowns(withProfile(v, { maxPositionSize: 100, maxDrawdown: (100 * (10_000 - (991 + 4.5 * 1600))) / 10_000 }), 1600)).to.deep.equal([]);
  });

  it('concurrent trades: high when more positions are open than the maximum', function () {
    const three: Trade[] = [
      { symbol: 'ETH', side: 'BUY', usd: 100, price: 2000 },
      { symbol: 'BTC', side: 'BUY', usd: 100, price: 50_000 },
      { symbol: 'SOL', side: 'BUY', usd: 100, price: 100 },
    ];
    const prices = { ETH: 2000, BTC: 50_000, SOL: 100 };
    expect(alerts(withProfile(view(three), { maxConcurrentTrades: 3 }), tick('ETH', 2000), prices)).to.deep.equal([]);
    const [over] = alerts(withProfile(view(three), { maxConcurrentTrades: 2 }), tick('ETH', 2000), prices);
    expect(over!.data).to.include({ conditionKey: 'CONCURRENT_TRADES', kind: 'CONCURRENT_TRADES', severity: 'high', value: 3, threshold: 2, message: '3 positions are open, above the maximum of 2' });
  });

  it('volatility: high for a holder of the ticked coin whose 24-hour range is above the threshold, once per day', function () {
    const v = view([{ symbol: 'ETH', side: 'BUY', usd: 100, price: 2000 }]);
    expect(alerts(v, tick('ETH', 2000), { ETH: 2000 }, 30)).to.deep.equal([]);
    expect(alerts(v, tick('ETH', 2000), { ETH: 2000 }, Number.NaN), 'unknown range').to.deep.equal([]);
    const [wide] = alerts(v, tick('ETH', 2000), { ETH: 2000 }, 31.5);
    expect(wide!.data).to.include({
      conditionKey: 'VOLATILITY:ETH@2026-03-04',
      severity: 'high',
      symbol: 'ETH',
      value: 31.5,
      threshold: 30,
      message: "ETH's 24-hour range of 31.50% is above the volatility threshold of 30%: the bot opens no new ETH positions",
    });
    expect(alerts(v, tick('BTC', 50_000), { ETH: 2000, BTC: 50_000 }, 40), 'not holding BTC').to.deep.equal([]);
  });

  it('raises a condition only while no alert stands for its key, and nothing but the daily loss for a closed portfolio', function () {
    const v = view([{ symbol: 'ETH', side: 'BUY', usd: 100, price: 2000 }]);
    const standing = { ...v, alertKeys: { 'VOLATILITY:ETH@2026-03-04': 'a1' } } as OpenPositionsView;
    expect(alerts(standing, tick('ETH', 2000), { ETH: 2000 }, 50)).to.deep.equal([]);
    expect(alerts({ ...v, portfolio: initialPortfolioState() }, tick('ETH', 2000), { ETH: 2000 }, 50)).to.deep.equal([]);
  });
});

describe('risk monitor rules: what each alert says', function () {
  const alerts = (v: OpenPositionsView, t: TickRange, prices: Record<string, number>, range: number) => alertsRaised(v, t, prices, context({ range24hPercent: range }));
  it('names a position past its size by its id and share, a wide range as VOLATILITY for a holder of several coins, and a daily loss exactly at a threshold', function () {
    const two = view([
      { symbol: 'ETH', side: 'BUY', usd: 2000, price: 2000 },
      { symbol: 'BTC', side: 'BUY', usd: 500, price: 50_000 },
    ]);
    const v = withProfile(two, { maxPositionSize: 10 });
    const prices = { ETH: 2000, BTC: 50_000 };
    const [size, ...more] = alerts(v, tick('ETH', 2000), prices, 31.5).filter((a) => a.data.kind === 'POSITION_SIZE');
    if (v.portfolio.status !== 'open') throw new Error('open');
    const eth = v.portfolio.positions.ETH!;
    expect(more.map((a) => a.data.symbol), 'BTC: 5 % of the portfolio').to.deep.equal([]);
    expect(size!.data).to.include({ conditionKey: `POSITION_SIZE:${eth.positionId}`, symbol: 'ETH', value: 20.01, message: 'ETH position is 20.01% of the portfolio, above the maximum of 10%' });
    // (2,000 of 9,997.50 after fees.) Holding ETH and BTC, a wide ETH range: the alert is ETH's.
    const wide = alerts(v, tick('ETH', 2000), prices, 31.5).filter((a) => a.data.symbol === 'ETH' && a.data.severity === 'high');
    expect(wide.map((a) => [a.data.kind, a.data.conditionKey])).to.deep.equal([['VOLATILITY', 'VOLATILITY:ETH@2026-03-04']]);
    // 2.5 ETH bought for 5,000 USD (5 USD fee) and sold for 4,750 (4.75): 259.75 lost, half of a 519.50 limit.
    const lost = withProfile(
      view([
        { symbol: 'ETH', side: 'BUY', usd: 5000, price: 2000 },
        { symbol: 'ETH', side: 'SELL', usd: 4750, price: 1900, at: LATER },
      ]),
      { maxDailyLoss: 519.5 },
    );
    expect(alerts(lost, tick('ETH', 1900), { ETH: 1900 }, 5).map((a) => [a.data.conditionKey, a.data.value, a.data.threshold])).to.deep.equal([['DAILY_LOSS_50@2026-03-04', 259.75, 259.75]]);
  });
});
