/**
 * The portfolio decider as given/when/then: opening on first use, BUY and SELL fills with the fee,
 * FIFO lots and realised P&L net of fees, the cash and holdings limits, input validation,
 * idempotency by trade id (and by signal), stop loss / take profit closes and reset; events stored
 * before FIFO (schema version 1, average cost) fold as they always did; issue 17 (schema version 3):
 * a BUY's exit plan (a manual one's percents as levels at the fill price, none without them, a bot's
 * profile plan with its entry figures), the bot's decision record, the recorded peak and the closed
 * trades' wins and losses; version 2 BUYs upcast to a plan by their source.
 */
import { expect } from 'chai';
import { fold } from '../shared/decider';
import { eventsOf, specFor } from '../shared/decider-specification';
import { IllegalStateError, ValidationError } from '../shared/errors';
import { STARTING_CASH_MICROS } from './money';
import { apportion, PORTFOLIO_SCHEMA_VERSION, rememberedTradeIds, TRADE_ID_BATCH, TRADE_ID_MEMORY, upcastPortfolioEvent, type PortfolioEvent, type PortfolioState, type SimulatedTradePlaced, type TradeSource } from './portfolio';
import { PEAK_STEP, portfolioDecider, type ClosePosition, type ExitRequest, type PlaceSimulatedTrade } from './portfolio.decider';

const spec = specFor(portfolioDecider);
const NOW = '2026-03-04T05:06:07.000Z';
const LATER = '2026-03-04T09:00:00.000Z';
const NEXT_DAY = '2026-03-05T00:00:01.000Z';
const MANUAL: TradeSource = { kind: 'MANUAL' };
const signalAt = (candleTime: string, signalId = `sig-${candleTime}`): TradeSource => ({ kind: 'SIGNAL', eventId: `evt-${signalId}`, signalId, signalType: 'BUY', candleTime });

const opened: PortfolioEvent = { type: 'PortfolioOpened', data: { userId: 'u1', startingCashMicros: STARTING_CASH_MICROS, openedAt: NOW } };

function place(tradeId: string, side: 'BUY' | 'SELL', amount: number, price: number, symbol = 'ETH', source: TradeSource = MANUAL, now = NOW): PlaceSimulatedTrade {
  return { type: 'PlaceSimulatedTrade', data: { userId: 'u1', tradeId, symbol, side, amount, price, source }, metadata: { now } };
}
const close = (positionId: string, reason: 'STOP_LOSS' | 'TAKE_PROFIT', price: number, symbol = 'ETH'): ClosePosition => ({
  type: 'ClosePosition',
  data: { userId: 'u1', positionId, symbol, reason, price },
  metadata: { now: LATER },
});

/** 0.5 ETH at 3,000: notional $1,500, fee $1.50. */
const buyHalfEth: SimulatedTradePlaced = {
  type: 'SimulatedTradePlaced',
  data: {
    userId: 'u1',
    tradeId: 't1',
    coinId: 'ethereum',
    symbol: 'ETH',
    side: 'BUY',
    quantity: 0.5,
    price: 3000,
    notionalMicros: 1_500_000_000,
    feeMicros: 1_500_000,
    costBasisClosedMicros: 0,
    entryNotionalClosedMicros: 0,
    realisedPnlMicros: 0,
    source: MANUAL,
    closedTradeIds: [],
    lotRule: 'FIFO',
    lots: [],
    exits: { kind: 'NONE' },
    placedAt: NOW,
  },
};

/** A BUY's data as a SELL's starting point: a SELL records no exit plan. */
const sellOf = (buy: SimulatedTradePlaced) => {
  const { exits: _exits, ...data } = buy.data;
  return data;
};

/** Runs the decider over a sequence of commands from nothing, as the command handler would. */
const history = (...commands: PlaceSimulatedTrade[]): PortfolioEvent[] => eventsOf(portfolioDecider, ...commands);

