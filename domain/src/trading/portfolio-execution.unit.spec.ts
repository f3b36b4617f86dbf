/**
 * The portfolio decider's fills like an exchange's (issue 17, section 2), as given/when/then: a trade
 * that carries its market fills at the mid plus (BUY) or less (SELL) the coin's half spread and the
 * impact, pays the fee on that, and records what it met; a stop loss or take profit close fills at
 * the crossing tick less the costs and records the level; bad market figures are refused with
 * nothing appended; a command without a market fills at its price as before.
 */
import { expect } from 'chai';
import { specFor } from '../shared/decider-specification';
import { IllegalStateError, ValidationError } from '../shared/errors';
import { sigmaPerMinute } from './engine/fills';
import { STARTING_CASH_MICROS } from './money';
import type { PortfolioEvent, SimulatedTradePlaced } from './portfolio';
import { portfolioDecider, type ClosePosition, type PlaceSimulatedTrade } from './portfolio.decider';

const spec = specFor(portfolioDecider);
const NOW = '2026-03-04T05:06:07.000Z';
const TICK = '2026-03-04T05:06:05.000Z';
const opened: PortfolioEvent = { type: 'PortfolioOpened', data: { userId: 'u1', startingCashMicros: STARTING_CASH_MICROS, openedAt: NOW } };
const market = { filledAt: TICK, minuteVolumeUsd: 4_000_000 };

function place(tradeId: string, side: 'BUY' | 'SELL', amount: number, mid: number, extra: Partial<PlaceSimulatedTrade['data']> = {}): PlaceSimulatedTrade {
  return { type: 'PlaceSimulatedTrade', data: { userId: 'u1', tradeId, symbol: 'ETH', side, amount, price: mid, source: { kind: 'MANUAL' }, market, ...extra }, metadata: { now: NOW } };
}

/** The impact the square-root law gives ether for `usd` against the spec's minute. */
const ethImpact = (usd: number) => sigmaPerMinute('ethereum') * Math.sqrt(usd / market.minuteVolumeUsd);

function bought(tradeId: string, quantity: number, mid: number): SimulatedTradePlaced {
  const impact = ethImpact(quantity * mid);
  const price = mid * (1 + 0.00005 + impact);
  const notional = Math.round(quantity * price * 1e6);
  return {
    type: 'SimulatedTradePlaced',
    data: {
      userId: 'u1',
      tradeId,
      coinId: 'ethereum',
      symbol: 'ETH',
      side: 'BUY',
      quantity,
      price,
      notionalMicros: notional,
      feeMicros: Math.round(notional * 0.001),
      costBasisClosedMicros: 0,
      entryNotionalClosedMicros: 0,
      realisedPnlMicros: 0,
      source: { kind: 'MANUAL' },
      closedTradeIds: [],
      lotRule: 'FIFO',
      lots: [],
      // A manual BUY without levels has no automatic exit (issue 17's exit plans).
      exits: { kind: 'NONE' },
      execution: { mid, halfSpread: 0.00005, impact, filledAt: TICK },
      placedAt: NOW,
    },
  };
}

