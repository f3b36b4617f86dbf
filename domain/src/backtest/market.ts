/**
 * The market a backtest reads, from a market simulation (the same path the live feed serves), with
 * the caches a replay of a long period wants: the paper engine asks, at every signal, every coin's
 * quote (its tick and the last minute's volume) and, for a BUY, the charts of a day and a month that
 * end then (market-at.ts); consecutive signals ask for nearly the same. Nothing here changes a number:
 * - a tick's price is the path's (a past hour's 720 kept per coin and hour; in an hour not over yet, a
 *   minute's twelve per minute);
 * - a minute's volume is the path's minute candle's (read an hour at a time and kept per coin and hour);
 * - a chart is the candles that are complete at its end (the entry rules read only those: columnsAt
 *   drops the forming one), each candle the path's summary of its ticks (as simulation.ts `candles`)
 *   kept per coin, width and start, so a month's 4-hour candles are built once, not once per signal.
 * - the market a BUY's entry rules read (market-at.ts botMarketAt, from those charts) is kept per coin
 *   and fill time, for the walk-forward's many runs over one period; its correlations with the other
 *   coins are computed when read (the correlation limit reads those of the coins held, and a backtest
 *   holds only its own coin), so the other coins' paths are not built.
 * The caches are bounded (the oldest quarter is dropped when one is full).
 */
import { candleIntervalForDays } from '../market/candle-interval';
import type { Candle, CoinId } from '../market/coins';
import { candleArrays, MINUTE_MS, SIMULATION_EPOCH_MS, TICK_MS, TICKS_PER_HOUR, TICKS_PER_MINUTE, type CandleArrays } from '../market/market-path';
import type { CandleSeries, MarketSimulation } from '../market/simulation';
import type { BotMarket } from '../trading/bot-trade-decision';
import { botMarketOf, columnsAt, DAY_DAYS, MONTH_DAYS, type ChartAt } from '../trading/engine/market-at';
import type { CandleColumns } from '../trading/market-figures';
import { pathTicks, type PriceTicks } from '../trading/engine/price-ticks';
import { innerMap } from '../shared/maps';
import type { BacktestMarket } from './run-backtest';

const MAX_HOURS = 30_000;
const MAX_CANDLES = 300_000;
const MAX_CHARTS = 64;
const MAX_MARKETS = 50_000;
const MAX_MINUTES = 400_000;
/** A year of hours' ticks per coin (50 MB). */
const MAX_HOUR_TICKS = 8_800;
const HOUR_MS = 60 * MINUTE_MS;
const MAX_MONTHS = 20_000;

/** Keeps `value` under `key`, dropping the oldest quarter when `map` is full (insertion order). */
export function keep<K, V>(map: Map<K, V>, max: number, key: K, value: V): V {
  if (map.size >= max) {
    let drop = max >> 2;
    for (const k of map.keys()) {
      if (drop-- <= 0) break;
      map.delete(k);
    }
  }
  map.set(key, value);
  return value;
}

