/**
 * The paper engine's order of things on a made-up market whose every tick is set by hand (no
 * simulation): exits up to the tick before a fill come before the order, a crossing on the fill tick
 * itself after it; closes between two signals in tick order, whatever order the positions are held
 * in; the live monitor's recorded peaks replayed at their ticks, each after the closes of its tick,
 * and without them the portfolio's value recorded at each fill tick; a position's levels changed
 * while it is open apply from the last tick scanned on, never to ticks already scanned; a position
 * without levels never closes; a candle's range that cannot reach a position's levels skips its ticks
 * unread. And what the engine reports: every signal's outcome (a trade, a skip, a command the
 * portfolio refused), the refusals a rule made, the market read for BUY signals only, and, with
 * quoteHeldOnly, the ticks of the signal's coin and the coins held only.
 */
import { expect } from 'chai';
import { coins, type CoinId } from '../../market/coins';
import { tickAt, tickTime, TICKS_PER_MINUTE, type CandleArrays } from '../../market/market-path';
import type { BotMarket } from '../bot-trade-decision';
import { DEFAULT_RISK_PROFILE } from '../contracts';
import type { PortfolioEvent, PortfolioState, Position } from '../portfolio';
import { portfolioDecider, type ExitRequest } from '../portfolio.decider';
import type { ExitSpec } from './exit-scan';
import type { ChartAt } from './market-at';
import { PaperEngine, type EngineSignal, type PaperEngineOptions } from './paper-engine';
import type { PriceTicks } from './price-ticks';

/** 10:00 UTC on a Monday: a minute boundary, so B + k is k ticks (5 s each) after it. */
const B = tickAt(Date.UTC(2026, 0, 5, 10));
const iso = (tick: number) => new Date(tickTime(tick)).toISOString();
const LEVEL: Partial<Record<CoinId, number>> = { ethereum: 2000, bitcoin: 50_000, solana: 100 };

/** Every coin flat at its level (10 for the coins not named), with ticks set by hand; counts the ticks read, by coin and tick. */
class MadeUpMarket implements PriceTicks {
  private readonly set = new Map<string, number>();
  /** `${coin}@${tick}` of every price read, and every candle or range read, by coin. */
  readonly priceReads: string[] = [];
  readonly spanReads: CoinId[] = [];
  lastTick(): number {
    return Number.MAX_SAFE_INTEGER;
  }
  at(coinId: CoinId, tick: number, price: number): this {
    this.set.set(`${coinId}@${tick}`, price);
    return this;
  }
  private mid(coinId: CoinId, tick: number): number {
    return this.set.get(`${coinId}@${tick}`) ?? LEVEL[coinId] ?? 10;
  }
  price(coinId: CoinId, tick: number): number {
    this.priceReads.push(`${coinId}@${tick}`);
    return this.mid(coinId, tick);
  }
  minuteCandles(coinId: CoinId, from: number, count: number, out: CandleArrays): CandleArrays {
    this.spanReads.push(coinId);
    for (let j = 0; j < count; j++) {
      const { high, low } = this.span(coinId, (from + j) * TICKS_PER_MINUTE, (from + j + 1) * TICKS_PER_MINUTE);
      out.high[j] = high;
      out.low[j] = low;
    }
    return out;
  }
  minuteVolume(): number {
    return 1e9;
  }
  range(coinId: CoinId, from: number, to: number): { high: number; low: number } {
    this.spanReads.push(coinId);
    return this.span(coinId, from, to);
  }
  private span(coinId: CoinId, from: number, to: number): { high: number; low: number } {
    let high = -Infinity;
    let low = Infinity;
    for (let t = from; t < to; t++) {
      high = Math.max(high, this.mid(coinId, t));
      low = Math.min(low, this.mid(coinId, t));
    }
    return { high, low };
  }
  /** The coins whose price was read at `tick`, each once. */
  coinsReadAt(tick: number): string[] {
    return [...new Set(this.priceReads.filter((r) => r.endsWith(`@${tick}`)).map((r) => r.split('@')[0]!))].sort();
  }
}

