/**
 * The market a backtest reads, from a market simulation (the same path the live feed serves), with
 * the caches a replay of a long period wants: the paper engine asks, at every signal, every coin's
 * quote (its tick and the last minute's volume) and, for a BUY, the charts of a day and a month that
 * end then (market-at.ts); consecutive signals ask for nearly the same. Nothing here changes a number:
 * - a tick's price is the path's (a minute's twelve kept per coin and minute);
 * - a minute's volume is the path's minute candle's (read an hour at a time and kept per coin and hour);
 * - a chart is the candles that are complete at its end (the entry rules read only those: columnsAt
 *   drops the forming one), kept per coin, range and first and last candle, so the month's 4-hour
 *   candles are built once per 4 hours, not once per signal.
 * The caches are bounded (they are dropped whole when full).
 */
import { candleIntervalForDays } from '../market/candle-interval';
import type { CoinId } from '../market/coins';
import { candleArrays, MINUTE_MS, SIMULATION_EPOCH_MS, TICK_MS, TICKS_PER_MINUTE, type CandleArrays } from '../market/market-path';
import type { CandleSeries, MarketSimulation } from '../market/simulation';
import type { ChartAt } from '../trading/engine/market-at';
import { pathTicks, type PriceTicks } from '../trading/engine/price-ticks';
import type { BacktestMarket } from './run-backtest';

const MAX_HOURS = 8_000;
const MAX_CHARTS = 4_000;
const MAX_MINUTES = 200_000;

/** The path's ticks with each minute's tick prices and each hour's minute candles kept. */
export function cachedTicks(sim: MarketSimulation, lastTick?: () => number): PriceTicks {
  const base = pathTicks(sim.path, lastTick);
  const hours = new Map<string, CandleArrays>();
  const minutes = new Map<string, Float64Array>();
  const hourOf = (coinId: CoinId, hour: number): CandleArrays => {
    const key = `${coinId}:${hour}`;
    let candles = hours.get(key);
    if (!candles) {
      candles = base.minuteCandles(coinId, hour * 60, 60, candleArrays(60));
      if (hours.size >= MAX_HOURS) hours.clear();
      hours.set(key, candles);
    }
    return candles;
  };
  const fields = ['time', 'open', 'high', 'low', 'close', 'volume'] as const;
  return {
    lastTick: base.lastTick,
    price(coinId, tick) {
      const minute = Math.floor(tick / TICKS_PER_MINUTE);
      const key = `${coinId}:${minute}`;
      let prices = minutes.get(key);
      if (!prices) {
        base.price(coinId, tick); // the bound
        prices = sim.path.ticks(coinId, minute * TICKS_PER_MINUTE, new Float64Array(TICKS_PER_MINUTE));
        if (minutes.size >= MAX_MINUTES) minutes.clear();
        minutes.set(key, prices);
      }
      return prices[tick - minute * TICKS_PER_MINUTE]!;
    },
    minuteCandles(coinId, from, count, out) {
      base.lastTick();
      for (let i = 0; i < count; ) {
        const minute = from + i;
        const hour = Math.floor(minute / 60);
        const j = minute - hour * 60;
        const take = Math.min(60 - j, count - i);
        if (take === 60 || hours.has(`${coinId}:${hour}`) || (hour + 1) * 60 * TICKS_PER_MINUTE - 1 <= base.lastTick()) {
          const h = hourOf(coinId, hour);
          for (const f of fields) out[f].set(h[f].subarray(j, j + take), i);
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
    minuteVolume(coinId, minute) {
      const hour = Math.floor(minute / 60);
      if ((hour + 1) * 60 * TICKS_PER_MINUTE - 1 > base.lastTick()) return base.minuteVolume(coinId, minute);
      return hourOf(coinId, hour).volume[minute - hour * 60]!;
    },
  };
}

/** Charts of the candles complete at their end (see the module comment), kept. */
export function cachedCharts(sim: MarketSimulation): ChartAt {
  const charts = new Map<string, CandleSeries>();
  return (coinId: CoinId, days: number, endMs: number): CandleSeries => {
    const interval = candleIntervalForDays(days);
    const width = interval.minutes * MINUTE_MS;
    const fromMs = endMs - Math.round(days * 1440) * MINUTE_MS + MINUTE_MS;
    const first = SIMULATION_EPOCH_MS + Math.floor((Math.max(fromMs, SIMULATION_EPOCH_MS) - SIMULATION_EPOCH_MS) / width) * width;
    const end = SIMULATION_EPOCH_MS + Math.floor((endMs - SIMULATION_EPOCH_MS) / width) * width; // the end of the last candle complete at endMs
    const key = `${coinId}:${days}:${first}:${end}`;
    let series = charts.get(key);
    if (!series) {
      series = { coinId, interval, candles: end > first ? sim.candles(coinId, first, end - TICK_MS, interval.minutes) : [] };
      if (charts.size >= MAX_CHARTS) charts.clear();
      charts.set(key, series);
    }
    return series;
  };
}

/** A backtest's market over `sim`. */
export function simulationMarket(sim: MarketSimulation, signalIdOf?: BacktestMarket['signalIdOf']): BacktestMarket {
  return { ticks: cachedTicks(sim), charts: cachedCharts(sim), ...(signalIdOf ? { signalIdOf } : {}) };
}


