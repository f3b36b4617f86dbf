/**
 * What the portfolio decider refuses, as a client sees it: the error's class (400 or 409), its exact
 * message and the field it names (the problem body's `field`, which the trade form puts under the
 * input), for every check of every command; and each limit at its edge, where the value on the limit
 * is taken and the next one refused.
 */
import { expect } from 'chai';
import { fold } from '../shared/decider';
import { DomainError, IllegalStateError, ValidationError } from '../shared/errors';
import type { PortfolioEvent, TradeSource } from './portfolio';
import { MAX_PRICE_USD, portfolioDecider, type ClosePosition, type PlaceArbitragePair, type PlaceSimulatedTrade, type PortfolioCommand } from './portfolio.decider';

const NOW = '2026-03-04T05:06:07.000Z';
const MANUAL: TradeSource = { kind: 'MANUAL' };
const SIGNAL: TradeSource = { kind: 'SIGNAL', eventId: 'e1', signalId: 's1', signalType: 'BUY', candleTime: '2026-03-04T05:00:00.000Z' };
const ARBITRAGE: TradeSource = { ...SIGNAL, signalType: 'ARBITRAGE' };
const MARKET = { filledAt: NOW, minuteVolumeUsd: 1_000_000 };

type Data = PlaceSimulatedTrade['data'];
const trade = (data: Partial<Record<keyof Data, unknown>> = {}): PlaceSimulatedTrade => ({
  type: 'PlaceSimulatedTrade',
  data: { userId: 'u1', tradeId: 't1', symbol: 'ETH', side: 'BUY', amount: 0.1, price: 3000, source: MANUAL, ...data } as Data,
  metadata: { now: NOW },
});
const close = (data: Partial<Record<keyof ClosePosition['data'], unknown>> = {}): ClosePosition => ({
  type: 'ClosePosition',
  data: { userId: 'u1', positionId: 'b1', symbol: 'ETH', reason: 'STOP_LOSS', price: 2900, ...data } as ClosePosition['data'],
  metadata: { now: NOW },
});
const pair = (data: Partial<Record<keyof PlaceArbitragePair['data'], unknown>> = {}): PlaceArbitragePair => ({
  type: 'PlaceArbitragePair',
  data: {
    userId: 'u1',
    pairId: 'p1',
    buyTradeId: 'pb',
    sellTradeId: 'ps',
    symbol: 'ETH',
    amount: 0.1,
    buy: { exchange: 'binance', mid: 3000 },
    sell: { exchange: 'kraken', mid: 3030 },
    source: ARBITRAGE,
    ...data,
  } as PlaceArbitragePair['data'],
  metadata: { now: NOW },
});

/** The events of running `commands` from nothing, each on the state the ones before left. */
function run(...commands: PortfolioCommand[]): PortfolioEvent[] {
  const events: PortfolioEvent[] = [];
  for (const command of commands) events.push(...portfolioDecider.decide(command, fold(portfolioDecider, events)));
  return events;
}

function refused(command: PortfolioCommand, errorClass: typeof ValidationError | typeof IllegalStateError, message: string | RegExp, field: string, before: PortfolioCommand[] = []): void {
  const state = fold(portfolioDecider, run(...before));
  let thrown: unknown;
  try {
    portfolioDecider.decide(command, state);
  } catch (error) {
    thrown = error;
  }
  expect(thrown, String(message)).to.be.instanceOf(errorClass);
  if (typeof message === 'string') expect((thrown as DomainError).message).to.equal(message);
  else expect((thrown as DomainError).message).to.match(message);
  expect((thrown as DomainError).extra, String(message)).to.deep.equal({ field });
}

const placed = (events: PortfolioEvent[]) => events.filter((e) => e.type === 'SimulatedTradePlaced').map((e) => e.data);