describe('portfolio decider', function () {
  describe('opening and buying', function () {
    it('the first trade opens the portfolio with 10,000 USD and fills at the price given, with a 0.1 percent fee', function () {
      spec.given([]).when(place('t1', 'BUY', 0.5, 3000)).then([opened, buyHalfEth]);
    });

    it('an open portfolio is not opened again; the symbol is taken in any case', function () {
      const second = { ...buyHalfEth.data, tradeId: 't2', quantity: 0.1, price: 3100, notionalMicros: 310_000_000, feeMicros: 310_000 };
      spec.given([opened, buyHalfEth]).when(place('t2', 'BUY', 0.1, 3100, 'eth')).then([{ type: 'SimulatedTradePlaced', data: second }]);
    });

    it('records the signal a trade followed', function () {
      const source = signalAt('2026-03-04T05:00:00.000Z');
      spec.given([opened]).when(place('t1', 'BUY', 0.5, 3000, 'ETH', source)).then([{ type: 'SimulatedTradePlaced', data: { ...buyHalfEth.data, source } }]);
    });

    it('may spend the whole cash, fee included, to the micro-dollar', function () {
      // 1 coin at 9,990.00999: notional 9,990.009990 + fee 9.990010 = 10,000.000000
      const events = spec.given([opened]).when(place('t1', 'BUY', 1, 9990.00999));
      events.then([
        {
          type: 'SimulatedTradePlaced',
          data: { ...buyHalfEth.data, quantity: 1, price: 9990.00999, notionalMicros: 9_990_009_990, feeMicros: 9_990_010 },
        },
      ]);
    });

    it('refuses to buy beyond the cash, counting the fee', function () {
      spec.given([opened]).when(place('t1', 'BUY', 1, 9990.01)).thenThrows(IllegalStateError, /^Insufficient paper cash: buying 1 ETH costs \$10,000\.00 with the fee, cash is \$10,000\.00$/);
      spec.given([opened, buyHalfEth]).when(place('t2', 'BUY', 3, 3000)).thenThrows(IllegalStateError, /Insufficient paper cash/);
    });
  });

  describe('selling', function () {
    it('a partial sell realises P&L net of both fees on its share of the cost basis, and keeps the BUY open', function () {
      // cost basis 1,501.50 (fee included); half of it 750.75; proceeds 800 - 0.80 fee; P&L 48.45
      spec
        .given([opened, buyHalfEth])
        .when(place('s1', 'SELL', 0.25, 3200))
        .then([
          {
            type: 'SimulatedTradePlaced',
            data: {
              ...sellOf(buyHalfEth),
              tradeId: 's1',
              side: 'SELL',
              quantity: 0.25,
              price: 3200,
              notionalMicros: 800_000_000,
              feeMicros: 800_000,
              costBasisClosedMicros: 750_750_000,
              entryNotionalClosedMicros: 750_000_000,
              realisedPnlMicros: 48_450_000,
              closedTradeIds: [],
              lots: [{ tradeId: 't1', quantity: 0.25, entryPrice: 3000, costMicros: 750_750_000, entryNotionalMicros: 750_000_000 }],
            },
          },
        ]);
    });

    it('selling the whole position closes every open BUY of it', function () {
      const events = history(place('t1', 'BUY', 0.5, 3000), place('t2', 'BUY', 0.5, 2000));
      // basis 1,501.50 + 1,001.00 = 2,502.50; proceeds 2,500 - 2.50; P&L -5.00
      spec
        .given(events)
        .when(place('s1', 'SELL', 1, 2500))
        .then([
          {
            type: 'SimulatedTradePlaced',
            data: {
              ...sellOf(buyHalfEth),
              tradeId: 's1',
              side: 'SELL',
              quantity: 1,
              price: 2500,
              notionalMicros: 2_500_000_000,
              feeMicros: 2_500_000,
              costBasisClosedMicros: 2_502_500_000,
              entryNotionalClosedMicros: 2_500_000_000,
              realisedPnlMicros: -5_000_000,
              closedTradeIds: ['t1', 't2'],
              lots: [
                { tradeId: 't1', quantity: 0.5, entryPrice: 3000, costMicros: 1_501_500_000, entryNotionalMicros: 1_500_000_000 },
                { tradeId: 't2', quantity: 0.5, entryPrice: 2000, costMicros: 1_001_000_000, entryNotionalMicros: 1_000_000_000 },
              ],
            },
          },
        ]);
    });

    describe('FIFO lots (issue 16)', function () {
      // b1 0.5 ETH at 3,000 (cost 1,501.50), b2 0.5 at 3,100 (cost 1,551.55).
      const twoBuys = () => history(place('b1', 'BUY', 0.5, 3000), place('b2', 'BUY', 0.5, 3100));
      const open = (state: PortfolioState) => {
        if (state.status !== 'open') throw new Error('not open');
        return state;
      };

      it('a partial sell takes the oldest lot first: the BUY it empties is closed, the next keeps the rest', function () {
        // All of b1 (1,501.50) and 0.1 of b2 (1,551.55 x 0.2 = 310.31): 1,830 - 1.83 fee - 1,811.81 = 16.36.
        spec
          .given(twoBuys())
          .when(place('s1', 'SELL', 0.6, 3050))
          .then([
            {
              type: 'SimulatedTradePlaced',
              data: {
                ...sellOf(buyHalfEth),
                tradeId: 's1',
                side: 'SELL',
                quantity: 0.6,
                price: 3050,
                notionalMicros: 1_830_000_000,
                feeMicros: 1_830_000,
                costBasisClosedMicros: 1_811_810_000,
                entryNotionalClosedMicros: 1_810_000_000,
                realisedPnlMicros: 16_360_000,
                closedTradeIds: ['b1'],
                lots: [
                  { tradeId: 'b1', quantity: 0.5, entryPrice: 3000, costMicros: 1_501_500_000, entryNotionalMicros: 1_500_000_000 },
                  { tradeId: 'b2', quantity: 0.1, entryPrice: 3100, costMicros: 310_310_000, entryNotionalMicros: 310_000_000 },
                ],
              },
            },
          ]);
        const state = open(fold(portfolioDecider, history(place('b1', 'BUY', 0.5, 3000), place('b2', 'BUY', 0.5, 3100), place('s1', 'SELL', 0.6, 3050))));
        expect(state.positions.ETH).to.deep.include({
          positionId: 'b1',
          units: 40_000_000,
          costBasisMicros: 1_241_240_000,
          entryNotionalMicros: 1_240_000_000,
          openTradeIds: ['b2'],
          lots: [{ tradeId: 'b2', units: 40_000_000, costMicros: 1_241_240_000, entryNotionalMicros: 1_240_000_000, price: 3100 }],
        });
        expect(state).to.include({ realisedPnlMicros: 16_360_000, realisedPnlCents: 1_636, cashMicros: 10_000_000_000 - 1_501_500_000 - 1_551_550_000 + 1_828_170_000 });
      });

      it('a stop loss sells what is left of every lot, and says so', function () {
        const events = history(place('b1', 'BUY', 0.5, 3000), place('b2', 'BUY', 0.5, 3100), place('s1', 'SELL', 0.6, 3050));
        const [closed] = portfolioDecider.decide(close('b1', 'STOP_LOSS', 3000), fold(portfolioDecider, events));
        expect(closed).to.deep.include({ type: 'PositionClosed' });
        expect(closed!.data).to.deep.include({
          quantity: 0.4,
          costBasisClosedMicros: 1_241_240_000,
          entryNotionalClosedMicros: 1_240_000_000,
          closedTradeIds: ['b2'],
          lotRule: 'FIFO',
          lots: [{ tradeId: 'b2', quantity: 0.4, entryPrice: 3100, costMicros: 1_241_240_000, entryNotionalMicros: 1_240_000_000 }],
        });
      });

      it('a lot is remembered by id while it holds anything: replaying its BUY appends nothing', function () {
        const events = history(place('b1', 'BUY', 0.5, 3000), place('b2', 'BUY', 0.5, 3100), place('s1', 'SELL', 0.6, 3050));
        spec.given(events).when(place('b2', 'BUY', 0.5, 3100)).then([]);
      });
    });

    describe('events stored before FIFO (schema version 1, average cost)', function () {
      // What the average-cost decider appended for b1, b2 and a sale of 0.6 at 3,050: 0.6 of the
      // whole cost basis (3,053.05) closed, -3.66 realised, no BUY closed.
      const stored = (type: string, data: Record<string, unknown>) => upcastPortfolioEvent({ type, data, schemaVersion: 1 });
      const v1Buy = (tradeId: string, price: number, notional: number) => {
        const { lotRule: _rule, lots: _lots, ...data } = { ...buyHalfEth.data, tradeId, price, notionalMicros: notional, feeMicros: notional / 1000 };
        return stored('SimulatedTradePlaced', data);
      };
      const v1History = () => [
        stored('PortfolioOpened', opened.data),
        v1Buy('b1', 3000, 1_500_000_000),
        v1Buy('b2', 3100, 1_550_000_000),
        stored('SimulatedTradePlaced', {
          ...v1Buy('s1', 3050, 1_830_000_000).data,
          side: 'SELL',
          quantity: 0.6,
          costBasisClosedMicros: 1_831_830_000,
          entryNotionalClosedMicros: 1_830_000_000,
          realisedPnlMicros: -3_660_000,
          lotRule: undefined,
          lots: undefined,
        }),
      ];

      it('the upcaster marks their fills AVERAGE_COST with no lots, and leaves later versions alone', function () {
        const [, buy, , sell] = v1History();
        expect(buy!.data).to.deep.include({ lotRule: 'AVERAGE_COST', lots: [] });
        const close = stored('PositionClosed', { userId: 'u1', positionId: 'b1', coinId: 'ethereum', symbol: 'ETH', reason: 'STOP_LOSS', quantity: 0.5, price: 2900, notionalMicros: 1_450_000_000, feeMicros: 1_450_000, costBasisClosedMicros: 1_501_500_000, realisedPnlMicros: -52_950_000, closedTradeIds: ['b1'], closedAt: '2026-03-04T12:00:00.000Z' });
        expect(close.data).to.deep.include({ lotRule: 'AVERAGE_COST', lots: [] });
        expect(stored('PortfolioReset', { userId: 'u1', startingCashMicros: 10_000_000_000, resetAt: '2026-03-04T12:00:00.000Z' }).data).to.not.have.property('lots');
        expect(sell!.data).to.deep.include({ lotRule: 'AVERAGE_COST', lots: [], costBasisClosedMicros: 1_831_830_000 });
        expect(upcastPortfolioEvent({ type: buyHalfEth.type, data: buyHalfEth.data, schemaVersion: 2 })).to.deep.equal(buyHalfEth);
        expect(upcastPortfolioEvent({ type: buyHalfEth.type, data: buyHalfEth.data, schemaVersion: 3 })).to.deep.equal(buyHalfEth);
        expect(portfolioDecider.upcast).to.equal(upcastPortfolioEvent);
        expect(portfolioDecider.schemaVersion).to.equal(PORTFOLIO_SCHEMA_VERSION);
        expect(PORTFOLIO_SCHEMA_VERSION).to.equal(3);
      });

      it('fold to the same cash, realised P&L and cost basis as before; every lot gave up the same share', function () {
        const state = fold(portfolioDecider, v1History());
        if (state.status !== 'open') throw new Error('not open');
        expect(state).to.include({ cashMicros: 10_000_000_000 - 1_501_500_000 - 1_551_550_000 + 1_828_170_000, realisedPnlMicros: -3_660_000, realisedPnlCents: -366 });
        expect(state.positions.ETH).to.deep.include({
          units: 40_000_000,
          costBasisMicros: 3_053_050_000 - 1_831_830_000,
          entryNotionalMicros: 3_050_000_000 - 1_830_000_000,
          openTradeIds: ['b1', 'b2'],
          lots: [
            { tradeId: 'b1', units: 20_000_000, costMicros: 600_600_000, entryNotionalMicros: 600_000_000, price: 3000 },
            { tradeId: 'b2', units: 20_000_000, costMicros: 620_620_000, entryNotionalMicros: 620_000_000, price: 3100 },
          ],
        });
      });

      it('a lot that an average-cost sale empties (its share rounded up to all it held) goes, and what it still carried stays with the newest lot', function () {
        // b0 holds one unit (1e-8 ETH) bought for 30 micro-dollars, b1 and b2 half an ETH each. Selling
        // 0.49999999 ETH at average cost takes each lot's share: b0's is 0.49999998 of a unit, b1's and
        // b2's 24,999,999.25 units, so the one unit the floors leave goes to b0 (the largest remainder),
        // which is then empty.
        const b0 = stored('SimulatedTradePlaced', { ...v1Buy('b0', 3000, 30_000).data, quantity: 0.00000001, notionalMicros: 30, feeMicros: 0 });
        const [costClosed, entryClosed] = [1_526_525_000, 1_525_000_000];
        const history = [
          stored('PortfolioOpened', opened.data),
          b0,
          ...v1History().slice(1, 3),
          stored('SimulatedTradePlaced', {
            ...v1Buy('s1', 3050, 1_524_999_970).data,
            side: 'SELL',
            quantity: 0.49999999,
            costBasisClosedMicros: costClosed,
            entryNotionalClosedMicros: entryClosed,
            realisedPnlMicros: 1_524_999_970 - 1_524_999 - costClosed,
            lotRule: undefined,
            lots: undefined,
          }),
        ];
        const state = fold(portfolioDecider, history);
        if (state.status !== 'open') throw new Error('not open');
        const position = state.positions.ETH!;
        const costTaken = apportion(costClosed, [30, 1_501_500_000, 1_551_550_000]);
        const entryTaken = apportion(entryClosed, [30, 1_500_000_000, 1_550_000_000]);
        expect(position.lots).to.deep.equal([
          { tradeId: 'b1', units: 25_000_001, costMicros: 1_501_500_000 - costTaken[1]!, entryNotionalMicros: 1_500_000_000 - entryTaken[1]!, price: 3000 },
          // The newest lot also carries what b0 had left of its cost and entry notional.
          { tradeId: 'b2', units: 25_000_001, costMicros: 1_551_550_000 - costTaken[2]! + (30 - costTaken[0]!), entryNotionalMicros: 1_550_000_000 - entryTaken[2]! + (30 - entryTaken[0]!), price: 3100 },
        ]);
        expect(30 - costTaken[0]!, 'b0 had something left').to.be.greaterThan(0);
        // The lots add up to the position to the micro-dollar.
        expect(position).to.deep.include({ units: 50_000_002, costBasisMicros: 3_053_050_030 - costClosed, entryNotionalMicros: 3_050_000_030 - entryClosed });
      });

      it('a sale after them takes FIFO lots from what average cost left', function () {
        spec
          .given(v1History())
          .when(place('s2', 'SELL', 0.3, 3000))
          .then([
            {
              type: 'SimulatedTradePlaced',
              data: {
                ...sellOf(buyHalfEth),
                tradeId: 's2',
                side: 'SELL',
                quantity: 0.3,
                notionalMicros: 900_000_000,
                feeMicros: 900_000,
                costBasisClosedMicros: 600_600_000 + 310_310_000,
                entryNotionalClosedMicros: 600_000_000 + 310_000_000,
                realisedPnlMicros: 900_000_000 - 900_000 - 910_910_000,
                closedTradeIds: ['b1'],
                lots: [
                  { tradeId: 'b1', quantity: 0.2, entryPrice: 3000, costMicros: 600_600_000, entryNotionalMicros: 600_000_000 },
                  { tradeId: 'b2', quantity: 0.1, entryPrice: 3100, costMicros: 310_310_000, entryNotionalMicros: 310_000_000 },
                ],
              },
            },
          ]);
      });

      it('apportions exactly: parts add up to the total, the largest remainders get what is left', function () {
        expect(apportion(10, [1, 1, 1])).to.deep.equal([4, 3, 3]);
        expect(apportion(7, [3, 0, 4])).to.deep.equal([3, 0, 4]);
        expect(apportion(0, [5, 5])).to.deep.equal([0, 0]);
        expect(apportion(5, [0, 0])).to.deep.equal([0, 0]);
        // 5 over 1:2:3 is 0.83, 1.67, 2.5: floors 0, 1, 2 and the two left go to the largest remainders (0.83, 0.67).
        expect(apportion(5, [1, 2, 3])).to.deep.equal([1, 2, 2]);
        // 3 over 3:1:1 is 1.8, 0.6, 0.6: one left for equal remainders goes to the earlier weight.
        expect(apportion(3, [3, 1, 1])).to.deep.equal([2, 1, 0]);
        expect(apportion(2, [1, 1, 1])).to.deep.equal([1, 1, 0]);
        expect(apportion(1, [1, 3])).to.deep.equal([0, 1]);
        expect(apportion(1, [3, 1])).to.deep.equal([1, 0]);
        const big = apportion(999_999_999_999_999, [333_333_333_333_333, 666_666_666_666_667]);
        expect(big[0]! + big[1]!).to.equal(999_999_999_999_999);
      });
    });

    it('refuses to sell more than is held, or a coin not held', function () {
      spec.given([opened, buyHalfEth]).when(place('s1', 'SELL', 0.50000001, 3000)).thenThrows(IllegalStateError, 'Cannot sell 0.50000001 ETH: holding 0.5');
      spec.given([opened, buyHalfEth]).when(place('s1', 'SELL', 1, 60000, 'BTC')).thenThrows(IllegalStateError, 'Cannot sell 1 BTC: holding 0');
      spec.given([]).when(place('s1', 'SELL', 1, 3000)).thenThrows(IllegalStateError, 'Cannot sell 1 ETH: holding 0');
    });

    it('a position sold to zero is gone: selling again is refused', function () {
      const events = history(place('t1', 'BUY', 0.5, 3000), place('s1', 'SELL', 0.5, 3000));
      spec.given(events).when(place('s2', 'SELL', 0.001, 3000)).thenThrows(IllegalStateError, /holding 0$/);
    });
  });

  describe('exit plans, decisions, the peak and the closed trades (issue 17, schema version 3)', function () {
    const buyWith = (exits: ExitRequest | undefined, extra: Partial<PlaceSimulatedTrade['data']> = {}): PlaceSimulatedTrade => ({
      ...place('t1', 'BUY', 0.5, 3000),
      data: { ...place('t1', 'BUY', 0.5, 3000).data, ...(exits ? { exits } : {}), ...extra },
    });

    it('a manual BUY without a stop or target records no automatic exit; with them, their levels at the fill price', function () {
      spec.given([opened]).when(buyWith(undefined)).then([buyHalfEth]);
      spec
        .given([opened])
        .when(buyWith({ kind: 'MANUAL', stopLossPercent: 3, takeProfitPercent: 10 }))
        .then([{ type: 'SimulatedTradePlaced', data: { ...buyHalfEth.data, exits: { kind: 'MANUAL', stopLoss: 2910, takeProfit: 3300.0000000000005, stopLossPercent: 3, takeProfitPercent: 10 } } }]);
      spec.given([opened]).when(buyWith({ kind: 'MANUAL', stopLossPercent: null, takeProfitPercent: null })).then([buyHalfEth]);
    });

    it('a bot BUY records the profile plan with its entry figures and its decision', function () {
      const decision = { rule: 'FIXED_SIZE' as const, text: 'bought 5.00% ...', figures: { sizePercent: 5 } };
      spec
        .given([opened])
        .when(buyWith({ kind: 'PROFILE', atr: 12, sigma: null }, { decision }))
        .then([{ type: 'SimulatedTradePlaced', data: { ...buyHalfEth.data, exits: { kind: 'PROFILE', atr: 12, sigma: null }, decision } }]);
    });

    it('refuses levels out of bounds, levels on a SELL, and a decision without a known rule', function () {
      spec.given([opened]).when(buyWith({ kind: 'MANUAL', stopLossPercent: 60, takeProfitPercent: null })).thenThrows(ValidationError, 'stopLossPercent must be a number from 0.1 to 50');
      spec.given([opened]).when(buyWith({ kind: 'MANUAL', stopLossPercent: null, takeProfitPercent: 0 })).thenThrows(ValidationError, 'takeProfitPercent must be a number from 0.1 to 500');
      spec.given([opened]).when(buyWith({ kind: 'PROFILE', atr: -1, sigma: null })).thenThrows(ValidationError, /^exits.atr /);
      spec.given([opened, buyHalfEth]).when({ ...place('s1', 'SELL', 0.5, 3000), data: { ...place('s1', 'SELL', 0.5, 3000).data, exits: { kind: 'MANUAL', stopLossPercent: 3, takeProfitPercent: null } } }).thenThrows(ValidationError, /BUY only/);
      spec.given([opened]).when(buyWith(undefined, { decision: { rule: 'GUT' as 'FIXED_SIZE', text: 'x', figures: {} } })).thenThrows(ValidationError, /^decision /);
    });

    it('the position keeps the plan of the BUY that opened it; a later BUY naming one replaces it, one without keeps it', function () {
      const events = history(buyWith({ kind: 'PROFILE', atr: 12, sigma: null }), { ...place('t2', 'BUY', 0.1, 3100), data: { ...place('t2', 'BUY', 0.1, 3100).data } });
      const kept = fold(portfolioDecider, events);
      expect(kept.status === 'open' && kept.positions.ETH!.exits).to.deep.equal({ kind: 'PROFILE', atr: 12, sigma: null });
      const replaced = fold(portfolioDecider, [...events, ...portfolioDecider.decide({ ...place('t3', 'BUY', 0.1, 3000), data: { ...place('t3', 'BUY', 0.1, 3000).data, exits: { kind: 'MANUAL', stopLossPercent: 5, takeProfitPercent: null } } }, kept)]);
      expect(replaced.status === 'open' && replaced.positions.ETH!.exits).to.deep.include({ kind: 'MANUAL', stopLoss: 2850 });
    });

    it('version 2 BUYs upcast to a plan by their source: a signal\'s follows the profile, a manual one has none', function () {
      const { exits: _none, ...v2 } = buyHalfEth.data;
      expect(upcastPortfolioEvent({ type: 'SimulatedTradePlaced', data: v2, schemaVersion: 2 }).data).to.deep.include({ exits: { kind: 'NONE' } });
      expect(upcastPortfolioEvent({ type: 'SimulatedTradePlaced', data: { ...v2, source: signalAt(NOW) }, schemaVersion: 2 }).data).to.deep.include({ exits: { kind: 'PROFILE', atr: null, sigma: null } });
      expect(upcastPortfolioEvent({ type: 'SimulatedTradePlaced', data: { ...v2, side: 'SELL' }, schemaVersion: 2 }).data).to.not.have.property('exits');
    });

    it('events the engine branch stored as version 2 with its optional execution (no bump) upcast like any version 2 event, keep what they met, and fold', function () {
      const { exits: _none, ...v2 } = buyHalfEth.data;
      const execution = { mid: 2999.8, halfSpread: 0.00005, impact: 0.00002, filledAt: NOW, intendedAt: NOW, delayMs: 0 };
      const buy = upcastPortfolioEvent({ type: 'SimulatedTradePlaced', data: { ...v2, source: signalAt(NOW), execution }, schemaVersion: 2 });
      expect(buy.data).to.deep.include({ exits: { kind: 'PROFILE', atr: null, sigma: null }, execution });
      const close = upcastPortfolioEvent({
        type: 'PositionClosed',
        data: { userId: 'u1', positionId: 't1', coinId: 'ethereum', symbol: 'ETH', reason: 'STOP_LOSS', quantity: 0.5, price: 2939.7, notionalMicros: 1_469_850_000, feeMicros: 1_469_850, costBasisClosedMicros: 1_501_500_000, entryNotionalClosedMicros: 1_500_000_000, realisedPnlMicros: 1_469_850_000 - 1_469_850 - 1_501_500_000, closedTradeIds: ['t1'], lotRule: 'FIFO', lots: [{ tradeId: 't1', quantity: 0.5, entryPrice: 3000, costMicros: 1_501_500_000, entryNotionalMicros: 1_500_000_000 }], execution: { ...execution, mid: 2939.9, level: 2940 }, closedAt: LATER },
        schemaVersion: 2,
      });
      const state = fold(portfolioDecider, [opened, buy, close]);
      expect(state.status === 'open' && state.positions.ETH).to.equal(undefined);
      expect(state.status === 'open' && state.cashMicros).to.equal(STARTING_CASH_MICROS - 1_501_500_000 + 1_469_850_000 - 1_469_850);
      expect(state.status === 'open' && state.closedTrades).to.deep.include({ closes: 1, losses: 1 });
    });

    it('records a peak at least PEAK_STEP above the one recorded (the starting cash at first); a reset starts it over', function () {
      const peak = (valueMicros: number) => ({ type: 'RecordPortfolioPeak' as const, data: { userId: 'u1', valueMicros }, metadata: { now: LATER } });
      expect(PEAK_STEP).to.equal(0.0025);
      spec.given([opened]).when(peak(10_025_000_000)).then([{ type: 'PortfolioPeakRecorded', data: { userId: 'u1', valueMicros: 10_025_000_000, recordedAt: LATER } }]);
      spec.given([opened]).when(peak(10_024_999_999)).then([]);
      spec.given([]).when(peak(20_000_000_000)).then([]);
      const recorded: PortfolioEvent = { type: 'PortfolioPeakRecorded', data: { userId: 'u1', valueMicros: 11_000_000_000, recordedAt: LATER } };
      expect(fold(portfolioDecider, [opened, recorded])).to.deep.include({ peakValueMicros: 11_000_000_000 });
      spec.given([opened, recorded]).when(peak(11_027_000_000)).then([]);
      spec.given([opened, recorded]).when(peak(0)).thenThrows(ValidationError, /^valueMicros /);
      const reset: PortfolioEvent = { type: 'PortfolioReset', data: { userId: 'u1', closedPositions: [], closedTradeIds: [], cashBeforeMicros: STARTING_CASH_MICROS, realisedPnlBeforeMicros: 0, startingCashMicros: STARTING_CASH_MICROS, resetAt: LATER } };
      expect(fold(portfolioDecider, [opened, recorded, reset])).to.deep.include({ peakValueMicros: STARTING_CASH_MICROS });
    });

    it('counts every close into the wins and losses Kelly reads, and keeps them through a reset', function () {
      const events = history(place('b1', 'BUY', 1, 1000), place('s1', 'SELL', 0.5, 1100), place('s2', 'SELL', 0.5, 900));
      const state = fold(portfolioDecider, events);
      // s1: 550 - 0.55 - 500.50 = +48.95; s2: 450 - 0.45 - 500.50 = -50.95
      expect(state.status === 'open' && state.closedTrades).to.deep.equal({ closes: 2, wins: 1, losses: 1, winMicros: 48_950_000, lossMicros: 50_950_000 });
      const reset = portfolioDecider.decide({ type: 'ResetPortfolio', data: { userId: 'u1' }, metadata: { now: LATER } }, state);
      const after = reset.reduce(portfolioDecider.evolve, state);
      expect(after.status === 'open' && after.closedTrades.closes).to.equal(2);
    });
  });

  describe('validation (400 naming the field)', function () {
    for (const [name, amount] of [
      ['zero', 0],
      ['negative', -1],
      ['NaN', Number.NaN],
      ['infinite', Number.POSITIVE_INFINITY],
      ['below one unit of 1e-8', 0.000000004],
      ['above the largest quantity', 10_000_001],
    ] as const) {
      it(`refuses a ${name} amount`, function () {
        spec.given([]).when(place('t1', 'BUY', amount, 3000)).thenThrows(ValidationError, /^amount /);
      });
    }
    for (const [name, price] of [
      ['zero', 0],
      ['negative', -5],
      ['NaN', Number.NaN],
      ['infinite', Number.POSITIVE_INFINITY],
      ['absurd', 2e9],
    ] as const) {
      it(`refuses a ${name} price`, function () {
        spec.given([]).when(place('t1', 'BUY', 0.1, price)).thenThrows(ValidationError, /^price /);
      });
    }
    it('refuses an unknown coin, an unknown side, an empty trade id, a trade worth less than a cent', function () {
      spec.given([]).when(place('t1', 'BUY', 1, 1, 'DOGE')).thenThrows(ValidationError, /^symbol must be a supported coin/);
      spec.given([]).when(place('t1', 'HOLD' as 'BUY', 1, 1)).thenThrows(ValidationError, /^side must be BUY or SELL/);
      spec.given([]).when(place(' ', 'BUY', 1, 1)).thenThrows(ValidationError, 'tradeId is required');
      spec.given([]).when(place('t1', 'BUY', 0.01, 0.5, 'ADA')).thenThrows(ValidationError, /^a trade must be worth at least \$0\.01/);
    });
    it('refuses a signal source without a valid candle time', function () {
      spec.given([]).when(place('t1', 'BUY', 0.1, 3000, 'ETH', signalAt('yesterday'))).thenThrows(ValidationError, /^source\.candleTime/);
    });
    it('a refused command on a new portfolio does not open it', function () {
      expect(() => portfolioDecider.decide(place('t1', 'BUY', 100, 3000), portfolioDecider.initialState())).to.throw(IllegalStateError);
    });
  });

  describe('idempotency', function () {
    it('a trade id already placed appends nothing, even when the cash would no longer allow it', function () {
      const events = history(place('t1', 'BUY', 3, 3000));
      spec.given(events).when(place('t1', 'BUY', 3, 3000)).then([]);
    });

    it('a trade id already closed appends nothing (a bot command replayed after a sell)', function () {
      const events = history(place('t1', 'BUY', 0.5, 3000), place('s1', 'SELL', 0.5, 3100));
      spec.given(events).when(place('t1', 'BUY', 0.5, 3000)).then([]);
      spec.given(events).when(place('s1', 'SELL', 0.5, 3100)).then([]);
    });

    it('a trade id survives a reset: replaying it after the reset appends nothing', function () {
      const events = history(place('t1', 'BUY', 0.5, 3000));
      const reset = portfolioDecider.decide({ type: 'ResetPortfolio', data: { userId: 'u1' }, metadata: { now: LATER } }, fold(portfolioDecider, events));
      spec.given([...events, ...reset]).when(place('t1', 'BUY', 0.5, 3000)).then([]);
    });

    it('a signal trade on one coin keeps the other coins\' newest signals: an older BTC signal after an ETH trade still appends nothing', function () {
      const events = history(place('t1', 'BUY', 0.001, 60000, 'BTC', signalAt('2026-03-04T05:05:00.000Z')), place('t2', 'BUY', 0.1, 3000, 'ETH', signalAt('2026-03-04T05:10:00.000Z')));
      spec.given(events).when(place('t3', 'BUY', 0.001, 60000, 'BTC', signalAt('2026-03-04T05:00:00.000Z'))).then([]);
    });

    it('a trade on a signal at or before the newest signal already traded on that coin appends nothing', function () {
      const events = history(place('t1', 'BUY', 0.1, 3000, 'ETH', signalAt('2026-03-04T05:05:00.000Z')));
      spec.given(events).when(place('t2', 'BUY', 0.1, 3000, 'ETH', signalAt('2026-03-04T05:00:00.000Z'))).then([]);
      spec.given(events).when(place('t3', 'BUY', 0.1, 3000, 'ETH', signalAt('2026-03-04T05:05:00.000Z', 'other'))).then([]);
      // another coin, a newer signal, or a manual trade are not affected
      expect(portfolioDecider.decide(place('t4', 'BUY', 0.001, 60000, 'BTC', signalAt('2026-03-04T05:00:00.000Z')), fold(portfolioDecider, events))).to.have.length(1);
      expect(portfolioDecider.decide(place('t5', 'BUY', 0.1, 3000, 'ETH', signalAt('2026-03-04T05:10:00.000Z')), fold(portfolioDecider, events))).to.have.length(1);
      expect(portfolioDecider.decide(place('t6', 'BUY', 0.1, 3000), fold(portfolioDecider, events))).to.have.length(1);
    });

    it('a manual trade on the coin leaves its newest signal traded as it was: the signal again still appends nothing', function () {
      const events = history(place('t1', 'BUY', 0.1, 3000, 'ETH', signalAt('2026-03-04T05:05:00.000Z')), place('t2', 'BUY', 0.1, 3000));
      spec.given(events).when(place('t3', 'BUY', 0.1, 3000, 'ETH', signalAt('2026-03-04T05:05:00.000Z', 'other'))).then([]);
    });

    it(`remembers the last ${TRADE_ID_MEMORY} trade ids and every open one, so the state stays bounded`, function () {
      const commands: PlaceSimulatedTrade[] = [place('first', 'BUY', 0.001, 3000)];
      for (let i = 0; i < TRADE_ID_MEMORY + 20; i++) commands.push(place(`b${i}`, 'BUY', 0.001, 60000, 'BTC'), place(`s${i}`, 'SELL', 0.001, 60000, 'BTC'));
      const state = fold(portfolioDecider, history(...commands));
      if (state.status !== 'open') throw new Error('not open');
      const remembered = rememberedTradeIds(state);
      expect(remembered).to.have.length(TRADE_ID_MEMORY);
      expect(remembered.at(-1)).to.equal(`s${TRADE_ID_MEMORY + 19}`);
      expect(state.recentTradeIds.length + (state.newTradeIds?.length ?? 0)).to.be.at.most(TRADE_ID_MEMORY + TRADE_ID_BATCH);
      // 'first' fell out of the recent ids but is still open in its position: a replay appends nothing
      expect(remembered).not.to.include('first');
      spec.given(history(...commands)).when(place('first', 'BUY', 0.001, 3000)).then([]);
    });
  });

  describe('stop loss and take profit', function () {
    it('closes the whole position at the price given, with the fee, and closes its trades', function () {
      // proceeds 1,470 - 1.47 fee, basis 1,501.50: P&L -32.97
      spec
        .given([opened, buyHalfEth])
        .when(close('t1', 'STOP_LOSS', 2940))
        .then([
          {
            type: 'PositionClosed',
            data: {
              userId: 'u1',
              positionId: 't1',
              coinId: 'ethereum',
              symbol: 'ETH',
              reason: 'STOP_LOSS',
              quantity: 0.5,
              price: 2940,
              notionalMicros: 1_470_000_000,
              feeMicros: 1_470_000,
              costBasisClosedMicros: 1_501_500_000,
              entryNotionalClosedMicros: 1_500_000_000,
              realisedPnlMicros: -32_970_000,
              closedTradeIds: ['t1'],
              lotRule: 'FIFO',
              lots: [{ tradeId: 't1', quantity: 0.5, entryPrice: 3000, costMicros: 1_501_500_000, entryNotionalMicros: 1_500_000_000 }],
              closedAt: LATER,
            },
          },
        ]);
    });

    it('appends nothing for a position already closed, another position since, or none at all', function () {
      const closed = portfolioDecider.decide(close('t1', 'TAKE_PROFIT', 3150), fold(portfolioDecider, [opened, buyHalfEth]));
      expect(closed[0]!.type).to.equal('PositionClosed');
      spec.given([opened, buyHalfEth, ...closed]).when(close('t1', 'TAKE_PROFIT', 3150)).then([]);
      spec.given([opened, buyHalfEth]).when(close('older', 'STOP_LOSS', 2940)).then([]);
      spec.given([]).when(close('t1', 'STOP_LOSS', 2940)).then([]);
    });

    it('refuses an unknown reason or a bad price', function () {
      spec.given([opened, buyHalfEth]).when(close('t1', 'MARGIN_CALL' as 'STOP_LOSS', 2940)).thenThrows(ValidationError, /^reason /);
      spec.given([opened, buyHalfEth]).when(close('t1', 'STOP_LOSS', -1)).thenThrows(ValidationError, /^price /);
    });
  });

  describe('reset', function () {
    const reset = { type: 'ResetPortfolio' as const, data: { userId: 'u1' }, metadata: { now: LATER } };

    it('returns to the starting cash and records the positions and trades it closed', function () {
      spec
        .given([opened, buyHalfEth])
        .when(reset)
        .then([
          {
            type: 'PortfolioReset',
            data: {
              userId: 'u1',
              closedPositions: [{ positionId: 't1', coinId: 'ethereum', symbol: 'ETH', quantity: 0.5, costBasisMicros: 1_501_500_000, entryNotionalMicros: 1_500_000_000 }],
              closedTradeIds: ['t1'],
              cashBeforeMicros: 8_498_500_000,
              realisedPnlBeforeMicros: 0,
              startingCashMicros: STARTING_CASH_MICROS,
              resetAt: LATER,
            },
          },
        ]);
    });

    it('after a reset the cash is the starting cash and nothing is held', function () {
      const events = history(place('t1', 'BUY', 0.5, 3000), place('s1', 'SELL', 0.2, 2000));
      const resetEvents = portfolioDecider.decide(reset, fold(portfolioDecider, events));
      const state = fold(portfolioDecider, [...events, ...resetEvents]);
      expect(state).to.include({ status: 'open', cashMicros: STARTING_CASH_MICROS, realisedPnlMicros: 0 });
      expect(state.status === 'open' && state.positions).to.deep.equal({});
    });

    it('appends nothing for a portfolio never used or already at its start', function () {
      spec.given([]).when(reset).then([]);
      spec.given([opened]).when(reset).then([]);
      const events = history(place('t1', 'BUY', 0.5, 3000));
      const once = portfolioDecider.decide(reset, fold(portfolioDecider, events));
      spec.given([...events, ...once]).when(reset).then([]);
    });
  });

  describe('daily realised loss (UTC days)', function () {
    it('adds up the realised P&L of the current UTC day and starts again on the next', function () {
      const events = history(
        place('t1', 'BUY', 1, 3000),
        place('s1', 'SELL', 0.5, 2900, 'ETH', MANUAL, NOW),
        place('s2', 'SELL', 0.25, 2800, 'ETH', MANUAL, LATER),
      );
      const today = fold(portfolioDecider, events);
      // s1: 1,450 - 1.45 - 1,501.50 = -52.95; s2: 700 - 0.70 - 750.75 = -51.45
      expect(today.status === 'open' && today.daily).to.deep.equal({ day: '2026-03-04', realisedPnlMicros: -104_400_000 });
      const tomorrow = fold(portfolioDecider, [...events, ...history(place('t1', 'BUY', 1, 3000), place('s3', 'SELL', 0.25, 3100, 'ETH', MANUAL, NEXT_DAY)).slice(2)]);
      // s3 after s2: 775 - 0.775 - 750.75 = 23.475
      expect(tomorrow.status === 'open' && tomorrow.daily).to.deep.equal({ day: '2026-03-05', realisedPnlMicros: 23_475_000 });
    });

    it('a stop loss counts in the day it closed, and a reset does not wipe the day', function () {
      const closed = portfolioDecider.decide(close('t1', 'STOP_LOSS', 2940), fold(portfolioDecider, [opened, buyHalfEth]));
      const resetEvents = history(place('t9', 'BUY', 0.1, 100)).slice(1);
      const state = fold(portfolioDecider, [opened, buyHalfEth, ...closed, ...resetEvents, { type: 'PortfolioReset', data: { userId: 'u1', closedPositions: [], closedTradeIds: [], cashBeforeMicros: 0, realisedPnlBeforeMicros: 0, startingCashMicros: STARTING_CASH_MICROS, resetAt: LATER } }]);
      expect(state.status === 'open' && state.daily).to.deep.equal({ day: '2026-03-04', realisedPnlMicros: -32_970_000 });
    });
  });
});
