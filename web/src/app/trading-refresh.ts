import type { QueryKey } from '@tanstack/react-query';
import { mlStatusQueryOptions } from '../features/ml-status/api/get-ml-status';
import { TRADES_QUERY_ROOT } from '../features/paper-trading/api/get-trades';
import { portfolioQueryOptions } from '../features/portfolio/api/get-portfolio';
import { SIGNALS_QUERY_ROOT } from '../features/signals/api/get-signals';

/**
 * What the paper-trading commands make stale, as the features' own query-key prefixes (features do
 * not import each other, so the app composes them): a manual trade changes the portfolio and the
 * trades; a bot reset also the signals and ml-status (spec section 4).
 */
export const afterTradeInvalidates: readonly QueryKey[] = [portfolioQueryOptions().queryKey, TRADES_QUERY_ROOT];
export const afterResetInvalidates: readonly QueryKey[] = [...afterTradeInvalidates, SIGNALS_QUERY_ROOT, mlStatusQueryOptions().queryKey];