/** The path's ticks with each minute's tick prices and each hour's minute candles kept. */
export function cachedTicks(sim: MarketSimulation, lastTick?: () => number): PriceTicks {
  const base = pathTicks(sim.path, lastTick);
  const perCoin = new Map<CoinId, { hours: Map<number, CandleArrays>; minutes: Map<number, Float64Array>; hourTicks: Map<number, Float64Array> }>();
  const cacheOf = (coinId: CoinId) => {
    let c = perCoin.get(coinId);
    if (!c) {
      c = { hours: new Map(), minutes: new Map(), hourTicks: new Map() };
      perCoin.set(coinId, c);
    }
    return c;
  };
  /** A past hour's minute candles; its ticks are kept too, computed in the same pass (an exit scan that opens a minute reads them). */
  const hourOf = (coinId: CoinId, hour: number): CandleArrays => {
    const cache = cacheOf(coinId);
    const kept = cache.hours.get(hour);
    if (kept) return kept;
    const candles = candleArrays(60);
    const ticks = new Float64Array(TICKS_PER_HOUR);
    sim.path.hourWithTicks(coinId, hour, candles, ticks);
    if (!cache.hourTicks.has(hour)) keep(cache.hourTicks, MAX_HOUR_TICKS, hour, ticks);
    return keep(cache.hours, MAX_HOURS, hour, candles);
  };
  const fields = ['time', 'open', 'high', 'low', 'close', 'volume'] as const;
  // The past hour read last, of ticks and of minute candles: an exit scan reads a minute's ticks, or a
  // candle's minutes, from one hour in a row (a past hour's data never changes, so a kept one stays right).
  // These two are shortcuts in front of the tables below; their starting hours (-1: none yet) could be
  // any, since no coin matches the starting null.
  // Stryker disable UnaryOperator
  let tickHourCoin: CoinId | null = null;
  let tickHour = -1;
  let tickHourPrices: Float64Array | null = null;
  let minuteHourCoin: CoinId | null = null;
  let minuteHour = -1;
  let minuteHourCandles: CandleArrays | null = null;
  // Stryker restore UnaryOperator
  return {
    lastTick: base.lastTick,
    price(coinId, tick) {
      const hour = Math.floor(tick / TICKS_PER_HOUR);
      if (hour === tickHour && coinId === tickHourCoin) return tickHourPrices![tick - hour * TICKS_PER_HOUR]!;
      const cache = cacheOf(coinId);
      let inHour = cache.hourTicks.get(hour);
      if (!inHour && (hour + 1) * TICKS_PER_HOUR - 1 <= base.lastTick()) {
        // A past hour: its 720 ticks at once (a minute at a time, the exit scans of a walk-forward's sets
        // reached scattered minutes of a long period, and each rebuilt its day's clock).
        inHour = keep(cache.hourTicks, MAX_HOUR_TICKS, hour, sim.path.ticks(coinId, hour * TICKS_PER_HOUR, new Float64Array(TICKS_PER_HOUR)));
      }
      if (inHour) {
        tickHourCoin = coinId;
        tickHour = hour;
        tickHourPrices = inHour;
        return inHour[tick - hour * TICKS_PER_HOUR]!;
      }
      // An hour not over yet: its minutes' ticks are kept, but a tick after the source's last is refused
      // even when its minute is kept (the bound, asked of the source at every such read).
      base.price(coinId, tick);
      const minute = Math.floor(tick / TICKS_PER_MINUTE);
      const minutes = cache.minutes;
      let prices = minutes.get(minute);
      if (!prices) prices = keep(minutes, MAX_MINUTES, minute, sim.path.ticks(coinId, minute * TICKS_PER_MINUTE, new Float64Array(TICKS_PER_MINUTE)));
      return prices[tick - minute * TICKS_PER_MINUTE]!;
    },
    minuteCandles(coinId, from, count, out) {
      for (let i = 0; i < count; ) {
        const minute = from + i;
        const hour = Math.floor(minute / 60);
        const j = minute - hour * 60;
        const take = Math.min(60 - j, count - i);
        if ((hour + 1) * 60 * TICKS_PER_MINUTE - 1 <= base.lastTick()) {
          // Copied value by value: no view allocated per field and call (the exit scan asks an hour at a time).
          const h = hourOf(coinId, hour);
          for (let k = 0; k < take; k++) {
            out.time[i + k] = h.time[j + k]!;
            out.open[i + k] = h.open[j + k]!;
            out.high[i + k] = h.high[j + k]!;
            out.low[i + k] = h.low[j + k]!;
            out.close[i + k] = h.close[j + k]!;
            out.volume[i + k] = h.volume[j + k]!;
          }
        } else {
          // An hour not over yet (a bounded source): read only what has happened.
          const part = base.minuteCandles(coinId, minute, take, candleArrays(take));
          for (const f of fields) out[f].set(part[f], i);
        }
        i += take;
      }
      return out;
    },
    range: (coinId, from, to) => base.range(coinId, from, to),
    keptHour(coinId, hour) {
      if (hour === minuteHour && coinId === minuteHourCoin) return minuteHourCandles!;
      if ((hour + 1) * 60 * TICKS_PER_MINUTE - 1 > base.lastTick()) return undefined;
      minuteHourCandles = hourOf(coinId, hour);
      minuteHourCoin = coinId;
      minuteHour = hour;
      return minuteHourCandles;
    },
    minuteVolume(coinId, minute) {
      const hour = Math.floor(minute / 60);
      if ((hour + 1) * 60 * TICKS_PER_MINUTE - 1 > base.lastTick()) return base.minuteVolume(coinId, minute);
      return hourOf(coinId, hour).volume[minute - hour * 60]!;
    },
  };
}