/** Figures that let the default profile's entry rules pass (a 5 % day's range, every correlation 0.1). */
const MARKET: BotMarket = {
  figures: { atr14: 10, sigma20: 0.002, range24hPercent: 5, recentVolatility: 0.002, averageVolatility: 0.002 },
  correlations: Object.fromEntries(coins.map((c) => [c.symbol, 0.1])),
};
const noCharts: ChartAt = () => {
  throw new Error('the charts are not read when the market is given');
};

interface Bought {
  tradeId: string;
  symbol: string;
  amount: number;
  price: number;
  tick: number;
  exits?: ExitRequest;
}
/** A portfolio of manual BUYs (each filled at its price, at its tick), opened with the $10,000 of cash. */
function holding(...buys: Bought[]): PortfolioState {
  let state = portfolioDecider.initialState();
  for (const b of buys) {
    const command = { type: 'PlaceSimulatedTrade' as const, data: { userId: 'u1', tradeId: b.tradeId, symbol: b.symbol, side: 'BUY' as const, amount: b.amount, price: b.price, source: { kind: 'MANUAL' as const }, ...(b.exits ? { exits: b.exits } : {}) }, metadata: { now: iso(b.tick) } };
    for (const e of portfolioDecider.decide(command, state)) state = portfolioDecider.evolve(state, e);
  }
  return state;
}
const stops = (stopLossPercent: number | null, takeProfitPercent: number | null): ExitRequest => ({ kind: 'MANUAL', stopLossPercent, takeProfitPercent });

/** A signal whose candle closed at tick `closeTick`'s time: its order fills at the next tick. */
function signal(id: string, type: EngineSignal['type'], symbol: string, closeTick: number): EngineSignal {
  return { eventId: `e-${id}`, signalId: id, type, symbol, price: LEVEL[coins.find((c) => c.symbol === symbol)?.id as CoinId] ?? 10, confidence: 70, candleTime: new Date(tickTime(closeTick) - 5 * 60_000).toISOString() };
}

function engineOf(ticks: MadeUpMarket, options: Partial<PaperEngineOptions> = {}): PaperEngine {
  return new PaperEngine({ ticks, charts: noCharts, userId: 'u1', rules: { profile: DEFAULT_RISK_PROFILE }, marketAt: () => MARKET, ...options });
}

/** Each event as its type, its symbol or value, and its time. */
function timeline(events: readonly PortfolioEvent[]): string[] {
  return events.map((e) => {
    if (e.type === 'PositionClosed') return `closed ${e.data.symbol} ${e.data.reason} at ${e.data.closedAt}`;
    if (e.type === 'PortfolioPeakRecorded') return `peak ${e.data.valueMicros / 1e6} at ${e.data.recordedAt}`;
    if (e.type === 'SimulatedTradePlaced') return `${e.data.side} ${e.data.symbol} at ${e.data.placedAt}`;
    return e.type;
  });
}

