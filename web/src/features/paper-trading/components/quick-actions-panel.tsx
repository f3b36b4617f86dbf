/**
 * Quick Actions (spec sections 4, 5, 6 and 8): the bot controls and Export Data.
 * - The button reads Pause Bot while the feed's BOT_STATUS is ACTIVE, else Start Trading Bot; a
 *   call only shows its pending label (Starting..., Stopping..., Resetting...) and its toast: whether
 *   the bot runs afterwards is the feed's word, never the call's answer.
 * - Visitors get Login Required and free users Premium Required before any call.
 * - Export Data needs the trades, signals and portfolio loaded; its code (and papaparse) is
 *   imported on click.
 * - `statusNote`: shown under the bot status (the route passes the risk feature's note: why the bot
 *   opens no new position, e.g. the drawdown pause of issue 17).
 */
import type { ReactNode } from 'react';
import type { QueryKey } from '@tanstack/react-query';
import { isPremium } from '@papertrade/domain/auth/contracts';
import { Panel } from '../../../components/ui/panel';
import { useToast } from '../../../components/ui/toast/use-toast';
import { useAuth } from '../../../lib/auth/auth-context';
import { useBotStatus } from '../../../lib/realtime/realtime-hooks';
import { useTrades } from '../api/get-trades';
import { useResetBot } from '../api/reset-bot';
import { useStartBot } from '../api/start-bot';
import { useStopBot } from '../api/stop-bot';
import { botFailureToast, botGateToast, botSuccessToast, type BotAction, type Viewer } from '../bot-toasts';
import { exportFailureToast, EXPORT_COMPLETE, NO_EXPORT_DATA } from '../export-toasts';
import './paper-trading.css';

export function QuickActionsPanel({ resetInvalidates, exportReady, statusNote, children }: {
  /** What a reset makes stale: portfolio, trades, signals, ml-status (spec section 4). */
  resetInvalidates: readonly QueryKey[];
  /** Whether the other data the export needs (signals, portfolio) has loaded. */
  exportReady: boolean;
  /** Under the bot status: why the bot takes no new entries, when it does not. */
  statusNote?: ReactNode;
  /** More actions below the controls (the manual trade form). */
  children?: ReactNode;
}) {
  const { user } = useAuth();
  const viewer: Viewer = user === null ? 'visitor' : isPremium(user) ? 'premium' : 'free';
  const botStatus = useBotStatus();
  const active = botStatus === 'ACTIVE';
  const toast = useToast();
  const trades = useTrades();
  const start = useStartBot();
  const stop = useStopBot();
  const reset = useResetBot({ invalidates: resetInvalidates });
  const busy = start.isPending || stop.isPending || reset.isPending;

  async function run(action: BotAction, call: () => Promise<unknown>) {
    const blocked = botGateToast(action, viewer);
    if (blocked) {
      toast(blocked);
      return;
    }
    try {
      await call();
      toast(botSuccessToast(action));
    } catch (error) {
      toast(botFailureToast(action, error));
    }
  }

  async function exportData() {
    if (!trades.data || !exportReady) {
      toast(NO_EXPORT_DATA);
      return;
    }
    try {
      const { downloadTradesCsv } = await import('../export-trades');
      await downloadTradesCsv();
      toast(EXPORT_COMPLETE);
    } catch (error) {
      toast(exportFailureToast(error));
    }
  }

  const toggleLabel = start.isPending ? 'Starting...' : stop.isPending ? 'Stopping...' : active ? 'Pause Bot' : 'Start Trading Bot';

  return (
    <Panel title="Quick Actions" testId="quick-actions-panel">
      <div className="quick-actions">
        <p className="kv-line">
          Bot status{' '}
          <span className={`badge${active ? ' badge--up' : ''}`} data-testid="bot-status">
            {botStatus}
          </span>
        </p>
        {statusNote}
        <div className="button-row">
          <button
            type="button"
            className="btn btn--primary btn--sm"
            data-testid="bot-toggle"
            disabled={busy}
            onClick={() => void (active ? run('stop', () => stop.mutateAsync()) : run('start', () => start.mutateAsync()))}
          >
            {toggleLabel}
          </button>
          <button type="button" className="btn btn--sm" data-testid="bot-reset" disabled={busy} onClick={() => void run('reset', () => reset.mutateAsync())}>
            {reset.isPending ? 'Resetting...' : 'Reset Bot'}
          </button>
          <button type="button" className="btn btn--sm" data-testid="export-data" onClick={() => void exportData()}>
            Export Data
          </button>
        </div>
        {children}
      </div>
    </Panel>
  );
}
