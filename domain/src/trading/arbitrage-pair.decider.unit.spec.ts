/**
 * PlaceArbitragePair as given/when/then (issue 19): both legs, each at its exchange's fee from the one
 * fee table, the SELL leg taking exactly the BUY leg's lot (PAIR), the realised P&L the net spread to the
 * cent, nothing held afterwards and any position held before left as it was; the cash limit, bad input
 * and replays append nothing; the pair moves no coin's signal watermark.
 */
import { expect } from 'chai';
import { fold } from '../shared/decider';
import { specFor } from '../shared/decider-specification';
import { IllegalStateError, ValidationError } from '../shared/errors';
import { microsToCents, STARTING_CASH_MICROS } from './money';
import type { PortfolioEvent, SimulatedTradePlaced, TradeSource } from './portfolio';
import { portfolioDecider, type PlaceArbitragePair, type PlaceSimulatedTrade } from './portfolio.decider';
import { halfSpreadOf } from '../market/coins';
import { priceImpact } from './engine/fills';

const spec = specFor(portfolioDecider);
const NOW = '2026-03-04T05:06:07.000Z';
const CANDLE = '2026-03-04T05:00:00.000Z';
const ARBITRAGE: TradeSource = {
  kind: 'SIGNAL',
  eventId: 'evt-arb',
  signalId: 'sig-arb',
  signalType: 'ARBITRAGE',
  candleTime: CANDLE,
  strategy: { strategyId: 'cross-exchange-arbitrage', strategyType: 'arbitrage' },
};
const opened: PortfolioEvent = { type: 'PortfolioOpened', data: { userId: 'u1', startingCashMicros: STARTING_CASH_MICROS, openedAt: NOW } };

function pair(over: Partial<PlaceArbitragePair['data']> = {}): PlaceArbitragePair {
  return {
    type: 'PlaceArbitragePair',
    data: {
      userId: 'u1',
      pairId: 'p1',
      buyTradeId: 'p1:buy',
      sellTradeId: 'p1:sell',
      symbol: 'ETH',
      amount: 0.5,
      buy: { exchange: 'binance', mid: 3000 },
      sell: { exchange: 'kraken', mid: 3030 },
      source: ARBITRAGE,
      ...over,
    },
    metadata: { now: NOW },
  };
}

/**
 * 0.5 ETH bought on Binance at 3,000 (notional $1,500.00, fee 0.1 % $1.50) and sold on Kraken at 3,030
 * (notional $1,515.00, fee 0.26 % $3.939): realised $1,515 - $3.939 - $1,501.50 = $9.561.
 */
const buyLeg: SimulatedTradePlaced = {
  type: 'SimulatedTradePlaced',
  data: {
    userId: 'u1',
    coinId: 'ethereum',
    symbol: 'ETH',
    quantity: 0.5,
    source: ARBITRAGE,
    placedAt: NOW,
    lotRule: 'PAIR',
    tradeId: 'p1:buy',
    side: 'BUY',
    price: 3000,
    notionalMicros: 1_500_000_000,
    feeMicros: 1_500_000,
    pair: { pairId: 'p1', leg: 'BUY', exchange: 'binance', feeRate: 0.001 },
    costBasisClosedMicros: 0,
    entryNotionalClosedMicros: 0,
    realisedPnlMicros: 0,
    closedTradeIds: [],
    lots: [],
    exits: { kind: 'NONE' },
  },
};
const sellLeg: SimulatedTradePlaced = {
  type: 'SimulatedTradePlaced',
  data: {
    userId: 'u1',
    coinId: 'ethereum',
    symbol: 'ETH',
    quantity: 0.5,
    source: ARBITRAGE,
    placedAt: NOW,
    lotRule: 'PAIR',
    tradeId: 'p1:sell',
    side: 'SELL',
    price: 3030,
    notionalMicros: 1_515_000_000,
    feeMicros: 3_939_000,
    pair: { pairId: 'p1', leg: 'SELL', exchange: 'kraken', feeRate: 0.0026 },
    costBasisClosedMicros: 1_501_500_000,
    entryNotionalClosedMicros: 1_500_000_000,
    realisedPnlMicros: 9_561_000,
    closedTradeIds: ['p1:buy'],
    lots: [{ tradeId: 'p1:buy', quantity: 0.5, entryPrice: 3000, costMicros: 1_501_500_000, entryNotionalMicros: 1_500_000_000 }],
  },
};

