/**
 * The candles the risk rules need, from the MarketData port, cached per candle: each series (a coin
 * and a chart range) is read once and kept until its next candle closes, so a signal for 1,000 bots,
 * or a tick for every holder of a coin, reads each coin's history once, and the figures
 * (domain/src/trading/market-figures.ts) are computed once per signal or tick from the cached columns.
 *
 * - `figures(coinId)`: ATR14 and sigma20 of 5-minute candles, the 24-hour range, and the recent and
 *   average volatility (a day of 5-minute candles and the 30-day series).
 * - `correlations(coinId)`: the coin's 30-day return correlation with every other coin.
 * - `ladderSince(coinId, sinceMs)`: complete candles reaching back to `sinceMs`, finest first (the
 *   chart ranges 0.17, 1, 7, 30 and 365 days: one-minute candles for the last four hours, then
 *   5-minute, hourly, 4-hour and 2-day ones), for a trailing stop's highest price since an entry.
 * Only candles complete at the clock's now count. A read the port refuses rejects (and is not
 * cached), so the next call tries again.
 */
import { coins, type CoinId, type CoinSymbol } from '@papertrade/domain/market/coins';
import { candleColumns, coinFigures, returnCorrelation, type CandleColumns, type CoinFigures } from '@papertrade/domain/trading/market-figures';
import type { CoinContext } from '@papertrade/domain/trading/risk-watch';
import type { MarketData } from './market-data';

/** Chart ranges (days) of the ladder, finest candles first. */
export const LADDER_DAYS = [0.17, 1, 7, 30, 365] as const;
/** The range whose candles are five minutes wide (ATR14, sigma20, the 24-hour range, the recent volatility). */
export const DAY_DAYS = 1;
/** The range of the correlation and the average volatility. */
export const MONTH_DAYS = 30;

export class MarketHistory {
  private readonly cache = new Map<string, { validUntil: number; columns: Promise<CandleColumns> }>();

  constructor(
    private readonly marketData: Pick<MarketData, 'candles'>,
    private readonly clock: () => Date,
  ) {}

  /** The complete candles of `days` for the coin, read once per candle. */
  series(coinId: CoinId, days: number): Promise<CandleColumns> {
    const key = `${coinId}|${days}`;
    const now = this.clock().getTime();
    const kept = this.cache.get(key);
    if (kept && now < kept.validUntil) return kept.columns;
    const entry = { validUntil: Number.POSITIVE_INFINITY, columns: Promise.resolve(null as unknown as CandleColumns) };
    entry.columns = this.marketData.candles(coinId, days).then(
      (series) => {
        const width = series.interval.minutes * 60_000;
        const columns = candleColumns(series.candles, width, now);
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

  /** The coin's figures now (market-figures.ts). */
  async figures(coinId: CoinId): Promise<CoinFigures> {
    const [day, month] = await Promise.all([this.series(coinId, DAY_DAYS), this.series(coinId, MONTH_DAYS)]);
    return coinFigures(day, month);
  }

  /** The coin's 30-day return correlation with every other coin (NaN where it cannot be measured). */
  async correlations(coinId: CoinId): Promise<Partial<Record<CoinSymbol, number>>> {
    const mine = await this.series(coinId, MONTH_DAYS);
    const out: Partial<Record<CoinSymbol, number>> = {};
    await Promise.all(
      coins
        .filter((c) => c.id !== coinId)
        .map(async (c) => {
          out[c.symbol] = returnCorrelation(mine, await this.series(c.id, MONTH_DAYS));
        }),
    );
    return out;
  }

  /** Complete candles reaching back to `sinceMs`: the ladder's ranges, finest first, up to the first that covers it. */
  async ladderSince(coinId: CoinId, sinceMs: number): Promise<CandleColumns[]> {
    const out: CandleColumns[] = [];
    for (const days of LADDER_DAYS) {
      const columns = await this.series(coinId, days);
      out.push(columns);
      if (columns.length > 0 && columns.time[0]! <= sinceMs) break;
    }
    return out;
  }

  /**
   * What the risk monitor and the Active Trades tab need of a coin: the ladder back to the oldest
   * trailing entry (none: no ladder), and the figures of now when `needFigures`. A part that cannot be
   * read is left empty (NaN), so the rules that need it skip it rather than guess.
   */
  async coinContext(coinId: CoinId, trailingSinceMs: number | null, needFigures: boolean): Promise<CoinContext> {
    const [ladder, figures] = await Promise.all([
      trailingSinceMs === null ? Promise.resolve([]) : this.ladderSince(coinId, trailingSinceMs).catch(() => []),
      needFigures ? this.figures(coinId).catch(() => null) : Promise.resolve(null),
    ]);
    return { ladder, atr: figures?.atr14 ?? Number.NaN, sigma: figures?.sigma20 ?? Number.NaN, range24hPercent: figures?.range24hPercent ?? Number.NaN };
  }
}
