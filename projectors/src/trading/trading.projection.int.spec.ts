/**
 * The trading projections through the real projector runtime (PGlite): events appended with the
 * portfolio and risk deciders become the portfolios, trades and risk documents; a redelivery from a
 * lost checkpoint doubles nothing (the trade summary counts each trade once), and a rebuild equals
 * the live generation. A sale updates the documents of the BUYs whose lots it took (FIFO), and events
 * stored at schema version 1 (average cost) are read through the portfolio's upcaster.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { portfolioStreamId } from '@papertrade/domain/trading/portfolio';
import { portfolioDecider, type PortfolioCommand } from '@papertrade/domain/trading/portfolio.decider';
import { riskStreamId } from '@papertrade/domain/trading/risk';
import { DEFAULT_RISK_PARAMETERS } from '@papertrade/domain/trading/contracts';
import { OPEN_POSITIONS_PROJECTION, type OpenPositionsView } from '@papertrade/domain/trading/open-positions-view';
import { riskDecider } from '@papertrade/domain/trading/risk.decider';
import {
  PORTFOLIOS_PROJECTION,
  RISK_PROJECTION,
  TRADES_PROJECTION,
  closeTradeId,
  tradeViewId,
  type PortfolioView,
  type RiskView,
  type TradeView,
} from '@papertrade/domain/trading/trading-view';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import type { DocumentStore } from '@papertrade/platform/document-store/document-store';
import type { EventStore } from '@papertrade/platform/event-store/event-store';
import { MemoryBus } from '@papertrade/platform/bus/memory-bus';
import { MemoryLeaseProvider } from '@papertrade/platform/projections/lease';
import { Projector } from '@papertrade/platform/projections/projector';
import { CHECKPOINT_COLLECTION, ReadModels, checkpointId } from '@papertrade/platform/projections/read-models';
import { silentLogger } from '@papertrade/platform/config/logger';
import { projections } from '../projections';
import { pgliteStores } from '../../../test/pglite-stores';

const DAY1 = '2026-03-04T05:00:00.000Z';
const DAY2 = '2026-03-05T06:00:00.000Z';
const DAY2_LATER = '2026-03-05T07:00:00.000Z';

describe('trading projections (projector runtime, PGlite)', function () {
  this.timeout(60_000);
  let eventStore: EventStore;
  let documents: DocumentStore;
  let cleanup: () => Promise<void>;
  const deps = () => ({ eventStore, documents, bus: new MemoryBus(), leases: new MemoryLeaseProvider(), logger: silentLogger });

  beforeEach(async function () {
    ({ eventStore, documents, cleanup } = await pgliteStores());
  });
  afterEach(async function () {
    await cleanup();
  });

  async function portfolio(command: PortfolioCommand) {
    await new CommandHandler(eventStore, () => new Date()).handle(portfolioDecider, portfolioStreamId(command.data.userId), command, { actor: 'test', correlationId: 'c' });
  }
  const place = (userId: string, tradeId: string, side: 'BUY' | 'SELL', amount: number, price: number, now: string, symbol = 'ETH'): PortfolioCommand => ({
    type: 'PlaceSimulatedTrade',
    data: { userId, tradeId, symbol, side, amount, price, source: { kind: 'MANUAL' } },
    metadata: { now },
  });

  async function seed() {
    await portfolio(place('u1', 't1', 'BUY', 0.5, 3000, DAY1));
    await portfolio(place('u1', 't2', 'BUY', 0.01, 60_000, DAY1, 'BTC'));
    await portfolio(place('u1', 't3', 'SELL', 0.2, 3300, DAY2));
    await portfolio({ type: 'ClosePosition', data: { userId: 'u1', positionId: 't2', symbol: 'BTC', reason: 'TAKE_PROFIT', price: 63_000 }, metadata: { now: DAY2_LATER } });
    await portfolio(place('u2', 'x1', 'BUY', 1, 150, DAY2, 'SOL'));
    await new CommandHandler(eventStore, () => new Date()).handle(
      riskDecider,
      riskStreamId('u1'),
      { type: 'ChangeBotSettings', data: { userId: 'u1', changes: { takeProfitPercent: 8 } }, metadata: { now: DAY1 } },
      { actor: 'test', correlationId: 'c' },
    );
  }

  async function read() {
    const readModels = new ReadModels(documents);
    const portfolios = await readModels.collection<PortfolioView>(PORTFOLIOS_PROJECTION);
    const trades = await readModels.collection<TradeView>(TRADES_PROJECTION);
    const risk = await readModels.collection<RiskView>(RISK_PROJECTION);
    return { readModels, portfolios, trades, risk };
  }

  it('projects portfolios, trades and risk per user', async function () {
    const projector = new Projector(deps(), projections);
    await projector.start();
    await seed();
    await projector.caughtUp();
    const { portfolios, trades, risk } = await read();

    const u1 = (await portfolios.get('u1'))!;
    // 10,000 - 1,501.50 - 600.60 + (660 - 0.66) + (630 - 0.63) = 9,186.61
    expect(u1.cashMicros).to.equal(9_186_610_000);
    expect(Object.keys(u1.positions)).to.deep.equal(['ETH']);
    expect(u1.day).to.deep.include({ day: '2026-03-05', startedAt: '2026-03-05T00:00:00.000Z', cashMicros: 7_897_900_000 });
    // 58.74 on the sell + (630 - 0.63 - 600.60) = 28.77 on the take profit
    expect(u1.day.realisedPnlMicros).to.equal(87_510_000);
    expect(u1.summary).to.deep.include({ trades: 4, buys: 2, sells: 2, closes: 2, wins: 2 });
    expect((await portfolios.get('u2'))!.summary.trades).to.equal(1);

    const u1Trades = await trades.find({ where: { userId: 'u1' }, sort: [{ field: 'placedAtMs', direction: 'desc' }, { field: 'tradeId', direction: 'desc' }] });
    expect(u1Trades.map((t) => [t.tradeId, t.type, t.status, t.closeReason])).to.deep.equal([
      [closeTradeId('t2'), 'SELL', 'CLOSED', 'TAKE_PROFIT'],
      ['t3', 'SELL', 'CLOSED', 'SELL'],
      ['t2', 'BUY', 'CLOSED', 'TAKE_PROFIT'],
      ['t1', 'BUY', 'OPEN', null],
    ]);
    expect(await trades.count({ userId: 'u2' })).to.equal(1);
    expect(await trades.get(tradeViewId('u2', 'x1'))).to.deep.include({ symbol: 'SOL', status: 'OPEN' });

    // A bot settings take profit of 8 % on the 2 % stop: the profile's ratio 4.
    expect((await risk.get('u1'))!.profile.takeProfitRatio).to.equal(4);
    expect(await risk.get('u2')).to.equal(null);
    await projector.stop();
  });

  it('a sale updates the BUYs whose lots it took; version 1 events read as average cost; a rebuild equals the live result', async function () {
    // Stored by the average-cost code (schema version 1): b1 0.5 ETH at 3,000, b2 0.5 at 3,100, s1 sells 0.6 at 3,050.
    const v1 = (type: string, data: Record<string, unknown>) => ({
      id: randomUUID(),
      type,
      data: { userId: 'old', ...data },
      metadata: { userId: 'old', correlationId: 'c', causationId: 'c', at: DAY1, schemaVersion: 1 },
    });
    const fill = { coinId: 'ethereum', symbol: 'ETH', source: { kind: 'MANUAL' }, costBasisClosedMicros: 0, entryNotionalClosedMicros: 0, realisedPnlMicros: 0, closedTradeIds: [], placedAt: DAY1 };
    await eventStore.append(
      portfolioStreamId('old'),
      [
        v1('PortfolioOpened', { startingCashMicros: 10_000_000_000, openedAt: DAY1 }),
        v1('SimulatedTradePlaced', { ...fill, tradeId: 'b1', side: 'BUY', quantity: 0.5, price: 3000, notionalMicros: 1_500_000_000, feeMicros: 1_500_000 }),
        v1('SimulatedTradePlaced', { ...fill, tradeId: 'b2', side: 'BUY', quantity: 0.5, price: 3100, notionalMicros: 1_550_000_000, feeMicros: 1_550_000 }),
        v1('SimulatedTradePlaced', {
          ...fill,
          tradeId: 's1',
          side: 'SELL',
          quantity: 0.6,
          price: 3050,
          notionalMicros: 1_830_000_000,
          feeMicros: 1_830_000,
          costBasisClosedMicros: 1_831_830_000,
          entryNotionalClosedMicros: 1_830_000_000,
          realisedPnlMicros: -3_660_000,
        }),
      ],
      'no_stream',
    );
    // Under FIFO (through the command helper, which upcasts the stored events): the case, and
    // a sale after the old ones, which takes what average cost left of b1 (0.2) and 0.1 of b2.
    await portfolio(place('u3', 'b1', 'BUY', 0.5, 3000, DAY1));
    await portfolio(place('u3', 'b2', 'BUY', 0.5, 3100, DAY1));
    await portfolio(place('u3', 's1', 'SELL', 0.6, 3050, DAY2));
    await portfolio(place('old', 's2', 'SELL', 0.3, 3000, DAY2));

    const projector = new Projector(deps(), projections);
    await projector.start();
    await projector.caughtUp();
    const live = await read();
    expect(await live.trades.get(tradeViewId('u3', 'b1'))).to.deep.include({ status: 'CLOSED', closeReason: 'SELL', heldUnits: 0, heldCostMicros: 0, soldUnits: 50_000_000 });
    expect(await live.trades.get(tradeViewId('u3', 'b2'))).to.deep.include({ status: 'OPEN', heldUnits: 40_000_000, heldCostMicros: 1_241_240_000, soldUnits: 10_000_000 });
    expect(await live.trades.get(tradeViewId('u3', 's1'))).to.deep.include({ lotRule: 'FIFO', entryPrice: (50_000_000 * 3000 + 10_000_000 * 3100) / 60_000_000, realisedPnlMicros: 16_360_000 });

    const old = (await live.portfolios.get('old'))!;
    // As the average-cost code folded them (cash, realised, cost basis), then FIFO: 900 - 0.90 - (600.60 + 310.31).
    expect(old).to.deep.include({ cashMicros: 10_000_000_000 - 1_501_500_000 - 1_551_550_000 + 1_828_170_000 + 899_100_000, realisedPnlMicros: -3_660_000 - 11_810_000 });
    expect(old.positions.ETH).to.deep.include({ units: 10_000_000, costBasisMicros: 310_310_000, openTradeIds: ['b2'] });
    expect(await live.trades.get(tradeViewId('old', 's1'))).to.deep.include({ lotRule: 'AVERAGE_COST', lots: [], entryPrice: 3050 });
    expect(await live.trades.get(tradeViewId('old', 's2'))).to.deep.include({ lotRule: 'FIFO', realisedPnlMicros: -11_810_000 });
    expect(await live.trades.get(tradeViewId('old', 'b1'))).to.deep.include({ status: 'CLOSED', heldUnits: 0 });

    const liveTrades = await live.trades.find({ sort: [{ field: 'tradeId', direction: 'asc' }] });
    const livePortfolios = [await live.portfolios.get('old'), await live.portfolios.get('u3')];
    await projector.rebuild(PORTFOLIOS_PROJECTION);
    await projector.rebuild(TRADES_PROJECTION);
    const rebuilt = await read();
    expect(await rebuilt.trades.find({ sort: [{ field: 'tradeId', direction: 'asc' }] })).to.deep.equal(liveTrades);
    expect([await rebuilt.portfolios.get('old'), await rebuilt.portfolios.get('u3')]).to.deep.equal(livePortfolios);
    await projector.stop();
  });

  it('risk events stored before the one profile (schema version 1) fold into it field by field, in the risk and open-positions documents alike, and the open-positions document reads the plans of version 2 BUYs by their source', async function () {
    const v1 = (type: string, data: Record<string, unknown>) => ({
      id: randomUUID(),
      type,
      data: { userId: 'legacy', ...data },
      metadata: { userId: 'legacy', correlationId: 'c', causationId: 'c', at: DAY1, schemaVersion: 1 },
    });
    const v1Parameters = { ...DEFAULT_RISK_PARAMETERS, takeProfitRatio: 2 };
    const v1Settings = { maxPositionSize: 5, stopLossPercent: 2, takeProfitPercent: 5, dailyLossLimit: 500, enableNotifications: true, autoRetrain: true };
    await eventStore.append(
      riskStreamId('legacy'),
      [
        // The bot's stop set to 3 %, then Risk Management's maximum position to 7 % (its stop still showed 2).
        v1('BotSettingsChanged', { changes: { stopLossPercent: 3 }, settings: { ...v1Settings, stopLossPercent: 3 }, changedAt: DAY1 }),
        v1('RiskParametersChanged', { parameters: { ...v1Parameters, maxPositionSize: 7 }, previous: v1Parameters, changedAt: DAY1 }),
      ],
      'no_stream',
    );
    const v2Buy = (tradeId: string, symbol: string, source: Record<string, unknown>) => ({
      ...v1('SimulatedTradePlaced', {
        tradeId, coinId: symbol === 'ETH' ? 'ethereum' : 'solana', symbol, side: 'BUY', quantity: 1, price: 100, notionalMicros: 100_000_000, feeMicros: 100_000,
        costBasisClosedMicros: 0, entryNotionalClosedMicros: 0, realisedPnlMicros: 0, source, closedTradeIds: [], lotRule: 'FIFO', lots: [], placedAt: DAY1,
      }),
      metadata: { userId: 'legacy', correlationId: 'c', causationId: 'c', at: DAY1, schemaVersion: 2 },
    });
    await eventStore.append(
      portfolioStreamId('legacy'),
      [
        { ...v1('PortfolioOpened', { startingCashMicros: 10_000_000_000, openedAt: DAY1 }), metadata: { userId: 'legacy', correlationId: 'c', causationId: 'c', at: DAY1, schemaVersion: 2 } },
        v2Buy('m1', 'ETH', { kind: 'MANUAL' }),
        v2Buy('b1', 'SOL', { kind: 'SIGNAL', eventId: 'e', signalId: 's', signalType: 'BUY', candleTime: DAY1 }),
      ],
      'no_stream',
    );
    const projector = new Projector(deps(), projections);
    await projector.start();
    await projector.caughtUp();
    const { readModels, risk } = await read();
    const expected = { maxPositionSize: 7, stopLossValue: 3, takeProfitRatio: 5 / 3 };
    expect((await risk.get('legacy'))!.profile).to.include(expected);
    const open = (await (await readModels.collection<OpenPositionsView>(OPEN_POSITIONS_PROJECTION)).get('legacy'))!;
    expect(open.profile).to.include(expected);
    if (open.portfolio.status !== 'open') throw new Error('open');
    expect(open.portfolio.positions.ETH!.exits).to.deep.equal({ kind: 'NONE' });
    expect(open.portfolio.positions.SOL!.exits).to.deep.equal({ kind: 'PROFILE', atr: null, sigma: null });
    // The command side folds the same profile.
    const loaded = await new CommandHandler(eventStore, () => new Date()).load(riskDecider, riskStreamId('legacy'));
    expect(loaded.state.profile).to.include(expected);
    await projector.stop();
  });

  it('a redelivery from a lost checkpoint doubles nothing, and a rebuild equals the live generation', async function () {
    let projector = new Projector(deps(), projections);
    await projector.start();
    await seed();
    await projector.caughtUp();
    await projector.stop();
    const before = await read();
    const livePortfolio = await before.portfolios.get('u1');
    const liveTrades = await before.trades.find({ sort: [{ field: 'tradeId', direction: 'asc' }] });

    for (const name of [PORTFOLIOS_PROJECTION, TRADES_PROJECTION]) await documents.collection(CHECKPOINT_COLLECTION).delete(checkpointId(name, 1));
    projector = new Projector(deps(), projections);
    await projector.start();
    await projector.caughtUp();
    const after = await read();
    expect(await after.portfolios.get('u1')).to.deep.equal(livePortfolio);
    expect(await after.trades.find({ sort: [{ field: 'tradeId', direction: 'asc' }] })).to.deep.equal(liveTrades);

    await projector.rebuild(PORTFOLIOS_PROJECTION);
    await projector.rebuild(TRADES_PROJECTION);
    const rebuilt = await read();
    expect(await rebuilt.readModels.liveGeneration(TRADES_PROJECTION)).to.equal(2);
    expect(await rebuilt.portfolios.get('u1')).to.deep.equal(livePortfolio);
    expect(await rebuilt.trades.find({ sort: [{ field: 'tradeId', direction: 'asc' }] })).to.deep.equal(liveTrades);
    await projector.stop();
  });
});