describe('portfolio: an arbitrage pair (issue 19)', function () {
  it('given an open portfolio, when a pair is placed, then a BUY leg on the cheaper exchange and a SELL leg of the same amount on the dearer one, each at its exchange\'s fee', function () {
    spec.given([opened]).when(pair()).then([buyLeg, sellLeg]);
  });

  it('the realised P&L is the net spread to the cent, the cash moves by it and nothing is held afterwards', function () {
    const state = fold(portfolioDecider, [opened, buyLeg, sellLeg]);
    if (state.status !== 'open') throw new Error('open');
    expect(state.realisedPnlMicros).to.equal(9_561_000);
    expect(state.realisedPnlCents).to.equal(956);
    expect(state.cashMicros).to.equal(STARTING_CASH_MICROS + 9_561_000);
    expect(state.positions).to.deep.equal({});
    expect(state.closedTrades).to.deep.include({ closes: 1, wins: 1 });
  });

  it('given no portfolio yet, the pair opens it first', function () {
    spec.given([]).when(pair()).then([opened, buyLeg, sellLeg]);
  });

  it('a losing pair (the quotes crossed by the time it filled) realises the loss: the fees are paid either way', function () {
    const [, sell] = portfolioDecider.decide(pair({ sell: { exchange: 'kraken', mid: 3001 } }), fold(portfolioDecider, [opened])) as SimulatedTradePlaced[];
    // 0.5 x 3,001 = 1,500.50, less 0.26 % (3.9013), less 1,501.50: -4.9013.
    expect(sell!.data.realisedPnlMicros).to.equal(-4_901_300);
    expect(microsToCents(sell!.data.realisedPnlMicros)).to.equal(-490);
  });

  it('given a position in the coin, the SELL leg takes the pair\'s own lot (not the oldest), and the position is as it was', function () {
    const manual: PlaceSimulatedTrade = { type: 'PlaceSimulatedTrade', data: { userId: 'u1', tradeId: 't0', symbol: 'ETH', side: 'BUY', amount: 1, price: 2500, source: { kind: 'MANUAL' } }, metadata: { now: NOW } };
    const before = fold(portfolioDecider, [opened, ...portfolioDecider.decide(manual, fold(portfolioDecider, [opened]))]);
    const events = portfolioDecider.decide(pair(), before);
    expect(events.map((e) => (e as SimulatedTradePlaced).data.tradeId)).to.deep.equal(['p1:buy', 'p1:sell']);
    const after = events.reduce(portfolioDecider.evolve, before);
    if (after.status !== 'open' || before.status !== 'open') throw new Error('open');
    expect(after.positions).to.deep.equal(before.positions);
    expect(after.cashMicros - before.cashMicros).to.equal(9_561_000);
  });

  it('with the market it met, each leg fills at its exchange\'s quote plus (BUY) or less (SELL) the half spread and impact, and records it', function () {
    const market = { filledAt: '2026-03-04T05:05:05.000Z', minuteVolumeUsd: 2_000_000, intendedAt: '2026-03-04T05:05:05.000Z' };
    const [buy, sell] = portfolioDecider.decide(pair({ market }), fold(portfolioDecider, [opened])) as SimulatedTradePlaced[];
    const hs = halfSpreadOf('ethereum');
    const buyPrice = 3000 * (1 + hs + priceImpact('ethereum', 0.5 * 3000, 2_000_000));
    const sellPrice = 3030 * (1 - hs - priceImpact('ethereum', 0.5 * 3030, 2_000_000));
    expect(buy!.data.price).to.equal(buyPrice);
    expect(sell!.data.price).to.equal(sellPrice);
    expect(buy!.data.execution).to.deep.include({ mid: 3000, halfSpread: hs, filledAt: market.filledAt, delayMs: 0 });
    expect(sell!.data.execution).to.deep.include({ mid: 3030, halfSpread: hs });
    const buyNotional = Math.round(0.5e8 * buyPrice / 100);
    const sellNotional = Math.round(0.5e8 * sellPrice / 100);
    expect(sell!.data.realisedPnlMicros).to.equal(sellNotional - Math.round(sellNotional * 0.0026) - (buyNotional + Math.round(buyNotional * 0.001)));
  });

  it('refuses a BUY leg that costs more than the cash, appending nothing', function () {
    spec.given([opened]).when(pair({ amount: 4 })).thenThrows(IllegalStateError, 'Insufficient paper cash: buying 4 ETH on Binance at $3,000.00 costs $12,012.00 with its fee, cash is $10,000.00', { field: 'amount' });
  });

  it('a replayed pair appends nothing', function () {
    spec.given([opened, buyLeg, sellLeg]).when(pair()).then([]);
  });

  it('moves no signal watermark: a strategy BUY of the same candle on the coin still trades', function () {
    const technical: PlaceSimulatedTrade = {
      type: 'PlaceSimulatedTrade',
      data: { userId: 'u1', tradeId: 't2', symbol: 'ETH', side: 'BUY', amount: 0.1, price: 3000, source: { ...ARBITRAGE, signalId: 'sig-rsi', signalType: 'BUY', strategy: { strategyId: 'rsi-technical', strategyType: 'technical' } } },
      metadata: { now: NOW },
    };
    expect(portfolioDecider.decide(technical, fold(portfolioDecider, [opened, buyLeg, sellLeg]))).to.have.length(1);
  });

  it('bad input answers a ValidationError naming the field', function () {
    spec.given([opened]).when(pair({ sell: { exchange: 'binance', mid: 3030 } })).thenThrows(ValidationError, 'an arbitrage pair buys and sells on two exchanges');
    spec.given([opened]).when(pair({ buy: { exchange: 'ftx' as never, mid: 3000 } })).thenThrows(ValidationError, /^buy.exchange: unknown exchange "ftx"/);
    spec.given([opened]).when(pair({ sell: { exchange: 'kraken', mid: -1 } })).thenThrows(ValidationError, /^sell.mid must be a positive finite number/);
    spec.given([opened]).when(pair({ sellTradeId: 'p1:buy' })).thenThrows(ValidationError, 'the two legs need two trade ids');
    spec.given([opened]).when(pair({ source: { kind: 'MANUAL' } })).thenThrows(ValidationError, 'an arbitrage pair follows an ARBITRAGE signal');
    spec.given([opened]).when(pair({ source: { ...ARBITRAGE, strategy: { strategyId: 'rsi-technical', strategyType: 'arbitrage' } } })).thenThrows(ValidationError, /^source.strategy must name a strategy and its type/);
  });

  it('a single trade cannot follow an ARBITRAGE signal: it trades as a pair', function () {
    const single: PlaceSimulatedTrade = { type: 'PlaceSimulatedTrade', data: { userId: 'u1', tradeId: 't3', symbol: 'ETH', side: 'BUY', amount: 0.1, price: 3000, source: ARBITRAGE }, metadata: { now: NOW } };
    spec.given([opened]).when(single).thenThrows(ValidationError, 'an arbitrage signal trades as a pair (PlaceArbitragePair)');
  });
});