describe('engine: the paper engine\'s order of things (a made-up market)', function () {
  it('closes the positions crossed between two signals in tick order, whatever order they are held in, each recorded peak after the closes of its tick', function () {
    // Held in the order ETH, BTC, SOL; crossed at +20, +30 and +10.
    const ticks = new MadeUpMarket().at('ethereum', B + 20, 1790).at('bitcoin', B + 30, 44_000).at('solana', B + 10, 85);
    const portfolio = holding(
      { tradeId: 'eth', symbol: 'ETH', amount: 0.5, price: 2000, tick: B, exits: stops(10, 10) },
      { tradeId: 'btc', symbol: 'BTC', amount: 0.02, price: 50_000, tick: B, exits: stops(10, 10) },
      { tradeId: 'sol', symbol: 'SOL', amount: 5, price: 100, tick: B, exits: stops(10, 10) },
    );
    // The monitor's peaks, handed over in no particular order.
    const peaks = [
      { atMs: tickTime(B + 35), valueMicros: 13_000e6 },
      { atMs: tickTime(B + 20), valueMicros: 12_000e6 },
      { atMs: tickTime(B + 5), valueMicros: 11_000e6 },
    ];
    const engine = engineOf(ticks, { portfolio, peaks });
    engine.advanceTo(B + 40);
    expect(timeline(engine.events)).to.deep.equal([
      `peak 11000 at ${iso(B + 5)}`,
      `closed SOL STOP_LOSS at ${iso(B + 10)}`,
      `closed ETH STOP_LOSS at ${iso(B + 20)}`,
      `peak 12000 at ${iso(B + 20)}`,
      `closed BTC STOP_LOSS at ${iso(B + 30)}`,
      `peak 13000 at ${iso(B + 35)}`,
    ]);
    expect(engine.state.status === 'open' && Object.keys(engine.state.positions)).to.deep.equal([]);
  });

  it('replays a recorded peak once the engine reaches its tick, not a tick later', function () {
    const engine = engineOf(new MadeUpMarket(), { portfolio: holding({ tradeId: 'eth', symbol: 'ETH', amount: 0.5, price: 2000, tick: B }), peaks: [{ atMs: tickTime(B + 7), valueMicros: 11_000e6 }] });
    engine.advanceTo(B + 6);
    expect(engine.events).to.deep.equal([]);
    engine.advanceTo(B + 7);
    expect(timeline(engine.events)).to.deep.equal([`peak 11000 at ${iso(B + 7)}`]);
    engine.advanceTo(B + 100);
    expect(engine.events).to.have.length(1);
  });

  it('a new engine has scanned nothing: its first advance scans from the openings, even at the market\'s very first ticks', function () {
    const ticks = new MadeUpMarket().at('ethereum', 1, 1700);
    const engine = engineOf(ticks, { portfolio: holding({ tradeId: 'eth', symbol: 'ETH', amount: 0.5, price: 2000, tick: 0, exits: stops(10, null) }) });
    engine.advanceTo(1);
    expect(timeline(engine.events)).to.deep.equal([`closed ETH STOP_LOSS at ${iso(1)}`]);
  });

  it('scans the exits up to the tick before a fill first; a crossing on the fill tick itself comes after the order', function () {
    const held = () => holding({ tradeId: 'eth', symbol: 'ETH', amount: 0.5, price: 2000, tick: B, exits: stops(10, null) });
    // The stop (1,800) crossed at the SELL's fill tick, B + 21: the SELL sells the position there, the stop has nothing left.
    const onFill = engineOf(new MadeUpMarket().at('ethereum', B + 21, 1700).at('ethereum', B + 22, 1700), { portfolio: held(), peaks: [] });
    const sold = onFill.onSignal(signal('s1', 'SELL', 'ETH', B + 20));
    expect(sold).to.deep.include({ signalId: 's1', fillTick: B + 21, action: 'TRADE' });
    onFill.advanceTo(B + 40);
    expect(timeline(onFill.events)).to.deep.equal([`SELL ETH at ${iso(B + 21)}`]);
    // Crossed at the tick before the fill: the stop closes it first, and the SELL finds nothing to sell (asked nothing of the bot: no refusal).
    const before = engineOf(new MadeUpMarket().at('ethereum', B + 20, 1700), { portfolio: held(), peaks: [] });
    const skipped = before.onSignal(signal('s1', 'SELL', 'ETH', B + 20));
    expect(timeline(before.events)).to.deep.equal([`closed ETH STOP_LOSS at ${iso(B + 20)}`]);
    expect(skipped).to.deep.equal({ signalId: 's1', fillTick: B + 21, action: 'SKIP', decision: skipped.decision, events: [] });
    expect(skipped.decision).to.deep.include({ action: 'SKIP', reason: 'NOTHING_TO_SELL', decision: null });
    expect(before.refusals).to.deep.equal([]);
  });

  it('reports every signal\'s outcome in order (or none, asked to keep none), and forgets its events when told, keeping the state', function () {
    const run = (keepOutcomes?: boolean) => {
      const engine = engineOf(new MadeUpMarket(), keepOutcomes === undefined ? {} : { keepOutcomes });
      const returned = [signal('s1', 'BUY', 'ETH', B + 10), signal('s2', 'HOLD', 'ETH', B + 20), signal('s3', 'BUY', 'ETH', B + 30)].map((s) => engine.onSignal(s));
      return { engine, returned };
    };
    const { engine, returned } = run();
    expect(returned.map((o) => o.action)).to.deep.equal(['TRADE', 'SKIP', 'SKIP']);
    expect(engine.outcomes).to.deep.equal(returned);
    // The BUY's outcome: its events are the ones appended for it (the portfolio opened, the trade).
    expect(returned[0]).to.deep.include({ signalId: 's1', fillTick: B + 11, action: 'TRADE' });
    expect(returned[0]!.action === 'TRADE' && timeline(returned[0]!.events)).to.deep.equal(['PortfolioOpened', `BUY ETH at ${iso(B + 11)}`]);
    // The second BUY of a coin held is refused by a rule: recorded as the bot records it.
    expect(engine.refusals.map((r) => [r.signalId, r.decision.rule, r.refusedAt])).to.deep.equal([['s3', 'POSITION_ALREADY_OPEN', iso(B + 31)]]);
    expect(run(true).engine.outcomes).to.have.length(3);
    const quiet = run(false);
    expect(quiet.engine.outcomes).to.deep.equal([]);
    expect(quiet.returned.map((o) => o.action)).to.deep.equal(['TRADE', 'SKIP', 'SKIP']);

    const state = engine.state;
    expect(engine.events.length).to.be.greaterThan(0);
    engine.forgetEvents();
    expect(engine.events).to.deep.equal([]);
    expect(engine.state).to.equal(state);
  });

  it('reports a command the portfolio refuses, appending nothing (a sale at a price above the largest the portfolio takes)', function () {
    const ticks = new MadeUpMarket().at('ethereum', B + 21, 2e9);
    const portfolio = holding({ tradeId: 'eth', symbol: 'ETH', amount: 0.5, price: 2000, tick: B });
    const engine = engineOf(ticks, { portfolio, peaks: [] });
    const outcome = engine.onSignal(signal('s1', 'SELL', 'ETH', B + 20));
    expect(outcome).to.deep.equal({ signalId: 's1', fillTick: B + 21, action: 'REFUSED', decision: outcome.decision, error: 'price must be at most 1000000000, got 2000000000' });
    expect(outcome.decision.action).to.equal('TRADE');
    expect(engine.events).to.deep.equal([]);
    expect(engine.state).to.equal(portfolio);
    expect(engine.outcomes).to.deep.equal([outcome]);
  });

  it('throws a fault that is not the portfolio\'s refusal (a state it cannot read) instead of reporting it as a refused command', function () {
    const portfolio = holding({ tradeId: 'eth', symbol: 'ETH', amount: 0.5, price: 2000, tick: B });
    if (portfolio.status !== 'open') throw new Error('not open');
    const broken: PortfolioState = { ...portfolio, positions: { ETH: { ...portfolio.positions.ETH!, openTradeIds: undefined as unknown as string[] } } };
    const engine = engineOf(new MadeUpMarket(), { portfolio: broken, peaks: [], exitSpec: () => null });
    expect(() => engine.onSignal(signal('s1', 'BUY', 'BTC', B + 10))).to.throw(TypeError);
    expect(engine.outcomes).to.deep.equal([]);
  });

  it('words each decision unless told not to (the rule alone then)', function () {
    const worded = engineOf(new MadeUpMarket()).onSignal(signal('s1', 'BUY', 'ETH', B + 10));
    expect(worded.action === 'TRADE' && worded.decision.action === 'TRADE' && worded.decision.decision.text).to.match(/^bought 5\.00% of \$10,000\.00/);
    const bare = engineOf(new MadeUpMarket(), { explain: false }).onSignal(signal('s1', 'BUY', 'ETH', B + 10));
    expect(bare.decision.action === 'TRADE' && bare.decision.decision).to.deep.equal({ rule: 'FIXED_SIZE', text: '', figures: {} });
  });

  it('reads the market for BUY signals of a supported coin only, at the fill time', function () {
    const asked: Array<[CoinId, string]> = [];
    const engine = engineOf(new MadeUpMarket(), {
      marketAt: (coinId, atMs) => {
        asked.push([coinId, new Date(atMs).toISOString()]);
        return MARKET;
      },
    });
    engine.onSignal(signal('s1', 'SELL', 'ETH', B + 10));
    engine.onSignal(signal('s2', 'HOLD', 'BTC', B + 20));
    engine.onSignal(signal('s3', 'BUY', 'DOGE', B + 30));
    expect(asked).to.deep.equal([]);
    engine.onSignal(signal('s4', 'BUY', 'SOL', B + 40));
    expect(asked).to.deep.equal([['solana', iso(B + 41)]]);
  });

  it('quotes every coin at the fill tick by default, and with quoteHeldOnly the signal\'s coin and the coins held only', function () {
    const portfolio = holding({ tradeId: 'eth', symbol: 'ETH', amount: 0.5, price: 2000, tick: B }, { tradeId: 'sol', symbol: 'SOL', amount: 5, price: 100, tick: B });
    const every = new MadeUpMarket();
    engineOf(every, { portfolio }).onSignal(signal('s1', 'BUY', 'BTC', B + 10));
    expect(every.coinsReadAt(B + 11)).to.deep.equal(coins.map((c) => c.id).sort());
    const held = new MadeUpMarket();
    const engine = engineOf(held, { portfolio, quoteHeldOnly: true });
    const outcome = engine.onSignal(signal('s1', 'BUY', 'BTC', B + 10));
    expect(held.coinsReadAt(B + 11)).to.deep.equal(['bitcoin', 'ethereum', 'solana']);
    expect(outcome.action).to.equal('TRADE');
    // Once ETH is sold it is no longer quoted.
    engine.onSignal(signal('s2', 'SELL', 'ETH', B + 20));
    engine.onSignal(signal('s3', 'HOLD', 'BNB', B + 30));
    expect(held.coinsReadAt(B + 31)).to.deep.equal(['binancecoin', 'bitcoin', 'solana']);
  });

  it('without recorded peaks, records the portfolio\'s value at each fill tick when it rises past the peak; with them, only theirs', function () {
    // 0.5 ETH bought at 2,000 with its $1 fee: $8,999 of cash; ETH at 4,000 at the fill tick: worth $10,999.
    const ticks = () => new MadeUpMarket().at('ethereum', B + 11, 4000);
    const portfolio = holding({ tradeId: 'eth', symbol: 'ETH', amount: 0.5, price: 2000, tick: B });
    const engine = engineOf(ticks(), { portfolio });
    engine.onSignal(signal('s1', 'HOLD', 'ETH', B + 10));
    expect(engine.events).to.deep.equal([{ type: 'PortfolioPeakRecorded', data: { userId: 'u1', valueMicros: 10_999_000_000, recordedAt: iso(B + 11) } }]);
    // Not again at the same value.
    engine.onSignal(signal('s2', 'HOLD', 'ETH', B + 10));
    expect(engine.events).to.have.length(1);
    const replayed = engineOf(ticks(), { portfolio, peaks: [] });
    replayed.onSignal(signal('s1', 'HOLD', 'ETH', B + 10));
    expect(replayed.events).to.deep.equal([]);
    // Nothing to value before the first trade opens the portfolio.
    const fresh = engineOf(ticks());
    fresh.onSignal(signal('s1', 'BUY', 'ETH', B + 10));
    expect(timeline(fresh.events)).to.deep.equal(['PortfolioOpened', `BUY ETH at ${iso(B + 11)}`]);
  });

  it('a position without automatic exits is never closed, whatever the price', function () {
    const ticks = new MadeUpMarket();
    for (let t = B + 1; t <= B + 30; t++) ticks.at('ethereum', t, 1 + t - B);
    const engine = engineOf(ticks, { portfolio: holding({ tradeId: 'eth', symbol: 'ETH', amount: 0.5, price: 2000, tick: B }), peaks: [] });
    engine.advanceTo(B + 30);
    expect(engine.events).to.deep.equal([]);
    const none = engineOf(ticks, { portfolio: holding({ tradeId: 'eth', symbol: 'ETH', amount: 0.5, price: 2000, tick: B, exits: stops(10, 10) }), peaks: [], exitSpec: () => null });
    none.advanceTo(B + 30);
    expect(none.events).to.deep.equal([]);
  });

  it('moves a position past a candle whose range cannot reach its levels without reading its ticks, and finds the next crossing as a plain scan does', function () {
    const ticks = new MadeUpMarket().at('ethereum', B + 130, 1795);
    const engine = engineOf(ticks, { portfolio: holding({ tradeId: 'eth', symbol: 'ETH', amount: 0.5, price: 2000, tick: B, exits: stops(10, 10) }), peaks: [] });
    engine.advanceTo(B + 59);
    const read = ticks.priceReads.length + ticks.spanReads.length;
    // The candle of ticks B + 60 to B + 119 stayed within 1,900 and 2,100: the levels (1,800 and 2,200) are out of its reach.
    engine.advanceTo(B + 119, { coinId: 'ethereum', from: B + 60, high: 2100, low: 1900 });
    expect(ticks.priceReads.length + ticks.spanReads.length, 'nothing read for the skipped candle').to.equal(read);
    engine.advanceTo(B + 179);
    expect(timeline(engine.events)).to.deep.equal([`closed ETH STOP_LOSS at ${iso(B + 130)}`]);
  });

  it('applies a position\'s changed levels from the last tick scanned on, never to ticks already scanned, across trades in other coins and recorded peaks', function () {
    // ETH dipped to 1,900 at B + 10, under the wide levels (a stop at 1,500); the stop is then raised to 1,950.
    const ticks = new MadeUpMarket().at('ethereum', B + 10, 1900).at('ethereum', B + 80, 1940);
    const wide: ExitSpec = { stopLoss: 1500, trail: 0, entry: 2000, takeProfit: Number.POSITIVE_INFINITY };
    let levels = wide;
    const exitSpec = (position: Position): ExitSpec | null => (position.symbol === 'ETH' ? levels : null);
    const portfolio = holding({ tradeId: 'eth', symbol: 'ETH', amount: 0.5, price: 2000, tick: B });
    const engine = engineOf(ticks, { portfolio, exitSpec, peaks: [{ atMs: tickTime(B + 30), valueMicros: 11_000e6 }] });
    engine.advanceTo(B + 20);
    levels = { ...wide, stopLoss: 1950 };
    engine.advanceTo(B + 40); // the peak, with ETH the only position
    engine.onSignal(signal('s1', 'BUY', 'BTC', B + 50)); // a trade in another coin
    engine.advanceTo(B + 70);
    expect(timeline(engine.events)).to.deep.equal([`peak 11000 at ${iso(B + 30)}`, `BUY BTC at ${iso(B + 51)}`]);
    engine.advanceTo(B + 100);
    expect(timeline(engine.events).slice(2)).to.deep.equal([`closed ETH STOP_LOSS at ${iso(B + 80)}`]);
  });
});