describe('portfolio decider: refusals, each with its message and field', function () {
  describe('a trade', function () {
    it('its identity: the trade id, the coin (a name that is not a string too), the side', function () {
      refused(trade({ tradeId: '' }), ValidationError, 'tradeId is required', 'tradeId');
      refused(trade({ tradeId: 7 }), ValidationError, 'tradeId is required', 'tradeId');
      refused(trade({ symbol: 'DOGE' }), ValidationError, 'symbol must be a supported coin, got "DOGE"', 'symbol');
      refused(trade({ symbol: 42 }), ValidationError, 'symbol must be a supported coin, got 42', 'symbol');
      refused(trade({ side: 'HOLD' }), ValidationError, 'side must be BUY or SELL, got "HOLD"', 'side');
    });

    it('its size and price, and the value of the fill at both ends: a cent is the least, $1,000,000,000 the most', function () {
      refused(trade({ price: MAX_PRICE_USD * 1.5 }), ValidationError, 'price must be at most 1000000000, got 1500000000', 'price');
      refused(trade({ symbol: 'ADA', amount: 0.01, price: 0.99 }), ValidationError, 'a trade must be worth at least $0.01, this one is worth $0.0099', 'amount');
      refused(trade({ symbol: 'BTC', amount: 1.5, price: MAX_PRICE_USD }), ValidationError, 'a trade must be worth at most $1,000,000,000.00', 'amount');
      // On the edges: a cent's worth fills; a billion's passes the value check and meets the cash.
      expect(placed(run(trade({ symbol: 'ADA', amount: 0.01, price: 1 })))[0]).to.include({ notionalMicros: 10_000, feeMicros: 10 });
      refused(trade({ symbol: 'BTC', amount: 1, price: MAX_PRICE_USD }), IllegalStateError, 'Insufficient paper cash: buying 1 BTC costs $1,001,000,000.00 with the fee, cash is $10,000.00', 'amount');
      expect(placed(run(trade({ symbol: 'BTC', amount: 0.00000001, price: MAX_PRICE_USD })))[0]).to.include({ price: MAX_PRICE_USD, notionalMicros: 10_000_000 });
    });

    it('what the cash and the holding allow: the cost with the fee, and the coins held', function () {
      refused(trade({ amount: 4 }), IllegalStateError, 'Insufficient paper cash: buying 4 ETH costs $12,012.00 with the fee, cash is $10,000.00', 'amount');
      // With a market, the fill above the screen's price: said so.
      refused(
        trade({ amount: 3.33, market: MARKET }),
        IllegalStateError,
        /^Insufficient paper cash: buying 3\.33 ETH at \$3,00\d\.\d\d \(the market price \$3,000\.00 plus the spread and impact\) costs \$10,0\d\d\.\d\d with the fee, cash is \$10,000\.00$/,
        'amount',
      );
      refused(trade({ side: 'SELL' }), IllegalStateError, 'Cannot sell 0.1 ETH: holding 0', 'amount');
      refused(trade({ tradeId: 't2', side: 'SELL', amount: 0.2 }), IllegalStateError, 'Cannot sell 0.2 ETH: holding 0.1', 'amount', [trade()]);
    });

    it('its source: MANUAL or SIGNAL, a signal with its ids and candle time, a known strategy, never an arbitrage signal', function () {
      refused(trade({ source: undefined }), ValidationError, 'source must be MANUAL or SIGNAL', 'source');
      refused(trade({ source: { kind: 'OTHER' } }), ValidationError, 'source must be MANUAL or SIGNAL', 'source');
      refused(trade({ source: { ...SIGNAL, eventId: ' ' } }), ValidationError, 'source.eventId is required', 'source.eventId');
      refused(trade({ source: { ...SIGNAL, signalId: '' } }), ValidationError, 'source.signalId is required', 'source.signalId');
      refused(trade({ source: { ...SIGNAL, candleTime: 1_700_000_000_000 } }), ValidationError, 'source.candleTime must be an ISO-8601 time', 'source.candleTime');
      refused(trade({ source: { ...SIGNAL, candleTime: 'yesterday' } }), ValidationError, 'source.candleTime must be an ISO-8601 time', 'source.candleTime');
      const strategy = { strategyId: 'rsi-technical', strategyType: 'neural' };
      refused(trade({ source: { ...SIGNAL, strategy } }), ValidationError, `source.strategy must name a strategy and its type, got ${JSON.stringify(strategy)}`, 'source.strategy');
      refused(trade({ source: { ...SIGNAL, strategy: { strategyId: 'nope', strategyType: 'neural' } } }), ValidationError, 'source.strategy must name a strategy and its type, got {"strategyId":"nope","strategyType":"neural"}', 'source.strategy');
      expect(placed(run(trade({ source: { ...SIGNAL, strategy: { strategyId: 'rsi-technical', strategyType: 'technical' } } })))).to.have.length(1);
      refused(trade({ source: ARBITRAGE }), ValidationError, 'an arbitrage signal trades as a pair (PlaceArbitragePair)', 'source.signalType');
    });

    it('its market: an object with an ISO fill time, a volume of at least 0 (0 taken), an intended time if any, and no level (a close has one)', function () {
      refused(trade({ market: 'now' }), ValidationError, 'market must be an object', 'market');
      refused(trade({ market: null }), ValidationError, 'market must be an object', 'market');
      refused(trade({ market: { ...MARKET, filledAt: 'soon' } }), ValidationError, 'market.filledAt must be an ISO-8601 time', 'market.filledAt');
      refused(trade({ market: { ...MARKET, minuteVolumeUsd: -1 } }), ValidationError, 'market.minuteVolumeUsd must be a finite number of at least 0, got -1', 'market.minuteVolumeUsd');
      refused(trade({ market: { ...MARKET, minuteVolumeUsd: '5' } }), ValidationError, 'market.minuteVolumeUsd must be a finite number of at least 0, got 5', 'market.minuteVolumeUsd');
      refused(trade({ market: { ...MARKET, minuteVolumeUsd: Number.NaN } }), ValidationError, 'market.minuteVolumeUsd must be a finite number of at least 0, got NaN', 'market.minuteVolumeUsd');
      refused(trade({ market: { ...MARKET, intendedAt: 12 } }), ValidationError, 'market.intendedAt must be an ISO-8601 time', 'market.intendedAt');
      refused(trade({ market: { ...MARKET, level: 2900 } }), ValidationError, 'market.level belongs to a stop loss or take profit close', 'market.level');
      const [quiet] = placed(run(trade({ market: { ...MARKET, minuteVolumeUsd: 0 } })));
      expect(quiet!.execution, 'a quiet minute fills at the spread alone').to.include({ mid: 3000 });
    });

    it('its exits: a BUY only; PROFILE with positive figures or null, MANUAL within the bounds (the bounds themselves taken), nothing else', function () {
      refused(trade({ side: 'SELL', exits: { kind: 'PROFILE', atr: null, sigma: null } }), ValidationError, 'a stop loss or take profit applies to a BUY only', 'exits');
      refused(trade({ exits: { kind: 'TRAILING' } }), ValidationError, 'exits must be PROFILE or MANUAL', 'exits');
      for (const atr of [0, -1, Number.POSITIVE_INFINITY, '3']) refused(trade({ exits: { kind: 'PROFILE', atr, sigma: null } }), ValidationError, 'exits.atr must be a positive number or null', 'exits.atr');
      refused(trade({ exits: { kind: 'PROFILE', atr: 12, sigma: 0 } }), ValidationError, 'exits.sigma must be a positive number or null', 'exits.sigma');
      expect(placed(run(trade({ exits: { kind: 'PROFILE', atr: 12, sigma: 0.02 } })))[0]!.exits).to.deep.equal({ kind: 'PROFILE', atr: 12, sigma: 0.02 });
      refused(trade({ exits: { kind: 'MANUAL', stopLossPercent: 0.09 } }), ValidationError, 'stopLossPercent must be a number from 0.1 to 50', 'stopLossPercent');
      refused(trade({ exits: { kind: 'MANUAL', stopLossPercent: 50.01 } }), ValidationError, 'stopLossPercent must be a number from 0.1 to 50', 'stopLossPercent');
      refused(trade({ exits: { kind: 'MANUAL', stopLossPercent: '5' } }), ValidationError, 'stopLossPercent must be a number from 0.1 to 50', 'stopLossPercent');
      refused(trade({ exits: { kind: 'MANUAL', stopLossPercent: Number.NaN } }), ValidationError, 'stopLossPercent must be a number from 0.1 to 50', 'stopLossPercent');
      refused(trade({ exits: { kind: 'MANUAL', takeProfitPercent: 500.1 } }), ValidationError, 'takeProfitPercent must be a number from 0.1 to 500', 'takeProfitPercent');
      const exits = (request: unknown) => placed(run(trade({ exits: request })))[0]!.exits;
      expect(exits({ kind: 'MANUAL', stopLossPercent: 50, takeProfitPercent: 0.1 })).to.deep.equal({ kind: 'MANUAL', stopLoss: 1500, takeProfit: 3000 * 1.001, stopLossPercent: 50, takeProfitPercent: 0.1 });
      expect(exits({ kind: 'MANUAL', stopLossPercent: 0.1, takeProfitPercent: 500 })).to.deep.equal({ kind: 'MANUAL', stopLoss: 3000 * 0.999, takeProfit: 18000, stopLossPercent: 0.1, takeProfitPercent: 500 });
      expect(exits({ kind: 'MANUAL', stopLossPercent: 2 })).to.deep.equal({ kind: 'MANUAL', stopLoss: 2940, takeProfit: null, stopLossPercent: 2, takeProfitPercent: null });
      expect(exits({ kind: 'MANUAL', takeProfitPercent: 10 })).to.deep.equal({ kind: 'MANUAL', stopLoss: null, takeProfit: 3300.0000000000005, stopLossPercent: null, takeProfitPercent: 10 });
      expect(exits({ kind: 'MANUAL', stopLossPercent: null, takeProfitPercent: null })).to.deep.equal({ kind: 'NONE' });
    });

    it("its decision: the bot's record, as the contract has it", function () {
      refused(trade({ decision: { rule: 'GUESS', text: 't', figures: {} } }), ValidationError, /^decision is not a bot decision: Invalid option: expected one of "/, 'decision');
    });
  });

  describe('a sale', function () {
    it('FIFO takes a lot it empties whole and stops there: the next lot is not touched, not even for nothing', function () {
      const [, , sale] = placed(run(trade({ tradeId: 'a' }), trade({ tradeId: 'b', amount: 0.2 }), trade({ tradeId: 'c', side: 'SELL', amount: 0.1 })));
      expect(sale!.lots.map((l) => [l.tradeId, l.quantity])).to.deep.equal([['a', 0.1]]);
      expect(sale!.closedTradeIds).to.deep.equal(['a']);
    });
  });

  describe('a close (stop loss, take profit)', function () {
    const bought = [trade({ tradeId: 'b1' })];
    it('its position, coin, reason, price and market (a close has a level)', function () {
      refused(close({ positionId: '' }), ValidationError, 'positionId is required', 'positionId', bought);
      refused(close({ symbol: 'XRP' }), ValidationError, 'symbol must be a supported coin, got "XRP"', 'symbol', bought);
      refused(close({ reason: 'SELL' }), ValidationError, 'reason must be STOP_LOSS or TAKE_PROFIT, got "SELL"', 'reason', bought);
      refused(close({ price: 0 }), ValidationError, 'price must be a positive finite number, got 0', 'price', bought);
      refused(close({ market: MARKET }), ValidationError, 'market.level must be a positive finite number, got undefined', 'market.level', bought);
      const [closed] = run(...bought, close({ market: { ...MARKET, level: 2940 } })).filter((e) => e.type === 'PositionClosed');
      expect(closed!.data).to.include({ reason: 'STOP_LOSS', positionId: 'b1' });
    });

    it('worth at most $1,000,000,000: the limit taken, a cent above it refused', function () {
      const ada = [trade({ tradeId: 'b1', symbol: 'ADA', amount: 10, price: 1 })];
      expect(run(...ada, close({ symbol: 'ADA', price: 100_000_000 })).at(-1)).to.deep.include({ type: 'PositionClosed' });
      refused(close({ symbol: 'ADA', price: 100_000_001 }), ValidationError, 'a close must be worth at most $1,000,000,000.00', 'price', ada);
    });
  });

  describe('an arbitrage pair', function () {
    it('its ids, legs, exchanges and source', function () {
      refused(pair({ pairId: '' }), ValidationError, 'pairId is required', 'pairId');
      refused(pair({ buyTradeId: '' }), ValidationError, 'buyTradeId is required', 'buyTradeId');
      refused(pair({ sellTradeId: '' }), ValidationError, 'sellTradeId is required', 'sellTradeId');
      refused(pair({ sellTradeId: 'pb' }), ValidationError, 'the two legs need two trade ids', 'sellTradeId');
      refused(pair({ amount: 0 }), ValidationError, 'amount must be a positive finite number, got 0', 'amount');
      refused(pair({ buy: 'binance' }), ValidationError, 'buy must be an exchange and its quote', 'buy');
      refused(pair({ sell: null }), ValidationError, 'sell must be an exchange and its quote', 'sell');
      refused(pair({ buy: { exchange: 'mtgox', mid: 3000 } }), ValidationError, 'buy.exchange: unknown exchange "mtgox" (known: binance, coinbase, kraken)', 'buy.exchange');
      refused(pair({ sell: { exchange: 'kraken', mid: -1 } }), ValidationError, 'sell.mid must be a positive finite number, got -1', 'sell.mid');
      refused(pair({ sell: { exchange: 'kraken', mid: 1_500_000_000 } }), ValidationError, 'sell.mid must be at most 1000000000, got 1500000000', 'sell.mid');
      refused(pair({ sell: { exchange: 'binance', mid: 3030 } }), ValidationError, 'an arbitrage pair buys and sells on two exchanges', 'sell.exchange');
      refused(pair({ source: SIGNAL }), ValidationError, 'an arbitrage pair follows an ARBITRAGE signal', 'source');
      refused(pair({ source: MANUAL }), ValidationError, 'an arbitrage pair follows an ARBITRAGE signal', 'source');
      refused(pair({ market: { ...MARKET, level: 1 } }), ValidationError, 'market.level belongs to a stop loss or take profit close', 'market.level');
      refused(pair({ decision: { rule: 'FIXED_SIZE', text: 1, figures: {} } }), ValidationError, 'decision is not a bot decision: Invalid input: expected string, received number', 'decision');
    });

    it('a pair one of whose trade ids was used already is not placed again (either leg)', function () {
      const first = run(pair());
      expect(placed(first)).to.have.length(2);
      for (const again of [pair({ pairId: 'p2', buyTradeId: 'x' }), pair({ pairId: 'p2', sellTradeId: 'x' })]) expect(portfolioDecider.decide(again, fold(portfolioDecider, first))).to.deep.equal([]);
    });
  });

  describe('a peak and a reset', function () {
    it('a peak is a positive whole number of micro-dollars; on a portfolio never opened it records nothing', function () {
      for (const valueMicros of [0, -5, 1.5, Number.NaN]) {
        refused({ type: 'RecordPortfolioPeak', data: { userId: 'u1', valueMicros }, metadata: { now: NOW } }, ValidationError, 'valueMicros must be a positive whole number of micro-dollars', 'valueMicros');
      }
      expect(portfolioDecider.decide({ type: 'RecordPortfolioPeak', data: { userId: 'u1', valueMicros: 50_000_000_000 }, metadata: { now: NOW } }, portfolioDecider.initialState())).to.deep.equal([]);
    });

    it('a reset after everything was sold: no position to close, but the cash and the realised P&L go back', function () {
      const events = run(trade({ tradeId: 'a' }), trade({ tradeId: 'b', side: 'SELL' }));
      const reset = portfolioDecider.decide({ type: 'ResetPortfolio', data: { userId: 'u1' }, metadata: { now: NOW } }, fold(portfolioDecider, events));
      expect(reset).to.have.length(1);
      expect(reset[0]).to.deep.include({ type: 'PortfolioReset' });
      expect(reset[0]!.data).to.deep.include({ closedPositions: [], closedTradeIds: [] });
    });
  });
});
