/**
 * The dashboard's price chart panel for one coin (spec section 2): the day-range selector (1H 4H 1D
 * 7D 30D, 7D by default, kept in the chart slice), the candlesticks with sma20 / sma50 / ema20 and
 * their legend, support and resistance, the hover tooltip; a spinner while the first candles load,
 * 'Failed to fetch price data' when both the candle and the history call failed.
 *
 * `livePrice` is the coin's price as the dashboard last received it (a MARKET_UPDATE tick or the
 * price poll) and `livePriceAt` when it was observed (ms; the time it arrived when not given): the
 * newest candle follows it between two fetches (live-candle.ts).
 */
import { useMemo, useState } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Spinner } from '../../../components/ui/spinner';
import type { ChartData } from '../api/get-ohlc';
import { useOhlc } from '../api/get-ohlc';
import { supportAndResistance, type Candle } from '../chart-geometry';
import { formatPrice } from '../../../lib/number-format';
import { PRICE_DATA_FETCH_FAILED } from '../history-fallback';
import { liveCandlesReducer, type LiveCandles, type LiveTick } from '../live-candle';
import { rangeSelected, selectChartRange, type StateWithChart } from '../stores/chart-slice';
import { TIMEFRAMES, timeframeByLabel } from '../timeframes';
import { CandlestickChart, OVERLAY_STYLES } from './candlestick-chart';
import './price-chart.css';

export interface PriceChartPanelProps {
  coinId: string;
  livePrice?: number;
  livePriceAt?: number;
}

const NO_CANDLES: LiveCandles = { fetched: [], intervalMinutes: null, candles: [] };

/**
 * The fetched candles with the live ticks since the fetch folded in. Derived during render (React's
 * "adjust state when a prop changes"): a new answer starts over from it, a new tick folds in once.
 * The tick that was current when an answer arrived is not folded into it: the answer is newer.
 */
function useLiveCandles(data: ChartData | undefined, livePrice: number | undefined, livePriceAt: number | undefined): readonly Candle[] {
  const tick = useMemo<LiveTick | null>(
    () => (livePrice === undefined ? null : { price: livePrice, at: livePriceAt ?? Date.now() }),
    [livePrice, livePriceAt],
  );
  const [state, setState] = useState<{ data: ChartData | undefined; tick: LiveTick | null; live: LiveCandles }>(() => ({
    data,
    tick,
    live: fetched(data),
  }));
  let next = state;
  if (next.data !== data) next = { data, tick, live: fetched(data) };
  if (tick !== null && next.tick !== tick) next = { ...next, tick, live: liveCandlesReducer(next.live, { type: 'tick', tick }) };
  if (next !== state) setState(next);
  return next.live.candles;
}

function fetched(data: ChartData | undefined): LiveCandles {
  return data ? liveCandlesReducer(NO_CANDLES, { type: 'fetched', candles: data.candles, intervalMinutes: data.intervalMinutes }) : NO_CANDLES;
}

export function PriceChartPanel({ coinId, livePrice, livePriceAt }: PriceChartPanelProps) {
  const dispatch = useDispatch();
  const timeframe = timeframeByLabel(useSelector((state: StateWithChart) => selectChartRange(state)));
  const query = useOhlc(coinId, timeframe.days);
  const data = query.data;
  const candles = useLiveCandles(data, livePrice, livePriceAt);
  const levels = useMemo(() => supportAndResistanceOf(candles), [candles]);

  const loading = data === undefined ? query.isPending : query.isPlaceholderData;
  const failed = query.isError;
  const state = failed && data === undefined ? 'error' : loading ? 'loading' : candles.length === 0 ? 'empty' : 'ready';

  return (
    <section className="card price-chart" aria-labelledby="price-chart-title" data-testid="price-chart" data-state={state} data-days={timeframe.days} data-source={data?.source}>
      <header className="price-chart__header">
        <h2 id="price-chart-title">Price Chart</h2>
        <div className="price-chart__timeframes" role="group" aria-label="Chart range">
          {TIMEFRAMES.map((t) => (
            <button
              key={t.label}
              type="button"
              className={`btn btn--sm${t.label === timeframe.label ? ' btn--primary' : ' btn--ghost'}`}
              aria-pressed={t.label === timeframe.label}
              onClick={() => dispatch(rangeSelected(t.label))}
            >
              {t.label}
            </button>
          ))}
        </div>
      </header>

      <ul className="price-chart__legend" aria-label="Overlays">
        {OVERLAY_STYLES.map(({ key, label, colour }) => (
          <li key={key}>
            <span className="price-chart__swatch" style={{ background: colour }} aria-hidden="true" />
            {label}
          </li>
        ))}
        {levels && (
          <>
            <li data-testid="support-level">
              <span className="price-chart__swatch price-chart__swatch--support" aria-hidden="true" />
              Support {formatPrice(levels.support)}
            </li>
            <li data-testid="resistance-level">
              <span className="price-chart__swatch price-chart__swatch--resistance" aria-hidden="true" />
              Resistance {formatPrice(levels.resistance)}
            </li>
          </>
        )}
      </ul>

      <div className="price-chart__body">
        {state === 'error' ? (
          <p className="price-chart__message price-chart__message--error" role="alert" data-testid="price-chart-error">
            {PRICE_DATA_FETCH_FAILED}
          </p>
        ) : data === undefined ? (
          <div className="price-chart__message">
            <Spinner size={28} label="Loading price data" />
          </div>
        ) : candles.length === 0 ? (
          <p className="price-chart__message">No price data for this range.</p>
        ) : (
          <CandlestickChart candles={candles} days={data.days} />
        )}
        {loading && data !== undefined && (
          <div className="price-chart__refreshing">
            <Spinner size={18} label="Loading price data" />
          </div>
        )}
      </div>
      {failed && data !== undefined && (
        <p className="price-chart__stale" role="alert">
          {PRICE_DATA_FETCH_FAILED}: showing the last candles received.
        </p>
      )}
    </section>
  );
}

/** The legend's support and resistance prices, by the geometry's rule (the lines come from the geometry). */
function supportAndResistanceOf(candles: readonly Candle[]): { support: number; resistance: number } | null {
  if (candles.length === 0) return null;
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (const c of candles) {
    if (c.low < low) low = c.low;
    if (c.high > high) high = c.high;
  }
  const levels = supportAndResistance(low, high, (price) => price);
  return { support: levels.support.price, resistance: levels.resistance.price };
}
