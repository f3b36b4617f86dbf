/**
 * The candles a model learns from: the signal engine's 5-minute candles of MODEL_SYMBOL over the
 * training days ending at the run's `asOf` (a candle boundary, at or before the request). Only
 * complete candles, none at or after `asOf`: a rerun of the same job (a takeover) or a retrain on the
 * same `asOf` reads exactly the same candles, and nothing after the data's end can reach the run.
 *
 * They come from the simulated market's path (the MarketData port's chart ranges are the chart's
 * ladder: a 30-day chart is 2-hour candles). CoinGecko's public API has no 5-minute history beyond a
 * day, so with MARKET_DATA=coingecko a training run fails with that reason instead of learning from
 * coarser candles than the signals it would serve.
 */
import { findCoinBySymbol, type Candle, type CoinId } from '@papertrade/domain/market/coins';
import { SIGNAL_CANDLE_MINUTES } from '@papertrade/domain/signals/contracts';
import type { CandleColumnsInput } from '@papertrade/domain/ml/features';
import { MODEL_SYMBOL } from '@papertrade/domain/ml/model';
import type { MarketData } from '@papertrade/platform/market/market-data';

export interface IntervalCandleSource {
  /** MarketSimulation.candles: candles of `intervalMinutes` from the one containing fromMs to the one containing toMs. */
  candles(coinId: CoinId, fromMs: number, toMs: number, intervalMinutes: number): Candle[];
}

const CANDLE_MS = SIGNAL_CANDLE_MINUTES * 60_000;
const DAY_MS = 86_400_000;

export { trainingAsOf } from '@papertrade/domain/ml/model';

export function intervalSourceOf(marketData: MarketData): IntervalCandleSource {
  const simulation = (marketData as { simulation?: IntervalCandleSource }).simulation;
  if (marketData.source !== 'simulated' || !simulation) {
    return {
      candles() {
        throw new Error('Model training needs 5-minute candles over the training days, which only the simulated market serves (the CoinGecko adapter has 5-minute history for a day at most)');
      },
    };
  }
  return simulation;
}

export function trainingCandles(source: IntervalCandleSource, asOfMs: number, days: number): CandleColumnsInput {
  if (asOfMs % CANDLE_MS !== 0) throw new RangeError(`asOf must be on a ${SIGNAL_CANDLE_MINUTES}-minute boundary`);
  const coin = findCoinBySymbol(MODEL_SYMBOL)!;
  const candles = source.candles(coin.id, asOfMs - days * DAY_MS, asOfMs - 1, SIGNAL_CANDLE_MINUTES).filter((c) => c.time + CANDLE_MS <= asOfMs);
  const n = candles.length;
  const columns = { time: new Float64Array(n), high: new Float64Array(n), low: new Float64Array(n), close: new Float64Array(n), volume: new Float64Array(n) };
  candles.forEach((c, i) => {
    columns.time[i] = c.time;
    columns.high[i] = c.high;
    columns.low[i] = c.low;
    columns.close[i] = c.close;
    columns.volume[i] = c.volume;
  });
  return columns;
}
