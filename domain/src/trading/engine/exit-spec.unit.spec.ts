/**
 * A position's exit levels for the scan, from its exit plan and the risk profile (issue 17): a bot
 * position follows the profile as it is now (fixed, atr and volatility stops a fixed level from the
 * entry and the figures recorded then, a trailing stop a fraction below the highest tick since the
 * entry, the target takeProfitRatio times the stop's distance), a manual position its own levels or
 * none; where a scan of it starts (its opening fill's tick); and the ClosePosition a crossing becomes
 * (the tick's price and time, the level, the minute's volume).
 */
import { expect } from 'chai';
import type { CoinId } from '../../market/coins';
import { tickAt, tickTime } from '../../market/market-path';
import { DEFAULT_RISK_PROFILE, type RiskProfile } from '../contracts';
import type { PortfolioState, Position } from '../portfolio';
import { portfolioDecider, type ExitRequest, type PlaceSimulatedTrade } from '../portfolio.decider';
import { newExitHit, scanExits, STOP_LOSS, TAKE_PROFIT } from './exit-scan';
import { closeCommandFor, cursorAtOpening, exitSpecOf } from './exit-spec';
import type { PriceTicks } from './price-ticks';

const OPENED = '2026-01-05T10:00:07.000Z';
const BOT: ExitRequest = { kind: 'PROFILE', atr: null, sigma: null };
const buy = (tradeId: string, price: number, exits: ExitRequest | null = BOT, now = OPENED): PlaceSimulatedTrade => ({
  type: 'PlaceSimulatedTrade',
  data: { userId: 'u1', tradeId, symbol: 'ETH', side: 'BUY', amount: 0.25, price, source: { kind: 'MANUAL' }, ...(exits ? { exits } : {}) },
  metadata: { now },
});
const profile = (changes: Partial<RiskProfile> = {}): RiskProfile => ({ ...DEFAULT_RISK_PROFILE, ...changes });

function positionAfter(...commands: PlaceSimulatedTrade[]): Position {
  let state: PortfolioState = portfolioDecider.initialState();
  for (const c of commands) for (const e of portfolioDecider.decide(c, state)) state = portfolioDecider.evolve(state, e);
  if (state.status !== 'open') throw new Error('not open');
  return state.positions.ETH!;
}

/** A path of the given prices from the opening tick on (only `price` is read: the spans here are short). */
function pricesFrom(opening: number, prices: number[]): PriceTicks {
  const unused = () => {
    throw new Error('not read by a short scan');
  };
  return { lastTick: () => opening + prices.length - 1, price: (_coinId: CoinId, tick: number) => prices[tick - opening]!, minuteCandles: unused, minuteVolume: unused, range: unused };
}

