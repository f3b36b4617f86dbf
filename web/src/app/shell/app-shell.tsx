import { Suspense, useState } from 'react';
import { Outlet } from 'react-router-dom';
import { BrandMark } from '../../components/ui/brand-mark';
import { Icon } from '../../components/ui/icon';
import { ContentSpinner } from '../../components/ui/spinner';
import { coinPricesQueryOptions } from '../../features/market/api/get-coin-prices';
import { COIN_PRICE_QUERY_ROOT } from '../../features/market/api/get-coin-price';
import { COIN_SUMMARY_QUERY_ROOT } from '../../features/market/api/get-coin-summary';
import { PRICE_QUERY_ROOT } from '../../features/market/api/get-price';
import { INDICATORS_QUERY_ROOT } from '../../features/indicators-panel/api/get-indicators';
import { ML_STATUS_SHELL_REFETCH_MS, mlStatusQueryOptions, useMlStatus } from '../../features/ml-status/api/get-ml-status';
import { portfolioQueryOptions } from '../../features/portfolio/api/get-portfolio';
import { SIGNALS_QUERY_ROOT } from '../../features/signals/api/get-signals';
import { RealtimeProvider, type RealtimeInvalidation } from '../../lib/realtime/realtime-provider';
import { Sidebar } from './sidebar';
import './app-shell.css';

/**
 * What a real-time message makes stale (spec section 4): MARKET_UPDATE the portfolio, prices,
 * signals and indicators (not the chart's candles, which follow the ticks themselves); ML_UPDATE the
 * model status. Keys are the features' own query-key prefixes.
 */
const realtimeInvalidation: RealtimeInvalidation = {
  market: [
    portfolioQueryOptions().queryKey,
    PRICE_QUERY_ROOT,
    COIN_PRICE_QUERY_ROOT,
    coinPricesQueryOptions().queryKey,
    COIN_SUMMARY_QUERY_ROOT,
    SIGNALS_QUERY_ROOT,
    INDICATORS_QUERY_ROOT,
  ],
  ml: [mlStatusQueryOptions().queryKey],
};

/** The navigation shell: sidebar plus the current screen, and the app's one real-time connection. */
export default function AppShell() {
  const [sidebarOpen, setSidebarOpen] = useState(false);
  // Keeps the model status warm for the screens that show it; a failure stays silent.
  useMlStatus({ refetchInterval: ML_STATUS_SHELL_REFETCH_MS });

  return (
    <RealtimeProvider invalidation={realtimeInvalidation}>
    <div className="app-shell">
      <header className="app-shell__topbar">
        <button
          type="button"
          className="btn btn--ghost btn--sm"
          aria-label={sidebarOpen ? 'Close navigation' : 'Open navigation'}
          aria-expanded={sidebarOpen}
          aria-controls="app-sidebar"
          onClick={() => setSidebarOpen((open) => !open)}
        >
          <Icon name={sidebarOpen ? 'close' : 'menu'} size={20} />
        </button>
        <BrandMark size={26} />
        <span className="app-shell__topbar-title">AI Trading Assistant</span>
      </header>
      <Sidebar open={sidebarOpen} onNavigate={() => setSidebarOpen(false)} />
      {sidebarOpen && <div className="app-shell__scrim" onClick={() => setSidebarOpen(false)} aria-hidden="true" />}
      <main className="app-shell__main">
        <Suspense fallback={<ContentSpinner />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
    </RealtimeProvider>
  );
}
