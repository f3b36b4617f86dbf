/**
 * The market the trading bot's entry rules read at a fill time (MarketHistory.marketAt): the charts
 * ending then, through the market-data port, composed as the paper engine composes them from the path
 * (domain/src/trading/engine/market-at.ts), so a replay decides on the same figures whenever it runs;
 * each series read once per fill time; a chart after now refused.
 */
import { expect } from 'chai';
import type { CoinId } from '@papertrade/domain/market/coins';
import { botMarketAt } from '@papertrade/domain/trading/engine/market-at';
import type { CandleSeries } from './market-data';
import { MarketHistory } from './market-history';
import { SimulatedMarketData } from './simulated-market-data';

const SEED = 'market history spec seed';
const FILL = Date.UTC(2026, 0, 6, 10, 5, 5);

describe('market history: the market at a fill time', function () {
  this.timeout(60_000);

  it('is the engine\'s market from the same charts, and stays so when read hours later', async function () {
    let now = FILL + 1000;
    const market = new SimulatedMarketData(SEED, () => new Date(now));
    const engine = botMarketAt((c, d, t) => market.simulation.chart(c, d, t), 'solana', FILL);
    expect(await new MarketHistory(market, () => new Date(now)).marketAt('solana', FILL)).to.deep.equal(engine);
    now = FILL + 3 * 3_600_000;
    const later = new MarketHistory(market, () => new Date(now));
    expect(await later.marketAt('solana', FILL), 'a replay hours later').to.deep.equal(engine);
    expect((await later.figures('solana')).atr14, 'the figures of now are another moment\'s').to.not.equal(engine.figures.atr14);
  });

  it('reads each coin\'s series once per fill time', async function () {
    const market = new SimulatedMarketData(SEED, () => new Date(FILL + 1000));
    const asked: string[] = [];
    const counting = { candles: (coinId: CoinId, days: number, endMs?: number): Promise<CandleSeries> => (asked.push(`${coinId}|${days}|${endMs}`), market.candles(coinId, days, endMs)) };
    const history = new MarketHistory(counting, () => new Date(FILL + 1000));
    await history.marketAt('solana', FILL);
    expect(asked).to.have.length(11); // its day, and every coin's month for the correlations
    await history.marketAt('solana', FILL);
    await history.marketAt('bitcoin', FILL);
    expect(asked.slice(11), 'only bitcoin\'s day is new').to.deep.equal([`bitcoin|1|${FILL}`]);
    await history.marketAt('bitcoin', FILL - 300_000);
    expect(asked, 'another fill time reads again').to.have.length(12 + 11);
  });

  it('the simulated port answers a chart as it stood at a time up to now, and refuses one after now', async function () {
    const market = new SimulatedMarketData(SEED, () => new Date(FILL));
    expect(await market.candles('cardano', 1, FILL - 60_000)).to.deep.equal(market.simulation.chart('cardano', 1, FILL - 60_000));
    expect(await market.candles('cardano', 1)).to.deep.equal(market.simulation.chart('cardano', 1, FILL));
    const error = await market.candles('cardano', 1, FILL + 1).then(() => null, (e: unknown) => e);
    expect(error).to.be.instanceOf(RangeError);
  });
});
