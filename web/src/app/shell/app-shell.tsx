import { Suspense, useState } from 'react';
import { Outlet } from 'react-router-dom';
import { BrandMark } from '../../components/ui/brand-mark';
import { Icon } from '../../components/ui/icon';
import { ContentSpinner } from '../../components/ui/spinner';
import { ML_STATUS_SHELL_REFETCH_MS, useMlStatus } from '../../features/ml-status/api/get-ml-status';
import { RealtimeProvider } from '../../lib/realtime/realtime-provider';
import { NotificationToasts } from '../notification-toasts';
import { realtimeInvalidation } from '../realtime-invalidation';
import { Sidebar } from './sidebar';
import './app-shell.css';

/** The navigation shell: sidebar plus the current screen, and the app's one real-time connection. */
export default function AppShell() {
  return (
    <RealtimeProvider invalidation={realtimeInvalidation}>
      {/* The toasts the Notifications settings decide (issue 21); outside ShellFrame, whose polls the screen specs read. */}
      <NotificationToasts />
      <ShellFrame />
    </RealtimeProvider>
  );
}

/**
 * What the shell shows and polls around the current screen, inside the connection's provider (apart
 * from it so a spec can render a screen in its frame without a socket: the polling specs).
 */
export function ShellFrame() {
  const [sidebarOpen, setSidebarOpen] = useState(false);
  // Keeps the model status warm for the screens that show it; a failure stays silent.
  useMlStatus({ refetchInterval: ML_STATUS_SHELL_REFETCH_MS });

  return (
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
  );
}