/** Where a chart of `days` days ending at `endMs` lies: its candles' width and the indices (since the epoch) of its first candle and of the one after its last complete one. */
function chartSpan(days: number, endMs: number): { width: number; first: number; end: number } {
  const width = candleIntervalForDays(days).minutes * MINUTE_MS;
  const fromMs = endMs - Math.round(days * 1440) * MINUTE_MS + MINUTE_MS;
  const first = Math.floor((Math.max(fromMs, SIMULATION_EPOCH_MS) - SIMULATION_EPOCH_MS) / width);
  const end = Math.floor((endMs - SIMULATION_EPOCH_MS) / width); // after the last candle complete at endMs
  return { width, first, end };
}

/**
 * botMarketAt over `charts`, kept per coin and fill time (many parameter sets fill at the same closes).
 * A miss composes the market as botMarketAt does (botMarketOf over columnsAt of the day and month
 * charts) with each coin's month columns kept per chart: a month chart of 4-hour candles is the same
 * for every fill time of those four hours, so its columns are built once, not at each fill time and
 * for each of the ten coins (a spec checks the markets equal botMarketAt's).
 */
export function cachedMarketAt(charts: ChartAt): (coinId: CoinId, atMs: number) => BotMarket {
  const perCoin = new Map<CoinId, Map<number | string, BotMarket>>();
  // Per coin, by the month chart's first and end candle indexes.
  const months = new Map<CoinId, Map<number, CandleColumns>>();
  return (coinId, atMs) => {
    const markets = innerMap(perCoin, coinId);
    // A fill time is a tick's: kept by its tick index, a small integer, which a table hashes faster than a
    // time in ms (any other time by its text, which no index equals).
    // Stryker disable next-line ArithmeticOperator: equivalent, any key that tells the fill times apart keeps the same markets (these only choose a cheap one).
    const tickIndex = (atMs - SIMULATION_EPOCH_MS) / TICK_MS;
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: as above.
    const key = Number.isInteger(tickIndex) && tickIndex >= 0 ? tickIndex : String(atMs);
    const hit = markets.get(key);
    if (hit) return hit;
    const { first, end } = chartSpan(MONTH_DAYS, atMs);
    const month = (id: CoinId): CandleColumns => {
      const ofCoin = innerMap(months, id);
      // Stryker disable next-line ArithmeticOperator: equivalent, `first * 4_194_304 - end` and `first / 4_194_304 + end` still tell every (first, end) pair apart (end is below 4,194,304).
      const key = first * 4_194_304 + end;
      return ofCoin.get(key) ?? keep(ofCoin, MAX_MONTHS, key, columnsAt(charts(id, MONTH_DAYS, atMs), atMs));
    };
    return keep(markets, MAX_MARKETS, key, botMarketOf(coinId, columnsAt(charts(coinId, DAY_DAYS, atMs), atMs), month, true));
  };
}

/** Candles kept in blocks of this many consecutive indexes (one table lookup per block, not per candle). */
const CANDLE_BLOCK = 1024;

/**
 * sim.candle of `width` ms from `fromMs` when that span is whole minutes within one past hour whose
 * minute candles `ticks` keeps (a backtest's day chart: 5-minute candles), from those minutes: the
 * path's summary merges the same minute candles in the same order (open of the first, the highest
 * high, the lowest low, close of the last, volumes added first to last), so the numbers are the same.
 * Undefined for any other span. Without it the day chart built each hour's minutes a second time
 * (the path's own cache keeps the last 64 hours, the backtest's ticks a year): about 7 % of a walk-forward.
 */
