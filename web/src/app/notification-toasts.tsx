/**
 * The shell's notification toasts (issue 21): polls what the person's notification switches cover
 * (their trades, the drawdown pause, risk alerts and mirrored orders, each only while its switch is on
 * and the person may read it) and toasts what appeared since the app loaded (notification-rules.ts).
 * Mounted once by the shell, beside the real-time provider, for signed-in users; renders nothing.
 */
import { useEffect, useRef } from 'react';
import { isPremium } from '@papertrade/domain/auth/contracts';
import { DEFAULT_NOTIFICATIONS } from '@papertrade/domain/settings/contracts';
import { useQuery } from '@tanstack/react-query';
import { useToast } from '../components/ui/toast/use-toast';
import { mirrorOrdersQueryOptions } from '../features/exchanges/api/get-mirror-orders';
import { tradesQueryOptions } from '../features/paper-trading/api/get-trades';
import { riskAlertsQueryOptions } from '../features/risk/api/get-risk-alerts';
import { useRisk } from '../features/risk/api/get-risk';
import { useAccountSettings } from '../features/settings/api/get-account-settings';
import { useAuth } from '../lib/auth/auth-context';
import { allowed, botTradeToast, freshItems, isBotTrade, mirrorKey, mirrorToast, pauseToast, riskAlertToast } from './notification-rules';

/** The shell's own pace; a screen polling the same read faster (the dashboard's trades, 10 s) sets the pace while it is open. */
const NOTIFICATION_POLL_MS = 15_000;

export function NotificationToasts() {
  const { user } = useAuth();
  const toast = useToast();
  const signedIn = user !== null;
  const premium = signedIn && isPremium(user);
  const settings = useAccountSettings({ enabled: signedIn });
  const risk = useRisk({ enabled: signedIn });
  const preferences = settings.data?.notifications ?? DEFAULT_NOTIFICATIONS;
  const master = risk.data?.settings.enableNotifications ?? true;
  const on = (kind: Parameters<typeof allowed>[0]) => signedIn && settings.data !== undefined && allowed(kind, preferences, master);

  // Only premium users have a bot; the shell asks nothing for the others.
  const trades = useQuery({ ...tradesQueryOptions(), refetchInterval: NOTIFICATION_POLL_MS, enabled: premium && on('botTrades') });
  const alerts = useQuery({ ...riskAlertsQueryOptions(NOTIFICATION_POLL_MS), enabled: premium && on('riskAlerts') });
  const mirrors = useQuery({ ...mirrorOrdersQueryOptions(), enabled: premium && on('mirrorFills') });

  const seen = useRef<{ trades: Set<string> | null; alerts: Set<string> | null; mirrors: Set<string> | null; paused: boolean | null; user: string | null }>({ trades: null, alerts: null, mirrors: null, paused: null, user: null });
  // Effects read the switches as they are now (`on`), so only the data they follow are their dependencies.
  // Another account signed in: its history is a new baseline.
  if (seen.current.user !== (user?.id ?? null)) seen.current = { trades: null, alerts: null, mirrors: null, paused: null, user: user?.id ?? null };

  useEffect(() => {
    if (!trades.data || trades.data.demo) return;
    const { seen: next, fresh } = freshItems(seen.current.trades, trades.data.trades, (t) => t.id);
    seen.current.trades = next;
    if (on('botTrades')) for (const t of fresh.filter(isBotTrade)) toast(botTradeToast(t));
  }, [trades.data]);

  useEffect(() => {
    if (!alerts.data) return;
    const { seen: next, fresh } = freshItems(seen.current.alerts, alerts.data.alerts, (a) => a.id);
    seen.current.alerts = next;
    if (on('riskAlerts')) for (const a of fresh.filter((x) => !x.acknowledged && !x.resolved)) toast(riskAlertToast(a));
  }, [alerts.data]);

  useEffect(() => {
    if (!mirrors.data) return;
    const { seen: next, fresh } = freshItems(seen.current.mirrors, mirrors.data.orders, mirrorKey);
    seen.current.mirrors = next;
    if (on('mirrorFills')) for (const o of fresh) {
      const t = mirrorToast(o);
      if (t) toast(t);
    }
  }, [mirrors.data]);

  useEffect(() => {
    if (!risk.data) return;
    const now = risk.data.drawdown.entriesPaused;
    const t = pauseToast(seen.current.paused, now, risk.data.drawdown.reason);
    seen.current.paused = now;
    if (t && on('botStatus')) toast(t);
  }, [risk.data]);

  return null;
}
