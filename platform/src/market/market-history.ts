/**
 * The candles the risk rules need, from the MarketData port, cached, so a signal for 1,000 bots, or a
 * tick for every holder of a coin, reads each coin's history once, and the figures
 * (domain/src/trading/market-figures.ts) are computed once per signal or tick from the cached columns.
 *
 * - `marketAt(coinId, atMs)`: what a bot order's entry rules read at its fill time (the coin's figures
 *   and its 30-day correlations with every other coin), from the charts ending then
 *   (domain/src/trading/engine/market-at.ts composes them, as the paper engine does from the path), so
 *   the live bot and a replay of its signals decide on the same figures. Kept per fill time (the
 *   orders of one candle's signals share theirs), the last MARKET_AT_KEPT times.
 * - `figures(coinId)`: the coin's figures now (ATR14 and sigma20 for a position whose entry recorded
 *   none, the 24-hour range for the volatility alert), each series read once and kept until its next
 *   candle closes.
 * Only candles complete at the time asked count. A read the port refuses rejects (and is not cached),
 * so the next call tries again.
 */
import { coins, type CoinId } from '@papertrade/domain/market/coins';
import type { BotMarket } from '@papertrade/domain/trading/bot-trade-decision';
import { botMarketOf, columnsAt, DAY_DAYS, MONTH_DAYS } from '@papertrade/domain/trading/engine/market-at';
import { coinFigures, type CandleColumns, type CoinFigures } from '@papertrade/domain/trading/market-figures';
import type { CoinContext } from '@papertrade/domain/trading/risk-watch';
import type { MarketData } from './market-data';

export { DAY_DAYS, MONTH_DAYS };

/** How many fill times' series are kept (each is a day and a month of every coin read). */
export const MARKET_AT_KEPT = 8;

export class MarketHistory {
  private readonly cache = new Map<string, { validUntil: number; columns: Promise<CandleColumns> }>();
  /** Per fill time: its series, by coin and range (insertion order: the oldest time is dropped first). */
  private readonly atCache = new Map<number, Map<string, Promise<CandleColumns>>>();

  constructor(
    private readonly marketData: Pick<MarketData, 'candles'>,
    private readonly clock: () => Date,
  ) {}

  /** The complete candles of `days` for the coin now, read once per candle. */
  series(coinId: CoinId, days: number): Promise<CandleColumns> {
    const key = `${coinId}|${days}`;
    const now = this.clock().getTime();
    const kept = this.cache.get(key);
    if (kept && now < kept.validUntil) return kept.columns;
    const entry = { validUntil: Number.POSITIVE_INFINITY, columns: Promise.resolve(null as unknown as CandleColumns) };
    entry.columns = this.marketData.candles(coinId, days).then(
      (series) => {
        const columns = columnsAt(series, now);
        const width = series.interval.minutes * 60_000;
        // Valid until the next candle closes (the end of the last complete one plus a width).
        const lastEnd = columns.length > 0 ? columns.time[columns.length - 1]! + width : now;
        entry.validUntil = Math.max(now + 1, lastEnd + width);
        return columns;
      },
      (error: unknown) => {
        this.cache.delete(key);
        throw error;
      },
    );
    this.cache.set(key, entry);
    return entry.columns;
  }

  /** The complete candles of `days` for the coin at `atMs` (a time that has happened), kept per time. */
  seriesAt(coinId: CoinId, days: number, atMs: number): Promise<CandleColumns> {
    let byTime = this.atCache.get(atMs);
    if (!byTime) {
      byTime = new Map();
      this.atCache.set(atMs, byTime);
      if (this.atCache.size > MARKET_AT_KEPT) this.atCache.delete(this.atCache.keys().next().value!);
    }
    const key = `${coinId}|${days}`;
    const kept = byTime.get(key);
    if (kept) return kept;
    const columns = this.marketData.candles(coinId, days, atMs).then(
      (series) => columnsAt(series, atMs),
      (error: unknown) => {
        byTime.delete(key);
        throw error;
      },
    );
    byTime.set(key, columns);
    return columns;
  }

  /** The market a bot order on `coinId` filling at `atMs` reads (see the module comment). */
  async marketAt(coinId: CoinId, atMs: number): Promise<BotMarket> {
    const [day, ...months] = await Promise.all([this.seriesAt(coinId, DAY_DAYS, atMs), ...coins.map((c) => this.seriesAt(c.id, MONTH_DAYS, atMs))]);
    const month = new Map(coins.map((c, i) => [c.id, months[i]!]));
    return botMarketOf(coinId, day!, (id) => month.get(id)!);
  }

  /** The coin's figures now (market-figures.ts). */
  async figures(coinId: CoinId): Promise<CoinFigures> {
    const [day, month] = await Promise.all([this.series(coinId, DAY_DAYS), this.series(coinId, MONTH_DAYS)]);
    return coinFigures(day, month);
  }

  /**
   * What the risk monitor and the Active Trades tab need of a coin now: the figures (ATR14, sigma20,
   * the 24-hour range). A part that cannot be read is left NaN, so the rules that need it skip it
   * rather than guess.
   */
  async coinContext(coinId: CoinId): Promise<CoinContext> {
    const figures = await this.figures(coinId).catch(() => null);
    return { atr: figures?.atr14 ?? Number.NaN, sigma: figures?.sigma20 ?? Number.NaN, range24hPercent: figures?.range24hPercent ?? Number.NaN };
  }
}
