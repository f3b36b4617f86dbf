import { BACKTEST_HISTORY_PATH } from '../features/backtesting/api/get-backtest-history';
import { BACKTEST_PATH } from '../features/backtesting/api/get-backtest';
import { coinPricesQueryOptions } from '../features/market/api/get-coin-prices';
import { COIN_SUMMARY_QUERY_ROOT } from '../features/market/api/get-coin-summary';
import { PRICE_QUERY_ROOT } from '../features/market/api/get-price';
import { INDICATORS_QUERY_ROOT } from '../features/indicators-panel/api/get-indicators';
import { mlStatusQueryOptions } from '../features/ml-status/api/get-ml-status';
import { TRADES_QUERY_ROOT } from '../features/paper-trading/api/get-trades';
import { portfolioQueryOptions } from '../features/portfolio/api/get-portfolio';
import { SIGNALS_QUERY_ROOT } from '../features/signals/api/get-signals';
import type { RealtimeInvalidation } from '../lib/realtime/realtime-provider';

/**
 * What a real-time message makes stale (spec section 4): MARKET_UPDATE the portfolio, prices,
 * signals and indicators (not the chart's candles, which follow the ticks themselves), and the
 * trades, whose open positions' P&L moves with the price; ML_UPDATE the model status; BACKTEST_UPDATE
 * a run's result, its pages and comparison, and the history. Keys are the
 * features' own query-key prefixes.
 */
export const realtimeInvalidation: RealtimeInvalidation = {
  market: [
    portfolioQueryOptions().queryKey,
    TRADES_QUERY_ROOT,
    PRICE_QUERY_ROOT,
    coinPricesQueryOptions().queryKey,
    COIN_SUMMARY_QUERY_ROOT,
    SIGNALS_QUERY_ROOT,
    INDICATORS_QUERY_ROOT,
  ],
  ml: [mlStatusQueryOptions().queryKey],
  backtest: [[BACKTEST_PATH], [BACKTEST_HISTORY_PATH]],
};