function keptCandle(ticks: PriceTicks, coinId: CoinId, fromMs: number, width: number): Candle | undefined {
  if (width >= HOUR_MS || width % MINUTE_MS !== 0 || (fromMs - SIMULATION_EPOCH_MS) % MINUTE_MS !== 0 || fromMs < SIMULATION_EPOCH_MS) return undefined;
  const minute = (fromMs - SIMULATION_EPOCH_MS) / MINUTE_MS;
  const hour = Math.floor(minute / 60);
  const j = minute - hour * 60;
  const count = width / MINUTE_MS;
  if (j + count > 60) return undefined;
  // Stryker disable next-line OptionalChaining: the backtest's ticks (cachedTicks) always have keptHour.
  const kept = ticks.keptHour?.(coinId, hour);
  if (!kept) return undefined;
  let high = kept.high[j]!;
  let low = kept.low[j]!;
  let volume = kept.volume[j]!;
  for (let k = j + 1; k < j + count; k++) {
    high = Math.max(high, kept.high[k]!);
    low = Math.min(low, kept.low[k]!);
    volume = volume + kept.volume[k]!;
  }
  return { time: fromMs, open: kept.open[j]!, high, low, close: kept.close[j + count - 1]!, volume };
}

/**
 * Charts of the candles complete at their end (see the module comment), each candle kept, and the last
 * charts. With `ticks` (the backtest market's), a candle within a past hour is made from the minute
 * candles they keep (keptCandle), the same numbers.
 */
export function cachedCharts(sim: MarketSimulation, ticks?: PriceTicks, bounds: { candles: number; charts: number } = { candles: MAX_CANDLES, charts: MAX_CHARTS }): ChartAt {
  // Per coin and width: candles by their index since the epoch, in blocks.
  const byWidth = new Map<CoinId, Map<number, Map<number, Array<Candle | undefined>>>>();
  let kept = 0;
  // The last charts, per coin and days, by their first and end indexes (numbers: no key text to build per call).
  const recent = new Map<CoinId, Map<number, Map<number, CandleSeries>>>();
  let recentCount = 0;
  return (coinId: CoinId, days: number, endMs: number): CandleSeries => {
    const interval = candleIntervalForDays(days);
    const { width, first, end } = chartSpan(days, endMs);
    // Stryker disable next-line ArithmeticOperator: as the month key in cachedMarketAt.
    const chartKey = first * 4_194_304 + end;
    const hit = recent.get(coinId)?.get(days)?.get(chartKey);
    if (hit) return hit;
    if (kept >= bounds.candles) {
      byWidth.clear();
      kept = 0;
    }
    const blocks = innerMap(innerMap(byWidth, coinId), width);
    const out: Candle[] = [];
    let block: Array<Candle | undefined> | undefined;
    let blockNo = -1;
    for (let i = first; i < end; i++) {
      // The blocks are how candles are found again, not what they are: a block number of i * 1024 or
      // a new block without its size puts candles in blocks of their own or in one that grows, and each
      // is found where it was put (the reads spec counts the candles made).
      // Stryker disable ArithmeticOperator,ArrayDeclaration
      const b = Math.floor(i / CANDLE_BLOCK);
      if (b !== blockNo) {
        blockNo = b;
        block = blocks.get(b);
        if (!block) {
          block = new Array<Candle | undefined>(CANDLE_BLOCK).fill(undefined);
          // Stryker restore ArithmeticOperator,ArrayDeclaration
          blocks.set(b, block);
        }
      }
      let candle = block![i - b * CANDLE_BLOCK];
      if (!candle) {
        const t = SIMULATION_EPOCH_MS + i * width;
        candle = (ticks && keptCandle(ticks, coinId, t, width)) || sim.candle(coinId, t, t + width);
        block![i - b * CANDLE_BLOCK] = candle;
        kept++;
      }
      out.push(candle);
    }
    // The last charts, bounded: emptied when bounds.charts are kept (MAX_CHARTS by default).
    if (recentCount >= bounds.charts) {
      recent.clear();
      recentCount = 0;
    }
    const series: CandleSeries = { coinId, interval, candles: out };
    innerMap(innerMap(recent, coinId), days).set(chartKey, series);
    recentCount++;
    return series;
  };
}

/** A backtest's market over `sim`. */
export function simulationMarket(sim: MarketSimulation, signalIdOf?: BacktestMarket['signalIdOf'], signalEventIdOf?: BacktestMarket['signalEventIdOf']): BacktestMarket {
  const ticks = cachedTicks(sim);
  const charts = cachedCharts(sim, ticks);
  return { ticks, charts, marketAt: cachedMarketAt(charts), ...(signalIdOf ? { signalIdOf } : {}), ...(signalEventIdOf ? { signalEventIdOf } : {}) };
}


