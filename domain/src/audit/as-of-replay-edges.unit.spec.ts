/**
 * The audit's replay at its edges: a FIFO sale stored at the current schema version replays as FIFO
 * (the upcaster must not treat it as an old average-cost one), positions are listed by symbol, the
 * four streams of a user's timeline and their categories, several streams merged by global position
 * whatever order they are read in, the candle containing asOf at its very first millisecond and in
 * the first candle of the series, and the time of an event stored without one.
 */
import { expect } from 'chai';
import { heldPositions, inGlobalOrder, portfolioAsOf, priceAtFromCandles, timelineStreams } from './as-of';
import { eventTime, toAuditEvent, type StoredEventLike } from './contracts';

const ev = (revision: number, at: string, type: string, data: Record<string, unknown>, metadata: Record<string, unknown> = {}): StoredEventLike => ({
  streamId: 'portfolio-u',
  revision: BigInt(revision),
  position: String(revision).padStart(3, '0'),
  type,
  data,
  metadata: { at, ...metadata },
});

const opened = ev(0, '2026-01-01T10:00:00Z', 'PortfolioOpened', { userId: 'u', startingCashMicros: 10_000_000_000, openedAt: '2026-01-01T10:00:00Z' });
const trade = (fields: Record<string, unknown>) => ({
  userId: 'u',
  coinId: 'ethereum',
  symbol: 'ETH',
  side: 'BUY',
  quantity: 1,
  costBasisClosedMicros: 0,
  entryNotionalClosedMicros: 0,
  realisedPnlMicros: 0,
  source: { kind: 'MANUAL' },
  closedTradeIds: [],
  ...fields,
});