describe('engine: exit levels and the close of a crossing', function () {
  it('a bot position: the profile\'s fixed stop and target from the average entry, no trailing', function () {
    expect(exitSpecOf(positionAfter(buy('t1', 2000)), profile())).to.deep.equal({ stopLoss: 2000 * 0.98, trail: 0, entry: 2000, takeProfit: 2000 + 2.5 * 40 });
    const added = exitSpecOf(positionAfter(buy('t1', 2000), buy('t2', 2200, BOT, '2026-01-05T11:00:00.000Z')), profile({ stopLossValue: 1, takeProfitRatio: 10 }))!;
    expect(added.entry).to.be.closeTo(2100, 1e-9);
    expect(added.stopLoss).to.be.closeTo(2079, 1e-9);
    expect(added.takeProfit).to.be.closeTo(2310, 1e-9);
  });

  it('a bot position follows the profile as it is now: a wider stop set after the entry', function () {
    expect(exitSpecOf(positionAfter(buy('t1', 2000)), profile({ stopLossValue: 5, takeProfitRatio: 3 }))).to.deep.include({ stopLoss: 1900, takeProfit: 2300 });
  });

  it('a manual position without levels has no exit to scan; one with levels keeps its own, not the profile\'s', function () {
    expect(exitSpecOf(positionAfter(buy('t1', 2000, null)), profile())).to.equal(null);
    const manual = exitSpecOf(positionAfter(buy('t1', 2000, { kind: 'MANUAL', stopLossPercent: 10, takeProfitPercent: null })), profile({ stopLossValue: 1 }));
    expect(manual).to.deep.equal({ stopLoss: 1800, trail: 0, entry: 2000, takeProfit: Number.POSITIVE_INFINITY });
  });

  it('trailing: the stop v % below the highest tick since the entry (never below the fixed level), the target from the fixed distance', function () {
    expect(exitSpecOf(positionAfter(buy('t1', 2000)), profile({ stopLossType: 'trailing', stopLossValue: 2 }))).to.deep.equal({ stopLoss: 1960, trail: 0.02, entry: 2000, takeProfit: 2100 });
  });

  it('atr and volatility: a fixed stop, k x the ATR14 or sigma recorded at the entry; a position without them uses those of now; none at all, no level', function () {
    const atr = profile({ stopLossType: 'atr', stopLossValue: 2 });
    const recorded = positionAfter(buy('t1', 2000, { kind: 'PROFILE', atr: 10, sigma: 0.004 }));
    expect(exitSpecOf(recorded, atr, 50, 0.01), 'the entry ATR 10, not the 50 of now').to.deep.equal({ stopLoss: 1980, trail: 0, entry: 2000, takeProfit: 2050 });
    expect(exitSpecOf(recorded, profile({ stopLossType: 'volatility', stopLossValue: 2 }), 50, 0.01), 'k x sigma x entry: 16').to.deep.include({ stopLoss: 1984, takeProfit: 2040 });
    const before = positionAfter(buy('t1', 2000));
    expect(exitSpecOf(before, atr, 25)).to.deep.include({ stopLoss: 1950, takeProfit: 2125 });
    expect(exitSpecOf(before, atr), 'no ATR at all: neither level can be set').to.equal(null);
  });

  it('a trailing stop follows the highest tick from the entry\'s own first minute on (the candle ladder missed it), and closes at the first tick below', function () {
    const position = positionAfter(buy('t1', 2000));
    const opening = tickAt(Date.parse(OPENED));
    // 07 s: the fill; 10 s: 2,080 in the same minute; then down: the stop is 2,080 x 0.98 = 2,038.40.
    const ticks = pricesFrom(opening, [2000, 2080, 2050, 2039, 2038, 1990]);
    const cursor = cursorAtOpening(position);
    const hit = newExitHit();
    expect(scanExits(ticks, 'ethereum', exitSpecOf(position, profile({ stopLossType: 'trailing' }))!, cursor, opening + 5, hit)).to.equal(true);
    expect(hit).to.deep.equal({ tick: opening + 4, price: 2038, reason: STOP_LOSS, level: 2080 * 0.98 });
    expect(cursor).to.deep.equal({ tick: opening + 3, highest: 2080 });
  });

  it('starts a scan after the opening fill\'s tick, with no highest yet', function () {
    expect(cursorAtOpening({ openedAt: OPENED })).to.deep.equal({ tick: tickAt(Date.parse('2026-01-05T10:00:05.000Z')), highest: Number.NaN });
  });

  it('closes at the crossing tick\'s price and time, naming the level, the position and the minute\'s volume', function () {
    const tick = tickAt(Date.parse('2026-01-05T12:34:55.000Z'));
    const stop = closeCommandFor('u1', { positionId: 't1', symbol: 'ETH' }, { tick, price: 1955.5, reason: STOP_LOSS, level: 1960 }, 2.5e6);
    expect(stop).to.deep.equal({
      type: 'ClosePosition',
      data: { userId: 'u1', positionId: 't1', symbol: 'ETH', reason: 'STOP_LOSS', price: 1955.5, market: { filledAt: '2026-01-05T12:34:55.000Z', minuteVolumeUsd: 2.5e6, level: 1960 } },
      metadata: { now: '2026-01-05T12:34:55.000Z' },
    });
    expect(tickTime(tick)).to.equal(Date.parse(stop.metadata.now));
    const target = closeCommandFor('u1', { positionId: 't1', symbol: 'ETH' }, { tick: -1, price: 2101, reason: TAKE_PROFIT, level: 2100 }, 1e6, Date.parse('2026-01-05T12:35:01.250Z'));
    expect(target.data).to.include({ reason: 'TAKE_PROFIT', price: 2101 });
    expect(target.metadata.now, 'a live price\'s own time').to.equal('2026-01-05T12:35:01.250Z');
  });
});
