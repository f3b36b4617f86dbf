/**
 * GET /api/public/stats counts simulated trades (issue 16, item 7: the landing page said
 * "0 Simulated trades" while 23 existed), through the real projector on the embedded app's PGlite:
 * manual BUY and SELL trades through POST /api/trades, the house demo bot's trades and a stop-loss
 * close through the portfolio decider (as the bot and the risk monitor issue them). The figure equals
 * the SimulatedTradePlaced and PositionClosed events in the store, and a rebuild of the projection
 * gives the same answer.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { publicStatsSchema } from '@papertrade/domain/public-stats/contracts';
import { PUBLIC_STATS_PROJECTION } from '@papertrade/domain/public-stats/public-stats-view';
import { HOUSE_DEMO_ACTOR, HOUSE_DEMO_USER_ID } from '@papertrade/domain/trading/house-demo';
import { portfolioStreamId } from '@papertrade/domain/trading/portfolio';
import { portfolioDecider, type PortfolioCommand } from '@papertrade/domain/trading/portfolio.decider';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { useHarness } from '../../../test/api-harness';

describe('GET /api/public/stats: simulated trades (HTTP, embedded projector)', function () {
  this.timeout(60_000);
  const harness = useHarness();

  async function stats(position?: string) {
    const res = await harness().request('GET', '/api/public/stats', { headers: position ? { 'x-min-position': position } : {} });
    expect(res.status).to.equal(200);
    return publicStatsSchema.parse(res.body);
  }

  /** Trades in the whole log: every SimulatedTradePlaced and PositionClosed. */
  async function tradesInStore(): Promise<number> {
    return (await harness().eventsSince(undefined)).filter((e) => e.type === 'SimulatedTradePlaced' || e.type === 'PositionClosed').length;
  }

  it("counts manual trades, the house demo bot's trades and a stop-loss close, and a rebuild says the same", async function () {
    const h = harness();
    const id = randomUUID().slice(0, 8);
    const { userId: _userId } = await h.signup({ email: `s.${id}@example.com`, username: `s_${id}` });
    const token = await h.login(`s.${id}@example.com`, 'secret1');
    const before = await stats(String(await h.head()));

    for (const [side, amount] of [['BUY', 0.5], ['SELL', 0.2]] as const) {
      const res = await h.request('POST', '/api/trades', { token, body: { symbol: 'ETH', type: side, amount } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }
    // The house demo bot's trades, as the trading bot issues them, then the risk monitor's stop loss.
    const handler = new CommandHandler(h.rt.infra.eventStore, () => new Date());
    const demo = (command: PortfolioCommand) => handler.handle(portfolioDecider, portfolioStreamId(HOUSE_DEMO_USER_ID), command, { actor: HOUSE_DEMO_ACTOR, correlationId: 'stats' });
    const now = new Date().toISOString();
    const buy = (tradeId: string, symbol: string): PortfolioCommand => ({ type: 'PlaceSimulatedTrade', data: { userId: HOUSE_DEMO_USER_ID, tradeId, symbol, side: 'BUY', amount: 0.01, price: 100, source: { kind: 'MANUAL' } }, metadata: { now } });
    await demo(buy(`d1-${id}`, 'BTC'));
    await demo(buy(`d2-${id}`, 'SOL'));
    const close = await demo({ type: 'ClosePosition', data: { userId: HOUSE_DEMO_USER_ID, positionId: `d2-${id}`, symbol: 'SOL', reason: 'STOP_LOSS', price: 98 }, metadata: { now } });
    expect(close.events.map((e) => e.type)).to.deep.equal(['PositionClosed']);

    const after = await stats(String(await h.head()));
    expect(after.simulatedTrades - before.simulatedTrades).to.equal(5);
    expect(after.simulatedTrades).to.equal(await tradesInStore());

    await h.projector.rebuild(PUBLIC_STATS_PROJECTION);
    expect(await stats()).to.deep.equal(after);
  });
});