describe('audit as-of replay (edges)', function () {
  it('replays a FIFO sale stored at the current version as FIFO: the newer lot is held whole, not half of each', function () {
    const v3 = { schemaVersion: 3 };
    const buyLow = ev(1, '2026-01-01T11:00:00Z', 'SimulatedTradePlaced', trade({ tradeId: 't1', price: 2000, notionalMicros: 2_000_000_000, feeMicros: 2_000_000, lotRule: 'FIFO', lots: [], exits: { kind: 'NONE' }, placedAt: '2026-01-01T11:00:00Z' }), v3);
    const buyHigh = ev(2, '2026-01-01T12:00:00Z', 'SimulatedTradePlaced', trade({ tradeId: 't2', price: 3000, notionalMicros: 3_000_000_000, feeMicros: 3_000_000, lotRule: 'FIFO', lots: [], exits: { kind: 'NONE' }, placedAt: '2026-01-01T12:00:00Z' }), v3);
    // FIFO: the sale takes the first lot (t1) whole.
    const sell = ev(
      3,
      '2026-01-01T13:00:00Z',
      'SimulatedTradePlaced',
      trade({
        tradeId: 's1',
        side: 'SELL',
        price: 3500,
        notionalMicros: 3_500_000_000,
        feeMicros: 3_500_000,
        costBasisClosedMicros: 2_002_000_000,
        entryNotionalClosedMicros: 2_000_000_000,
        realisedPnlMicros: 3_500_000_000 - 3_500_000 - 2_002_000_000,
        closedTradeIds: ['t1'],
        lotRule: 'FIFO',
        lots: [{ tradeId: 't1', quantity: 1, entryPrice: 2000, costMicros: 2_002_000_000, entryNotionalMicros: 2_000_000_000 }],
        placedAt: '2026-01-01T13:00:00Z',
      }),
      v3,
    );
    const { state } = portfolioAsOf([opened, buyLow, buyHigh, sell], new Date('2026-01-01T14:00:00Z'));
    const [eth] = heldPositions(state);
    expect(eth).to.deep.include({ units: 100_000_000, costBasisMicros: 3_003_000_000, entryNotionalMicros: 3_000_000_000, openTradeIds: ['t2'] });
    expect(eth!.lots).to.deep.equal([{ tradeId: 't2', units: 100_000_000, costMicros: 3_003_000_000, entryNotionalMicros: 3_000_000_000, price: 3000 }]);
  });

  it('lists the positions held by symbol, whatever order they were bought in', function () {
    const coins: Array<[string, string, number]> = [
      ['SOL', 'solana', 150],
      ['BTC', 'bitcoin', 60_000],
      ['LINK', 'chainlink', 15],
      ['ADA', 'cardano', 1],
      ['ETH', 'ethereum', 3000],
    ];
    const buys = coins.map(([symbol, coinId, price], i) =>
      ev(i + 1, '2026-01-01T11:00:00Z', 'SimulatedTradePlaced', trade({ tradeId: `t${i + 1}`, symbol, coinId, quantity: 0.01, price, notionalMicros: price * 10_000, feeMicros: price * 10, placedAt: '2026-01-01T11:00:00Z' })),
    );
    const { state } = portfolioAsOf([opened, ...buys], new Date('2026-01-01T12:00:00Z'));
    expect(heldPositions(state).map((p) => p.symbol)).to.deep.equal(['ADA', 'BTC', 'ETH', 'LINK', 'SOL']);
  });

  it("reads a user's timeline from the portfolio, bot, risk and subscription streams, each under its category", function () {
    expect(timelineStreams('u7')).to.deep.equal([
      { streamId: 'portfolio-u7', category: 'trade' },
      { streamId: 'bot-u7', category: 'bot' },
      { streamId: 'risk-u7', category: 'risk' },
      { streamId: 'subscription-u7', category: 'subscription' },
    ]);
  });

  it('merges streams by global position, whichever stream holds the earliest event', function () {
    const at = (position: string, type: string) => ({ ...ev(0, 'x', type, {}), position });
    const portfolio = [at('0000000007', 'P7'), at('0000000009', 'P9')];
    const bot = [at('0000000004', 'B4'), at('0000000008', 'B8')];
    const risk = [at('0000000003', 'R3'), at('0000000006', 'R6')];
    const subscription = [at('0000000001', 'S1'), at('0000000002', 'S2'), at('0000000005', 'S5')];
    const expected = ['S1', 'S2', 'R3', 'B4', 'S5', 'R6', 'P7', 'B8', 'P9'];
    expect(inGlobalOrder([portfolio, bot, risk, subscription]).map((e) => e.type)).to.deep.equal(expected);
    expect(inGlobalOrder([subscription, risk, bot, portfolio]).map((e) => e.type)).to.deep.equal(expected);
  });

  it('prices at asOf with the candle that opens at that very millisecond, and in the first candle of the series', function () {
    const hour = (h: number, m = 0) => Date.UTC(2026, 0, 1, h, m);
    const candles = [0, 1, 2].map((i) => ({ time: hour(i), open: 100 + i, high: 200, low: 50, close: 150 + i, volume: 1 }));
    expect(priceAtFromCandles(candles, new Date(hour(1)), 60)).to.deep.equal({ price: 101, candleTime: '2026-01-01T01:00:00.000Z' });
    expect(priceAtFromCandles(candles, new Date(hour(0, 30)), 60)).to.deep.equal({ price: 100, candleTime: '2026-01-01T00:00:00.000Z' });
    expect(priceAtFromCandles(candles, new Date(hour(0)), 60)).to.deep.equal({ price: 100, candleTime: '2026-01-01T00:00:00.000Z' });
    expect(priceAtFromCandles(candles, new Date(hour(2, 59)), 60)).to.deep.equal({ price: 102, candleTime: '2026-01-01T02:00:00.000Z' });
  });

  it('shows an event stored without a time (or with one that is not a string) with an empty time', function () {
    const untimed: StoredEventLike = { streamId: 'bot-u', revision: 4n, position: '0000000012', type: 'BotStarted', data: { userId: 'u' }, metadata: {} };
    expect(eventTime(untimed)).to.equal('');
    expect(eventTime({ metadata: { at: 1_767_225_600_000 } })).to.equal('');
    expect(toAuditEvent(untimed)).to.deep.include({ streamId: 'bot-u', revision: '4', position: '0000000012', type: 'BotStarted', time: '' });
  });
});
