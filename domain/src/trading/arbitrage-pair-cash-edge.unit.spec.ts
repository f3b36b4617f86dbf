/**
 * An arbitrage pair's BUY leg may spend all the cash and not a micro-dollar more: 3.33000333 ETH at
 * Binance's $3,000 costs $9,990.00999 plus its 0.1 % fee, $10,000 to the micro-dollar, which is the
 * starting cash.
 */
import { expect } from 'chai';
import { IllegalStateError } from '../shared/errors';
import { STARTING_CASH_MICROS } from './money';
import type { TradeSource } from './portfolio';
import { portfolioDecider, type PlaceArbitragePair } from './portfolio.decider';

const NOW = '2026-03-04T05:06:07.000Z';
const ARBITRAGE: TradeSource = { kind: 'SIGNAL', eventId: 'e1', signalId: 's1', signalType: 'ARBITRAGE', candleTime: '2026-03-04T05:00:00.000Z' };

const pair = (amount: number): PlaceArbitragePair => ({
  type: 'PlaceArbitragePair',
  data: { userId: 'u1', pairId: 'p1', buyTradeId: 'pb', sellTradeId: 'ps', symbol: 'ETH', amount, buy: { exchange: 'binance', mid: 3000 }, sell: { exchange: 'kraken', mid: 3030 }, source: ARBITRAGE },
  metadata: { now: NOW },
});

describe('arbitrage pair: a BUY leg that costs exactly the cash', function () {
  it('goes through at the starting cash to the micro-dollar, and a unit more is refused', function () {
    const events = portfolioDecider.decide(pair(3.33000333), portfolioDecider.initialState());
    expect(events.flatMap((e) => (e.type === 'SimulatedTradePlaced' ? [e.data.side] : []))).to.deep.equal(['BUY', 'SELL']);
    expect(STARTING_CASH_MICROS).to.equal(10_000_000_000);
    expect(() => portfolioDecider.decide(pair(3.33000334), portfolioDecider.initialState())).to.throw(IllegalStateError, /^Insufficient paper cash: buying 3\.33000334 ETH on Binance/);
  });
});
