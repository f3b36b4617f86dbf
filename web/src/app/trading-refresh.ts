import type { QueryKey } from '@tanstack/react-query';
import { mlStatusQueryOptions } from '../features/ml-status/api/get-ml-status';
import { TRADES_QUERY_ROOT } from '../features/paper-trading/api/get-trades';
import { portfolioQueryOptions } from '../features/portfolio/api/get-portfolio';
import { activeTradesQueryOptions } from '../features/risk/api/get-active-trades';
import { riskQueryOptions } from '../features/risk/api/get-risk';
import { SIGNALS_QUERY_ROOT } from '../features/signals/api/get-signals';

/**
 * What the paper-trading commands make stale, as the features' own query-key prefixes (features do
 * not import each other, so the app composes them): a manual trade changes the portfolio, the trades
 * and what the risk cards show of them (GET /api/risk: the daily loss and the portfolio risk; the
 * open positions' stops); a bot reset also puts the bot settings back to their defaults (GET
 * /api/risk again), and refreshes the signals and ml-status (spec section 4). The risk reads poll
 * only every 60 s (section 7), so without this the cards contradicted the trade or the reset just made.
 */
export const afterTradeInvalidates: readonly QueryKey[] = [
  portfolioQueryOptions().queryKey,
  TRADES_QUERY_ROOT,
  riskQueryOptions().queryKey,
  activeTradesQueryOptions().queryKey,
];
export const afterResetInvalidates: readonly QueryKey[] = [...afterTradeInvalidates, SIGNALS_QUERY_ROOT, mlStatusQueryOptions().queryKey];