describe('portfolio decider: fills like an exchange\'s', function () {
  it('fills a BUY at the mid plus the half spread and the impact, with the fee on that, and records what it met', function () {
    spec.given([]).when(place('t1', 'BUY', 0.5, 3000)).then([opened, bought('t1', 0.5, 3000)]);
    const event = bought('t1', 0.5, 3000);
    expect(event.data.price).to.be.greaterThan(3000 * 1.00005);
    expect(event.data.execution!.impact).to.be.within(1e-6, 1e-4);
  });

  it('fills a SELL at the mid less the half spread and the impact; its P&L is net of both sides\' costs', function () {
    const [buy] = [bought('t1', 0.5, 3000)];
    const events = portfolioDecider.decide(place('t2', 'SELL', 0.5, 3000), [opened, buy].reduce(portfolioDecider.evolve, portfolioDecider.initialState()));
    const sell = events[0] as SimulatedTradePlaced;
    const impact = ethImpact(1500);
    expect(sell.data.price).to.equal(3000 * (1 - 0.00005 - impact));
    expect(sell.data.execution).to.deep.equal({ mid: 3000, halfSpread: 0.00005, impact, filledAt: TICK });
    // A round trip at an unchanged mid loses both half spreads, both impacts and both fees.
    const cost = buy.data.notionalMicros + buy.data.feeMicros;
    expect(sell.data.realisedPnlMicros).to.equal(sell.data.notionalMicros - sell.data.feeMicros - cost);
    expect(sell.data.realisedPnlMicros / 1e6).to.be.closeTo(-(1500 * 2 * (0.00005 + impact)) - 3, 0.01);
  });

  it('records a bot order\'s intended tick and its delay', function () {
    const late = place('t1', 'BUY', 0.1, 3000, { market: { ...market, filledAt: '2026-03-04T05:06:05.000Z', intendedAt: '2026-03-04T05:05:05.000Z' } });
    const [, event] = portfolioDecider.decide(late, portfolioDecider.initialState()) as [PortfolioEvent, SimulatedTradePlaced];
    expect(event.data.execution).to.include({ intendedAt: '2026-03-04T05:05:05.000Z', filledAt: '2026-03-04T05:06:05.000Z', delayMs: 60_000 });
  });

  it('closes a stop at the crossing tick\'s mid less the costs (a gap costs the gap), at the tick\'s time, and records the level', function () {
    const buy = bought('t1', 0.5, 3000);
    const close: ClosePosition = {
      type: 'ClosePosition',
      data: { userId: 'u1', positionId: 't1', symbol: 'ETH', reason: 'STOP_LOSS', price: 2930, market: { filledAt: '2026-03-04T06:00:05.000Z', minuteVolumeUsd: 4_000_000, level: 2940 } },
      metadata: { now: '2026-03-04T06:00:05.000Z' },
    };
    const [event] = portfolioDecider.decide(close, [opened, buy].reduce(portfolioDecider.evolve, portfolioDecider.initialState()));
    const impact = ethImpact(0.5 * 2930);
    expect(event!.type).to.equal('PositionClosed');
    expect(event!.data).to.deep.include({ reason: 'STOP_LOSS', quantity: 0.5, price: 2930 * (1 - 0.00005 - impact), closedAt: '2026-03-04T06:00:05.000Z' });
    expect(event!.data).to.have.deep.property('execution', { mid: 2930, halfSpread: 0.00005, impact, filledAt: '2026-03-04T06:00:05.000Z', level: 2940 });
  });

  it('sets a manual stop and target in percent of the fill price the person pays, the costs included, not of the mid', function () {
    const [, event] = portfolioDecider.decide(place('t1', 'BUY', 0.5, 3000, { exits: { kind: 'MANUAL', stopLossPercent: 2, takeProfitPercent: 5 } }), portfolioDecider.initialState()) as [PortfolioEvent, SimulatedTradePlaced];
    const fill = event.data.price;
    expect(fill).to.be.greaterThan(3000);
    expect(event.data.exits).to.deep.equal({ kind: 'MANUAL', stopLoss: fill * 0.98, takeProfit: fill * 1.05, stopLossPercent: 2, takeProfitPercent: 5 });
  });

  it('refuses a BUY of all the cash at the market price: the spread and impact are on top, and the refusal says so', function () {
    // 10,000 USD of cash and a mid of 2,500: 3.996 ETH is 9,990 at the mid, 10,000 with the fee, more with the spread.
    spec
      .given([opened])
      .when(place('t1', 'BUY', 3.996, 2500))
      .thenThrows(IllegalStateError, /^Insufficient paper cash: buying 3\.996 ETH at \$2,500\.\d\d \(the market price \$2,500\.00 plus the spread and impact\) costs \$10,00\d\.\d\d with the fee, cash is \$10,000\.00$/);
  });

  it('without a market fills at the price given, as before (a price decided elsewhere), and records no execution', function () {
    const [, event] = portfolioDecider.decide(place('t1', 'BUY', 0.5, 3000, { market: undefined }), portfolioDecider.initialState()) as [PortfolioEvent, SimulatedTradePlaced];
    expect(event.data.price).to.equal(3000);
    expect(event.data).to.not.have.property('execution');
  });

  it('refuses bad market figures with a ValidationError naming the field, appending nothing', function () {
    const bad: Array<[Partial<PlaceSimulatedTrade['data']>, string]> = [
      [{ market: { ...market, filledAt: 'yesterday' } }, 'market.filledAt'],
      [{ market: { ...market, minuteVolumeUsd: -1 } }, 'market.minuteVolumeUsd'],
      [{ market: { ...market, minuteVolumeUsd: Number.NaN } }, 'market.minuteVolumeUsd'],
      [{ market: { ...market, minuteVolumeUsd: '5' as unknown as number } }, 'market.minuteVolumeUsd'],
      [{ market: { ...market, intendedAt: '' } }, 'market.intendedAt'],
      [{ market: { ...market, level: 2900 } }, 'market.level'],
      [{ market: null as unknown as undefined }, 'market'],
    ];
    for (const [extra, field] of bad) {
      spec.given([]).when(place('t1', 'BUY', 0.5, 3000, extra)).thenThrows(ValidationError);
      expect(() => portfolioDecider.decide(place('t1', 'BUY', 0.5, 3000, extra), portfolioDecider.initialState())).to.throw(ValidationError).with.property('extra').that.deep.equals({ field });
    }
    const noLevel: ClosePosition = { type: 'ClosePosition', data: { userId: 'u1', positionId: 't1', symbol: 'ETH', reason: 'STOP_LOSS', price: 2930, market }, metadata: { now: NOW } };
    spec.given([opened, bought('t1', 0.5, 3000)]).when(noLevel).thenThrows(ValidationError);
  });
});
