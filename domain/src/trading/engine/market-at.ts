/**
 * The market a bot order's entry rules read (the signal coin's figures and its correlations with the
 * other coins: market-figures.ts, bot-trade-decision.ts), taken at the order's fill time from the charts
 * that end then. The live trading bot reads those charts through the market-data port
 * (platform/src/market/market-history.ts `marketAt`, cached per fill time) and the paper engine from the
 * path (`chartsOf` a market simulation); both compose them here, so the same fill time gives the same
 * figures, and a replay or a backtest the same decisions.
 *
 * Only candles complete at the fill time count (candleColumns), so nothing after the moment is read:
 * a signal's order fills 5 s after its candle closed (bot-timing.ts), and the figures then are those
 * of the candles up to the signal's own.
 */
import { coins, findCoinBySymbol, type CoinId, type CoinSymbol } from '../../market/coins';
import type { CandleSeries } from '../../market/simulation';
import type { BotMarket } from '../bot-trade-decision';
import { candleColumns, coinFigures, returnCorrelation, type CandleColumns } from '../market-figures';

/** The range whose candles are five minutes wide (ATR14, sigma20, the 24-hour range, the recent volatility). */
export const DAY_DAYS = 1;
/** The range of the correlation and the average volatility. */
export const MONTH_DAYS = 30;

/** The chart of `days` days ending at `endMs` (a market simulation's `chart`). */
export type ChartAt = (coinId: CoinId, days: number, endMs: number) => CandleSeries;

/** A chart's candles complete at `endMs`, as columns. */
export function columnsAt(series: CandleSeries, endMs: number): CandleColumns {
  return candleColumns(series.candles, series.interval.minutes * 60_000, endMs);
}

/**
 * The signal coin's market from its day series and every coin's month series (see the module comment).
 * `lazyCorrelations`: each correlation is computed when it is first read (the same value), so another
 * coin's month series is built only for a rule that reads it: the correlation limit reads the coins
 * held, and a backtest holds only the coin it trades (it built the nine others' paths for nothing).
 */
export function botMarketOf(coinId: CoinId, day: CandleColumns, month: (coinId: CoinId) => CandleColumns, lazyCorrelations = false): BotMarket {
  const mine = month(coinId);
  let correlations: BotMarket['correlations'];
  if (lazyCorrelations) correlations = new Proxy(new LazyCorrelations(coinId, mine, month), lazyCorrelationsHandler) as unknown as BotMarket['correlations'];
  else {
    correlations = {};
    for (const c of coins) if (c.id !== coinId) correlations[c.symbol] = returnCorrelation(mine, month(c.id));
  }
  return { figures: coinFigures(day, mine), correlations };
}

/**
 * The other coins' correlations, each computed when first read: the object a backtest's markets answer
 * with (one per fill time, tens of thousands in a walk-forward), behind a Proxy with one shared handler
 * instead of nine accessors and closures defined on each. It reads as the plain object does: the other
 * coins' symbols as its own enumerable keys, each with its value.
 */
class LazyCorrelations {
  private readonly values = new Map<CoinSymbol, number>();
  readonly symbols: CoinSymbol[];
  constructor(
    coinId: CoinId,
    private readonly mine: CandleColumns,
    private readonly month: (coinId: CoinId) => CandleColumns,
  ) {
    // Ten coins filtered per market: cheaper than the correlations it stands for, and no module memo
    // that outlives a run (Stryker runs many mutants in one process, and a memo answers for the first).
    this.symbols = coins.filter((c) => c.id !== coinId).map((c) => c.symbol);
  }
  /** The correlation with `symbol`, one of the other coins' (`symbols`: the handler asks only for those). */
  correlationWith(symbol: CoinSymbol): number {
    const coin = findCoinBySymbol(symbol)!;
    let value = this.values.get(coin.symbol);
    if (value === undefined) {
      value = returnCorrelation(this.mine, this.month(coin.id));
      this.values.set(coin.symbol, value);
    }
    return value;
  }
}

const isOther = (target: LazyCorrelations, key: string | symbol): key is CoinSymbol => typeof key === 'string' && (target.symbols as string[]).includes(key);
const lazyCorrelationsHandler: ProxyHandler<LazyCorrelations> = {
  get: (target, key) => (isOther(target, key) ? target.correlationWith(key) : undefined),
  has: (target, key) => isOther(target, key),
  ownKeys: (target) => [...target.symbols],
  getOwnPropertyDescriptor: (target, key) => (isOther(target, key) ? { value: target.correlationWith(key), writable: false, enumerable: true, configurable: true } : undefined),
  set: () => false,
  defineProperty: () => false,
  deleteProperty: () => false,
};

/** The market of `coinId` at `atMs` from charts ending then. */
export function botMarketAt(chart: ChartAt, coinId: CoinId, atMs: number): BotMarket {
  return botMarketOf(coinId, columnsAt(chart(coinId, DAY_DAYS, atMs), atMs), (id) => columnsAt(chart(id, MONTH_DAYS, atMs), atMs));
}
